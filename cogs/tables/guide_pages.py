"""``/tute rules``: what each page of a variant's guide says, and its picture's scene. Pure
builders: every word from the catalog, every number from the engine (points, hand sizes,
the target, the plato's bids), so that the guide says what the tables play.

A variant's guide is its pages in order: the goal and the cards (with the picture of one
suit), a trick, cantes and the exchange, winning, the table's options, then its house
rules and presets (``rules_text``), cut into pages short enough for a phone.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import SUITS, Options, Variant
from bot.engine.actions import MAX_BID, MIN_BID
from bot.engine.cards import POINTS, RANK_POINTS, RANKS_BY_STRENGTH
from bot.engine.deal import LAST_TRICK_BONUS
from bot.engine.game import BANK_RAKE_PERCENT, PLATO_STAKE
from bot.engine.options import OPTION_NAMES, StockDuty, option_applies
from bot.engine.variants import VARIANTS
from bot.i18n import t
from bot.render.deck import DeckCard, DeckScene
from bot.render.symbols import SUIT_SYMBOLS
from bot.words import option_name, rank_name

from .rules_text import house_rules_fields

PAGE_BUDGET = 1400
"""Characters of house rules a page holds at most: a phone shows them without scrolling."""
MOST_ROUNDS = 9
"""The most rounds a game may have (the option ``rounds``)."""
BIG_WIN = 101
"""Arrastrado: the points that double what the winner of a deal takes (``arrastrado_payout``)."""
PICTURE_SUIT = "O"
"""The suit the picture of the cards shows."""

_TOPICS = ("goal", "trick", "cantes", "winning", "options")
_OPTIONS = (
    "rounds",
    "bet",
    "turn_time",
    "competitive",
    "private",
    "spectators",
    "robots",
    "allow_tute",
    "stock_duty",
    "beat_partner",
    "undertrump",
    "exchange",
    "capote",
    "target",
    "scoring",
    "deck",
    "plato",
)
"""The options a host sets, each explained on the options page where its variant has it."""


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a guide: its title, its paragraphs, and whether it shows the picture."""

    title: str
    paragraphs: tuple[str, ...]
    picture: bool = False


def _hand(variant: Variant, deck: int = 40) -> int:
    return VARIANTS[variant].dealing(deck).hand_size


def deck_total() -> int:
    """The points of the whole deck (120)."""
    return sum(POINTS)


def _strongest_first() -> tuple[int, ...]:
    return tuple(reversed(RANKS_BY_STRENGTH))


def points_text(lang: str) -> str:
    """The cards that count and their points, strongest first: "Ace 11, 3 10, ..."."""
    items = [
        t("guide.points_item", lang, rank=rank_name(rank, lang), points=RANK_POINTS[rank])
        for rank in _strongest_first()
        if rank in RANK_POINTS
    ]
    return ", ".join([*items, t("guide.points_rest", lang)])


def deck_scene(lang: str) -> DeckScene:
    """The picture of the first page: one suit strongest first, each card's points under it."""
    cards = tuple(
        DeckCard(f"{rank}{PICTURE_SUIT}", str(RANK_POINTS.get(rank, 0)), rank in RANK_POINTS)
        for rank in _strongest_first()
    )
    footer = t("guide.picture.footer", lang, total=deck_total(), last=LAST_TRICK_BONUS)
    return DeckScene(t("guide.picture.title", lang), cards, footer)


def deck_alt(lang: str) -> str:
    """The picture in words, for screen readers."""
    cards = ", ".join(
        t("guide.points_item", lang, rank=rank_name(rank, lang), points=RANK_POINTS.get(rank, 0))
        for rank in _strongest_first()
    )
    suit = t(f"cards.suit.{PICTURE_SUIT}", lang)
    return t("guide.picture.alt", lang, suit=suit, cards=cards)


def _goal(variant: Variant, lang: str) -> tuple[str, ...]:
    goal = t(
        f"guide.goal.{variant.value}",
        lang,
        players=variant.players,
        hand=_hand(variant),
        hand36=_hand(variant, 36),
        target=Options().target,
    )
    deck = t("guide.deck", lang, **{s: SUIT_SYMBOLS[s] for s in SUITS})
    order = t(
        "guide.order", lang, points=points_text(lang), total=deck_total(), last=LAST_TRICK_BONUS
    )
    return goal, deck, order


