"""Hostile display names: a member's name is shown as written and never takes effect.

A name can hold markdown (``**``, ``_``, ``~~``, `` ` ``, ``||``, a heading, a quote), a
masked link, a bare link or mentions. Every Discord text the bot writes escapes it (the
stored name stays raw; the pictures and their alt text show it raw), and no message the
bot sends pings anybody, except the invitation of ``/tute new``, which pings the invited.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
import simcord
from simcord import MemberActor

from bot.ai import Level
from bot.client import TuteBot
from bot.config import Config
from bot.i18n import t
from bot.tables.model import Seat, Status, Table
from bot.tables.service import DECLARE_GRACE
from bot.tables.views import table_view
from cogs._base import shown_name
from cogs.standings import stats_embed
from cogs.tables import embeds as ui
from cogs.tables import said as words
from tests.cogs._said import components, discord_texts, message_body, plain_texts
from tests.cogs.tables._world import card_of, close_lobby, hand_buttons, placed
from tests.conftest import World, fast_bot

HOSTILE = "[Free chips](https://evil.example) **x** @everyone <@1>"
SHOWN = r"\[Free chips\](https\://evil.example) \*\*x\*\* @" + "\u200b" + r"everyone \<@1>"
HEADING = "# Big __u__ ||s|| `c` ~~x~~"
SHOWN_HEADING = r"\# Big \_\_u\_\_ \|\|s\|\| \`c\` \~\~x\~\~"


# ------------------------------------------------------------------------ the helper


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        # plain names are shown as they are
        ("alice", "alice"),
        ("José", "José"),
        ("Jean-Luc (away)", "Jean-Luc (away)"),
        ("O'Brien 2", "O'Brien 2"),
        ("Zoë 🃏", "Zoë 🃏"),
        # links: masked (the brackets) and bare (the colon of ://)
        ("[Free chips](https://evil.example)", r"\[Free chips\](https\://evil.example)"),
        ("[a](http://x) [b](http://y)", r"\[a\](http\://x) \[b\](http\://y)"),
        ("see https://evil.example", r"see https\://evil.example"),
        # markdown
        ("**bold**", r"\*\*bold\*\*"),
        ("*it*", r"\*it\*"),
        ("__under__", r"\_\_under\_\_"),
        ("snake_case", r"snake\_case"),
        ("~~gone~~", r"\~\~gone\~\~"),
        ("`code`", r"\`code\`"),
        ("```block```", r"\`\`\`block\`\`\`"),
        ("||spoiler||", r"\|\|spoiler\|\|"),
        ("back\\slash", r"back\\slash"),
        # line starts: heading, quote, subtext, lists
        ("# heading", r"\# heading"),
        ("### small heading", r"\### small heading"),
        ("> quote", r"\> quote"),
        (">>> quote", r"\>>> quote"),
        ("-# small", r"\-# small"),
        ("- item", r"\- item"),
        ("1. first", r"1\. first"),
        # mentions, user, role, channel, everyone, here; timestamps and commands
        ("<@1>", r"\<@1>"),
        ("<@123456789012345678>", "\\<@\u200b123456789012345678>"),
        ("<@&123456789012345678>", "\\<@\u200b&123456789012345678>"),
        ("<#123>", r"\<#123>"),
        ("@everyone", "@\u200beveryone"),
        ("@here", "@\u200bhere"),
        ("<t:0:R>", r"\<t:0:R>"),
        ("</tute new:1>", r"\</tute new:1>"),
        # a line break would start a new line (and its heading or quote)
        ("a\n# b", r"a # b"),
        (HOSTILE, SHOWN),
        (HEADING, SHOWN_HEADING),
    ],
)
def test_shown_name_escapes_what_would_take_effect(name: str, shown: str) -> None:
    assert shown_name(name) == shown


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_robot_names_and_catalog_names_survive_escaping(lang: str, level: str) -> None:
    robot = Seat.for_robot(2, Level(level))
    assert shown_name(ui.seat_name(robot, lang)) == ui.seat_name(robot, lang)
    short = t("tables.robot_short", lang, number=2)
    assert shown_name(short) == short


def test_seat_names_are_escaped_in_text_and_raw_where_plain() -> None:
    seat = Seat(name=HOSTILE, user_id=5)
    assert ui.seat_name(seat, "en") == SHOWN
    assert ui.seat_name(seat, "en", plain=True) == HOSTILE
    seat.away = True
    seat.robot = Level.EASY
    assert ui.seat_name(seat, "en") == t("tables.away_name", "en", name=SHOWN)
    seat.left = True
    assert ui.seat_name(seat, "en") == t("tables.left_name", "en", name=SHOWN)


def test_the_bots_default_pings_nobody(test_config: Config) -> None:
    mentions = TuteBot(test_config).allowed_mentions
    assert mentions is not None and mentions.to_dict() == {"parse": []}


# ------------------------------------------------------------------------ the audit

MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\((?P<url>[^)]*)\)")
RAW_MENTION = re.compile(r"(?<!\\)<(@[!&]?|/[^>]*:)\d+>|@(everyone|here)")
ASKS_NOTHING: dict[str, Any] = {"parse": []}
"""The allowed_mentions of a message that pings nobody: the bot's default."""


