"""The words of a deal's review (:mod:`bot.tables.review`), the same in the chat and on
the card table: the accuracy, the marks counted, and each of the costliest decisions with
the better choice and its reason (the hints' words). Plain text but for ``**`` around what
stands out (``plain`` drops it); no name anyone typed."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import t
from bot.tables.review import Decision, Mark, Review

from .hints import do_text, why_text

ICONS = {Mark.GOOD: "✅", Mark.INACCURACY: "🟡", Mark.MISTAKE: "🟠", Mark.BLUNDER: "🔴"}


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One of the costliest decisions: the replay's step that shows it (from 0) and what
    it says."""

    step: int
    mark: Mark
    text: str


@dataclass(frozen=True, slots=True)
class ReviewWords:
    summary: tuple[str, ...]
    items: tuple[ReviewItem, ...]
    how: str


def _plain(text: str, plain: bool) -> str:
    return text.replace("**", "") if plain else text


def item_text(decision: Decision, lang: str, *, plain: bool = False) -> str:
    why, keeps = why_text(decision.hint, lang)
    mark = decision.mark
    text = t(
        "review.item",
        lang,
        icon=ICONS[mark],
        mark=t(f"review.mark.{mark.value}", lang),
        step=decision.step + 1,
        cost=round(decision.cost),
        made=do_text(decision.made, decision.hint, lang),
        better=do_text(decision.best, decision.hint, lang),
        why=why,
        keeps=keeps,
    )
    return _plain(text, plain)


def review_words(review: Review, lang: str, *, plain: bool = False) -> ReviewWords:
    """What the review says, in ``lang``."""
    how = t("review.how", lang, worlds=review.worlds)
    if not review.decisions:
        return ReviewWords((t("review.nothing", lang),), (), how)
    counts = review.counts()
    summary = [
        t(
            "review.accuracy",
            lang,
            accuracy=round(review.accuracy),
            decisions=len(review.decisions),
            lost=round(review.lost),
        ),
        t("review.counts", lang, **{mark.value: counts[mark] for mark in Mark}),
    ]
    costliest = review.costliest()
    items = tuple(ReviewItem(d.step, d.mark, item_text(d, lang, plain=plain)) for d in costliest)
    summary.append(t("review.costliest", lang) if items else t("review.none", lang))
    return ReviewWords(tuple(_plain(s, plain) for s in summary), items, how)
