"""The words of a hand: a card's name, a suit, and what a declaration's button says."""

from __future__ import annotations

from typing import Final

from bot.engine import CODES, SUITS, Action, Kind
from bot.engine.cards import RANK_OF
from bot.i18n import t
from bot.render.symbols import SUIT_SYMBOLS, card_label
from bot.tables.views import HandView

ASKED: Final = frozenset({Kind.CAPOTE, Kind.RESIGN})
"""The declarations that bind the deal: the chat and the page ask Yes or No before them."""


def rank_name(rank: int, lang: str) -> str:
    """A rank in words: "King", "Rey", "7"."""
    return t(f"cards.rank.{rank}", lang)


def card_name(card: int, lang: str, *, the: bool = False) -> str:
    """A card in words: "King of coins", "Rey de oros"; ``the``: with its article, for a
    sentence ("the King of coins", "la Sota de oros")."""
    rank, suit = RANK_OF[card], SUITS[card // 10]
    name = t("cards.name", lang, rank=rank_name(rank, lang), suit=t(f"cards.suit.{suit}", lang))
    if not the:
        return name
    return t("cards.the.10" if rank == 10 else "cards.the", lang, name=name)


def suit_text(suit: int, lang: str, *, symbol: bool = True) -> str:
    """A suit with its symbol: "🪙 oros"; without (``symbol`` False): "oros", for a page
    that draws its suits itself."""
    name = t(f"suits.{SUITS[suit]}", lang)
    return f"{SUIT_SYMBOLS[SUITS[suit]]} {name}" if symbol else name


def action_label(
    action: Action,
    lang: str,
    *,
    trump: int,
    target: int,
    exchange_card: int,
    exchange_gives: int,
    symbol: bool = True,
) -> str:
    """What a hand's button for ``action`` says: "Sing 40 in 🪙 coins", "Bid 110", "Swap
    your 7 of coins for the Ace of coins", "Claim 101", "Capote"...; a card, its short
    label (``12🪙``). ``symbol`` False: suits in words alone ("Sing 40 in coins")."""
    kind = action.kind
    if kind is Kind.PLAY:
        return card_label(CODES[action.arg])
    if kind is Kind.SING:
        points = 40 if action.arg == trump else 20
        return t("hand.sing", lang, points=points, suit=suit_text(action.arg, lang, symbol=symbol))
    if kind is Kind.BID:
        return t("hand.bid", lang, points=action.arg)
    if kind is Kind.EXCHANGE:
        mine = card_name(exchange_gives, lang) if exchange_gives >= 0 else ""
        return t("hand.exchange", lang, mine=mine, card=card_name(exchange_card, lang, the=True))
    if kind is Kind.CLAIM:
        return t("hand.claim", lang, target=target)
    return t(f"hand.{kind.name.lower()}", lang)


def hand_label(action: Action, hand: HandView, lang: str, *, symbol: bool = True) -> str:
    """What ``hand``'s button for ``action`` says (:func:`action_label`, with the trumps,
    the target and the exchange of that hand)."""
    return action_label(
        action,
        lang,
        trump=hand.trump,
        target=hand.target,
        exchange_card=hand.exchange_card,
        exchange_gives=hand.exchange_gives,
        symbol=symbol,
    )
