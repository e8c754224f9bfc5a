"""The words of a table that every presenter says the same: a card's name, a suit, what a
declaration's button says, why the table refuses something, a hint. The chat (``cogs``),
the card table (``bot.web``) and the lessons take them from here, each sentence built once,
from the message catalog, with nothing of Discord in them: plain text, where a name a member
typed is shown as the caller says (:func:`refusal_text`'s ``typed``)."""

from __future__ import annotations

from .amounts import seconds_text
from .cards import ASKED, action_label, card_name, hand_label, rank_name, suit_text
from .hints import hint_line
from .refusals import option_label, option_name, refusal_text, variants_text

__all__ = [
    "ASKED",
    "action_label",
    "card_name",
    "hand_label",
    "hint_line",
    "option_label",
    "option_name",
    "rank_name",
    "refusal_text",
    "seconds_text",
    "suit_text",
    "variants_text",
]