def _trick(variant: Variant, lang: str) -> tuple[str, ...]:
    paragraphs = [t("guide.trick.play", lang), t("guide.trick.duty", lang)]
    if variant.has_stock:
        duty: StockDuty = Options().stock_duty
        paragraphs += [t(f"guide.trick.stock.{duty.value}", lang), t("guide.trick.draw", lang)]
    else:
        paragraphs.append(t("guide.trick.full", lang))
    if variant is Variant.PAIRS:
        paragraphs.append(t("guide.trick.pairs", lang))
    return tuple(paragraphs)


def _cantes(variant: Variant, lang: str) -> tuple[str, ...]:
    cantes = t("guide.cantes", lang)
    if variant is Variant.HABANERO:
        cantes += " " + t("guide.cantes.habanero", lang)
    elif variant is Variant.PAIRS:
        cantes += " " + t("guide.cantes.pairs", lang)
    tute = "on" if VARIANTS[variant].tute_by_default else "off"
    paragraphs = [cantes, t("guide.forty", lang), t(f"guide.tute.{tute}", lang)]
    if option_applies(variant, "exchange"):
        paragraphs.append(t(f"guide.exchange.{variant.value}", lang))
    else:
        paragraphs.append(t("guide.exchange.none", lang))
    return tuple(paragraphs)


def _winning(variant: Variant, lang: str) -> tuple[str, ...]:
    target = Options().target
    paragraphs = [t("guide.score", lang, last=LAST_TRICK_BONUS)]
    if variant is Variant.HABANERO:
        paragraphs += [t("guide.win.habanero", lang, target=target), t("guide.capote", lang)]
    elif variant is Variant.PAIRS:
        paragraphs.append(t("guide.win.pairs", lang))
    else:
        paragraphs.append(t("guide.win.most", lang))
    if variant is Variant.ARRASTRADO:
        paragraphs.append(t("guide.pay.arrastrado", lang, big=BIG_WIN))
        plato = t("guide.plato", lang, stake=PLATO_STAKE, low=MIN_BID, high=MAX_BID)
        paragraphs.append(plato)
    paragraphs.append(t("guide.rounds", lang, most=MOST_ROUNDS))
    return tuple(paragraphs)


def _options(variant: Variant, lang: str) -> tuple[str, ...]:
    lines = [t("guide.options_intro", lang)]
    for name in _OPTIONS:
        if name in OPTION_NAMES and not option_applies(variant, name):
            continue
        text = t(
            f"guide.opt.{name}",
            lang,
            default=t("common.yes" if VARIANTS[variant].tute_by_default else "common.no", lang),
            target=Options().target,
            hand40=_hand(variant, 40),
            hand36=_hand(variant, 36),
            most=MOST_ROUNDS,
            rake=BANK_RAKE_PERCENT,
        )
        lines.append(t("guide.option_line", lang, name=option_name(name, lang), text=text))
    return ("\n".join(lines),)


_BUILDERS = {
    "goal": _goal,
    "trick": _trick,
    "cantes": _cantes,
    "winning": _winning,
    "options": _options,
}


def _house_pages(variant: Variant, lang: str) -> list[Page]:
    """The variant's house rules and presets (``/tute new house:`` and ``rules:``), each in
    words, on as many pages as they need."""
    chunks: list[list[str]] = [[]]
    used = 0
    for name, value in house_rules_fields([variant], lang):
        block = f"**{name}**\n{value}"
        if chunks[-1] and used + len(block) > PAGE_BUDGET:
            chunks.append([])
            used = 0
        chunks[-1].append(block)
        used += len(block)
    title = t("guide.page_title.house", lang)
    if len(chunks) == 1:
        return [Page(title, tuple(chunks[0]))]
    return [
        Page(t("guide.part", lang, title=title, part=i + 1, parts=len(chunks)), tuple(chunk))
        for i, chunk in enumerate(chunks)
    ]


def guide_pages(variant: Variant, lang: str) -> list[Page]:
    """Every page of ``variant``'s guide, in order."""
    pages = [
        Page(
            t(f"guide.page_title.{topic}", lang),
            _BUILDERS[topic](variant, lang),
            picture=topic == "goal",
        )
        for topic in _TOPICS
    ]
    return pages + _house_pages(variant, lang)


def pick_lines(lang: str) -> list[str]:
    """The first page, without a variant: each variant in a line."""
    target = Options().target
    return [
        t(
            "guide.pick_line",
            lang,
            name=t(f"variants.{v.value}", lang),
            summary=t(f"guide.summary.{v.value}", lang, target=target),
        )
        for v in Variant
    ]
