"""Standings on Discord, by room: ``commands`` (``/tute leaderboard``, ``stats``, ``config``,
``daily``), ``leaderboard`` (a board's pages and their buttons), ``embeds``, ``common``."""

from .commands import StandingsCommands
from .embeds import stats_embed
from .leaderboard import LeaderboardPage, leaderboard_message

__all__ = ["LeaderboardPage", "StandingsCommands", "leaderboard_message", "stats_embed"]
