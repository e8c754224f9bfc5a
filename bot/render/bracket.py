"""Tournament pictures: a knockout bracket.

It is drawn on the table's felt, with its plates, fonts and gold highlight. The
bracket lays the rounds out as columns, left to right: each match a plate holding its
entrants (a table of two, three or four), its winner lit in gold, a line from each
match to the one its winner goes on to. A bye (one entrant alone at a table) is a soft
plate of one line. Each later match sits level with the matches that feed it, and the
earlier rounds are put in the order of the matches they feed, so that the lines do not
cross. Up to 32 entrants (five rounds of two) fit in ``MAX_W`` pixels; the picture
grows downwards with the field.

The standings are in ``standings``; both share the look of ``tournament_look`` (the title,
the crown, a winner's lit line).

Deterministic: the same scene gives the same bytes. ``bracket_alt_text`` says in words
what the picture shows, for screen readers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.bracket_scenes import BracketMatch, BracketScene
from bot.render.palette import shared_palette
from bot.render.png import encode_png
from bot.render.style import (
    HIGHLIGHT,
    PANEL_EDGE,
    TEXT,
    TEXT_HALO,
    TEXT_SOFT,
    felt,
    panel,
)
from bot.render.text import displayable, fit, fit_apart, paste_text, text_width
from bot.render.tournament_look import (
    CAPTION_H,
    CROWN_W,
    INSET,
    LABEL_SIZE,
    NAME_SIZE,
    TITLE_H,
    TITLE_SIZE,
    M,
    crown,
    lit,
    said_name,
    shorten,
    title_band,
)

MAX_W = 1200
"""The widest a bracket gets (up to six rounds); its height grows with the field."""
MIN_W = 480
"""The narrowest picture: a bracket of one or two rounds is centred on it."""

TAG_SIZE = 20  # "Bye" on a bye's plate
TEXT_SIZES = (TITLE_SIZE, LABEL_SIZE, NAME_SIZE, TAG_SIZE)
MIN_TEXT_PX = min(TEXT_SIZES)


# Bracket plates.
ROW_H = 32  # one entrant's line on a plate
PLATE_PAD = 4  # above the first line and under the last
PLATE_GAP = 12  # between two plates of a column
MAX_COL_W = 250
MIN_COL_W = 150
LINK_W = 36  # between two columns, where the lines run


LINE_OPEN = (*TEXT_SOFT, 110)
LINE_DONE = (*TEXT_SOFT, 200)
SEPARATOR = (255, 255, 255, 30)
SOFT_NAME = (150, 182, 160)  # a bye's tag, a loser's name


# ---------------------------------------------------------------------------- layout


@dataclass(frozen=True, slots=True)
class Plate:
    """A match as drawn: where it is and what each of its lines says."""

    round: int
    index: int
    """The match's index in its round (for a round not drawn yet, the plate's)."""
    kind: str
    """``"match"``, ``"bye"`` (one entrant alone) or ``"pending"`` (not drawn yet)."""
    box: tuple[int, int, int, int]
    rows: tuple[tuple[int, int], ...]
    """Top and bottom of each line."""
    entrants: tuple[int, ...]
    """For each line, the index in the match's entrants of who is written on it."""
    winner_row: int | None
    """The line that is lit, or None."""

    @property
    def centre_y(self) -> float:
        return (self.box[1] + self.box[3]) / 2

    def row_centre(self, row: int | None) -> float:
        if row is None:
            return self.centre_y
        top, bottom = self.rows[row]
        return (top + bottom) / 2


@dataclass(frozen=True, slots=True)
class Link:
    """A line from a match to the one its winner goes on to."""

    start: tuple[int, int]
    end: tuple[int, int]
    state: str
    """``"open"`` (not decided), ``"done"``, or ``"champion"`` (the winner's way up)."""


@dataclass(frozen=True, slots=True)
class BracketLayout:
    size: tuple[int, int]
    columns: tuple[int, ...]
    """Left edge of each round's column."""
    col_w: int
    plates: tuple[tuple[Plate, ...], ...]
    """Each round's plates, top to bottom."""
    links: tuple[Link, ...]
    champion: object | None
    """Who won the tournament (an id, or a name: :func:`_key`), once the final is decided."""


def _players(match: BracketMatch) -> list[int]:
    return [i for i, e in enumerate(match.entrants) if e]


