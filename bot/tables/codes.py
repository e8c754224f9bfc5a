"""The short code of an action on a hand's button (a card's code, ``sO`` to sing in oros,
``b70`` to bid 70...): what a button carries, and what a click forwarded from another
process carries too. The seat comes from who clicked."""

from __future__ import annotations

from bot.engine import CODES, Action, Kind, parse_card, parse_suit

from .errors import TableError


def encode_action(action: Action) -> str:
    kind = action.kind
    if kind is Kind.PLAY:
        return CODES[action.arg]
    if kind is Kind.SING:
        return "s" + "OCEB"[action.arg]
    if kind is Kind.BID:
        return f"b{action.arg}"
    return {
        Kind.TUTE: "t",
        Kind.EXCHANGE: "x",
        Kind.CAPOTE: "k",
        Kind.CLAIM: "c",
        Kind.RESIGN: "r",
        Kind.PASS: "p",
    }[kind]


def decode_action(seat: int, code: str) -> Action:
    try:
        if code[0].isdigit():
            return Action.play(seat, parse_card(code))
        if code[0] == "s":
            return Action.sing(seat, parse_suit(code[1:]))
        if code[0] == "b":
            return Action.bid(seat, int(code[1:]))
        kind = {
            "t": Kind.TUTE,
            "x": Kind.EXCHANGE,
            "k": Kind.CAPOTE,
            "c": Kind.CLAIM,
            "r": Kind.RESIGN,
            "p": Kind.PASS,
        }[code]
        return Action.simple(seat, kind)
    except (KeyError, ValueError, IndexError):
        raise TableError("stale") from None
