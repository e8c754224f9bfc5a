"""Fixtures of the tournament tests played through SimCord: a quick bot."""

from __future__ import annotations

import itertools
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
def pin_tables(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Pin the shuffle of every table opened from now on: the n-th table's seed is
    ``first + n`` (the tournament opens its tables in the order of its draw)."""

    def pin(first: int) -> None:
        counted = itertools.count(first)
        seeds().draw_from(lambda _bits: next(counted))

    return pin
