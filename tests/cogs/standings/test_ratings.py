"""Skill ratings on Discord end to end, in SimCord: ``/tute stats`` per family,
``/tute leaderboard by:rating``, ``/tute config``'s rating settings and its rebuild, and a
real game between two members that rates them."""

from __future__ import annotations

from collections.abc import Callable

import discord
import pytest
import simcord
from simcord import MemberActor

from bot.client import TuteBot
from bot.config import Config
from bot.i18n import t
from bot.storage.ratings import StoredRating, keep_game, member_ratings, put_rating
from bot.storage.settings import get_settings, update_settings
from bot.tables.model import Status
from bot.tables.ratings import SCALE, Family, GameResult, Player, Rating
from tests.cogs.standings.conftest import buttons_of, db_of, embed_of, fields_of
from tests.cogs.tables._game import new_game
from tests.cogs.tables._world import layout_texts
from tests.conftest import World, fast_bot

pytestmark = pytest.mark.e2e


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)  # robots play at once: the real game below is quick


def shown(value: float) -> float:
    """openskill's mu (or sigma) for a number shown on the board's scale."""
    return value / SCALE


async def rate(
    env: simcord.Env,
    guild_id: int,
    family: str,
    user_id: int,
    rating: int,
    spread: int,
    games: int,
    last: int | None = None,
) -> None:
    """Store a member's rating as it shows: ``rating ± spread`` after ``games`` rated games,
    ``last`` the rating before the last of them."""
    stored = StoredRating(
        shown(rating), shown(spread) / 3, games, None if last is None else shown(last), 1.0
    )
    async with db_of(env).transaction() as conn:
        await put_rating(conn, guild_id, family, user_id, stored)


def lines_of(embed: discord.Embed) -> list[str]:
    return (embed.description or "").splitlines()


# ---------------------------------------------------------------------------- stats


async def test_stats_show_the_rating_of_each_family(
    simcord_env: simcord.Env, world: World, set_locale: Callable[[str], None]
) -> None:
    alice = world.member
    guild_id = world.guild.id
    await rate(simcord_env, guild_id, "pairs", alice.id, 1120, 250, 8, last=1085)
    await rate(simcord_env, guild_id, "two", alice.id, 1040, 900, 1)
    await rate(simcord_env, guild_id, "three", alice.id, 990, 600, 4)

    result = await alice.slash(world.channel, "tute stats")

    # Five rated games to be listed (the default): who has fewer is told how many more.
    # No "±": a rating still unsure (a spread over 600) says so in words, under a legend.
    assert result.ephemeral
    embed = embed_of(result)
    assert "±" not in str(embed.to_dict())
    assert fields_of(embed)["Skill rating"] == (
        "Two players: **1,040** · still settling, 1 rated game"
        " · 4 more games to be on the leaderboard\n"
        "Three players: **990** · 4 rated games · 1 more game to be on the leaderboard\n"
        "Pairs: **1,120** · 8 rated games (last game +35)"
    )
    assert embed.footer.text == (
        "Everyone starts at 1,000. A rating still settling moves a lot with each game, "
        "and ranks lower on the boards until it settles."
    )

    set_locale("es-ES")
    spanish = embed_of(await alice.slash(world.channel, "tute stats"))
    assert fields_of(spanish)["Nivel de juego"] == (
        "Dos jugadores: **1.040** · aún provisional, 1 partida puntuada · 4 partidas más para"
        " entrar en la clasificación\n"
        "Tres jugadores: **990** · 4 partidas puntuadas · 1 partida más para entrar en la"
        " clasificación\n"
        "Parejas: **1.120** · 8 partidas puntuadas (última partida +35)"
    )
    assert spanish.footer.text is not None
    assert spanish.footer.text.startswith("Todos empiezan con 1.000. Un nivel aún provisional")


# ---------------------------------------------------------------------------- a real game


