"""A deal's summary adds up: in habanero, where the points of the game's earlier deals are
carried into the next, they are a line of their own, so that the picture's lines (carried,
cards, last ten, cantes) and its alt text add up to the total the text says; and the hints
a player asked for never sit between a name and its points."""

from __future__ import annotations

import random

import pytest

from bot.engine import Deal, End, Kind, Options, Scoring, Variant
from bot.i18n import LANGUAGES, t
from bot.render import SideSummary, SummaryScene
from bot.tables.play import summary_of
from bot.tables.summary import DealSummary
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from cogs.tables import layouts, pictures
from tests.cogs.tables.test_views_rendered import layout_text, playing_table

FREE = (Kind.PLAY, Kind.SING, Kind.EXCHANGE)
"""What the random players do: play, sing and exchange, never end the deal early."""


def carried_summaries(seed: int) -> list[DealSummary]:
    """The summaries of a habanero game played at random, up to its first deal that
    carried points in (none when the first deal already decided the game)."""
    table = playing_table(Variant.HABANERO, seed=seed, options=Options(competitive=False))
    game, rng = table.game, random.Random(seed)
    assert game is not None
    out: list[DealSummary] = []
    for _ in range(6):
        deal = table.deal
        assert deal is not None
        while not deal.finished:
            deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind in FREE]))
        result = deal.result
        assert result is not None
        before = tuple(game.rounds_won)
        game.end_deal(deal)
        summary = table.summary = summary_of(table, deal, result, before)
        out.append(summary)
        if summary.carried or game.finished:
            break
        table.deal_no += 1
        table.deal = Deal(game.deal_for(table.deal_rng()))
    return out if out[-1].carried else []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lines_of_a_carried_deal_add_up_to_its_total(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    scenes: list[SummaryScene] = []
    monkeypatch.setattr(pictures, "render_summary", lambda scene: scenes.append(scene) or b"")
    seen = 0
    for seed in range(1, 40):
        summaries = carried_summaries(seed)
        if not summaries:
            continue
        seen += 1
        summary = summaries[-1]
        result = summary.result
        table = playing_table(Variant.HABANERO, seed=seed)
        view = table_view(table)
        _, alt = pictures.summary_png(view, summary, lang)
        scene = scenes[-1]
        for i, side in enumerate(scene.sides):
            cantes = sum(points for _, points in side.cantes)
            assert side.carried is not None
            assert side.carried == summary.carried[i] == summaries[-2].result.scores[i]
            assert side.carried + side.card_points + 10 * side.last_ten + cantes == side.total
            assert side.total == result.scores[i]
            said = t(
                "pictures.summary_carried_alt",
                lang,
                names=side.names,
                total=side.total,
                cards=side.card_points,
                cantes=cantes,
                last=10 if side.last_ten else 0,
                carried=side.carried,
            )
            assert said in alt
        assert scene.labels.carried == t("pictures.carried", lang)
        lines = ui.summary_lines(view, summary, lang)
        for i, total in enumerate(result.scores):
            carried = summary.carried[i]
            assert any(f"**{total}**" in line and str(carried) in line for line in lines)
    assert seen >= 3


def test_a_deal_with_nothing_carried_keeps_three_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    scenes: list[SummaryScene] = []
    monkeypatch.setattr(pictures, "render_summary", lambda scene: scenes.append(scene) or b"")
    for seed in range(1, 10):
        table = playing_table(Variant.HABANERO, seed=seed)
        game, deal, rng = table.game, table.deal, random.Random(seed)
        assert game is not None and deal is not None
        while not deal.finished:
            deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind in FREE]))
        assert deal.result is not None
        summary = summary_of(table, deal, deal.result, (0, 0))
        assert summary.carried == ()
        pictures.summary_png(table_view(table), summary, "en")
        assert all(side.carried is None for side in scenes[-1].sides)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hints_asked_are_said_apart_from_the_points(lang: str) -> None:
    """ "Alicia 💡 3: 72 points" reads as a score: the summary says each side's points after
    the bare names, and the hints on a line of their own, in words."""
    table = playing_table(Variant.HABANERO, seed=2, options=Options(competitive=False))
    table.language = lang
    deal = table.deal
    assert deal is not None and table.game is not None
    rng = random.Random(2)
    while not deal.finished:
        deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind in FREE]))
    assert deal.result is not None
    summary = summary_of(table, deal, deal.result, (0, 0))
    occupant = table.seats[0]
    assert occupant is not None
    occupant.hints = 3
    view = table_view(table)
    lines = ui.summary_lines(view, summary, lang)
    for side, total in enumerate(deal.result.scores):
        name = ui.seat_name(view.seats[side], lang)
        assert t("summary.side", lang, names=name, total=total) in lines
    assert not any("💡" in line for line in lines)
    text = layout_text(layouts.summary_layout(view, summary, lang))
    item = t("hints.result_item", lang, name=ui.seat_name(view.seats[0], lang, short=True), count=3)
    assert t("hints.result", lang, items=item) in text.splitlines()


def adds_up(side: SideSummary) -> bool:
    cantes = sum(points for _, points in side.cantes)
    lines = (side.carried or 0) + side.card_points + 10 * side.last_ten + cantes
    return lines + (side.uncounted or 0) == side.total


@pytest.mark.parametrize("scoring", list(Scoring), ids=[s.value for s in Scoring])
@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_every_summary_adds_up(
    monkeypatch: pytest.MonkeyPatch, variant: Variant, scoring: Scoring
) -> None:
    """Whatever ended the deal (a capote or a resignation voids its card points; sixty-five
    leaves the cantes out), the picture's lines add up to each side's total."""
    if scoring is Scoring.SIXTY_FIVE and variant not in (Variant.HABANERO, Variant.PAIRS):
        pytest.skip("sixty-five is for habanero and pairs")
    scenes: list[SummaryScene] = []
    monkeypatch.setattr(pictures, "render_summary", lambda scene: scenes.append(scene) or b"")
    ends: set[End] = set()
    for seed in range(1, 25):
        options = Options(scoring=scoring, competitive=False)
        table = playing_table(variant, seed=seed, options=options)
        deal, rng = table.deal, random.Random(seed)
        assert deal is not None
        while not deal.finished:
            legal = [a for a in deal.legal_actions() if a.kind is not Kind.CLAIM]
            ended = [a for a in legal if a.kind in (Kind.CAPOTE, Kind.RESIGN)]
            deal.apply(ended[0] if ended and seed % 3 == 0 else rng.choice(legal))
        result = deal.result
        assert result is not None
        ends.add(result.end)
        summary = summary_of(table, deal, result, (0,) * len(result.sides))
        for lang in LANGUAGES:
            pictures.summary_png(table_view(table), summary, lang)
            assert all(adds_up(side) for side in scenes[-1].sides), (seed, result)
    assert ends - {End.CARDS, End.TUTE} or variant is not Variant.HABANERO