def pinged(body: dict[str, Any]) -> set[str]:
    """Whom a message pings: the mentions in its content or its layout's text displays
    (embeds never ping) that its allowed_mentions let through (``everyone``,
    ``user:<id>``, ``role:<id>``)."""
    displays = [str(c.get("content") or "") for c in components(body.get("components") or [])]
    content = "\n".join([body.get("content") or "", *displays])
    # Without allowed_mentions (discord.py leaves it out of an edit that keeps the content),
    # Discord lets every mention in the content through.
    allowed = body.get("allowed_mentions") or {"parse": ["everyone", "users", "roles"]}
    parse = set(allowed.get("parse", []))
    users = {str(u) for u in allowed.get("users", [])}
    roles = {str(r) for r in allowed.get("roles", [])}
    found: set[str] = set()
    if "everyone" in parse and re.search(r"@(everyone|here)", content):
        found.add("everyone")
    for user in re.findall(r"(?<!\\)<@!?(\d+)>", content):  # "\<@1>" is text
        if "users" in parse or user in users:
            found.add(f"user:{user}")
    for role in re.findall(r"<@&(\d+)>", content):
        if "roles" in parse or role in roles:
            found.add(f"role:{role}")
    return found


def audit_requests(env: simcord.Env, *, invited: int | None = None) -> list[str]:
    """Check every message the bot sent or edited: it pings nobody (but the invited member,
    in the invitation), and its allowed_mentions never let @everyone or a role through; no
    link but Discord's own, no raw mention, the names escaped; labels within Discord's 80
    characters. Returns every markdown text."""
    said: list[str] = []
    for call in env.http_requests:
        body = message_body(call)
        if body is None:
            continue
        where = (call.method, call.path)
        texts = discord_texts(body)
        content = body.get("content") or ""
        parse = set((body.get("allowed_mentions") or {}).get("parse", []))
        assert not parse & {"everyone", "roles"}, where
        if invited is not None and f"<@{invited}>" in content:
            assert body.get("allowed_mentions") == {"parse": [], "users": [invited]}, where
            assert pinged(body) == {f"user:{invited}"}, where
            assert content == t("tables.invited", "en", mentions=f"<@{invited}>")
            texts = texts[1:]
        else:
            if content:
                assert body.get("allowed_mentions") == ASKS_NOTHING, where
            assert pinged(body) == set(), where
        for text in texts:
            for link in MASKED_LINK.finditer(text):
                assert link["url"].startswith("https://discord.com/channels/"), (where, text)
            assert not RAW_MENTION.search(text), (where, text)
            assert "https://evil.example" not in text, (where, text)
            assert "**x**" not in text and "||s||" not in text, (where, text)
            if "Free chips" in text:
                assert SHOWN in text, (where, text)
            if "Big" in text:
                assert SHOWN_HEADING in text, (where, text)
        for text in plain_texts(body):
            assert "\\[" not in text and "\\#" not in text, (where, text)
        for c in components(body.get("components") or []):
            assert len(str(c.get("label") or "")) <= 80, where
        said += texts
    return said


def bot_messages(env: simcord.Env, world: World, table: Table) -> list[discord.Message]:
    messages = list(world.channel.history())
    for thread in world.channel.threads:
        if thread.id == placed(table).thread_id:
            messages += thread.history()
    bot_id = env.bot.user.id  # type: ignore[union-attr]
    return [m for m in messages if m.author.id == bot_id]


# ------------------------------------------------------------------------ end to end


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)


def op_button(message: discord.Message | simcord.ResponseMessage, op: str) -> str:
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else getattr(row, "children", [])
        for child in children:
            custom_id = child.get("custom_id") if isinstance(child, dict) else child.custom_id
            if custom_id and custom_id.endswith(f":{op}"):
                return custom_id
    raise AssertionError(f"no {op} button")


def enabled_cards(message: discord.Message) -> list[str]:
    return [b.custom_id for b in hand_buttons(message) if not b.disabled and card_of(b) is not None]


def the_table(env: simcord.Env) -> Table:
    return next(iter(env.bot.tables.tables.values()))  # type: ignore[attr-defined]


