"""The deal's tricks so far in words, the same for the chat's Tricks and the card table's:
each trick (its number, who led, each card with who played it, who took it, its points),
and the cantes and the swap of the turned card between them. ``name`` and ``card`` say a
seat and a card as the caller shows them (the chat: escaped, with faces; the page: as
typed, in words); ``say`` fills a catalog line (:func:`bot.words.result.plain` for the
page)."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import Cante
from bot.i18n import t
from bot.tables.history import Happening, PastTrick

from .cards import card_name, suit_text
from .result import Say

Name = Callable[[int], str]
Card = Callable[[int], str]


def trick_line(trick: PastTrick, lang: str, name: Name, card: Card, say: Say = t) -> str:
    """One trick: "3. Ana leads 7♣ · Luis 1♣ · Robot 2 3♣ → Luis takes it (+21)"."""
    rest = " · ".join(f"{name(seat)} {card(played)}" for seat, played in trick.cards[1:])
    return say(
        "tables.tricks.trick",
        lang,
        number=trick.number,
        leader=name(trick.leader),
        led=card(trick.cards[0][1]),
        rest=rest,
        name=name(trick.winner),
        points=trick.points,
    )


def happening_line(
    happening: Happening, lang: str, name: Name, card: Card, *, say: Say = t, symbol: bool = True
) -> str:
    """A trick, a cante or a swap, in a line (``symbol``: a suit with its emoji)."""
    if isinstance(happening, PastTrick):
        return trick_line(happening, lang, name, card, say)
    who = name(happening.seat)
    if isinstance(happening, Cante):
        suit = suit_text(happening.suit, lang, symbol=symbol)
        line = t("tables.cante_line", lang, name=who, points=happening.points, suit=suit)
    else:
        gave, took = (card_name(c, lang, the=True) for c in (happening.gave, happening.took))
        line = t("tables.log.swapped", lang, name=who, card=gave, took=took)
    return t("tables.tricks.between", lang, line=line)
