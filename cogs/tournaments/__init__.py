"""Tournaments on Discord: ``/tute tournament new`` and ``show`` (``commands``), the sign-up
buttons (``buttons``), and what a tournament posts in its channel as it goes: each round's
pairings with links to the tables, each match's result, the bracket or standings picture
and the winner (``posts``), where each table opened (``opened``). Where a tournament lives
on Discord (its sign-up message, the tables told) is this side's own (``places``). The
service (``bot.tables.competition.tournaments``) decides; this renders.
"""

from .commands import TournamentCommands

__all__ = ["TournamentCommands"]
