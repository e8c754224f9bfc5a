"""``/tute privacy show`` and ``/tute privacy erase`` in SimCord, in English and in Spanish,
in a server and in a DM: the member reads, for them alone, what the bot keeps about them;
erasing asks first (Keep it changes nothing; a confirmation that ran out is refused in
words), is refused while they sit at a table,
and once confirmed leaves nothing of them, their server's chips still adding up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord

from bot.client import TuteBot
from bot.config import Config
from bot.i18n import number, t
from bot.storage import Database, ledger, members, privacy
from bot.storage import ratings as stored_ratings
from bot.storage.ratings import StoredRating
from bot.tables.privacy import CONFIRM_SECONDS
from tests.cogs.tables._world import close_lobby
from tests.conftest import World, fast_bot

pytestmark = pytest.mark.e2e


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)


def db_of(env: simcord.Env) -> Database:
    bot = env.bot
    assert isinstance(bot, TuteBot)
    return bot.db


async def kept_about(env: simcord.Env, world: World, user_id: int) -> None:
    """The member has chips, a standing, a rating and a setting in the server."""
    db = db_of(env)
    guild_id = world.guild.id
    async with db.transaction() as conn:
        await members.ensure_member(conn, guild_id, user_id, 1000, 0.0)
        await members.set_notify_turn(conn, guild_id, user_id, False)
        await stored_ratings.put_rating(conn, guild_id, "two", user_id, StoredRating(27.0, 6.0, 3))


def buttons(message: discord.Message | simcord.ResponseMessage) -> list[tuple[str, str]]:
    """(label, custom_id) of every button of a message."""
    found: list[tuple[str, str]] = []
    rows: list[Any] = list(message.components)  # a sent message's, or a response's (dicts)
    for row in rows:
        children = row.children if isinstance(row, discord.ActionRow) else row["components"]
        for child in children:
            if isinstance(child, discord.Button):
                found.append((str(child.label), str(child.custom_id)))
            elif isinstance(child, dict) and child.get("type") == 2:
                found.append((str(child["label"]), str(child["custom_id"])))
    return found


async def ask_to_erase(
    who: simcord.MemberActor | simcord.UserHandle, world: World, lang: str
) -> simcord.ResponseMessage:
    if isinstance(who, simcord.MemberActor):
        asked = await who.slash(world.channel, "tute privacy erase")
    else:
        asked = await who.slash("tute privacy erase")
    assert asked.ephemeral and asked.response is not None
    assert asked.response.content == t("privacy.confirm", lang)
    assert [label for label, _ in buttons(asked.response)] == [
        t("privacy.erase_button", lang),
        t("privacy.keep_button", lang),
    ]
    return asked.response


def erase_id(question: simcord.ResponseMessage) -> str:
    return next(c for _, c in buttons(question) if c.startswith("tute:privacy:erase:"))


def keep_id(question: simcord.ResponseMessage) -> str:
    return next(c for _, c in buttons(question) if c == "tute:privacy:keep")


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("es-ES", "es")])
async def test_a_member_reads_what_is_kept_then_erases_it_once_confirmed(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    locale: str,
    lang: str,
) -> None:
    env, alice = simcord_env, world.member
    set_locale(locale)
    nothing = await alice.slash(world.channel, "tute privacy show")
    assert nothing.ephemeral and nothing.response is not None
    assert nothing.response.content == t("privacy.nothing", lang)
    await kept_about(env, world, alice.id)

    for shown in (
        await alice.slash(world.channel, "tute privacy show"),
        await alice.user.slash("tute privacy show"),  # in a DM too
    ):
        assert shown.ephemeral and shown.response is not None
        text = shown.response.content
        assert text.startswith(t("privacy.title", lang))
        assert t("privacy.server", lang, server="Casino") in text
        assert t("privacy.chips", lang, chips=number(1000, lang), rows=1) in text
        assert t("privacy.ratings", lang, count=1) in text
        assert t("privacy.preferences", lang) in text
        assert "/tute privacy erase" in text if lang == "en" else "/tute privacidad borrar" in text

    # Keep it: nothing changes
    question = await ask_to_erase(alice, world, lang)
    kept = await alice.click(question, custom_id=keep_id(question))
    assert kept.response is not None and kept.response.content == t("privacy.kept", lang)
    db = db_of(env)
    assert await members.member_stats(db, world.guild.id, alice.id) is not None

    # a confirmation that ran out is refused in words (one forged, or another member's, is
    # the service's to refuse: tests/tables/test_privacy.py; Discord sends no click on a
    # button a message does not have)
    question = await ask_to_erase(alice, world, lang)
    await env.advance_time(CONFIRM_SECONDS + 1)
    late = await alice.click(question, custom_id=erase_id(question))
    assert late.ephemeral and late.response is not None
    assert late.response.content == t("tables.errors.privacy_expired", lang)
    assert await members.member_stats(db, world.guild.id, alice.id) is not None

    # seated at a table: refused, with the table named
    opened = await alice.slash(world.channel, "tute new", variant="habanero")
    lobby = opened.response
    assert lobby is not None
    (table_id,) = env.bot.tables.tables  # type: ignore[attr-defined]
    busy = await alice.slash(world.channel, "tute privacy erase")
    assert busy.ephemeral and busy.response is not None
    assert busy.response.content == t("tables.errors.privacy_at_table", lang, table=table_id)
    await close_lobby(alice, lobby)

    # confirmed: everything goes, the chips still add up
    question = await ask_to_erase(alice.user, world, lang)  # from a DM
    done = await alice.user.click(question, custom_id=erase_id(question))
    assert done.response is not None
    # one server: her standing, rating and setting; her chips; the lobby she hosted
    said = t(
        "privacy.erased",
        lang,
        servers=1,
        standings=1,
        ratings=1,
        daily=0,
        reviews=0,
        preferences=1,
        chips=number(1000, lang),
        tables=1,
        tournaments=0,
        rated=0,
    )
    assert done.response.content == said
    assert not buttons(done.response)
    assert (await privacy.member_data(db, alice.id)).empty
    assert (await ledger.audit(db, world.guild.id)).balanced
    (state,) = await db.fetchall("SELECT state FROM tables WHERE id = ?", (table_id,))
    assert "alice" not in state[0] and str(alice.id) not in state[0]
    assert t("privacy.former_player", "en") in state[0]  # the table's language: the server's
    after = await alice.slash(world.channel, "tute privacy show")
    assert after.response is not None and after.response.content == t("privacy.nothing", lang)
    again = await alice.slash(world.channel, "tute privacy erase")
    assert again.response is not None
    assert again.response.content == t("privacy.nothing_to_erase", lang)
