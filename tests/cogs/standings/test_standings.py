"""/tute leaderboard, stats, config and daily end to end: the real bot in SimCord."""

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

import discord
import pytest
import simcord
from simcord import ChannelHandle, GuildHandle, MemberActor

from bot.client import TuteBot
from bot.config import Config
from bot.i18n import t
from bot.storage import ledger, members
from bot.storage.settings import DEFAULT_SETTINGS, GuildSettings, get_settings
from cogs.standings import LeaderboardPage, leaderboard_message
from tests.cogs.standings.conftest import buttons_of, db_of, embed_of, fields_of
from tests.conftest import sim_bot

pytestmark = pytest.mark.e2e


@dataclass
class Server:
    env: simcord.Env
    guild: GuildHandle
    channel: ChannelHandle
    alice: MemberActor
    bob: MemberActor
    admin: MemberActor  # has a role with Manage Server


@pytest.fixture
async def server(simcord_env: simcord.Env) -> Server:
    guild = simcord_env.create_guild("Casino")
    channel = guild.create_text_channel("tute")
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    alice = guild.add_member(simcord_env.create_user("alice", global_name="Alicia"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    admin = guild.add_member(simcord_env.create_user("dora"), roles=[managers])
    return Server(simcord_env, guild, channel, alice, bob, admin)


async def seed(env: simcord.Env, guild_id: int, chips: dict[int, int]) -> None:
    """Members with these balances (starting chips 0, then an admin grant)."""
    async with db_of(env).transaction() as conn:
        for user_id, amount in chips.items():
            await members.ensure_member(conn, guild_id, user_id, 0, 0.0)
            if amount:
                await ledger.grant(conn, guild_id, user_id, amount, "admin", 0.0)


# ---------------------------------------------------------------------------- the mixin


async def test_the_standings_commands_are_subcommands_of_tute(
    simcord_env: simcord.Env, server: Server
) -> None:
    client = simcord_env.bot
    assert isinstance(client, TuteBot)
    cog = client.get_cog("Tute")
    assert cog is not None
    names = {c.qualified_name for c in cog.walk_app_commands()}
    assert {"tute leaderboard", "tute stats", "tute config", "tute daily"} <= names
    offered = server.alice.available_commands(server.channel)
    assert {"tute leaderboard", "tute stats", "tute config", "tute daily"} <= set(offered)

    registered = simcord_env.backend.find_command("tute", None, type=1)
    assert registered is not None
    options = {o["name"]: o for o in registered["options"]}
    assert options["leaderboard"]["name_localizations"]["es-ES"] == "clasificación"
    assert options["config"]["name_localizations"]["es-ES"] == "ajustes"
    by, family, season = options["leaderboard"]["options"]
    assert season["name_localizations"]["es-ES"] == "temporada"
    assert by["name_localizations"]["es-ES"] == "por"
    assert [c["name_localizations"]["es-ES"] for c in by["choices"]] == [
        "Fichas",
        "Experiencia",
        "Partidas ganadas",
        "Rondas ganadas",
        "Nivel de juego",
    ]
    assert family["name_localizations"]["es-ES"] == "modalidad"
    assert [c["value"] for c in family["choices"]] == ["two", "three", "four", "pairs"]
    config_options = {o["name"]: o for o in options["config"]["options"]}
    assert config_options["starting_chips"]["name_localizations"]["es-ES"] == "fichas_iniciales"


# ---------------------------------------------------------------------------- leaderboard


async def test_the_leaderboard_pages_with_buttons_that_survive_a_restart(
    server: Server, test_config: Config
) -> None:
    env = server.env
    # 25 members: user ids 1..25 with 10, 20 ... 250 chips.
    await seed(env, server.guild.id, {n: 10 * n for n in range(1, 26)})

    result = await server.alice.slash(server.channel, "tute leaderboard")

    assert not result.ephemeral  # for the channel to see
    assert result.response is not None
    embed = embed_of(result)
    assert embed.title == t("standings.leaderboard.title.chips", "en")
    lines = (embed.description or "").splitlines()
    assert len(lines) == 10
    assert lines[0] == "🥇 <@25>: **250**"
    assert lines[3] == "`#4` <@22>: **220**"
    assert embed.footer.text == "Page 1 of 3"
    previous, following = buttons_of(result.response.message)
    assert (previous.label, previous.disabled) == ("◀ Previous", True)
    assert (following.label, following.disabled) == ("Next ▶", False)
    assert following.custom_id == "tute:lb:chips:1"
    assert result.response.message.mentions == []
    # answered "thinking" first, the board then edited in, pinging nobody
    answer = next(r for r in env.http_requests if r.path.endswith("/messages/@original"))
    assert answer.json is not None
    assert answer.json["allowed_mentions"] == {"parse": []}

    # Anybody may turn the page: the message itself changes.
    click = await server.bob.click(result.response, custom_id="tute:lb:chips:1")
    assert click.response is not None and click.response.id == result.response.id
    page_two = result.response.message
    assert page_two.embeds[0].footer.text == "Page 2 of 3"
    assert (page_two.embeds[0].description or "").splitlines()[0] == "`#11` <@15>: **150**"

    # After a restart, the buttons of the old message still work.
    old_db = db_of(env)
    await env.restart_bot(sim_bot(test_config))
    await old_db.close()
    await server.alice.click(result.response, label="Next ▶")
    page_three = result.response.message
    assert page_three.embeds[0].footer.text == "Page 3 of 3"
    assert len((page_three.embeds[0].description or "").splitlines()) == 5
    previous, following = buttons_of(page_three)
    assert (previous.disabled, following.disabled) == (False, True)
    await server.alice.click(result.response, label="◀ Previous")
    assert result.response.message.embeds[0].footer.text == "Page 2 of 3"


async def test_a_page_past_the_end_shows_the_last_one(server: Server) -> None:
    await seed(server.env, server.guild.id, {1: 5, 2: 7})
    result = await server.alice.slash(server.channel, "tute leaderboard")
    assert result.response is not None
    assert embed_of(result).footer.text == "Page 1 of 1"
    assert all(b.disabled for b in buttons_of(result.response.message))

    # A button of an older, longer board asks for a page that is gone: the last one shows.
    embed, view = await leaderboard_message(db_of(server.env), server.guild.id, "chips", 7, "en")
    assert embed.footer.text == "Page 1 of 1"
    assert [item.custom_id for item in view.children] == [  # type: ignore[attr-defined]
        "tute:lb:chips:-1",
        "tute:lb:chips:1",
    ]
    assert LeaderboardPage("xp", 3).item.custom_id == "tute:lb:xp:3"


async def test_boards_by_experience_and_wins(server: Server) -> None:
    empty = await server.alice.slash(server.channel, "tute leaderboard", by="xp")
    assert embed_of(empty).description == t("standings.leaderboard.empty", "en")

    await seed(server.env, server.guild.id, {1: 0, 2: 0, 3: 0})
    async with db_of(server.env).transaction() as conn:
        await members.add_stats(conn, server.guild.id, 1, xp=40, games_won=1, rounds_won=3)
        await members.add_stats(conn, server.guild.id, 2, xp=1500, games_won=2, rounds_won=2)

    xp = embed_of(await server.alice.slash(server.channel, "tute leaderboard", by="xp"))
    assert xp.title == "Leaderboard: experience"
    assert (xp.description or "").splitlines() == ["🥇 <@2>: **1,500**", "🥈 <@1>: **40**"]
    rounds = embed_of(await server.alice.slash(server.channel, "tute leaderboard", by="rounds"))
    assert (rounds.description or "").splitlines()[0] == "🥇 <@1>: **3**"
    games = embed_of(await server.alice.slash(server.channel, "tute leaderboard", by="games"))
    assert games.title == "Leaderboard: games won"


async def test_the_public_leaderboard_speaks_the_servers_language(
    server: Server, set_locale: Callable[[str], None]
) -> None:
    await server.admin.slash(server.channel, "tute config", language="es")
    await seed(server.env, server.guild.id, {1: 1234})
    set_locale("en-US")

    result = await server.alice.slash(server.channel, "tute leaderboard")

    embed = embed_of(result)
    assert embed.title == "Clasificación: fichas"
    assert (embed.description or "").splitlines() == ["🥇 <@1>: **1.234**"]
    assert embed.footer.text == "Página 1 de 1"
    assert result.response is not None
    labels = [b.label for b in buttons_of(result.response.message)]
    assert labels == ["◀ Anterior", "Siguiente ▶"]


# ---------------------------------------------------------------------------- stats


async def test_my_stats_give_me_my_starting_chips(server: Server) -> None:
    result = await server.alice.slash(server.channel, "tute stats")

    assert result.ephemeral
    embed = embed_of(result)
    assert embed.title == "Alicia in this server"
    assert embed.footer.text is None  # no rating shown: no legend for one
    assert fields_of(embed) == {
        "Chips": "1,000",
        "Rank by chips": "#1 of 1",
        "Experience": "0",
        "Games won": "0 of 0 (0%)",
        "Rounds won": "0 of 0 (0%)",
        "Cantes sung": "0",
        "Tutes": "0",
        "Skill rating": (
            "Not rated yet: play a competitive game to the end with another member to get a rating."
        ),
    }


async def test_stats_of_another_member(server: Server) -> None:
    never = await server.alice.slash(server.channel, "tute stats", member=server.bob)
    assert never.ephemeral
    assert never.response is not None
    assert never.response.content == t("standings.stats.none", "en", member=f"<@{server.bob.id}>")
    assert await members.member_stats(db_of(server.env), server.guild.id, server.bob.id) is None

    await seed(server.env, server.guild.id, {server.bob.id: 2500, 1: 3000})
    async with db_of(server.env).transaction() as conn:
        await members.add_stats(
            conn,
            server.guild.id,
            server.bob.id,
            xp=120,
            games_won=3,
            games_played=4,
            rounds_won=5,
            rounds_played=9,
            cantes=6,
            tutes=1,
        )

    result = await server.alice.slash(server.channel, "tute stats", member=server.bob)

    embed = embed_of(result)
    assert embed.title == "bob in this server"
    assert fields_of(embed) == {
        "Chips": "2,500",
        "Rank by chips": "#2 of 2",
        "Experience": "120",
        "Games won": "3 of 4 (75%)",
        "Rounds won": "5 of 9 (56%)",
        "Cantes sung": "6",
        "Tutes": "1",
        "Skill rating": (
            "Not rated yet: play a competitive game to the end with another member to get a rating."
        ),
    }


async def test_stats_in_spanish(server: Server, set_locale: Callable[[str], None]) -> None:
    set_locale("es-ES")

    embed = embed_of(await server.alice.slash(server.channel, "tute stats"))

    assert embed.title == "Alicia en este servidor"
    fields = fields_of(embed)
    assert fields["Fichas"] == "1.000"
    assert fields["Puesto por fichas"] == "1.º de 1"
    assert fields["Partidas ganadas"] == "0 de 0 (0 %)"


# ---------------------------------------------------------------------------- config


async def test_config_is_refused_without_manage_server(
    server: Server, set_locale: Callable[[str], None]
) -> None:
    result = await server.alice.slash(server.channel, "tute config", starting_chips=5)

    assert result.ephemeral
    assert result.response is not None
    assert result.response.content == t("standings.config.forbidden", "en")
    assert await get_settings(db_of(server.env), server.guild.id) == DEFAULT_SETTINGS

    set_locale("es-ES")
    spanish = await server.alice.slash(server.channel, "tute config")
    assert spanish.response is not None
    assert spanish.response.content == (
        "Solo los miembros con el permiso Gestionar servidor pueden cambiar estos ajustes."
    )


async def test_config_shows_and_changes_the_settings(server: Server) -> None:
    shown = await server.admin.slash(server.channel, "tute config")

    assert shown.ephemeral
    embed = embed_of(shown)
    assert embed.title == "Tute settings of this server"
    # each setting in words, never by its key
    assert fields_of(embed) == {
        "Starting chips": "1,000",
        "Daily chips": "100",
        "Time per turn of new tables": "1 min",
        "Language of public messages": "English (the bot's default)",
        "How players get their cards": "Direct message",
        "Who may open tables": "Everyone",
        "Most tables open at once": "10",
        "Rating weight of games against robots": "0% (games against robots are not rated)",
        "Rated games to be on the rating board": "5",
        "Rated games a day for the same two": "10",
        "Minimum age of a Discord account": "None",
        "Minimum time in this server": "None",
        "Experience from the daily deal": "Off",
    }

    role = server.guild.create_role("Croupiers")
    changed = await server.admin.slash(
        server.channel,
        "tute config",
        starting_chips=500,
        daily_grant=25,
        turn_time=90,
        language="es",
        hand_delivery="ephemeral",
        opener_role=role,
        max_tables=3,
        daily_experience=True,
    )

    embed = embed_of(changed)
    assert embed.title == "Settings saved"
    assert fields_of(embed)["Who may open tables"] == f"<@&{role.id}>"
    assert fields_of(embed)["How players get their cards"] == "Only-you message in the channel"
    settings = await get_settings(db_of(server.env), server.guild.id)
    assert settings == GuildSettings(
        starting_chips=500,
        daily_grant=25,
        turn_time=90,
        language="es",
        hand_delivery="ephemeral",
        opener_role_id=role.id,
        max_tables=3,
        daily_experience=True,
    )
    assert fields_of(embed)["Experience from the daily deal"] == "On"

    # @everyone lets everybody open tables again; the rest stays.
    await server.admin.slash(server.channel, "tute config", opener_role=server.guild.default_role)
    settings = await get_settings(db_of(server.env), server.guild.id)
    assert settings.opener_role_id is None
    assert settings.starting_chips == 500

    # The next new member gets the new starting chips.
    stats = embed_of(await server.bob.slash(server.channel, "tute stats"))
    assert fields_of(stats)["Chips"] == "500"


async def test_config_takes_the_bounds_discord_enforces(server: Server) -> None:
    result = await server.admin.slash(server.channel, "tute config", max_tables=50, turn_time=10)
    assert embed_of(result).title == "Settings saved"
    with pytest.raises(simcord.OptionError):
        await server.admin.slash(server.channel, "tute config", max_tables=51)


# ---------------------------------------------------------------------------- daily


def next_midnight(env: simcord.Env) -> int:
    day = env.now().date() + dt.timedelta(days=1)
    return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp())


async def test_daily_once_per_day_then_again_after_midnight(server: Server) -> None:
    env = server.env
    await env.advance_time(3600)  # 01:00 UTC

    first = await server.alice.slash(server.channel, "tute daily")

    assert first.ephemeral
    assert first.response is not None
    midnight = next_midnight(env)
    assert first.response.content == t(
        "standings.daily.claimed", "en", amount="100", balance="1,100", next=f"<t:{midnight}:R>"
    )
    again = await server.alice.slash(server.channel, "tute daily")
    assert again.response is not None
    assert again.response.content == t(
        "standings.daily.already", "en", balance="1,100", next=f"<t:{midnight}:R>"
    )

    await env.advance_time(22 * 3600)  # 23:00 UTC, still the same day
    late = await server.alice.slash(server.channel, "tute daily")
    assert late.response is not None
    assert late.response.content.startswith("You have already collected")

    await env.advance_time(3600 + 1)  # just past midnight
    assert env.now().date() == dt.date(2026, 1, 2)
    next_day = await server.alice.slash(server.channel, "tute daily")
    assert next_day.response is not None
    assert "You now have **1,200**" in next_day.response.content
    assert f"<t:{next_midnight(env)}:R>" in next_day.response.content
    assert await ledger.balance(db_of(env), server.guild.id, server.alice.id) == 1200
    assert (await ledger.audit(db_of(env), server.guild.id)).balanced


async def test_daily_in_spanish_and_when_turned_off(
    server: Server, set_locale: Callable[[str], None]
) -> None:
    set_locale("es-ES")
    claimed = await server.alice.slash(server.channel, "tute daily")
    assert claimed.response is not None
    assert claimed.response.content.startswith(
        "Has recogido **100** fichas. Ahora tienes **1.100**."
    )
    assert re.search(r"<t:\d+:R>\.$", claimed.response.content)

    await server.admin.slash(server.channel, "tute config", daily_grant=0)
    off = await server.bob.slash(server.channel, "tute daily")
    assert off.response is not None
    assert off.response.content == "Las fichas diarias están desactivadas en este servidor."
