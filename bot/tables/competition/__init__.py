"""Play beyond one table: tournaments (a draw of knockout or Swiss rounds, their entries and
prizes, their tables opened on the table service) and seasons (the ratings' boards, reset
and crowned). It stands on the table service; the table service knows nothing of it, and
hears of a tournament only as a table's ``tournament_id``.

``tournament``: a draw, its rounds, places and prizes; ``tournament_state``: what is kept
of a tournament; ``tournaments``: a tournament's life (sign-up, fees, tables, restart);
``tournament_chips``: entries and prizes; ``tournament_retry``: tables tried again;
``seasons``: the seasons of the ratings."""

from .seasons import Podium, SeasonEnd
from .tournament import BYE, Draw, Format, Match, prizes, seeded
from .tournament_state import MAX_ENTRANTS, CaughtUp, Tournament, TournamentStatus
from .tournaments import TournamentService

__all__ = [
    "BYE",
    "MAX_ENTRANTS",
    "CaughtUp",
    "Draw",
    "Format",
    "Match",
    "Podium",
    "SeasonEnd",
    "Tournament",
    "TournamentService",
    "TournamentStatus",
    "prizes",
    "seeded",
]
