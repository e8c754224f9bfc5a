"""The rules of Tute: pure, synchronous and deterministic (RULES.md, REFEREE.md).

Nothing here imports discord or aiosqlite; randomness comes in as a ``random.Random`` or a
committed shuffle (``bot.engine.shuffle``), never from the global ``random``.
"""

from .actions import Action, IllegalActionError, Kind, action_from_json
from .cards import CODES, SUIT_NAMES, SUITS, parse_card, parse_suit
from .deal import Deal
from .dealing import DealtCards, shuffle_deal
from .events import Cante, Contract, End, Exchange, Phase, Result, Trick
from .game import BetSplit, Game, Payout, arrastrado_payout, experience, split_bet
from .options import (
    DealScore,
    ExchangeWindow,
    FortyFirst,
    NextDealer,
    OptionError,
    Options,
    PairsSing,
    Preset,
    Scoring,
    SingUntil,
    StockDuty,
    Variant,
    parse_options,
)
from .record import Record, RecordError, parse_record, record_of, replay
from .view import SeatView, seat_view

__all__ = [
    "CODES",
    "SUITS",
    "SUIT_NAMES",
    "Action",
    "BetSplit",
    "Cante",
    "Contract",
    "Deal",
    "DealScore",
    "DealtCards",
    "End",
    "Exchange",
    "ExchangeWindow",
    "FortyFirst",
    "Game",
    "IllegalActionError",
    "Kind",
    "NextDealer",
    "OptionError",
    "Options",
    "PairsSing",
    "Payout",
    "Phase",
    "Preset",
    "Record",
    "RecordError",
    "Result",
    "Scoring",
    "SeatView",
    "SingUntil",
    "StockDuty",
    "Trick",
    "Variant",
    "action_from_json",
    "arrastrado_payout",
    "experience",
    "parse_card",
    "parse_options",
    "parse_record",
    "parse_suit",
    "record_of",
    "replay",
    "seat_view",
    "shuffle_deal",
    "split_bet",
]
