"""Fixtures of the tournament tests played through SimCord: a quick bot."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from bot.client import TuteBot
from bot.config import Config
from bot.tables import service as service_module
from tests.conftest import fast_bot


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)


@pytest.fixture
def pin_tables(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Pin the shuffle of every table opened from now on: the n-th table's seed is
    ``first + n`` (the tournament opens its tables in the order of its draw)."""

    def pin(first: int) -> None:
        seeds = itertools.count(first)
        monkeypatch.setattr(
            service_module, "secrets", SimpleNamespace(randbits=lambda _: next(seeds))
        )

    return pin
