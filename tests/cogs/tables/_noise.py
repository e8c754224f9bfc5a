"""What a whole game leaves where its members scroll: four members at one table, two of them
with their DMs closed (their hands under My hand, in the thread), every one with turn
notices on and slow to play (each lets ``ping_after`` pass before playing, so every turn of
a hand not in its DMs is pinged). At the end, every message left in the channel and in the
game's thread is sorted by what it is. Used by tests/cogs/tables/test_channel_noise.py and
benchmarks/channel_noise.py.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord
import simcord
from simcord.results import to_discord_message

from bot.i18n import t
from bot.tables.model import Status
from bot.tables.views import table_view
from cogs.tables.pings import ping_after
from tests.cogs.tables._game import SEED, Game, Human
from tests.cogs.tables._world import add_member, layout_texts, placed
from tests.conftest import World

NAMES = ("bob", "carol", "dave")
"""The members who sit with alice; carol and dave have their DMs closed."""
CLOSED = ("carol", "dave")
TOKEN_LASTS = 15 * 60
"""Seconds an interaction's token lets the bot edit or delete the only-you answer it made."""

VARIANTS: dict[str, dict[str, str]] = {
    "individual": {},
    "pairs": {},
    "arrastrado seats=4": {"house": "seats=4"},
}
"""The tables four members play at, by name, and the options that open each."""


@dataclass(frozen=True, slots=True)
class Left:
    """What a game left where its members scroll, each message by what it is."""

    channel: Counter[str]
    thread: Counter[str]
    pings: int
    """How many turn pings the game sent on its way."""
    deletes: Counter[str]
    """How many times each message was deleted (its path)."""

    @property
    def total(self) -> int:
        return self.channel.total() + self.thread.total()


def close_dms(env: simcord.Env, member: simcord.MemberActor) -> None:
    env.inject_error(
        "POST",
        f"/channels/{member.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


async def slow_game(
    env: simcord.Env,
    world: World,
    variant: str = "individual",
    *,
    rounds: int = 3,
    wait: float | None = None,
) -> Game:
    """Four members play ``variant`` to its end, each letting their turn wait ``wait``
    seconds (by default just past ``ping_after``) before they play: the game, over."""
    members = [world.member]
    for name in NAMES:
        member = await add_member(env, world, name)
        if name in CLOSED:
            close_dms(env, member)
        members.append(member)
    game = Game(env, world, [Human(m) for m in members], SEED)
    name = variant.split()[0]
    teams = [0, 1, 0, 1] if name == "pairs" else None
    await game.open(name, robots=0, rounds=rounds, teams=teams, **VARIANTS[variant])
    await game.start()
    for _ in range(2000):
        if game.table.status is not Status.PLAYING:
            break
        if game.next_human() is not None:
            await env.advance_time(wait or ping_after(table_view(game.table)) + 1)
            if game.table.status is not Status.PLAYING:
                break
        await game.step()
    else:
        raise AssertionError("the game did not end")
    return game


def what(game: Game, message: discord.Message) -> str:
    """What a message left in the channel or the thread is."""
    table = game.table
    lang = table.language
    place = placed(table)
    if message.id == place.message_id:
        return "lobby"
    if message.id == place.play_message_id:
        return "result"
    if message.flags.ephemeral:
        return "only-you"
    if message.type is discord.MessageType.thread_created:
        return "thread notice"
    texts = layout_texts(message)
    titles = [t("summary.title", lang, deal=d + 1, id=table.id) for d in range(table.deal_no)]
    if texts and any(texts[0].startswith(f"### {title}\n") for title in titles):
        return "deal summary"
    ping = t("tables.your_turn_ping", lang, mention="<@")
    if message.content.startswith("<@") and message.content.endswith(ping.split("<@")[1]):
        return "turn ping"
    return f"other: {message.type} {message.content!r} {texts[:1]!r}"[:120]


def deletable(game: Game, stored: Any) -> bool:
    """Whether the bot could still delete a message it left: any public one; an only-you
    one while the token of an interaction that showed it lasts (15 minutes)."""
    if not stored.is_ephemeral:
        return True
    # a click in it answers by editing it: that click's token deletes it too
    last = datetime.fromisoformat(stored.edited_timestamp or stored.timestamp)
    return (game.env.now() - last).total_seconds() < TOKEN_LASTS


def left_behind(game: Game) -> Left:
    """Every message the game left in its channel and its thread, by what it is (an only-you
    message whose token ran out cannot be deleted any more: only its member's client can
    still show it, until it reloads)."""
    table = game.table
    env = game.env
    thread_id = placed(table).thread_id
    kinds = {}
    for channel_id in (game.world.channel.id, thread_id):
        stored = env.backend.messages.get(channel_id, {}).values() if channel_id else []
        kinds[channel_id] = Counter(
            what(game, to_discord_message(env, m)) for m in stored if deletable(game, m)
        )
    ping = t("tables.your_turn_ping", table.language, mention="")
    calls = env.http_requests
    sent = [c for c in calls if c.method == "POST" and ping in json.dumps(c.json or {})]
    deletes = Counter(c.path for c in calls if c.method == "DELETE")
    return Left(kinds[game.world.channel.id], kinds.get(thread_id, Counter()), len(sent), deletes)
