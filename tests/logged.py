"""What the bot logged as an error during a test: the records of its own loggers (``bot``,
``cogs``) and discord.py's, at ERROR or above. asyncio's records are left out: the garbage of
an earlier test (an unclosed session, a task never awaited) is collected at any moment and
logged by asyncio in whichever test runs then, which says nothing about that test."""

from __future__ import annotations

import logging

import pytest

OURS = ("bot", "cogs", "discord")


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.levelno >= logging.ERROR and record.name.split(".")[0] in OURS
    ]
