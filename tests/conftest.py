"""Shared fixtures: a real TuteBot for SimCord, and a world to play it in."""

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import simcord
import simcord.interactions
from simcord import ChannelHandle, GuildHandle, MemberActor

from bot.client import TuteBot
from bot.config import Config

TEST_CONFIG = Config(token="not-a-real-token", db_path=Path(tempfile.mkdtemp()) / "tute.db")
"""For tests that build a bot outside a fixture: its database is in a temporary folder."""


@pytest.fixture
def test_config(tmp_path: Path) -> Config:
    """A configuration whose database is a fresh SQLite file of the test's own."""
    return Config(token="not-a-real-token", db_path=tmp_path / "tute.db")


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    """The bot SimCord's ``simcord_env`` fixture starts: the real one, setup_hook and all."""
    return TuteBot(test_config)


@dataclass
class World:
    guild: GuildHandle
    channel: ChannelHandle
    member: MemberActor


@pytest.fixture
async def world(simcord_env: simcord.Env) -> World:
    """One server with a #tute channel and a member, alice. It must be an async fixture: the
    builders need the running environment's event loop."""
    guild = simcord_env.create_guild("Casino")
    channel = guild.create_text_channel("tute")
    member = guild.add_member(simcord_env.create_user("alice"))
    return World(guild, channel, member)


@pytest.fixture
def set_locale(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Make the next interactions come from a Discord client in this locale (``es-ES``...).

    SimCord sends every interaction with the locale ``en-US`` and has no setting for it, so
    this wraps the function that builds the interaction payload."""
    build = simcord.interactions.base_payload

    def set_to(locale: str) -> None:
        def base_payload(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
            record, payload = build(*args, **kwargs)
            payload["locale"] = locale
            return record, payload

        monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)

    return set_to
