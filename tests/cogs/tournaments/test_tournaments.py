"""A tournament played through SimCord: members sign up with the button, the host starts
it, each match's table opens and its members play it, the results, the bracket and the
winner are posted in the channel."""

from __future__ import annotations

import datetime as dt
import sqlite3

import discord
import pytest
import simcord
from simcord import MemberActor

from bot.config import Config
from bot.i18n import t
from bot.storage import ledger
from bot.storage import tournaments as stored
from bot.tables.competition.tournament import Match
from bot.tables.competition.tournaments import Tournament, TournamentService, TournamentStatus
from tests.cogs.tables._game import SEED, Game, Human
from tests.cogs.tables._world import add_member, buttons, placed, refusal
from tests.conftest import World, fast_bot

pytestmark = pytest.mark.e2e


def tournaments_of(env: simcord.Env) -> TournamentService:
    service = env.bot.tournaments  # type: ignore[attr-defined]
    assert isinstance(service, TournamentService)
    return service


def said(world: World) -> list[discord.Message]:
    return world.channel.history()


async def sign_up(
    env: simcord.Env, world: World, names: tuple[str, ...]
) -> tuple[simcord.ResponseMessage, list[MemberActor], int]:
    """``/tute tournament new`` by alice (a knockout of habanero), everyone joins."""
    members = [world.member, *[await add_member(env, world, name) for name in names]]
    result = await world.member.slash(
        world.channel, "tute tournament new", variant="habanero", format="knockout"
    )
    signup = result.response
    assert signup is not None and not result.ephemeral
    ids = {b.custom_id for b in buttons(signup)}
    (tid,) = {int(c.split(":")[2]) for c in ids}
    assert ids == {f"tute:tn:{tid}:{op}" for op in ("join", "leave", "start", "cancel")}
    for member in members:
        joined = await member.click(signup, custom_id=f"tute:tn:{tid}:join")
        assert joined.acknowledged and not joined.ephemeral
    return signup, members, tid


async def play_match(
    env: simcord.Env, world: World, tour: Tournament, match: Match, members: list[MemberActor]
) -> None:
    """The match's table played to its end by its members, and what follows told."""
    assert tour.draw is not None
    table_id = tour.tables[tour.draw.matches.index(match)]
    game = Game(
        env, world, [Human(m) for m in members if m.id in match.players], SEED, table_id=table_id
    )
    await game.play()
    await env.bot.tables.told()  # type: ignore[attr-defined]
    await env.settle()


async def play_round(
    env: simcord.Env, world: World, tour: Tournament, members: list[MemberActor]
) -> None:
    """Each open table of the round in play, played by its members."""
    draw = tour.draw
    assert draw is not None
    for match in draw.round_matches(draw.current_round):
        if match.winner is not None:
            continue  # decided (played before a restart, or a bye)
        table_id = tour.tables[draw.matches.index(match)]
        at_table = [Human(m) for m in members if m.id in match.players]
        game = Game(env, world, at_table, SEED, table_id=table_id)
        if game.table.status.is_open:
            await game.play()
    await env.bot.tables.told()  # type: ignore[attr-defined]
    await env.settle()


