"""Sixty-four members with long hostile names (markdown, mentions, @everyone, right-to-left
text, emoji) play a tournament through SimCord, a knockout in English and a Swiss in
Spanish: every Join is answered, every post the bot makes is delivered and within
Discord's limits (content, embeds, pings), the sign-up message ends without its buttons,
and an entrant who leaves mid-match wins nothing.

The members never click a card: each turn runs out (``advance_time``) and the stand-in
robots play for them, so the games are quick and the same on every run."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord
from simcord import MemberActor

from bot.i18n import t
from bot.storage.settings import update_settings
from bot.tables.competition.tournament import BYE
from bot.tables.competition.tournaments import TournamentStatus
from cogs.tournaments import posts
from cogs.tournaments.places import places_of
from tests.cogs._said import message_body
from tests.cogs.tables._world import add_member, buttons, placed
from tests.cogs.tournaments.test_eight import (
    TARGET,
    message,
    posted,
    settled,
    table_of,
    tournaments_of,
)
from tests.cogs.tournaments.test_posts_at_scale import hostile_names
from tests.conftest import World
from tests.discord_limits import check_message

pytestmark = pytest.mark.e2e

ENTRANTS = 64


async def sign_up_all(
    env: simcord.Env, world: World, lang: str, format: str, **options: int
) -> tuple[simcord.ResponseMessage, int, dict[int, MemberActor]]:
    """Alice opens it; she and 63 members with hostile names join with the button."""
    if lang != "en":
        async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
            await update_settings(conn, world.guild.id, language=lang)
    members = [world.member]
    for name in hostile_names(ENTRANTS - 1):
        members.append(await add_member(env, world, name))
    new = await world.member.slash(
        world.channel,
        "tute tournament new",
        variant="habanero",
        format=format,
        target=TARGET,
        entry=10,
        **options,
    )
    signup = new.response
    assert signup is not None
    (tid,) = {int(b.custom_id.split(":")[2]) for b in buttons(signup)}
    for member in members:
        joined = await member.click(signup, custom_id=f"tute:tn:{tid}:join")
        assert joined.acknowledged and not joined.ephemeral, "every Join is answered"
    return signup, tid, {m.id: m for m in members}


async def leave_a_match(env: simcord.Env, tid: int, members: dict[int, MemberActor]) -> int:
    """The first member of the first match of round 1 leaves its table; returns who."""
    tour = tournaments_of(env).get(tid)
    draw = tour.draw
    assert draw is not None
    match = next(m for m in draw.round_matches(1) if not m.is_bye)
    leaver = match.players[0]
    table = table_of(env, tour.tables[draw.matches.index(match)])
    play_id = placed(table).play_message_id
    assert play_id is not None
    shown = message(env, placed(table).where_id, play_id)
    member = members[leaver]
    question = await member.click(shown, custom_id=f"tute:t:{table.id}:leave")
    assert question.response is not None
    done = await member.click(question.response, custom_id=f"tute:t:{table.id}:leaveok")
    assert done.acknowledged
    return leaver


async def play_out(env: simcord.Env, tid: int) -> None:
    """Turn after turn runs out, and the stand-ins play, until the tournament is over."""
    service = tournaments_of(env)
    for _ in range(400):
        tour = await service.load(tid)
        if tour.status is not TournamentStatus.RUNNING:
            return
        await env.advance_time(tour.options.turn_time + 1)
        await settled(env)
    raise AssertionError("the tournament never ended")


def check_every_post(env: simcord.Env) -> int:
    """Every message the bot sent or edited is within Discord's limits; returns how many."""
    bodies = [b for call in env.http_requests if (b := message_body(call)) is not None]
    for body in bodies:
        assert list(check_message(body)) == [], body
    return len(bodies)


