"""Game records (REFEREE.md): one deal and its actions as JSON, written and read back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from .actions import Action, ActionFormatError, IllegalActionError, action_from_json
from .cards import CODES, CardError, parse_card
from .deal import Deal
from .dealing import DealError, DealtCards, check_deal
from .options import OptionError, Variant, parse_options


class RecordError(ValueError):
    """Input that is not a valid game record; the message names the problem."""


@dataclass(frozen=True, slots=True)
class Record:
    dealt: DealtCards
    actions: tuple[Action, ...]


def record_of(deal: Deal) -> dict[str, Any]:
    """The game record of a deal as played so far."""
    dealt = deal.dealt
    data: dict[str, Any] = {"variant": dealt.variant.value}
    options = dealt.options.to_dict(variant=dealt.variant)
    if options:
        data["options"] = options
    data["dealer"] = dealt.dealer
    data["hands"] = [[CODES[c] for c in hand] for hand in dealt.hands]
    data["turned"] = CODES[dealt.turned]
    if dealt.variant.has_stock:
        data["stock"] = [CODES[c] for c in dealt.stock]
    if dealt.carry is not None:
        data["carry"] = list(dealt.carry)
    data["actions"] = [a.to_json() for a in deal.actions]
    return data


def parse_record(data: Any) -> Record:
    """Read a record; anything that is not of the format raises RecordError."""
    dealt = read_dealt(data)
    try:
        check_deal(dealt)
    except DealError as exc:
        raise RecordError(str(exc)) from None
    data = cast(dict[str, Any], data)
    actions_raw = data.get("actions", [])
    if not isinstance(actions_raw, list):
        raise RecordError("actions must be a list")
    try:
        actions = tuple(action_from_json(a) for a in actions_raw)  # pyright: ignore[reportUnknownVariableType]
    except ActionFormatError as exc:
        raise RecordError(str(exc)) from None
    seats = dealt.options.seats_at(dealt.variant)
    for action in actions:
        if action.seat >= seats:
            raise RecordError(f"there is no seat {action.seat} at a {dealt.variant.value} table")
    read_shuffle(data)  # checked here; ``tute-referee verify`` reads it (bot.engine.fairness)
    return Record(dealt, actions)


def read_shuffle(data: dict[str, Any]) -> dict[str, Any] | None:
    """The record's ``shuffle``, an object (its fields are checked by ``verify``)."""
    shuffle = data.get("shuffle")
    if shuffle is None:
        return None
    if not isinstance(shuffle, dict):
        raise RecordError("shuffle must be a JSON object")
    return cast(dict[str, Any], shuffle)


def read_dealt(data: Any) -> DealtCards:
    """The cards of a record as written, not yet checked to be a deal (``verify`` compares
    them with the shuffle's even when a card is wrong)."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    data = cast(dict[str, Any], data)
    known = {
        "variant",
        "options",
        "dealer",
        "hands",
        "turned",
        "stock",
        "carry",
        "actions",
        "shuffle",
    }
    unknown = sorted(set(data) - known)  # pyright: ignore[reportUnknownArgumentType]
    if unknown:
        raise RecordError(f"unknown field {unknown[0]!r}")
    try:
        variant = Variant(data.get("variant"))
    except ValueError:
        raise RecordError("variant must be one of " + ", ".join(v.value for v in Variant)) from None
    try:
        options = parse_options(variant, data.get("options"))  # pyright: ignore[reportUnknownArgumentType]
    except OptionError as exc:
        raise RecordError(str(exc)) from None
    dealer = data.get("dealer")
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise RecordError("dealer must be a seat number")
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, list) or not all(isinstance(h, list) for h in hands_raw):  # pyright: ignore[reportUnknownVariableType]
        raise RecordError("hands must be a list of lists of card codes")
    try:
        hands = tuple(tuple(_card(c) for c in hand) for hand in hands_raw)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        turned = _card(data.get("turned"))
        stock_raw = data.get("stock", [])
        if not isinstance(stock_raw, list):
            raise RecordError("stock must be a list of card codes")
        stock = tuple(_card(c) for c in stock_raw)  # pyright: ignore[reportUnknownVariableType]
    except CardError as exc:
        raise RecordError(str(exc)) from None
    if "stock" in data and not variant.has_stock:
        raise RecordError("only habanero has a stock")
    carry = _carry(data.get("carry"))
    return DealtCards(variant, options, dealer, hands, turned, stock, carry)


def _card(value: Any) -> int:
    if not isinstance(value, str):
        raise RecordError(f"{value!r} is not a card code")
    return parse_card(value)


def _carry(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2  # pyright: ignore[reportUnknownArgumentType]
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)  # pyright: ignore[reportUnknownVariableType]
    ):
        raise RecordError("carry must be two scores, one per side")
    return (int(value[0]), int(value[1]))  # pyright: ignore[reportUnknownArgumentType]


@dataclass(slots=True)
class Replay:
    deal: Deal
    applied: int
    error: IllegalActionError | None


def replay(record: Record) -> Replay:
    """Apply a record's actions in order, stopping at the first illegal one."""
    deal = Deal(record.dealt, check=False)
    for index, action in enumerate(record.actions):
        try:
            deal.apply(action)
        except IllegalActionError as exc:
            return Replay(deal, index, exc)
    return Replay(deal, len(record.actions), None)