async def test_a_knockout_of_four_members(simcord_env: simcord.Env, world: World) -> None:
    env = simcord_env
    signup, members, tid = await sign_up(env, world, ("bob", "carol", "dave"))
    service = tournaments_of(env)
    tour = service.get(tid)
    assert [uid for uid, _ in tour.entrants] == [m.id for m in members]

    bob = members[1]
    twice = await bob.click(signup, custom_id=f"tute:tn:{tid}:join")
    assert refusal(twice) == t("tables.errors.already_signed_up", "en")
    early = await bob.click(signup, custom_id=f"tute:tn:{tid}:start")
    assert refusal(early) == t("tables.errors.host_only", "en")

    started = await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    assert started.acknowledged
    await env.settle()
    tour = service.get(tid)
    assert tour.status is TournamentStatus.RUNNING
    assert len(tour.tables) == 2, "a table for each match of round 1"
    assert tour.draw is not None
    for index, table_id in tour.tables.items():
        table = env.bot.tables.tables[table_id]  # type: ignore[attr-defined]
        assert table.status.is_open and placed(table).play_message_id is not None, "shown"
        # its players are invited to the table's thread (a public one: spectators watch)
        thread_id = placed(table).thread_id
        assert thread_id is not None
        thread = env.backend.channels[thread_id]
        assert set(thread.thread_members) >= set(tour.draw.matches[index].players)
    pairings = next(m for m in said(world) if "round 1 of 2" in m.content)
    assert pairings.attachments, "the bracket is posted with the pairings"
    for member in members:
        assert f"<@{member.id}>" in pairings.content
    for table_id in tour.tables.values():
        assert f"table #{table_id}](https://discord.com/channels/" in pairings.content

    await play_round(env, world, tour, members)
    tour = service.get(tid)
    draw = tour.draw
    assert draw is not None and draw.current_round == 2
    results = [
        m.content for m in said(world) if m.content.startswith(f"Tournament #{tid}, round 1")
    ]
    assert len(results) == 2
    assert any("round 2 of 2" in m.content and m.attachments for m in said(world))

    await play_round(env, world, tour, members)
    done = await service.load(tid)
    assert done.status is TournamentStatus.FINISHED and done.winner is not None
    final = t("tournaments.winner", "en", id=tid, winner=f"<@{done.winner}>")
    (won,) = [m for m in said(world) if m.content == final]
    assert won.attachments, "the final bracket"

    shown = await members[2].slash(world.channel, "tute tournament show")
    assert shown.acknowledged and not shown.ephemeral
    assert shown.response is not None and not shown.followups, "one answer: the picture"
    # the "thinking..." answer is edited into the picture, not followed by a second message
    answers = [c for c in env.http_requests if c.path.startswith("/webhooks/")]
    assert [c.method for c in answers][-1:] == ["PATCH"], [c.path for c in answers]
    (picture,) = shown.response.attachments
    assert picture.filename == f"tournament-{tid}.png"


async def test_a_restart_in_the_middle(
    simcord_env: simcord.Env, world: World, test_config: Config
) -> None:
    """The bot stops after round 1's first match: the tournament comes back running, the
    other match is played on, the final opens and the winner is posted; the old sign-up
    message lost its buttons at the start, and ``show`` answers after the restart."""
    env = simcord_env
    signup, members, tid = await sign_up(env, world, ("bob", "carol", "dave"))
    await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    await env.settle()
    tour = tournaments_of(env).get(tid)
    draw = tour.draw
    assert draw is not None
    await play_match(env, world, tour, draw.round_matches(1)[0], members)

    await env.bot.close()
    await env.restart_bot(fast_bot(test_config))
    service = tournaments_of(env)
    tour = service.get(tid)
    assert tour.status is TournamentStatus.RUNNING
    shown = await members[1].slash(world.channel, "tute tournament show", id=tid)
    assert shown.acknowledged and not shown.ephemeral, "the member cache is empty: no matter"

    for _ in range(2):
        await play_round(env, world, service.get(tid), members)
        if (await service.load(tid)).status is TournamentStatus.FINISHED:
            break
    done = await service.load(tid)
    assert done.status is TournamentStatus.FINISHED and done.winner is not None
    final = t("tournaments.winner", "en", id=tid, winner=f"<@{done.winner}>")
    assert [m for m in said(world) if m.content == final]