@pytest.mark.simcord(settle_timeout=3)
async def test_a_game_between_two_members_rates_them_and_says_so(
    simcord_env: simcord.Env, world: World
) -> None:
    env = simcord_env
    game = await new_game(env, world, humans=2)
    await game.start()
    await game.play()
    table = game.table
    assert table.status is Status.FINISHED and table.winner is not None
    alice, bob = (h.member for h in game.humans)
    db = db_of(env)
    rated = {m.id: (await member_ratings(db, world.guild.id, m.id))["two"] for m in (alice, bob)}
    winner = table.seats[table.winner]  # habanero: one seat a side
    assert winner is not None and winner.user_id is not None
    loser = next(u for u in rated if u != winner.user_id)
    assert rated[winner.user_id].mu > 25 > rated[loser].mu
    assert all(r.games == 1 for r in rated.values())

    # The game's result says each member's new rating, their first.
    said = "\n".join(layout_texts(game.table_message()))
    for rating in rated.values():
        new = t("summary.tally_rating_new", "en", rating=f"{Rating(rating.mu, 1).shown:,}")
        assert new in said

    # Their stats show it; with one rated game needed, both are on the board, winner first.
    stats = fields_of(embed_of(await alice.slash(world.channel, "tute stats")))
    mine = Rating(rated[alice.id].mu, rated[alice.id].sigma, 1)
    assert stats["Skill rating"] == (
        f"Two players: **{mine.shown:,}** · still settling, 1 rated game"
        " · 4 more games to be on the leaderboard"
    )
    async with db.transaction() as conn:
        await update_settings(conn, world.guild.id, min_rated_games=1)
    board = embed_of(await bob.slash(world.channel, "tute leaderboard", by="rating"))
    assert board.title == "Leaderboard: skill rating · Two players"  # the busiest family
    assert [line.split(":")[0] for line in lines_of(board)] == [
        f"🥇 <@{winner.user_id}>",
        f"🥈 <@{loser}>",
    ]


# ---------------------------------------------------------------------------- leaderboard


async def test_the_rating_board_lists_those_with_enough_games_best_first_and_pages(
    simcord_env: simcord.Env, world: World, admin: MemberActor
) -> None:
    env = simcord_env
    guild_id = world.guild.id
    await admin.slash(world.channel, "tute config", min_rated_games=3)
    # Members 1..12: rating 1000 + 10 n, with a spread of 300 (sorted by rating - spread).
    for n in range(1, 13):
        await rate(env, guild_id, "pairs", n, 1000 + 10 * n, 300, 3 + n)
    await rate(env, guild_id, "pairs", 50, 1500, 100, 2)  # too few games: not listed
    await rate(env, guild_id, "pairs", 51, 1200, 900, 20)  # high, but unsure: 300 sure
    await rate(env, guild_id, "two", 52, 1400, 100, 30)  # another family

    result = await world.member.slash(world.channel, "tute leaderboard", family="pairs")

    assert not result.ephemeral
    embed = embed_of(result)
    assert embed.title == "Leaderboard: skill rating · Pairs"
    lines = lines_of(embed)
    assert lines[:3] == [
        "🥇 <@12>: **1,120** · 15 rated games",
        "🥈 <@11>: **1,110** · 14 rated games",
        "🥉 <@10>: **1,100** · 13 rated games",
    ]
    assert len(lines) == 10 and lines[-1] == "`#10` <@3>: **1,030** · 6 rated games"
    assert embed.footer.text == (
        "Page 1 of 2 · listed from 3 rated games\n"
        "Everyone starts at 1,000. A rating still settling moves a lot with each game, "
        "and ranks lower on the boards until it settles."
    )
    assert result.response is not None
    previous, following = buttons_of(result.response.message)
    assert previous.disabled and not following.disabled
    assert following.custom_id == "tute:lb:rating:pairs:1"

    await world.member.click(result.response, custom_id="tute:lb:rating:pairs:1")
    page_two = result.response.message.embeds[0]
    assert page_two.footer.text is not None and page_two.footer.text.startswith("Page 2 of 2")
    assert lines_of(page_two) == [  # the unsure rating says so, and is why it is last
        "`#11` <@2>: **1,020** · 5 rated games",
        "`#12` <@1>: **1,010** · 4 rated games",
        "`#13` <@51>: **1,200** · still settling, 20 rated games",
    ]
    # by:rating alone shows the family whose board lists the most members.
    default = embed_of(await world.member.slash(world.channel, "tute leaderboard", by="rating"))
    assert default.title == "Leaderboard: skill rating · Pairs"