async def play_out(env: simcord.Env, table: Table, players: list[MemberActor]) -> Table:
    """Each human clicks an enabled card of the hand in their DMs until the game is over;
    when nobody can, time passes (a robot waits for a declaration)."""
    for _ in range(300):
        if table.status is not Status.PLAYING:
            return table
        moved = False
        for member in players:
            dms = member.user.dm_channel.history()
            cards = enabled_cards(dms[-1]) if dms else []
            if cards:
                await member.user.click(dms[-1], custom_id=cards[0])
                moved = True
                break
        if not moved:
            await env.advance_time(DECLARE_GRACE + 1)
    raise AssertionError("the game did not end")


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_hostile_names_at_a_whole_game(simcord_env: simcord.Env, world: World) -> None:
    """Two members with hostile names open, join and play a game: every text the bot sent
    shows their names escaped, nothing pings, and the pictures' alt texts name them raw."""
    env = simcord_env
    host = world.guild.add_member(env.create_user("mallory"), nick=HOSTILE)
    guest = world.guild.add_member(env.create_user("trudy", global_name=HEADING))
    await env.settle()

    result = await host.slash(world.channel, "tute new", variant="habanero", rounds=1)
    lobby = result.response
    assert lobby is not None and not result.ephemeral
    assert not lobby.content
    await guest.click(lobby, custom_id=op_button(lobby, "join"))
    (embed,) = lobby.embeds
    seats = next(f.value or "" for f in embed.fields if f.name == t("tables.seats", "en"))
    assert SHOWN in seats and SHOWN_HEADING in seats
    refused = await guest.click(lobby, custom_id=op_button(lobby, "start"))
    assert refused.ephemeral  # a message with content: it pings nobody either
    await host.click(lobby, custom_id=op_button(lobby, "start"))

    table = the_table(env)
    assert [s.name for s in table.seats if s is not None] == [HOSTILE, HEADING], "stored raw"
    log = "\n".join(words.log_lines(table_view(table), "en"))
    assert t("tables.log.opened", "en", name=SHOWN) in log
    assert t("tables.log.joined", "en", name=SHOWN_HEADING) in log

    table = await play_out(env, table, [host, guest])
    assert table.status is Status.FINISHED

    said = "\n".join(audit_requests(env))
    assert SHOWN in said and SHOWN_HEADING in said, "the names are shown, escaped"
    assert t("tables.errors.host_only", "en") in said
    alts = [
        a.get("description") or ""
        for call in env.http_requests
        if (body := message_body(call)) is not None
        for a in body.get("attachments") or []
    ]
    assert any(HOSTILE in alt for alt in alts), "alt texts name the players as they are"
    for message in bot_messages(env, world, table):
        assert not message.mention_everyone, message.id
        assert message.mentions == [], message.id
        assert message.role_mentions == [], message.id


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_invitation_pings_the_invited_alone(
    simcord_env: simcord.Env, world: World
) -> None:
    env = simcord_env
    host = world.guild.add_member(env.create_user("mallory"), nick=HOSTILE)
    bob = world.guild.add_member(env.create_user("bob"))
    await env.settle()
    result = await host.slash(
        world.channel, "tute new", variant="arrastrado", private=True, invite=bob
    )
    lobby = result.response
    assert lobby is not None and f"<@{bob.id}>" in lobby.content
    await bob.click(lobby, custom_id=op_button(lobby, "join"))
    await close_lobby(host, lobby)
    said = "\n".join(audit_requests(env, invited=bob.id))
    assert SHOWN in said
    assert [m.id for m in lobby.message.mentions] == [bob.id]


# ------------------------------------------------------------------------ standings


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_hostile_names_in_stats_and_leaderboard(
    simcord_env: simcord.Env, world: World
) -> None:
    env = simcord_env
    host = world.guild.add_member(env.create_user("mallory"), nick=HOSTILE)
    await env.settle()

    stats = await host.slash(world.channel, "tute stats")
    assert stats.response is not None and stats.ephemeral
    (embed,) = stats.response.embeds
    assert embed.title == t("standings.stats.title", "en", name=SHOWN)

    board = await host.slash(world.channel, "tute leaderboard")
    assert board.response is not None
    (embed,) = board.response.embeds
    # the leaderboard names members by mention (shown as their names, pinging nobody)
    assert f"<@{host.id}>" in (embed.description or "")
    assert board.response.message.mentions == []

    for call in env.http_requests:
        body = message_body(call)
        if body is not None:
            assert body.get("allowed_mentions") == ASKS_NOTHING, (call.method, call.path)
            for text in discord_texts(body):
                assert "https://evil.example" not in text and "**x**" not in text, text


def test_stats_embed_escapes_the_members_name() -> None:
    member: Any = type(
        "Member",
        (),
        {
            "display_name": HOSTILE,
            "display_avatar": type("Avatar", (), {"url": "https://cdn.example/a.png"})(),
        },
    )()
    found: Any = type(
        "Stats",
        (),
        {
            "balance": 1,
            "rank": 1,
            "members": 1,
            "xp": 0,
            "games_won": 0,
            "games_played": 0,
            "rounds_won": 0,
            "rounds_played": 0,
            "cantes": 0,
            "tutes": 0,
        },
    )()
    embed = stats_embed(found, member, "en")
    assert embed.title == t("standings.stats.title", "en", name=SHOWN)
