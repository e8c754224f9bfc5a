"""Tournaments as a server running a weekly one sees them, through SimCord: eight members
sign up with the buttons (one leaves, another joins), a knockout plays on through a
restart of the bot to its winner and the bracket picture; a Swiss of eight over three
rounds ends with the standings picture; a member who never shows up is stood in for by a
robot, and the match goes to the member who played.

Every table's shuffle is pinned (a seed per table, in the order they open), the members
click by the table's state alone (``Game``) and the stand-in robot (normal level) does not
search: the games are the same on every run."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import simcord
from PIL import Image
from simcord import MemberActor

from bot.config import Config
from bot.engine.variants import sides_of
from bot.i18n import t
from bot.render.bracket import bracket_alt_text
from bot.render.standings import standings_alt_text
from bot.tables.competition.tournament import Format, Match
from bot.tables.competition.tournaments import Tournament, TournamentService, TournamentStatus
from bot.tables.model import Status, Table
from cogs._base import shown_name
from cogs.tournaments.posts import bracket_scene, standings_scene
from tests.cogs.tables._game import SEED, Game, Human
from tests.cogs.tables._world import add_member, buttons, placed, refusal
from tests.conftest import World

pytestmark = pytest.mark.e2e

TARGET = 30
"""Points a game is played to: the smallest the command takes, for short games."""
NAMES = ("bob", "carol", "dave", "erin", "frank", "grace", "heidi")
"""With alice (the host), the eight members who sign up first."""


# ------------------------------------------------------------------ reading


def tournaments_of(env: simcord.Env) -> TournamentService:
    service = env.bot.tournaments  # type: ignore[attr-defined]
    assert isinstance(service, TournamentService)
    return service


def table_of(env: simcord.Env, table_id: int) -> Table:
    table = env.bot.tables.tables[table_id]  # type: ignore[attr-defined]
    assert isinstance(table, Table)
    return table


def message(env: simcord.Env, channel_id: int, message_id: int) -> simcord.ResponseMessage:
    """A message as it is now (no rebuilding of the whole channel's history)."""
    return simcord.ResponseMessage(env, env.backend.get_message(channel_id, message_id))


def posted(env: simcord.Env, world: World, start: str) -> list[simcord.ResponseMessage]:
    """The channel's messages whose text starts so, oldest first (read from SimCord's
    store: only those are made into messages)."""
    stored = env.backend.messages.get(world.channel.id, {}).values()
    return [
        simcord.ResponseMessage(env, m)
        for m in sorted(stored, key=lambda m: m.id)
        if m.content.startswith(start)
    ]


def entrants_listed(signup: simcord.ResponseMessage) -> list[str]:
    """The names the sign-up message lists, in order."""
    (embed,) = signup.embeds
    (field,) = embed.fields
    return [line.split(". ", 1)[1] for line in (field.value or "").splitlines()]


def round_title(tid: int, number: int, rounds: int) -> str:
    return t("tournaments.round.title", "en", id=tid, round=number, rounds=rounds)


def result_of(tour: Tournament, number: int, match: Match) -> str:
    assert match.winner is not None
    return t(
        "tournaments.result",
        "en",
        id=tour.id,
        round=number,
        winner=shown_name(tour.name_of(match.winner)),
        others=", ".join(shown_name(tour.name_of(u)) for u in match.players if u != match.winner),
    )


def check_pairings(env: simcord.Env, world: World, tour: Tournament, number: int) -> None:
    """Round ``number`` posted once: its title, each match's players pinged and a link to
    its table's message (which is there), and the picture."""
    draw = tour.draw
    assert draw is not None and draw.current_round == number
    (post,) = posted(env, world, round_title(tour.id, number, draw.rounds))
    lines = post.content.splitlines()[1:]
    matches = draw.round_matches(number)
    assert len(lines) == len(matches), post.content
    for line, match in zip(lines, matches, strict=True):
        table = table_of(env, tour.tables[draw.matches.index(match)])
        shown, where = placed(table).play_message_id, placed(table).where_id
        assert shown is not None, "the table is shown"
        link = f"https://discord.com/channels/{world.guild.id}/{where}/{shown}"
        players = " - ".join(f"<@{u}>" for u in match.players)
        assert line == f"{players}: [table #{table.id}]({link})"
        assert message(env, where, shown).id == shown
    (picture,) = post.attachments
    assert picture.filename == f"tournament-{tour.id}.png"


async def check_png(
    attachment: discord.Attachment, least: tuple[int, int], save_to: str | None = None
) -> Image.Image:
    """A PNG picture of a sane size, at least ``least`` (saved a copy of, to look at)."""
    assert attachment.content_type == "image/png"
    return opened_png(await attachment.read(), least, save_to)


def opened_png(data: bytes, least: tuple[int, int], save_to: str | None) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    if save_to is not None:
        Path(save_to).write_bytes(data)
    picture = Image.open(io.BytesIO(data))
    picture.load()
    assert picture.format == "PNG"
    width, height = picture.size
    assert least[0] <= width <= 4096 and least[1] <= height <= 4096, picture.size
    return picture


# ------------------------------------------------------------------ playing


async def sign_up_eight(
    env: simcord.Env, world: World, format: str, **options: int
) -> tuple[simcord.ResponseMessage, list[MemberActor], int]:
    """``/tute tournament new`` by alice (habanero to ``TARGET``), then alice and seven
    more join with the button; returns the sign-up message, the entrants (sign-up order)
    and the tournament's id."""
    members = [world.member, *[await add_member(env, world, name) for name in NAMES]]
    new = await world.member.slash(
        world.channel,
        "tute tournament new",
        variant="habanero",
        format=format,
        target=TARGET,
        **options,
    )
    signup = new.response
    assert signup is not None and not new.ephemeral
    (tid,) = {int(b.custom_id.split(":")[2]) for b in buttons(signup)}
    for member in members:
        joined = await member.click(signup, custom_id=f"tute:tn:{tid}:join")
        assert joined.acknowledged and not joined.ephemeral
    return signup, members, tid


def game_of(
    env: simcord.Env, world: World, tour: Tournament, match: Match, members: list[MemberActor]
) -> Game:
    draw = tour.draw
    assert draw is not None
    at_table = [Human(m) for m in members if m.id in match.players]
    assert len(at_table) == len(match.players) == 2
    return Game(env, world, at_table, SEED, table_id=tour.tables[draw.matches.index(match)])


async def settled(env: simcord.Env) -> None:
    """Every game over told (results, next round), and SimCord quiet."""
    await env.bot.tables.told()  # type: ignore[attr-defined]
    await env.settle()


async def play_round(
    env: simcord.Env, world: World, tid: int, members: list[MemberActor]
) -> list[Match]:
    """Each match of the round in play still open, played by its members; returns the
    round's matches as decided."""
    tour = tournaments_of(env).get(tid)
    draw = tour.draw
    assert draw is not None
    number = draw.current_round
    for match in draw.round_matches(number):
        if match.winner is None:
            game = game_of(env, world, tour, match, members)
            await game.play()
            assert game.table.status is Status.FINISHED
    await settled(env)
    done = await tournaments_of(env).load(tid)
    assert done.draw is not None
    decided = done.draw.round_matches(number)
    assert all(m.winner is not None for m in decided), "every match of the round decided"
    return decided


def check_results(
    env: simcord.Env, world: World, tour: Tournament, number: int, matches: list[Match]
) -> None:
    """Each match of the round has its result posted, once, as the draw decided it."""
    said = [m.content for m in posted(env, world, f"Tournament #{tour.id}, round {number}:")]
    assert sorted(said) == sorted(result_of(tour, number, m) for m in matches)


# ------------------------------------------------------------------ the tests


async def test_a_knockout_of_eight_through_a_restart(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    pin_tables: Callable[[int], None],
) -> None:
    """Eight sign up; dave leaves (the list drops him, a second Leave is refused) and ivan
    takes his place; the host starts it: round 1 has four tables, the pairings link to
    them. The bot restarts in the middle of a game of round 1: the tournament comes back,
    that game goes on where it was, and rounds 2 and 3 are drawn and posted by the new
    bot; every result is posted as the draw decided it, and the winner with the final
    bracket (a PNG that says who won what)."""
    env = simcord_env
    pin_tables(1_000)
    signup, members, tid = await sign_up_eight(env, world, "knockout")
    service = tournaments_of(env)
    assert entrants_listed(message(env, signup.channel_id, signup.id)) == ["alice", *NAMES]

    dave = members[3]
    left = await dave.click(signup, custom_id=f"tute:tn:{tid}:leave")
    assert left.acknowledged and not left.ephemeral
    shown = message(env, signup.channel_id, signup.id)
    assert "dave" not in entrants_listed(shown)
    assert len(entrants_listed(shown)) == 7
    (embed,) = shown.embeds
    assert embed.fields[0].name == t("tournaments.signup.entrants", "en", count=7)
    again = await dave.click(signup, custom_id=f"tute:tn:{tid}:leave")
    assert refusal(again) == t("tables.errors.not_signed_up", "en")

    ivan = await add_member(env, world, "ivan")
    joined = await ivan.click(signup, custom_id=f"tute:tn:{tid}:join")
    assert joined.acknowledged and not joined.ephemeral
    members = [m for m in members if m is not dave] + [ivan]
    listed = entrants_listed(message(env, signup.channel_id, signup.id))
    assert listed == ["alice", "bob", "carol", "erin", "frank", "grace", "heidi", "ivan"]
    assert [uid for uid, _ in service.get(tid).entrants] == [m.id for m in members]

    started = await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    assert started.acknowledged
    await env.settle()
    tour = service.get(tid)
    draw = tour.draw
    assert tour.status is TournamentStatus.RUNNING and draw is not None
    assert draw.rounds == 3 and draw.current_round == 1
    first = draw.round_matches(1)
    assert len(first) == 4 and len(tour.tables) == 4, "four tables in round 1"
    assert sorted(u for m in first for u in m.players) == sorted(m.id for m in members)
    assert dave.id not in draw.entrants
    for table_id in tour.tables.values():
        table = table_of(env, table_id)
        assert table.status is Status.PLAYING and table.options.target == TARGET
    check_pairings(env, world, tour, 1)
    closed = message(env, signup.channel_id, signup.id)
    assert not buttons(closed), "sign-up is over"
    assert closed.embeds[0].footer.text == t("tournaments.signup.closed", "en")

    # round 1: two matches played, the third stopped in the middle by a restart
    for match in first[:2]:
        await game_of(env, world, tour, match, members).play()
    await settled(env)
    game = game_of(env, world, tour, first[2], members)
    await game.play_until(lambda: len(game.deal.actions) >= 6)
    cut_at = (game.table.deal_no, len(game.deal.actions))
    await game.restart(test_config)

    service = tournaments_of(env)
    tour = service.get(tid)
    assert tour.status is TournamentStatus.RUNNING
    draw = tour.draw
    assert draw is not None and draw.current_round == 1
    assert [m.winner is not None for m in draw.round_matches(1)] == [True, True, False, False]
    restored = table_of(env, tour.tables[2])
    assert restored.status is Status.PLAYING
    assert restored.deal is not None
    assert (restored.deal_no, len(restored.deal.actions)) == cut_at, "the game goes on"
    shown_after = await members[5].slash(world.channel, "tute tournament show", id=tid)
    assert shown_after.acknowledged and not shown_after.ephemeral
    assert not buttons(message(env, signup.channel_id, signup.id))

    await game.play()
    await game.check_end()
    await game_of(env, world, tour, first[3], members).play()
    await settled(env)
    decided = (await service.load(tid)).draw
    assert decided is not None
    check_results(env, world, tour, 1, decided.round_matches(1))

    # rounds 2 and 3, drawn and posted by the bot that came back
    for number, tables in ((2, 2), (3, 1)):
        tour = service.get(tid)
        draw = tour.draw
        assert draw is not None and draw.current_round == number
        matches = draw.round_matches(number)
        assert len(matches) == tables
        previous = {m.winner for m in draw.round_matches(number - 1)}
        assert {u for m in matches for u in m.players} == previous, "the winners go on"
        check_pairings(env, world, tour, number)
        check_results(env, world, tour, number, await play_round(env, world, tid, members))

    done = await service.load(tid)
    assert done.status is TournamentStatus.FINISHED and done.winner is not None
    assert tid not in service.tournaments, "over: out of memory"
    draw = done.draw
    assert draw is not None and draw.finished
    (final,) = draw.round_matches(3)
    assert done.winner == final.winner
    assert len(posted(env, world, f"Tournament #{tid}, round")) == 7, "seven results"
    (won,) = posted(env, world, t("tournaments.winner", "en", id=tid, winner=f"<@{done.winner}>"))
    (picture,) = won.attachments
    assert picture.filename == f"tournament-{tid}.png"
    assert picture.description == bracket_alt_text(bracket_scene(done))
    champion = t("tournaments.picture.champion", "en")
    assert f"{champion}: {done.name_of(done.winner)}." in (picture.description or "")
    await check_png(picture, (600, 300), "/tmp/eight_bracket.png")


async def test_a_swiss_of_eight_over_three_rounds(
    simcord_env: simcord.Env, world: World, pin_tables: Callable[[int], None]
) -> None:
    """Eight members, three Swiss rounds of four tables each: everyone plays every round,
    nobody meets the same member twice, each round's pairings and results are posted; at
    the end the winner is the top of the draw's standings, and the standings picture
    posted with the winner shows the draw's standings (its alt text, row by row)."""
    env = simcord_env
    pin_tables(2_000)
    signup, members, tid = await sign_up_eight(env, world, "swiss", **{"swiss-rounds": 3})
    await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    await env.settle()
    service = tournaments_of(env)

    for number in (1, 2, 3):
        tour = service.get(tid)
        draw = tour.draw
        assert tour.status is TournamentStatus.RUNNING and draw is not None
        assert draw.format is Format.SWISS and draw.rounds == 3
        matches = draw.round_matches(number)
        assert len(matches) == 4
        assert sorted(u for m in matches for u in m.players) == sorted(m.id for m in members)
        check_pairings(env, world, tour, number)
        (pairings,) = posted(env, world, round_title(tid, number, 3))
        alt = pairings.attachments[0].description or ""
        after = t("tournaments.picture.after_round", "en", round=number - 1, rounds=3)
        assert (after in alt) is (number > 1), "the standings so far, with the pairings"
        check_results(env, world, tour, number, await play_round(env, world, tid, members))

    done = await service.load(tid)
    assert done.status is TournamentStatus.FINISHED and done.winner is not None
    draw = done.draw
    assert draw is not None
    met = [frozenset(m.players) for m in draw.matches]
    assert len(set(met)) == 12, "no rematch"
    standings = draw.standings()
    assert sum(wins for _, wins, _ in standings) == 12, "twelve matches decided"
    assert sorted(wins for _, wins, _ in standings) != [0] * 8
    assert done.winner == standings[0][0]
    assert standings[0][1] >= standings[1][1]

    (won,) = posted(env, world, t("tournaments.winner", "en", id=tid, winner=f"<@{done.winner}>"))
    (picture,) = won.attachments
    assert picture.filename == f"tournament-{tid}.png"
    alt = picture.description or ""
    assert alt == standings_alt_text(standings_scene(done))
    rows = re.findall(r"(\d+)\. (\w+): Wins (\d+), Tie-break (\d+)", alt)
    assert [(name, int(wins), int(tb)) for _, name, wins, tb in rows] == [
        (done.name_of(e), wins, tie_break) for e, wins, tie_break in standings
    ], "the picture shows the draw's standings"
    assert rows[0][0] == "1"
    await check_png(picture, (400, 300), "/tmp/eight_standings.png")


NO_SHOW_SEED = 2
"""A habanero deal where the stand-in robot's side wins the game against alice."""


async def test_a_no_show_is_stood_in_for_and_loses_the_match(
    simcord_env: simcord.Env, world: World, pin_tables: Callable[[int], None]
) -> None:
    """A knockout of two: bob never clicks anything. Each time his turn comes, the turn
    time runs out and the normal robot plays for him; after two such turns he is away and a
    robot keeps his seat. Alice plays on. The robot's side wins the game, yet the match
    (and the tournament) goes to alice, who played: the result post and the draw say so."""
    env = simcord_env
    pin_tables(NO_SHOW_SEED)
    bob = await add_member(env, world, "bob")
    new = await world.member.slash(
        world.channel, "tute tournament new", variant="habanero", format="knockout", target=TARGET
    )
    signup = new.response
    assert signup is not None
    (tid,) = {int(b.custom_id.split(":")[2]) for b in buttons(signup)}
    for member in (world.member, bob):
        await member.click(signup, custom_id=f"tute:tn:{tid}:join")
    await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    await env.settle()
    service = tournaments_of(env)
    tour = service.get(tid)
    draw = tour.draw
    assert draw is not None
    (match,) = draw.round_matches(1)
    alice = world.member
    game = Game(env, world, [Human(alice)], SEED, table_id=tour.tables[0])
    turn_time = game.table.options.turn_time
    seat = game.table.seat_of(bob.id)
    assert seat is not None

    misses = 0
    for _ in range(600):
        table = game.table
        if table.status is not Status.PLAYING:
            break
        occupant = table.seats[seat]
        assert occupant is not None
        deal = table.deal
        assert deal is not None
        if deal.turn == seat and not occupant.robot_plays:
            assert table.turn_seat == seat and table.turn_deadline is not None
            await env.advance_time(turn_time + 1)  # bob's time runs out
            misses += 1
            occupant = game.table.seats[seat]
            assert occupant is not None
            assert occupant.missed == misses and occupant.away is (misses >= 2)
            continue
        await game.step()
    table = game.table
    assert table.status is Status.FINISHED, "the game ended"
    occupant = table.seats[seat]
    assert occupant is not None
    assert misses == 2, "two turns ran out, then the robot kept his seat"
    assert occupant.away and occupant.robot_plays and occupant.acted == 0
    alice_seat = table.seat_of(alice.id)
    assert alice_seat is not None
    assert (table.seats[alice_seat] or occupant).acted > 0, "alice played"
    sides = sides_of(table.variant, table.players)
    assert table.winner is not None and seat in sides[table.winner], "the robot won the game"

    await settled(env)
    done = await service.load(tid)
    assert done.status is TournamentStatus.FINISHED
    decided = done.draw
    assert decided is not None
    assert decided.matches[0].winner == alice.id, "the match goes to the member who played"
    assert done.winner == alice.id
    (result,) = posted(env, world, f"Tournament #{tid}, round 1:")
    assert result.content == t(
        "tournaments.result", "en", id=tid, round=1, winner="alice", others="bob"
    )
    assert match.players == decided.matches[0].players
    (won,) = posted(env, world, t("tournaments.winner", "en", id=tid, winner=f"<@{alice.id}>"))
    (picture,) = won.attachments
    await check_png(picture, (200, 100))