async def test_the_host_calls_it_off(simcord_env: simcord.Env, world: World) -> None:
    """Cancel on the sign-up message: refused to anyone but the host; the host's click
    calls the tournament off, the message says so and loses its buttons, and Join (on a
    copy of the sign-up message that ``show`` posted before) is refused afterwards."""
    env = simcord_env
    signup, members, tid = await sign_up(env, world, ("bob",))
    service = tournaments_of(env)
    bob = members[1]
    copy = (await bob.slash(world.channel, "tute tournament show", id=tid)).response
    assert copy is not None, "a second sign-up message, whose buttons go stale"
    refused = await bob.click(signup, custom_id=f"tute:tn:{tid}:cancel")
    assert refusal(refused) == t("tables.errors.host_only", "en")
    assert service.get(tid).status is TournamentStatus.SIGNUP

    cancelled = await world.member.click(signup, custom_id=f"tute:tn:{tid}:cancel")
    assert cancelled.acknowledged and not cancelled.ephemeral
    assert (await service.load(tid)).status is TournamentStatus.CANCELLED
    (shown,) = [m for m in said(world) if m.id == signup.id]
    (embed,) = shown.embeds
    assert embed.footer.text == t("tournaments.signup.called_off", "en")
    assert not buttons(shown), "no buttons once called off"

    late = await bob.click(copy, custom_id=f"tute:tn:{tid}:join")
    assert refusal(late) == t("tables.errors.tournament_gone", "en")


async def test_the_clock_starts_it_or_calls_it_off(simcord_env: simcord.Env, world: World) -> None:
    """No host's click: once the sign-up minute is over, the bot's clock (looked at every
    minute) starts a tournament of two, its table opens and the pairings are posted; a
    tournament only its host signed up for is called off, and the channel is told."""
    env = simcord_env
    service = tournaments_of(env)
    bob = await add_member(env, world, "bob")
    new = await world.member.slash(
        world.channel,
        "tute tournament new",
        variant="habanero",
        format="knockout",
        **{"signup-minutes": 1},
    )
    signup = new.response
    assert signup is not None
    (tid,) = {int(b.custom_id.split(":")[2]) for b in buttons(signup)}
    for member in (world.member, bob):
        await member.click(signup, custom_id=f"tute:tn:{tid}:join")

    await env.advance_time(30)
    assert service.get(tid).status is TournamentStatus.SIGNUP, "not before its deadline"
    await env.advance_time(100)
    await env.settle()
    tour = service.get(tid)
    assert tour.status is TournamentStatus.RUNNING
    (table_id,) = tour.tables.values()
    table = env.bot.tables.tables[table_id]  # type: ignore[attr-defined]
    assert table.status.is_open and placed(table).play_message_id is not None
    pairings = next(m for m in said(world) if "round 1 of 1" in m.content)
    assert pairings.attachments
    assert f"<@{world.member.id}>" in pairings.content and f"<@{bob.id}>" in pairings.content
    assert f"table #{table_id}](https://discord.com/channels/" in pairings.content

    alone = await world.member.slash(
        world.channel,
        "tute tournament new",
        variant="habanero",
        format="knockout",
        **{"signup-minutes": 1},
    )
    assert alone.response is not None
    (lone,) = {int(b.custom_id.split(":")[2]) for b in buttons(alone.response)}
    await world.member.click(alone.response, custom_id=f"tute:tn:{lone}:join")
    await env.advance_time(130)
    await env.settle()
    assert (await service.load(lone)).status is TournamentStatus.CANCELLED
    told = t("tournaments.cancelled", "en", id=lone)
    assert [m for m in said(world) if m.content == told]


