"""The tournament pictures: a knockout bracket for any field up to 32 entrants at tables of
two, three or four, and Swiss standings up to 64 lines; legible, deterministic, their
winners lit, their names shortened and cleaned as on the table.

The brackets are built from real draws (``bot.tables.competition.tournament``), as the cog will."""

from __future__ import annotations

import io
import itertools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest
from PIL import Image, ImageChops, ImageStat

import bot.render.bracket as bracket
import bot.render.standings as standings
from bot.render import (
    BracketLabels,
    BracketMatch,
    BracketRound,
    BracketScene,
    StandingsLabels,
    StandingsRow,
    StandingsScene,
    bracket_alt_text,
    bracket_layout,
    bracket_picture,
    render_bracket,
    render_standings,
    standings_alt_text,
    standings_picture,
    standings_size,
)
from bot.render.style import HIGHLIGHT
from bot.render.text import ELLIPSIS, displayable
from bot.tables.competition.tournament import BYE, Draw, Format
from tests.render._written import Written, record_texts

PHONE_W = 360
GOLDEN = Path(__file__).with_name("golden")
MAX_MEAN_DIFFERENCE = 1.5

NAMES = (
    "Ana",
    "Luis",
    "José María",
    "Lucía",
    "Paco",
    "Begoña",
    "Íñigo",
    "Mónica",
    "Robot 1",
    "Robot 2",
    "Ramón",
    "Sofía",
    "Nuria",
    "Álvaro",
    "Carmen",
    "Güemes",
)
LONG = "Maximiliano Bartolomé de la Santísima Trinidad"
LABELS = BracketLabels(bye="Exento", to_play="por jugar", winner="gana", champion="Campeón")


def _name(entrant: int) -> str:
    return NAMES[(entrant - 1) % len(NAMES)] + ("" if entrant <= len(NAMES) else f" {entrant}")


def _round_label(number: int, rounds: int) -> str:
    return "Final" if number == rounds else f"Ronda {number}"


def scene_from_draw(
    draw: Draw,
    name: Callable[[int], str] = _name,
    title: str = "Copa de Tute",
    *,
    ids: bool = True,
) -> BracketScene:
    """The bracket of ``draw`` as the cog builds it: every round, drawn or not."""
    rounds = []
    for number in range(1, draw.rounds + 1):
        matches = tuple(
            BracketMatch(
                tuple(None if e == BYE else name(e) for e in m.entrants),
                None if m.winner is None else m.entrants.index(m.winner),
                ids=tuple(None if e == BYE else e for e in m.entrants) if ids else (),
            )
            for m in draw.round_matches(number)
        )
        rounds.append(BracketRound(_round_label(number, draw.rounds), matches))
    return BracketScene(title, tuple(rounds), LABELS)


def play(draw: Draw, rounds: int, last_round_matches: int | None = None) -> Draw:
    """Play ``rounds`` rounds (the best seed at each table wins), the last only its first
    ``last_round_matches`` matches when given."""
    for number in range(1, rounds + 1):
        open_matches = draw.next_round()
        if number == rounds and last_round_matches is not None:
            open_matches = open_matches[:last_round_matches]
        for match in open_matches:
            draw.decide(match, min(match.players, key=draw.entrants.index))
    return draw


def knockout(entrants: int, table: int) -> Draw:
    return Draw(tuple(range(1, entrants + 1)), table, Format.KNOCKOUT)


def eight_in_progress() -> BracketScene:
    """Eight entrants at tables of two: round 1 played, round 2 half played."""
    return scene_from_draw(play(knockout(8, 2), 2, 1))


def six_with_byes() -> BracketScene:
    """Six entrants at tables of two: the two best seeds have a bye; round 2 drawn."""
    return scene_from_draw(play(knockout(6, 2), 2, 0))


def nine_at_tables_of_three() -> BracketScene:
    """Nine entrants at tables of three, finished."""
    return scene_from_draw(play(knockout(9, 3), 2), title="Copa de arrastrado")


