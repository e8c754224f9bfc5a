"""The errors a test holds against the bot are its own and discord.py's, never asyncio's
report of another test's garbage."""

from __future__ import annotations

import logging

import pytest

from tests.logged import errors_logged, logged


def test_the_bots_errors_count_and_asyncios_garbage_does_not(
    caplog: pytest.LogCaptureFixture,
) -> None:
    logging.getLogger("asyncio").error("Unclosed client session")
    logging.getLogger("cogs.tables").warning("only a warning")
    assert errors_logged(caplog) == []
    logging.getLogger("bot.client").error("the bot failed")
    logging.getLogger("discord.client").error("discord.py failed")
    assert errors_logged(caplog) == ["the bot failed", "discord.py failed"]
    assert logged(caplog, logging.WARNING) == [
        "only a warning",
        "the bot failed",
        "discord.py failed",
    ]
