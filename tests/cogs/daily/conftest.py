"""The daily deal's SimCord tests: a quick bot (robots play at once); every test runtime
has the same key of the daily seeds (``tests.runtime.DAILY_KEY``): the same deals."""

import pytest

from bot.client import TuteBot
from bot.config import Config
from tests.conftest import fast_bot


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)