def _check(scene: BracketScene) -> None:
    if not scene.rounds or not scene.rounds[0].matches:
        raise ValueError("a bracket needs a first round with matches")
    seen_pending = False
    for number, rnd in enumerate(scene.rounds):
        if not rnd.matches:
            seen_pending = True
            continue
        if seen_pending:
            raise ValueError(f"round {number + 1} is drawn after one that is not")
        for match in rnd.matches:
            if not 2 <= len(match.entrants) <= 4:
                raise ValueError(f"a match has 2, 3 or 4 places, not {len(match.entrants)}")
            if match.winner is not None and match.winner not in _players(match):
                raise ValueError(f"no entrant {match.winner} in {match.entrants!r}")
            if match.next is not None:
                later = scene.rounds[number + 1 :]
                if not later or not 0 <= match.next < max(1, len(later[0].matches)):
                    raise ValueError(f"no match {match.next} in the next round")


def _table(scene: BracketScene) -> int:
    return max(len(m.entrants) for r in scene.rounds for m in r.matches)


def _counts(scene: BracketScene) -> list[int]:
    """Plates in each round: its matches, or for a round not drawn yet, the tables the
    previous round's winners fill."""
    table = _table(scene)
    counts: list[int] = []
    for rnd in scene.rounds:
        counts.append(len(rnd.matches) or max(1, math.ceil(counts[-1] / table)))
    return counts


def _winner_name(match: BracketMatch) -> str | None:
    return match.entrants[match.winner] if match.winner is not None else None


def _keys(match: BracketMatch) -> tuple[object, ...]:
    """Who each entrant of the match is: their ids when the scene gives them, else names."""
    return match.ids if match.ids else match.entrants


def _winner_key(match: BracketMatch) -> object | None:
    return None if match.winner is None else _keys(match)[match.winner]