@pytest.mark.simcord(settle_timeout=60)  # 32 tables open at once: slow on a busy machine
# each language and each format played whole once (a case takes about 20 s)
@pytest.mark.parametrize(
    ("lang", "format", "options"),
    [("en", "knockout", {}), ("es", "swiss", {"swiss-rounds": 2})],
)
async def test_sixty_four_hostile_names_play_through(
    simcord_env: simcord.Env,
    world: World,
    pin_tables: Callable[[int], None],
    lang: str,
    format: str,
    options: dict[str, int],
) -> None:
    env = simcord_env
    pin_tables(5_000)
    signup, tid, members = await sign_up_all(env, world, lang, format, **options)
    service = tournaments_of(env)
    assert len(service.get(tid).entrants) == ENTRANTS

    start = await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    assert start.acknowledged
    await env.settle()
    closed = message(env, signup.channel_id, signup.id)
    assert not buttons(closed), "sign-up is over"
    (embed, *_) = closed.embeds
    draw = service.get(tid).draw
    assert draw is not None
    title = t("tournaments.round.title", lang, id=tid, round=1, rounds=draw.rounds)
    first = posted(env, world, title)[0]
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{first.id}"
    started = t("tournaments.signup.started_link", lang, link=link)
    assert started in (embed.description or ""), "it says it started, and where"

    leaver = await leave_a_match(env, tid, members)
    await play_out(env, tid)

    done = await service.load(tid)
    draw = done.draw
    assert done.status is TournamentStatus.FINISHED and draw is not None
    assert done.winner is not None and done.winner != leaver
    assert all(m.winner is not None for m in draw.matches), "every match decided"
    later = [m for m in draw.matches if leaver in m.players and m.winner not in (None, BYE)]
    assert all(m.winner != leaver for m in later), "the leaver takes no match"
    assert done.prizes and leaver not in done.prizes, "the leaver wins no prize"
    for number in range(1, draw.rounds + 1):
        title = t("tournaments.round.title", lang, id=tid, round=number, rounds=draw.rounds)
        parts = posted(env, world, title)
        pinged = [u for p in parts for u in p.message.raw_mentions]
        players = [u for m in draw.round_matches(number) for u in m.players]
        assert sorted(pinged) == sorted(players), f"round {number}: every pairing posted"
        assert len(parts[0].attachments) == 1, "the picture, with the first part"
    for match in draw.matches:
        if not match.is_bye:
            assert posted(env, world, posts.result_text(done, match)), "every result posted"
    assert check_every_post(env) > ENTRANTS


async def test_a_join_whose_message_cannot_be_edited_is_still_answered(
    simcord_env: simcord.Env, world: World
) -> None:
    """Discord refuses the sign-up message's edit: the member is told, only them, that they
    are signed up (it is saved), and the next Join shows everyone."""
    env = simcord_env
    bob = await add_member(env, world, "bob")
    new = await world.member.slash(world.channel, "tute tournament new", variant="habanero")
    signup = new.response
    assert signup is not None
    (tid,) = {int(b.custom_id.split(":")[2]) for b in buttons(signup)}
    env.inject_error(
        "POST", "/interactions/*/*/callback", status=400, code=50035, message="Invalid Form Body"
    )
    joined = await world.member.click(signup, custom_id=f"tute:tn:{tid}:join")
    assert joined.acknowledged and joined.ephemeral
    assert joined.response is not None
    assert joined.response.content == t("tournaments.joined", "en", id=tid)
    assert [uid for uid, _ in tournaments_of(env).get(tid).entrants] == [world.member.id]
    again = await bob.click(signup, custom_id=f"tute:tn:{tid}:join")
    assert again.acknowledged and not again.ephemeral
    (embed,) = message(env, signup.channel_id, signup.id).embeds
    assert embed.fields[0].name == t("tournaments.signup.entrants", "en", count=2)


async def signup_message(env: simcord.Env, tournament_id: int) -> int | None:
    """Where the running bot keeps the tournament's sign-up message (the Discord side's
    record)."""
    places = places_of(env.bot)
    assert places is not None
    return (await places.of(tournament_id)).message_id


async def test_a_sign_up_open_for_hours_moves_to_a_fresh_message(
    simcord_env: simcord.Env, world: World
) -> None:
    """Discord limits edits of messages older than an hour (30046): a Join on a sign-up
    message 51 minutes old posts it afresh (the start then closes the fresh one), and the
    old one points to it, its buttons gone."""
    env = simcord_env
    bob = await add_member(env, world, "bob")
    new = await world.member.slash(
        world.channel, "tute tournament new", variant="habanero", **{"signup-minutes": 600}
    )
    first = new.response
    assert first is not None
    (tid,) = {int(b.custom_id.split(":")[2]) for b in buttons(first)}
    await world.member.click(first, custom_id=f"tute:tn:{tid}:join")
    assert await signup_message(env, tid) == first.id, "a fresh message: edited in place"
    await env.advance_time(51 * 60)
    joined = await bob.click(first, custom_id=f"tute:tn:{tid}:join")
    assert joined.acknowledged and not joined.ephemeral
    moved_to = await signup_message(env, tid)
    assert moved_to is not None and moved_to != first.id
    old = message(env, first.channel_id, first.id)
    fresh = message(env, first.channel_id, moved_to)
    assert not buttons(old)
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{moved_to}"
    assert old.embeds[0].description == t("tournaments.signup.moved", "en", link=link)
    assert fresh.embeds[0].fields[0].name == t("tournaments.signup.entrants", "en", count=2)
    await world.member.click(fresh, custom_id=f"tute:tn:{tid}:start")
    await env.settle()
    assert not buttons(message(env, first.channel_id, moved_to)), "the start closes it"
