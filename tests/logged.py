"""What the bot logged during a test, at a level and above: the records of its own loggers
(``bot``, ``cogs``) and discord.py's. asyncio's records are left out: the garbage of an
earlier test (an unclosed session, a task never awaited) is collected at any moment and
logged by asyncio in whichever test runs then, which says nothing about that test."""

from __future__ import annotations

import logging

import pytest

OURS = ("bot", "cogs", "discord")


def logged(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    """What the bot's loggers and discord.py's said at ``level`` or above."""
    return [
        record.getMessage()
        for record in caplog.records
        if record.levelno >= level and record.name.split(".")[0] in OURS
    ]


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return logged(caplog, logging.ERROR)
