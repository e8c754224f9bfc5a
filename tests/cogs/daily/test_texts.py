"""The daily deal in words: the line to share names no card and reads the deal's course
trick by trick; the board of a crowded day stays within Discord's limits, in both
languages."""

from __future__ import annotations

import random

import pytest

from bot.engine import Variant
from bot.i18n import t
from bot.storage.daily import Attempt, AttemptStatus
from bot.tables.daily import Board, BoardEntry
from bot.tables.lobby import alone_options
from bot.tables.model import Status
from bot.tables.views import table_view
from cogs.daily.texts import BOARD_LINES, board_embed, grid, share_line
from cogs.tables import messages
from cogs.tables.embeds import refusal_text
from cogs.tables.places import Place
from tests.cogs.tables._world import cards_in
from tests.cogs.tables.test_layouts import accepted, to_the_end_of_a_deal
from tests.cogs.tables.test_views_rendered import buttons_of, layout_text, playing_table
from tests.discord_limits import check_message

DAY = 20_784  # 2026-11-27


def attempt(
    user: int = 10,
    *,
    status: AttemptStatus = "finished",
    points: int = 78,
    margin: int = 26,
    won: bool = True,
    tricks: str = "WWLWLWWLWW",
    cantes: int = 1,
    hints: int = 0,
) -> Attempt:
    return Attempt(
        1,
        user,
        DAY,
        0.0,
        user,
        status,
        points,
        margin,
        won,
        tricks,
        cantes,
        hints,
        1.0,
    )


def test_the_line_to_share_reads_like_a_word_games_grid() -> None:
    line = share_line(attempt(), 3, "en")
    assert line == "Tute daily 2026-11-27 · 🏆 78 pts (+26) · 🟩🟩🟥🟩🟥🟩🟩🟥🟩🟩 👑 · 🔥3"
    lost = share_line(attempt(points=52, margin=-26, won=False, cantes=0), 1, "es")
    assert lost == "Tute reto 2026-11-27 · 52 ptos (-26) · 🟩🟩🟥🟩🟥🟩🟩🟥🟩🟩 · 🔥1"
    hinted = share_line(attempt(tricks="WLW", cantes=0, hints=2), 1, "en")
    assert hinted == "Tute daily 2026-11-27 · 🏆 78 pts (+26) · 🟩🟥🟩 💡2 · 🔥1"
    unfinished = share_line(attempt(status="unfinished", tricks="", cantes=0), 2, "en")
    assert unfinished == "Tute daily 2026-11-27 · unfinished · ⬛ · 🔥2"


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("cantes", [0, 1, 4])
def test_the_line_to_share_names_no_card(lang: str, cantes: int) -> None:
    for tricks in ("W" * 10, "L" * 10, "WLWLWLWLWL", "WWW"):
        line = share_line(attempt(tricks=tricks, cantes=cantes, points=130), 12, lang)
        assert cards_in(line) == set()
        assert grid(attempt(tricks=tricks, cantes=cantes)).count("👑") == cantes


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_crowded_board_stays_within_discords_limits(lang: str) -> None:
    entries = [
        BoardEntry(n + 1, attempt(10**17 + n, points=130 - n, margin=130), 365)
        for n in range(BOARD_LINES + 30)
    ]
    embed = board_embed(Board(DAY, tuple(entries)), lang, play_command="/tute challenge play")
    assert list(check_message({"embeds": [embed.to_dict()]})) == []
    text = embed.description or ""
    assert text.count("\n") == BOARD_LINES  # the first twenty, then how many more
    assert "30" in text.splitlines()[-1]


def test_a_board_without_players_says_how_to_play() -> None:
    embed = board_embed(Board(DAY, ()), "en", play_command="/tute challenge play")
    assert "/tute challenge play" in (embed.description or "")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_replay_of_todays_deal_is_refused_in_words(lang: str) -> None:
    """What a member asking for another's deal of today reads (``kept_secret``)."""
    text = refusal_text("daily_secret", {}, lang)
    assert "00:00 UTC" in text and cards_in(text) == set()


@pytest.mark.parametrize(
    ("lang", "board"), [("en", "/tute challenge board"), ("es", "/tute reto clasificacion")]
)
def test_a_finished_daily_deal_offers_its_replay_and_the_board_but_no_rematch(
    lang: str, board: str
) -> None:
    """Played once, a daily deal ends with no Rematch: a line says where to go next (the
    line to share comes in its own message); an ordinary friendly game keeps its Rematch."""
    table = playing_table(Variant.PAIRS, options=alone_options(60))
    table.language = lang
    while table.status is Status.PLAYING:
        to_the_end_of_a_deal(table, random.Random(2))
    assert table.status is Status.FINISHED and table.summary is not None
    replay = f"tute:rp:{table.id}:{table.summary.deal_no}"
    review = f"tute:rv:{table.id}:{table.summary.deal_no}"
    next_step = t("daily.ended", lang, command=board)
    ordinary = messages.table_payload(table_view(table), Place(7, 2))
    assert [getattr(b, "custom_id", None) for b in buttons_of(ordinary["view"])] == [
        f"tute:t:{table.id}:rematch",
        replay,
        review,
    ]
    assert next_step not in layout_text(ordinary["view"])
    table.daily = True
    payload = messages.table_payload(table_view(table), Place(7, 2))
    accepted(payload)
    assert [getattr(b, "custom_id", None) for b in buttons_of(payload["view"])] == [replay, review]
    said = layout_text(payload["view"])
    assert said.count(next_step) == 1
    assert t("tables.btn.rematch", lang) not in said
    refused = refusal_text("daily_rematch", {}, lang)
    assert refused == t("tables.errors.daily_rematch", lang)
