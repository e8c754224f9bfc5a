"""Pictures of the Spanish deck, the Tute table and tournaments, drawn with Pillow from code.

Everything is pure: a scene (a frozen dataclass) goes in, PNG bytes come out. Card
images are drawn once per process and cached; pictures are composed by pasting them.
Text in the pictures comes from the caller, already translated.
"""

from bot.render.bracket import (
    BracketLayout,
    bracket_alt_text,
    bracket_layout,
    bracket_picture,
    render_bracket,
)
from bot.render.bracket_scenes import (
    BracketLabels,
    BracketMatch,
    BracketRound,
    BracketScene,
    StandingsLabels,
    StandingsRow,
    StandingsScene,
)
from bot.render.cards import (
    CARD_H,
    CARD_SIZE,
    CARD_W,
    back_face,
    card_back,
    card_face,
    card_image,
)
from bot.render.palette import shared_palette
from bot.render.scenes import (
    SeatInfo,
    SideSummary,
    SummaryLabels,
    SummaryScene,
    TableScene,
)
from bot.render.standings import (
    render_standings,
    standings_alt_text,
    standings_picture,
    standings_size,
)
from bot.render.summary import render_summary, summary_image, summary_size
from bot.render.symbols import ALL_CARDS, RANKS, SUIT_SYMBOLS, SUITS, card_label, normalize_code
from bot.render.table import TABLE_SIZE, render_table, table_image

__all__ = [
    "ALL_CARDS",
    "CARD_H",
    "CARD_SIZE",
    "CARD_W",
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "TABLE_SIZE",
    "BracketLabels",
    "BracketLayout",
    "BracketMatch",
    "BracketRound",
    "BracketScene",
    "SeatInfo",
    "SideSummary",
    "StandingsLabels",
    "StandingsRow",
    "StandingsScene",
    "SummaryLabels",
    "SummaryScene",
    "TableScene",
    "bracket_alt_text",
    "bracket_layout",
    "bracket_picture",
    "card_back",
    "card_image",
    "card_label",
    "normalize_code",
    "render_bracket",
    "render_standings",
    "render_summary",
    "render_table",
    "standings_alt_text",
    "standings_picture",
    "standings_size",
    "summary_image",
    "summary_size",
    "table_image",
    "warm_up",
]


def warm_up() -> None:
    """Draw every card face and the back, and choose the palette, now (about
    a second), so that the first picture a player asks for is as quick as the others.
    Call it once at start-up; without it the first picture pays for it."""
    for code in ALL_CARDS:
        card_face(code)
    back_face()
    shared_palette()