async def test_an_empty_rating_board_says_how_many_games_it_takes(
    simcord_env: simcord.Env, world: World, set_locale: Callable[[str], None]
) -> None:
    await rate(simcord_env, world.guild.id, "three", 7, 1200, 300, 2)

    embed = embed_of(await world.member.slash(world.channel, "tute leaderboard", by="rating"))

    assert embed.title == "Leaderboard: skill rating · Pairs"  # nobody listed anywhere
    assert embed.description == (
        "Nobody is on this board yet: a member needs 5 rated games to be listed."
    )

    set_locale("es-ES")  # the public board speaks the server's language, not the member's
    three = await world.member.slash(world.channel, "tute leaderboard", by="rating", family="three")
    assert embed_of(three).title == "Leaderboard: skill rating · Three players"
    assert three.response is not None
    assert [b.custom_id for b in buttons_of(three.response.message)] == [
        "tute:lb:rating:three:-1",
        "tute:lb:rating:three:1",
    ]
    # Another board ignores the family.
    chips = embed_of(
        await world.member.slash(world.channel, "tute leaderboard", by="chips", family="two")
    )
    assert chips.title == t("standings.leaderboard.title.chips", "en")


# ---------------------------------------------------------------------------- config


async def test_config_sets_the_rating_settings_within_their_bounds(
    simcord_env: simcord.Env, world: World, admin: MemberActor
) -> None:
    result = await admin.slash(
        world.channel, "tute config", robot_rating_weight=40, min_rated_games=12
    )

    assert result.ephemeral and result.response is not None
    assert result.response.content == t(
        "standings.config.weight_from_now", "en", option="rebuild_ratings"
    )
    fields = fields_of(embed_of(result))
    assert (
        fields["Rating weight of games against robots"],
        fields["Rated games to be on the rating board"],
    ) == ("40%", "12")
    settings = await get_settings(db_of(simcord_env), world.guild.id)
    assert (settings.robot_rating_weight, settings.min_rated_games) == (40, 12)
    capless = await admin.slash(world.channel, "tute config", pair_daily_cap=0)
    assert capless.response is not None and capless.response.content == result.response.content
    assert fields_of(embed_of(capless))["Rated games a day for the same two"] == "No limit"
    assert (await get_settings(db_of(simcord_env), world.guild.id)).pair_daily_cap == 0

    for bad in (
        {"robot_rating_weight": 101},
        {"robot_rating_weight": -1},
        {"min_rated_games": 0},
        {"min_rated_games": 101},
        {"pair_daily_cap": 101},
    ):
        with pytest.raises(simcord.OptionError):
            await admin.slash(world.channel, "tute config", **bad)
    only_games = await admin.slash(world.channel, "tute config", min_rated_games=1)
    assert only_games.response is not None and only_games.response.content == ""
    settings = await get_settings(db_of(simcord_env), world.guild.id)
    assert (settings.robot_rating_weight, settings.min_rated_games) == (40, 1)

    refused = await world.member.slash(world.channel, "tute config", rebuild_ratings=True)
    assert refused.response is not None
    assert refused.response.content == t("standings.config.forbidden", "en")


async def test_config_rebuilds_the_ratings_from_the_kept_games(
    simcord_env: simcord.Env, world: World, admin: MemberActor
) -> None:
    env = simcord_env
    guild_id = world.guild.id
    alice, bob = world.member.id, admin.id
    two = Family.TWO
    games = [
        GameResult(two, ((Player(user_id=alice),), (Player(user_id=bob),)), (0, 1)),
        GameResult(two, ((Player(user_id=alice),), (Player(user_id=bob),)), (0, 1)),
    ]
    async with db_of(env).transaction() as conn:
        for table_id, game in enumerate(games, start=1):
            await keep_game(conn, guild_id, table_id, "two", float(table_id), game.to_json())
        # a rating the history does not back: the rebuild forgets it
        await put_rating(conn, guild_id, "pairs", alice, StoredRating(40.0, 1.0, 9))

    result = await admin.slash(
        world.channel, "tute config", robot_rating_weight=50, rebuild_ratings=True
    )

    # the answer was deferred: its first follow-up is the answer
    assert result.ephemeral and result.response is not None
    said = result.response
    assert said.content == "Ratings rebuilt from 2 games."
    weight = fields_of(said.embeds[0])["Rating weight of games against robots"]
    assert weight == "50%"  # the settings now
    rated = await member_ratings(db_of(env), guild_id, alice)
    assert set(rated) == {"two"}
    assert rated["two"].games == 2 and rated["two"].mu > 25
    assert (await member_ratings(db_of(env), guild_id, bob))["two"].mu < 25
