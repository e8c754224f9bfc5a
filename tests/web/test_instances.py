"""Whether a session's Activity instance is still there (bot/web/instances.py): Discord's
word decides, its silence does not, and its answers are kept a while and shared."""

from __future__ import annotations

import asyncio

import pytest

from bot.web.activity import DiscordCallError, Instance
from bot.web.instances import CHECK_TTL, InstanceCheck
from bot.web.sessions import Session, WebAuthError
from tests.tables._play import Clock

ANA, EVA = 10, 12


def session_of(user_id: int, instance_id: str = "i-1") -> Session:
    return Session(user_id, "Ana", instance_id, channel_id=2, guild_id=1, expires=2e9)


class Discord:
    """Says an instance lists Ana alone; ``answers``, when set, holds each answer back."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.answers: asyncio.Event | None = None
        self.error: Exception | None = None

    async def instance(self, instance_id: str) -> Instance:
        self.asked.append(instance_id)
        if self.answers is not None:
            await self.answers.wait()
        if self.error is not None:
            raise self.error
        return Instance(instance_id, 2, 1, frozenset({ANA}))


async def test_the_pages_of_an_instance_coming_back_at_once_ask_once() -> None:
    discord, clock = Discord(), Clock()
    check = InstanceCheck(discord, clock)
    discord.answers = asyncio.Event()
    asking = [asyncio.create_task(check.refusal(session_of(u))) for u in [ANA] * 9 + [EVA]]
    await asyncio.sleep(0)
    asking[0].cancel()  # one page goes away meanwhile: the others still hear the answer
    discord.answers.set()
    answers = await asyncio.gather(*asking[1:])
    assert answers == [None] * 8 + ["not in the instance"]
    assert discord.asked == ["i-1"]


@pytest.mark.parametrize(
    ("error", "refusal"),
    [
        (WebAuthError("no such instance"), "no such instance"),
        (DiscordCallError("GET: 503"), None),
        (RuntimeError("a bug"), None),
    ],
)
async def test_only_discords_clear_word_refuses(error: Exception, refusal: str | None) -> None:
    discord, clock = Discord(), Clock()
    discord.error = error
    check = InstanceCheck(discord, clock)
    assert await check.refusal(session_of(ANA)) == refusal
    clock.now += CHECK_TTL - 1
    assert await check.refusal(session_of(ANA)) == refusal
    assert discord.asked == ["i-1"]  # a refused or unanswered call is not made again soon
    clock.now += 1
    await check.refusal(session_of(ANA))
    assert discord.asked == ["i-1", "i-1"]