async def test_an_entry_fee_is_paid_in_and_out_as_prizes(
    simcord_env: simcord.Env, world: World
) -> None:
    """A knockout of four with a 100-chip entry: the sign-up message shows the fee and the
    pot, a member short of a dearer entry is refused privately, and at the end the winner
    post lists the prizes (70/30), which the members' chips and the audit agree with."""
    env = simcord_env
    members = [world.member, *[await add_member(env, world, n) for n in ("bob", "carol", "dave")]]
    dear = await world.member.slash(
        world.channel, "tute tournament new", variant="habanero", entry=5000
    )
    assert dear.response is not None
    (dear_id,) = {int(b.custom_id.split(":")[2]) for b in buttons(dear.response)}
    short = await members[1].click(dear.response, custom_id=f"tute:tn:{dear_id}:join")
    too_dear = t("tables.errors.tournament_chips", "en", fee="5,000", chips="1,000")
    assert refusal(short) == too_dear  # numbers grouped as English groups them

    new = await world.member.slash(
        world.channel, "tute tournament new", variant="habanero", entry=100
    )
    signup = new.response
    assert signup is not None
    (tid,) = {int(b.custom_id.split(":")[2]) for b in buttons(signup)}
    for member in members:
        await member.click(signup, custom_id=f"tute:tn:{tid}:join")
    (shown,) = [m for m in said(world) if m.id == signup.id]
    (embed,) = shown.embeds
    entry = next(f for f in embed.fields if f.name == t("tournaments.signup.entry", "en"))
    value = entry.value or ""
    assert "**100** chips to enter" in value and "**400** chips" in value
    assert "70% / 30%" in value
    db = tournaments_of(env).db
    assert await ledger.balance(db, world.guild.id, members[1].id) == 900

    await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    await env.settle()
    service = tournaments_of(env)
    for _ in range(2):
        await play_round(env, world, service.get(tid), members)
    done = await service.load(tid)
    assert done.status is TournamentStatus.FINISHED and done.winner is not None
    assert sum(done.prizes.values()) == 400 and done.prizes[done.winner] == 280
    (won,) = [m for m in said(world) if m.content.startswith(f"Tournament #{tid} is over")]
    assert t("tournaments.prizes.title", "en") in won.content
    assert f"1. <@{done.winner}>: **280** chips" in won.content
    (second,) = [u for u, n in done.prizes.items() if n == 120]
    assert f"2. <@{second}>: **120** chips" in won.content
    for member in members:
        chips = await ledger.balance(db, world.guild.id, member.id)
        assert chips == 900 + done.prizes.get(member.id, 0)
    assert (await ledger.audit(db, world.guild.id)).balanced


async def test_a_start_time_is_read_kept_and_kept_to(
    simcord_env: simcord.Env, world: World
) -> None:
    """``starts``: what cannot be read, or has passed, is refused privately; a time to come
    is the sign-up's end, shown on the message; when it comes the clock starts the
    tournament and closes the sign-up message (no more buttons)."""
    env = simcord_env
    bob = await add_member(env, world, "bob")
    unread = await world.member.slash(
        world.channel, "tute tournament new", variant="habanero", starts="next friday"
    )
    assert unread.ephemeral and unread.response is not None
    assert unread.response.content.startswith("I cannot read `next friday` as a time")
    past = await world.member.slash(
        world.channel, "tute tournament new", variant="habanero", starts="2001-01-01 10:00"
    )
    assert (
        past.ephemeral and past.response is not None and "already passed" in past.response.content
    )

    at = (discord.utils.utcnow() + dt.timedelta(hours=3)).replace(second=0, microsecond=0)
    new = await world.member.slash(
        world.channel,
        "tute tournament new",
        variant="habanero",
        starts=at.strftime("%Y-%m-%d %H:%M"),
    )
    signup = new.response
    assert signup is not None and not new.ephemeral
    (tid,) = {int(b.custom_id.split(":")[2]) for b in buttons(signup)}
    service = tournaments_of(env)
    assert service.get(tid).deadline == at.timestamp()
    (embed,) = signup.embeds
    assert f"<t:{int(at.timestamp())}:F>" in (embed.description or "")
    for member in (world.member, bob):
        await member.click(signup, custom_id=f"tute:tn:{tid}:join")

    await env.advance_time(3 * 3600 - 120)
    assert service.get(tid).status is TournamentStatus.SIGNUP
    await env.advance_time(240)
    await env.settle()
    assert service.get(tid).status is TournamentStatus.RUNNING
    (closed,) = [m for m in said(world) if m.id == signup.id]
    assert not buttons(closed)
    (embed,) = closed.embeds
    assert embed.footer.text == t("tournaments.signup.closed", "en")