def _targets(scene: BracketScene, counts: list[int]) -> list[list[int | None]]:
    """For each match, the index of the next round's match its winner goes to, or None."""
    table = _table(scene)
    out: list[list[int | None]] = []
    for number, rnd in enumerate(scene.rounds[:-1]):
        following = scene.rounds[number + 1].matches
        row: list[int | None] = []
        if not rnd.matches:  # not drawn yet: the plates fill the next ones in order
            row = [min(i // table, counts[number + 1] - 1) for i in range(counts[number])]
        for i, match in enumerate(rnd.matches):
            target: int | None = match.next
            if target is None and not following:
                target = min(i // table, counts[number + 1] - 1)
            elif target is None and match.winner is not None:
                key = _winner_key(match)
                target = next((j for j, m in enumerate(following) if key in _keys(m)), None)
            row.append(target)
        out.append(row)
    return out


def _orders(
    scene: BracketScene, counts: list[int], targets: list[list[int | None]]
) -> list[list[int]]:
    """Each round's matches in the order drawn: the last as given, each earlier one in the
    order of the matches its winners go on to (so that the lines do not cross)."""
    orders: list[list[int]] = [list(range(c)) for c in counts]
    for number in range(len(counts) - 2, -1, -1):
        if not scene.rounds[number].matches:
            continue
        place = {m: p for p, m in enumerate(orders[number + 1])}
        far = len(place)
        orders[number].sort(
            key=lambda i: (place.get(t, far) if (t := targets[number][i]) is not None else far, i)
        )
    return orders


def _lines(scene: BracketScene, number: int, index: int) -> tuple[str, list[int]]:
    """A plate's kind and the entrant on each of its lines."""
    matches = scene.rounds[number].matches
    if not matches:
        return "pending", list(range(_table(scene)))
    players = _players(matches[index])
    if len(players) <= 1:
        return "bye", players or [0]
    return "match", players


def _column_width(rounds: int) -> int:
    room = (MAX_W - 2 * M - (rounds - 1) * LINK_W) // rounds
    return max(MIN_COL_W, min(MAX_COL_W, room))


@lru_cache(maxsize=32)
def bracket_layout(scene: BracketScene) -> BracketLayout:
    """Where everything goes on the bracket picture of ``scene``."""
    _check(scene)
    counts = _counts(scene)
    targets = _targets(scene, counts)
    orders = _orders(scene, counts, targets)
    n = len(scene.rounds)
    col_w = _column_width(n)
    used = n * col_w + (n - 1) * LINK_W
    width = max(MIN_W, used + 2 * M)
    left = (width - used) // 2
    columns = tuple(left + r * (col_w + LINK_W) for r in range(n))
    top0 = M + TITLE_H + CAPTION_H

    plates: list[list[Plate]] = []
    for number in range(n):
        feeders: dict[int, list[Plate]] = {}
        if number:
            for plate in plates[-1]:
                target = targets[number - 1][plate.index]
                if target is not None:
                    feeders.setdefault(target, []).append(plate)
        column: list[Plate] = []
        bottom = top0 - PLATE_GAP
        for index in orders[number]:
            kind, entrants = _lines(scene, number, index)
            height = 2 * PLATE_PAD + ROW_H * len(entrants)
            top = bottom + PLATE_GAP
            fed = feeders.get(index)
            if fed:
                centre = sum(p.centre_y for p in fed) / len(fed)
                top = max(top, round(centre - height / 2))
            x0 = columns[number]
            rows = tuple(
                (top + PLATE_PAD + k * ROW_H, top + PLATE_PAD + (k + 1) * ROW_H)
                for k in range(len(entrants))
            )
            winner_row = None
            if kind == "match":
                winner = scene.rounds[number].matches[index].winner
                if winner is not None:
                    winner_row = entrants.index(winner)
            box = (x0, top, x0 + col_w, top + height)
            column.append(Plate(number, index, kind, box, rows, tuple(entrants), winner_row))
            bottom = top + height
        plates.append(column)

    champion = None
    last = scene.rounds[-1].matches
    if len(last) == 1 and last[0].winner is not None:
        champion = _winner_key(last[0])

    links: list[Link] = []
    for number in range(n - 1):
        by_index = {p.index: p for p in plates[number + 1]}
        following = scene.rounds[number + 1].matches
        for plate in plates[number]:
            target = targets[number][plate.index]
            if target is None:
                continue
            matches = scene.rounds[number].matches
            match = matches[plate.index] if matches else None
            key = _winner_key(match) if match is not None else None
            start_row = plate.winner_row if plate.kind == "match" else None
            end = by_index[target]
            end_row = None
            if following and key is not None:
                keys = _keys(following[target])
                if key in keys and keys.index(key) in end.entrants:
                    end_row = end.entrants.index(keys.index(key))
            state = "open" if key is None else "champion" if key == champion else "done"
            links.append(
                Link(
                    (plate.box[2], round(plate.row_centre(start_row))),
                    (end.box[0], round(end.row_centre(end_row))),
                    state,
                )
            )

    height = max(p.box[3] for column in plates for p in column) + M + 4
    return BracketLayout(
        (width, height),
        columns,
        col_w,
        tuple(tuple(c) for c in plates),
        tuple(links),
        champion,
    )


# ---------------------------------------------------------------------------- drawing


def _names(scene: BracketScene, layout: BracketLayout) -> dict[tuple[int, int, int], str]:
    """What each line says, shortened to its plate; names cut to the same text keep
    their ends apart (``fit_apart``)."""
    room = layout.col_w - 2 * INSET
    whole: set[str] = set()
    lines: list[tuple[tuple[int, int, int], str, float]] = []
    bye = displayable(scene.labels.bye)
    for column in layout.plates:
        for plate in column:
            if plate.kind == "pending":
                continue
            match = scene.rounds[plate.round].matches[plate.index]
            for k, e in enumerate(plate.entrants):
                name = match.entrants[e] or ""
                width = room
                if plate.kind == "bye" and bye:
                    width -= text_width(bye, TAG_SIZE) + 10
                champion = layout.champion is not None and _keys(match)[e] == layout.champion
                if plate.round == len(scene.rounds) - 1 and champion:
                    width -= CROWN_W + 8
                whole.add(name)
                lines.append(((plate.round, plate.index, k), name, width))
    unique = sorted(whole)
    fitted = dict(zip(unique, fit_apart(unique, NAME_SIZE, [room] * len(unique)), strict=True))
    out: dict[tuple[int, int, int], str] = {}
    for key, name, width in lines:
        text = fitted[name]
        if text_width(text, NAME_SIZE) > width:
            text = fit(name, NAME_SIZE, width)
        out[key] = text or "?"
    return out


def _links(canvas: Image.Image, layout: BracketLayout) -> Image.Image:
    layer = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    # the open ones first, the champion's way last, on top
    order = {"open": 0, "done": 1, "champion": 2}
    for link in sorted(layout.links, key=lambda k: order[k.state]):
        (x0, y0), (x1, y1) = link.start, link.end
        xm = (x0 + x1) // 2
        colour = {"open": LINE_OPEN, "done": LINE_DONE, "champion": (*HIGHLIGHT, 255)}[link.state]
        width = 2 if link.state == "open" else 3
        draw.line([(x0, y0), (xm, y0), (xm, y1), (x1, y1)], fill=colour, width=width, joint="curve")
    return Image.alpha_composite(canvas.convert("RGBA"), layer).convert("RGB")


def _plate(
    canvas: Image.Image,
    scene: BracketScene,
    layout: BracketLayout,
    plate: Plate,
    names: dict[tuple[int, int, int], str],
) -> None:
    x0, y0, x1, y1 = plate.box
    size = (x1 - x0, y1 - y0)
    if plate.kind == "match":
        box = panel(size, 10, PANEL_EDGE, 1, 230)
    else:
        box = panel(size, 10, (255, 255, 255, 26), 1, 96)
    canvas.paste(box, (x0, y0), box)
    draw = ImageDraw.Draw(canvas, "RGBA")
    for k, (top, bottom) in enumerate(plate.rows):
        if k and plate.winner_row not in (k - 1, k):
            draw.line([(x0 + 10, top), (x1 - 11, top)], fill=SEPARATOR, width=1)
        if k == plate.winner_row:
            lit(draw, (x0 + 4, top + 1, x1 - 5, bottom - 2))
    if plate.kind == "pending":
        for top, bottom in plate.rows:
            y = (top + bottom) // 2
            draw.line([(x0 + INSET, y), (x0 + INSET + 28, y)], fill=(*TEXT_SOFT, 70), width=2)
        return
    match = scene.rounds[plate.round].matches[plate.index]
    for k, e in enumerate(plate.entrants):
        y = plate.row_centre(k)
        text = names[(plate.round, plate.index, k)]
        if plate.kind == "bye":
            ink = TEXT  # through to the next round: never greyed out as a loser
        elif match.winner is None:
            ink = TEXT
        elif k == plate.winner_row:
            ink = HIGHLIGHT
        else:
            ink = SOFT_NAME
        paste_text(canvas, (x0 + INSET, y), text, NAME_SIZE, ink, "lm")
        if plate.kind == "bye" and displayable(scene.labels.bye):
            paste_text(canvas, (x1 - INSET, y), scene.labels.bye, TAG_SIZE, SOFT_NAME, "rm")
        name = match.entrants[e]
        last = plate.round == len(scene.rounds) - 1
        champion = layout.champion is not None and _keys(match)[e] == layout.champion
        if last and k == plate.winner_row and name is not None and champion:
            mark = crown(CROWN_W)
            canvas.paste(mark, (x1 - INSET - mark.width, round(y - mark.height / 2) - 1), mark)


def bracket_picture(scene: BracketScene) -> Image.Image:
    """The knockout bracket of ``scene`` as an RGB image (``bracket_layout(scene).size``)."""
    layout = bracket_layout(scene)
    width, height = layout.size
    canvas = _links(felt(width, height, 6, 24, line=False), layout)
    title_band(canvas, scene.title, width)
    for number, rnd in enumerate(scene.rounds):
        x = layout.columns[number] + layout.col_w / 2
        label = fit(rnd.label, LABEL_SIZE, layout.col_w + LINK_W - 8)
        if label:
            y = M + TITLE_H + CAPTION_H / 2 - 2
            paste_text(canvas, (x, y), label, LABEL_SIZE, TEXT, "mm", halo=TEXT_HALO)
    names = _names(scene, layout)
    for column in layout.plates:
        for plate in column:
            _plate(canvas, scene, layout, plate, names)
    return canvas


def render_bracket(scene: BracketScene) -> bytes:
    """The knockout bracket as PNG bytes."""
    return encode_png(bracket_picture(scene), shared_palette())


# ---------------------------------------------------------------------------- words


def bracket_alt_text(scene: BracketScene, max_chars: int = 1000) -> str:
    """The bracket in words, e.g. ``"Cup. Round 1: Ana, Luis (winner: Ana); Eva (Bye).
    Final: to play."``, at most ``max_chars`` long (Discord takes 1024)."""
    labels = scene.labels
    parts = [f"{scene.title.strip()}."] if scene.title.strip() else []
    for rnd in scene.rounds:
        if not rnd.matches:
            parts.append(f"{rnd.label}: {labels.to_play}.")
            continue
        said: list[str] = []
        for match in rnd.matches:
            players = [said_name(match.entrants[i]) for i in _players(match)]
            if len(players) <= 1:
                said.append(f"{players[0] if players else '?'} ({labels.bye})")
            elif match.winner is None:
                said.append(f"{', '.join(players)} ({labels.to_play})")
            else:
                winner = said_name(match.entrants[match.winner])
                said.append(f"{', '.join(players)} ({labels.winner}: {winner})")
        parts.append(f"{rnd.label}: {'; '.join(said)}.")
    last = scene.rounds[-1].matches
    if len(last) == 1 and last[0].winner is not None:
        parts.append(f"{labels.champion}: {said_name(_winner_name(last[0]))}.")
    return shorten(" ".join(parts), max_chars)