def swiss_twelve() -> StandingsScene:
    rows = tuple(
        StandingsRow(
            place, _name(place), max(0, 4 - (place + 1) // 3), 20 - place, highlight=place == 7
        )
        for place in range(1, 13)
    )
    return StandingsScene(
        "Suizo de los jueves",
        rows,
        StandingsLabels("#", "Jugador", "Victorias", "Buchholz"),
        subtitle="Tras la ronda 4 de 5",
    )


def swiss(rows: int, name: Callable[[int], str] = _name) -> StandingsScene:
    return StandingsScene(
        "Swiss",
        tuple(StandingsRow(i, name(i), rows - i, 3 * rows - i) for i in range(1, rows + 1)),
    )


# --------------------------------------------------------------------------- sizes


FIELDS = [(entrants, table) for table in (2, 3, 4) for entrants in range(2, 33)]


@pytest.mark.parametrize(("entrants", "table"), FIELDS)
def test_every_field_fits(entrants: int, table: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """From 2 to 32 entrants at tables of 2, 3 and 4, before the start, halfway and at
    the end: the picture is no wider than ``MAX_W``, every plate and every piece of text
    lies on the cloth, no two plates of a column overlap, and no text is smaller than
    ``MIN_TEXT_PX``."""
    draw = knockout(entrants, table)
    scenes = [scene_from_draw(play(knockout(entrants, table), 1))]
    play(draw, draw.rounds)
    scenes.append(scene_from_draw(draw))
    written = record_texts(bracket, monkeypatch)
    for scene in scenes:
        written.clear()
        bracket.bracket_layout.cache_clear()
        image = bracket_picture(scene)
        layout = bracket_layout(scene)
        assert image.size == layout.size
        width, height = image.size
        assert width <= bracket.MAX_W
        assert len(layout.plates) == draw.rounds
        for column in layout.plates:
            for plate in column:
                assert plate.box[0] >= 6 and plate.box[2] <= width - 6
                assert plate.box[3] <= height - 6
            for upper, lower in itertools.pairwise(column):
                assert upper.box[3] < lower.box[1]
        assert written
        for w in written:
            assert w.size >= bracket.MIN_TEXT_PX
            assert w.box[0] >= 6 and w.box[2] <= width - 6, w
            assert w.box[1] >= 6 and w.box[3] <= height - 6, w
        _text_stays_on_its_plate(layout, written)


def _text_stays_on_its_plate(layout: bracket.BracketLayout, written: list[Written]) -> None:
    """Each name lies within one plate's box, and names do not overlap one another."""
    boxes = [p.box for column in layout.plates for p in column]
    below_captions = bracket.M + bracket.TITLE_H + bracket.CAPTION_H
    names = [w for w in written if w.box[1] >= below_captions]
    for w in names:
        assert any(
            b[0] <= w.box[0] and w.box[2] <= b[2] and b[1] <= w.box[1] and w.box[3] <= b[3]
            for b in boxes
        ), w
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            overlap = a.box[0] < b.box[2] and b.box[0] < a.box[2]
            assert not (overlap and a.box[1] < b.box[3] and b.box[1] < a.box[3]), (a, b)


def test_the_largest_field_stays_readable() -> None:
    """32 entrants at tables of two (five rounds) fit in ``MAX_W``. Shown whole at a
    phone's width its letters are 6 px high (a glance at the shape of the draw); zoomed
    so that two rounds fill the phone's width, 12 px or more."""
    scene = scene_from_draw(play(knockout(32, 2), 3))
    layout = bracket_layout(scene)
    width, height = layout.size
    assert width <= bracket.MAX_W
    assert bracket.MIN_TEXT_PX * PHONE_W / width >= 6.0
    two_rounds = 2 * layout.col_w + bracket.LINK_W
    assert bracket.MIN_TEXT_PX * PHONE_W / two_rounds >= 12.0
    assert height < 2 * 32 * (bracket.ROW_H + bracket.PLATE_GAP)


def test_a_small_bracket_is_not_stretched() -> None:
    layout = bracket_layout(scene_from_draw(play(knockout(2, 2), 1)))
    assert layout.size[0] == bracket.MIN_W
    assert layout.col_w == bracket.MAX_COL_W


def test_later_rounds_sit_between_their_feeders_and_lines_do_not_cross() -> None:
    """The winners of round 1 (seated in snake order) meet in round 2 as drawn; the
    round-1 plates are reordered so that each round-2 plate sits between its feeders."""
    scene = eight_in_progress()
    layout = bracket_layout(scene)
    first, second = layout.plates[0], layout.plates[1]
    for link in layout.links:
        assert link.start[0] < link.end[0]
    starts = sorted((k.start[1], k.end[1]) for k in layout.links if k.start[0] == first[0].box[2])
    ends = [end for _, end in starts]
    assert ends == sorted(ends), "lines from round 1 to round 2 cross"
    for plate in second:
        fed = [
            k
            for k in layout.links
            if k.end[0] == plate.box[0] and plate.box[1] <= k.end[1] <= plate.box[3]
        ]
        assert len(fed) == 2


def test_a_round_not_drawn_yet_shows_empty_plates() -> None:
    started = scene_from_draw(play(knockout(16, 2), 1))
    layout = bracket_layout(started)
    assert [len(c) for c in layout.plates] == [8, 4, 2, 1]
    assert all(p.kind == "pending" for c in layout.plates[2:] for p in c)


def test_a_bracket_without_a_first_round_is_refused() -> None:
    with pytest.raises(ValueError, match="first round"):
        bracket_picture(BracketScene("Cup", (BracketRound("Final"),)))
    with pytest.raises(ValueError, match="2, 3 or 4"):
        bracket_picture(BracketScene("Cup", (BracketRound("Final", (BracketMatch(("A",)),)),)))
    match = BracketMatch(("A", None), winner=1)
    with pytest.raises(ValueError, match="no entrant"):
        bracket_picture(BracketScene("Cup", (BracketRound("Final", (match,)),)))


@pytest.mark.parametrize("rows", [1, 2, 12, 32, 64])
def test_standings_sizes(rows: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Up to 64 lines, one column as wide as ``STANDINGS_W``: shown at a phone's width
    its letters are at least 12 px high, all of it on the cloth, nothing overlapping."""
    written = record_texts(standings, monkeypatch)
    image = standings_picture(swiss(rows, lambda i: f"{LONG} {i}"))
    assert image.size == standings_size(swiss(rows))
    width, height = image.size
    assert width == standings.STANDINGS_W
    assert height == bracket.M * 2 + bracket.TITLE_H + bracket.CAPTION_H + 16 + rows * 32
    assert bracket.MIN_TEXT_PX * PHONE_W / width >= 12.0
    for w in written:
        assert w.box[0] >= 6 and w.box[2] <= width - 6, w
        assert w.box[1] >= 6 and w.box[3] <= height - 6, w
    for i, a in enumerate(written):
        for b in written[i + 1 :]:
            overlap = a.box[0] < b.box[2] and b.box[0] < a.box[2]
            assert not (overlap and a.box[1] < b.box[3] and b.box[1] < a.box[3]), (a, b)


# --------------------------------------------------------------------------- bytes


def test_same_scene_same_bytes() -> None:
    assert render_bracket(eight_in_progress()) == render_bracket(eight_in_progress())
    assert render_bracket(nine_at_tables_of_three()) == render_bracket(nine_at_tables_of_three())
    assert render_standings(swiss_twelve()) == render_standings(swiss_twelve())


SAME_IN_ANOTHER_PROCESS = """
import hashlib
from bot.render import render_bracket, render_standings
from tests.render.test_bracket import eight_in_progress, swiss_twelve
print(hashlib.sha256(render_bracket(eight_in_progress()) + render_standings(swiss_twelve())).hexdigest())
"""


def test_same_bytes_in_a_fresh_process() -> None:
    import hashlib
    import subprocess

    here = hashlib.sha256(
        render_bracket(eight_in_progress()) + render_standings(swiss_twelve())
    ).hexdigest()
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", SAME_IN_ANOTHER_PROCESS],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == here


def test_pictures_are_pngs_of_a_reasonable_size() -> None:
    for data in (
        render_bracket(scene_from_draw(play(knockout(32, 2), 5))),
        render_standings(swiss(64)),
    ):
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG"
        assert len(data) < 400_000


# --------------------------------------------------------------------------- colours


def _is_gold(pixel: object) -> bool:
    assert isinstance(pixel, tuple)
    r, g, b = pixel[:3]
    return r > 200 and g > 160 and b < 130


def _plate_of(layout: bracket.BracketLayout, number: int, index: int) -> bracket.Plate:
    return next(p for p in layout.plates[number] if p.index == index)


def test_the_winner_is_lit_and_the_loser_is_not() -> None:
    """The winner's line has a gold bar at its left edge; the loser's does not, nor does
    a match still to play."""
    scene = eight_in_progress()
    layout = bracket_layout(scene)
    image = bracket_picture(scene)
    decided = next(
        (p for p in layout.plates[1] if p.winner_row is not None),
    )
    loser_row = 1 - (decided.winner_row or 0)
    x = decided.box[0] + 6
    assert _is_gold(image.getpixel((x, round(decided.row_centre(decided.winner_row)))))
    assert not _is_gold(image.getpixel((x, round(decided.row_centre(loser_row)))))
    open_plate = next(p for p in layout.plates[1] if p.winner_row is None)
    for row in range(len(open_plate.rows)):
        assert not _is_gold(image.getpixel((x, round(open_plate.row_centre(row)))))
    # the band behind the winner's name is warmer than the loser's line
    bx = decided.box[2] - 8
    lit = image.getpixel((bx, round(decided.row_centre(decided.winner_row))))
    dull = image.getpixel((bx, round(decided.row_centre(loser_row))))
    assert isinstance(lit, tuple) and isinstance(dull, tuple)
    assert lit[0] > dull[0] + 20


def test_the_champions_way_is_gold() -> None:
    scene = scene_from_draw(play(knockout(8, 2), 3))
    layout = bracket_layout(scene)
    assert layout.champion == 1  # Ana, the first seed
    gold = [k for k in layout.links if k.state == "champion"]
    assert len(gold) == 2  # round 1 to 2, round 2 to the final
    image = bracket_picture(scene)
    for link in gold:
        x = (link.start[0] + link.end[0]) // 2
        y = (link.start[1] + link.end[1]) // 2
        assert _is_gold(image.getpixel((x, y)))


def test_a_bye_is_drawn_softly_on_one_line() -> None:
    scene = six_with_byes()
    layout = bracket_layout(scene)
    byes = [p for p in layout.plates[0] if p.kind == "bye"]
    assert len(byes) == 2
    assert all(len(p.rows) == 1 for p in byes)
    assert "Exento" in bracket_alt_text(scene)


def test_the_entrant_of_a_bye_is_not_greyed_out() -> None:
    """An entrant with a bye goes through: their name is written as bright as a player's
    still in, not in the grey of a loser."""
    scene = six_with_byes()
    layout = bracket_layout(scene)
    image = bracket_picture(scene).convert("RGB")
    for plate in (p for p in layout.plates[0] if p.kind == "bye"):
        x0, _, x1, _ = plate.box
        y = round(plate.row_centre(0))
        name = image.crop((x0 + 8, y - 6, (x0 + x1) // 2, y + 6))
        brightest = sum(high for _, high in cast(list[tuple[int, int]], name.getextrema()))
        assert brightest > sum(bracket.SOFT_NAME) + 150, "a bright name"


def test_the_leader_of_the_standings_is_lit() -> None:
    scene = swiss_twelve()
    image = standings_picture(scene)
    top = bracket.M + bracket.TITLE_H + bracket.CAPTION_H + 8
    x = bracket.M + 6
    leader = image.getpixel((x, top + standings.LINE_H // 2))
    second = image.getpixel((x, top + standings.LINE_H + standings.LINE_H // 2))
    marked = image.getpixel((x, top + 6 * standings.LINE_H + standings.LINE_H // 2))
    assert _is_gold(leader)
    assert not _is_gold(second)
    assert _is_gold(marked)  # the row the caller asked to mark (7th)
    assert HIGHLIGHT == (255, 206, 84)


# --------------------------------------------------------------------------- names


def test_long_names_are_shortened_and_kept_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    written = record_texts(bracket, monkeypatch)
    draw = play(knockout(4, 2), 1)
    bracket_picture(scene_from_draw(draw, lambda e: f"{LONG} {e}"))
    names = [w.text for w in written if LONG[:4] in w.text]
    assert names
    assert all(ELLIPSIS in n for n in names)
    # four different people stay four different lines
    assert len(set(names)) == 4


def test_accents_are_kept_and_emoji_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    written = record_texts(bracket, monkeypatch)
    names = {1: "Begoña 🎉", 2: "🙂🙂", 3: "Íñigo Güemes", 4: "Zoë"}
    scene = scene_from_draw(play(knockout(4, 2), 1), names.__getitem__)
    bracket_picture(scene)
    texts = {w.text for w in written}
    assert {"Begoña", "Íñigo Güemes", "Zoë", "?"} <= texts
    assert all(t == displayable(t) for t in texts)
    # the description keeps the names as given: a screen reader can say emoji
    assert "🙂🙂" in bracket_alt_text(scene)

    written = record_texts(standings, monkeypatch)  # the standings draw in their module
    standings_picture(swiss(3, {1: "Begoña 🎉", 2: "🙂", 3: "Íñigo"}.__getitem__))
    assert {"Begoña", "?", "Íñigo"} <= {w.text for w in written}


# --------------------------------------------------------------------------- words


def test_bracket_alt_text() -> None:
    text = bracket_alt_text(eight_in_progress())
    assert text.startswith("Copa de Tute. Ronda 1: Ana, ")
    assert "(gana: Ana)" in text
    assert "(por jugar)" in text
    assert text.endswith("Final: por jugar.")
    finished = bracket_alt_text(scene_from_draw(play(knockout(8, 2), 3)))
    assert finished.endswith("Campeón: Ana.")
    assert len(bracket_alt_text(scene_from_draw(play(knockout(32, 2), 5)), 300)) <= 300


def test_standings_alt_text() -> None:
    text = standings_alt_text(swiss_twelve())
    assert text.startswith("Suizo de los jueves. Tras la ronda 4 de 5. 1. Ana: Victorias 4, ")
    assert "Buchholz 19" in text
    assert len(standings_alt_text(swiss(64), 200)) <= 200


# --------------------------------------------------------------------------- goldens

PICTURES: dict[str, Callable[[], bytes]] = {
    "bracket_eight.png": lambda: render_bracket(eight_in_progress()),
    "bracket_nine_of_three.png": lambda: render_bracket(nine_at_tables_of_three()),
    "standings_twelve.png": lambda: render_standings(swiss_twelve()),
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_picture_matches_golden(name: str) -> None:
    """As in ``test_golden.py`` (regenerate with ``TUTE_UPDATE_GOLDEN=1``)."""
    data = PICTURES[name]()
    path = GOLDEN / name
    if os.environ.get("TUTE_UPDATE_GOLDEN") == "1":
        path.write_bytes(data)
    assert path.exists(), f"{path} is missing: run with TUTE_UPDATE_GOLDEN=1 to write it"
    expected = Image.open(path).convert("RGB")
    actual = Image.open(io.BytesIO(data)).convert("RGB")
    assert actual.size == expected.size
    difference = ImageStat.Stat(ImageChops.difference(actual, expected)).mean
    assert sum(difference) / len(difference) < MAX_MEAN_DIFFERENCE


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp")
    (out / "bracket_eight.png").write_bytes(render_bracket(eight_in_progress()))
    (out / "bracket_six_byes.png").write_bytes(render_bracket(six_with_byes()))
    (out / "bracket_nine_of_three.png").write_bytes(render_bracket(nine_at_tables_of_three()))
    (out / "bracket_swiss_twelve.png").write_bytes(render_standings(swiss_twelve()))
    (out / "bracket_thirtytwo.png").write_bytes(
        render_bracket(scene_from_draw(play(knockout(32, 2), 3, 2)))
    )
    (out / "bracket_thirtytwo_of_three.png").write_bytes(
        render_bracket(scene_from_draw(play(knockout(32, 3), 1)))
    )
    (out / "bracket_standings_64.png").write_bytes(render_standings(swiss(64)))


def test_entrants_of_one_name_are_followed_by_who_they_are() -> None:
    """Two members may show the same name: each winner's line still goes to their own
    place in the next round, and only the champion's way is lit."""
    draw = play(knockout(8, 2), 2)
    named = bracket_layout(scene_from_draw(draw))
    same = bracket_layout(scene_from_draw(draw, lambda _: "Ana"))
    assert same.links == named.links
    by_name_only = bracket_layout(scene_from_draw(draw, lambda _: "Ana", ids=False))
    assert by_name_only.links != named.links, "names alone cannot tell them apart"
