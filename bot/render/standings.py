"""Tournament pictures: the Swiss standings, a single column ``STANDINGS_W`` wide (narrow
enough to read on a phone without zooming), one line per entrant, the leader's lit; drawn
like the bracket (``bracket``, with the look of ``tournament_look``), on the table's felt. Deterministic: the same scene gives
the same bytes; ``standings_alt_text`` says it in words, for screen readers.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render.bracket_scenes import StandingsRow, StandingsScene
from bot.render.palette import shared_palette
from bot.render.png import encode_png
from bot.render.style import HIGHLIGHT, PANEL_EDGE, TEXT, TEXT_HALO, TEXT_SOFT, felt, panel
from bot.render.text import fit, fit_apart, paste_text, text_width
from bot.render.tournament_look import (
    CAPTION_H,
    CROWN_W,
    INSET,
    LABEL_SIZE,
    NAME_SIZE,
    TITLE_H,
    M,
    crown,
    lit,
    said_name,
    shorten,
    title_band,
)

STANDINGS_W = 560
LINE_H = 32
PLACE_W = 44
NUMBER_GAP = 18


def _is_leader(row: StandingsRow, scene: StandingsScene) -> bool:
    return row.place == min(r.place for r in scene.rows)


def standings_size(scene: StandingsScene) -> tuple[int, int]:
    """Size in pixels of the standings picture of ``scene``."""
    rows = max(1, len(scene.rows))
    return STANDINGS_W, M + TITLE_H + CAPTION_H + 8 + LINE_H * rows + 8 + M


def _number_columns(scene: StandingsScene) -> tuple[float, float]:
    """Widths of the wins and tie-break columns: their heading or widest value."""
    labels = scene.labels
    wins = max(
        [
            text_width(labels.wins, LABEL_SIZE),
            *(text_width(str(r.wins), NAME_SIZE) for r in scene.rows),
        ]
    )
    ties = max(
        [
            text_width(labels.tie_break, LABEL_SIZE),
            *(text_width(str(r.tie_break), NAME_SIZE) for r in scene.rows),
        ]
    )
    return min(wins, 130), min(ties, 130)


def standings_picture(scene: StandingsScene) -> Image.Image:
    """The Swiss standings of ``scene`` as an RGB image (``standings_size(scene)``)."""
    width, height = standings_size(scene)
    canvas = felt(width, height, 6, 24, line=False).copy()
    title_band(canvas, scene.title, width, scene.subtitle)
    x0, x1 = M, width - M
    top = M + TITLE_H + CAPTION_H
    box = panel((x1 - x0, height - M - top), 12, PANEL_EDGE, 1, 236)
    canvas.paste(box, (x0, top), box)
    wins_w, ties_w = _number_columns(scene)
    ties_right = x1 - INSET
    wins_right = ties_right - ties_w - NUMBER_GAP
    place_right = x0 + INSET + PLACE_W - 10
    name_left = x0 + INSET + PLACE_W + 4
    name_room = wins_right - wins_w - NUMBER_GAP - name_left
    # headings over the columns
    y = top - CAPTION_H / 2 + 2
    labels = scene.labels
    for text, x, anchor, room in (
        (labels.place, place_right, "rm", PLACE_W),
        (labels.name, name_left, "lm", name_room),
        (labels.wins, wins_right, "rm", wins_w),
        (labels.tie_break, ties_right, "rm", ties_w),
    ):
        text = fit(text, LABEL_SIZE, room)
        if text:
            paste_text(canvas, (x, y), text, LABEL_SIZE, TEXT, anchor, halo=TEXT_HALO)
    draw = ImageDraw.Draw(canvas, "RGBA")
    names = fit_apart(
        [r.name for r in scene.rows],
        NAME_SIZE,
        [name_room - (CROWN_W + 8 if _is_leader(r, scene) else 0) for r in scene.rows],
    )
    y = top + 8
    for k, (row, name) in enumerate(zip(scene.rows, names, strict=True)):
        leader = _is_leader(row, scene)
        if leader or row.highlight:
            lit(draw, (x0 + 4, y + 1, x1 - 5, y + LINE_H - 2))
        elif k % 2:
            draw.rectangle((x0 + 4, y + 1, x1 - 5, y + LINE_H - 2), fill=(255, 255, 255, 14))
        cy = y + LINE_H / 2
        ink = HIGHLIGHT if leader else TEXT
        place = fit(str(row.place), NAME_SIZE, PLACE_W)
        paste_text(canvas, (place_right, cy), place, NAME_SIZE, TEXT_SOFT, "rm")
        paste_text(canvas, (name_left, cy), name or "?", NAME_SIZE, ink, "lm")
        if leader:
            mark = crown(CROWN_W)
            at = (
                round(name_left + text_width(name or "?", NAME_SIZE) + 8),
                round(cy - mark.height / 2) - 1,
            )
            canvas.paste(mark, at, mark)
        wins = fit(str(row.wins), NAME_SIZE, wins_w + NUMBER_GAP - 4)
        paste_text(canvas, (wins_right, cy), wins, NAME_SIZE, ink, "rm")
        ties = fit(str(row.tie_break), NAME_SIZE, ties_w + NUMBER_GAP - 4)
        if ties:
            paste_text(canvas, (ties_right, cy), ties, NAME_SIZE, TEXT_SOFT, "rm")
        y += LINE_H
    return canvas


def render_standings(scene: StandingsScene) -> bytes:
    """The Swiss standings as PNG bytes."""
    return encode_png(standings_picture(scene), shared_palette())


def standings_alt_text(scene: StandingsScene, max_chars: int = 1000) -> str:
    """The standings in words, e.g. ``"Swiss. After round 3. 1. Ana: Wins 3, Tie-break 7; ..."``,
    at most ``max_chars`` long."""
    labels = scene.labels
    head = ". ".join(t.strip() for t in (scene.title, scene.subtitle) if t.strip())
    rows: list[str] = []
    for row in scene.rows:
        said = f"{row.place}. {said_name(row.name)}: {labels.wins} {row.wins}"
        if str(row.tie_break):
            said += f", {labels.tie_break} {row.tie_break}"
        rows.append(said)
    text = (f"{head}. " if head else "") + "; ".join(rows) + ("." if rows else "")
    return shorten(text, max_chars)
