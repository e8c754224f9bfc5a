"""Fixtures of the table tests played through SimCord: a quick bot, and a pinned shuffle."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.client import TuteBot
from bot.config import Config
from tests.conftest import fast_bot
from tests.runtime import seeds


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)


@pytest.fixture
def table_seed(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Pin the shuffle of the next tables (each table draws its seed when it opens)."""

    def pin(seed: int) -> None:
        seeds().pin(seed)

    return pin
