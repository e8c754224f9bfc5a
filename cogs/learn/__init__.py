"""``/tute learn`` on Discord: ``commands`` (the command, where the lesson goes, what a
click does), ``layout`` (a step drawn as one message) and ``buttons`` (the one persistent
button, whose custom_id carries the lesson, the step and the move). The lessons and their
checks are the service's (``bot.tables.tutorial``)."""

from .commands import LearnCommands

__all__ = ["LearnCommands"]
