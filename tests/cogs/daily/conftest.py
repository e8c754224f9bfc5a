"""The daily deal's SimCord tests: a quick bot (robots play at once)."""

from types import SimpleNamespace

import pytest

from bot.client import TuteBot
from bot.config import Config
from bot.tables import daily as daily_module
from tests.conftest import fast_bot


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)


@pytest.fixture(autouse=True)
def same_daily_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The install's key of the daily seeds is the same in every run: the same deals."""
    monkeypatch.setattr(daily_module, "secrets", SimpleNamespace(token_hex=lambda _n: "k" * 64))
