"""The daily deal: ``/tute challenge`` (play today's deal, see the day's board)."""

from .commands import ChallengeCommands

__all__ = ["ChallengeCommands"]
