"""Tournaments on Discord: ``/tute tournament new`` and ``show`` (``commands``), the sign-up
buttons (``buttons``), and what a tournament posts in its channel as it goes: each round's
pairings with links to the tables, each match's result, the bracket or standings picture
and the winner (``posts``). The service (``bot.tables.competition.tournaments``) decides; this renders.
"""

from .commands import TournamentCommands

__all__ = ["TournamentCommands"]