async def test_a_match_decided_at_a_restart_is_posted(
    simcord_env: simcord.Env, world: World, test_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 1's last game ends while the tournament cannot be saved (a full disk): its
    match stays open. After a restart the match is decided from the ended table, and the
    channel gets its result and round 2's pairings as if nothing had happened."""
    env = simcord_env
    signup, members, tid = await sign_up(env, world, ("bob", "carol", "dave"))
    await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    await env.settle()
    tour = tournaments_of(env).get(tid)
    draw = tour.draw
    assert draw is not None
    first, last = draw.round_matches(1)
    real = stored.save_tournament
    for match in (first, last):
        if match is last:

            async def full_disk(*args: object, **kwargs: object) -> None:
                raise sqlite3.OperationalError("database or disk is full")

            monkeypatch.setattr(stored, "save_tournament", full_disk)
        await play_match(env, world, tour, match, members)
    undecided = tournaments_of(env).get(tid).draw
    assert undecided is not None and undecided.matches[draw.matches.index(last)].winner is None
    assert not [m for m in said(world) if "round 2 of 2" in m.content]

    monkeypatch.setattr(stored, "save_tournament", real)
    await env.bot.close()
    await env.restart_bot(fast_bot(test_config))
    await env.settle()
    back = tournaments_of(env).get(tid)
    assert back.draw is not None and back.draw.current_round == 2
    results = [
        m.content for m in said(world) if m.content.startswith(f"Tournament #{tid}, round 1")
    ]
    assert len(results) == 2, "the match decided at the restart is told too"
    (pairings,) = [m for m in said(world) if "round 2 of 2" in m.content]
    assert pairings.attachments
    (final,) = back.draw.round_matches(2)
    assert all(f"<@{u}>" in pairings.content for u in final.players)


async def test_its_tables_play_the_rules_and_house_rules_chosen(
    simcord_env: simcord.Env, world: World
) -> None:
    """``rules`` and ``house`` as at ``/tute new``: the sign-up message says the rules in
    play, every match's table plays them, and a house rule the variant has not is refused
    privately (no tournament is opened)."""
    env = simcord_env
    service = tournaments_of(env)
    wrong = await world.member.slash(
        world.channel, "tute tournament new", variant="pairs", house="seats=4"
    )
    assert wrong.ephemeral and wrong.response is not None
    assert "`seats`" in wrong.response.content
    assert service.tournaments == {}

    new = await world.member.slash(
        world.channel,
        "tute tournament new",
        variant="habanero",
        rules="fournier",
        house="next_dealer=last_ten",
    )
    signup = new.response
    assert signup is not None and not new.ephemeral
    (embed,) = signup.embeds
    assert "Rules: Fournier" in (embed.description or "")
    (tid,) = {int(b.custom_id.split(":")[2]) for b in buttons(signup)}
    bob = await add_member(env, world, "bob")
    for member in (world.member, bob):
        await member.click(signup, custom_id=f"tute:tn:{tid}:join")
    await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    await env.settle()
    (table_id,) = service.get(tid).tables.values()
    options = env.bot.tables.tables[table_id].options  # type: ignore[attr-defined]
    assert options.rules.value == "fournier" and options.next_dealer.value == "last_ten"
    assert options.competitive and options.bet == 0


async def test_a_result_discord_cannot_take_for_now_is_posted_later(
    simcord_env: simcord.Env, world: World
) -> None:
    """An outage (503) as the final's result goes out: it is tried again on the clock, and
    the result and the winner are both posted, once."""
    env = simcord_env
    signup, members, tid = await sign_up(env, world, ("bob",))
    await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    await env.settle()
    tour = tournaments_of(env).get(tid)
    assert tour.draw is not None
    (final,) = tour.draw.round_matches(1)
    env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=503)
    table_id = tour.tables[tour.draw.matches.index(final)]
    await Game(env, world, [Human(m) for m in members], SEED, table_id=table_id).play()
    await env.settle()  # the result waits to be tried again (told() would wait with it)
    done = await tournaments_of(env).load(tid)
    assert done.status is TournamentStatus.FINISHED and done.winner is not None
    won = t("tournaments.winner", "en", id=tid, winner=f"<@{done.winner}>")
    assert not [m for m in said(world) if m.content == won], "not yet: the outage"
    await env.advance_time(60)
    await env.bot.tables.told()  # type: ignore[attr-defined]
    await env.settle()
    assert len([m for m in said(world) if m.content.startswith(f"Tournament #{tid}, round 1")]) == 1
    assert len([m for m in said(world) if m.content == won]) == 1
