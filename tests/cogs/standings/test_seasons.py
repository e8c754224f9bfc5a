"""Seasons on Discord end to end, in SimCord: ``/tute season start``, ``end`` and ``show``,
the planned end that comes by itself, a season's rating board in ``/tute leaderboard``,
its line in ``/tute stats``; and the fair-play minimums of ``/tute daily``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import discord
import pytest
import simcord
from simcord import MemberActor

from bot.i18n import t
from bot.storage.seasons import running_season, season_number
from bot.storage.settings import update_settings
from bot.tables.competition import seasons
from bot.tables.ratings import Family, GameResult, Player, Rating, RatingRules, record_game
from tests.cogs.standings.conftest import buttons_of, db_of, embed_of, fields_of
from tests.conftest import World

pytestmark = pytest.mark.e2e

DAY = 86_400


class Games:
    """Rated games of two, recorded as the settlement records them, at SimCord's now."""

    def __init__(self, env: simcord.Env, guild_id: int) -> None:
        self.env = env
        self.guild_id = guild_id
        self.table_id = 0

    async def play(self, *duels: tuple[int, int], family: Family = Family.TWO) -> None:
        """Each (winner, loser): one game, a member a side."""
        now = self.env.now().timestamp()
        async with db_of(self.env).transaction() as conn:
            for winner, loser in duels:
                self.table_id += 1
                sides = ((Player(user_id=winner),), (Player(user_id=loser),))
                result = GameResult(family, sides, (0, 1))
                await record_game(conn, self.guild_id, self.table_id, result, now, RatingRules())


async def set_min_games(env: simcord.Env, guild_id: int, games: int) -> None:
    async with db_of(env).transaction() as conn:
        await update_settings(conn, guild_id, min_rated_games=games)


def place(medal: str, user_id: int, rating: Rating) -> str:
    """A podium's line: the rating, and its rated games, said to be still settling (three
    games never settle one)."""
    games = f"{rating.games} rated game" + ("s" if rating.games != 1 else "")
    return f"{medal} <@{user_id}>: **{rating.shown:,}** · still settling, {games}"


def midnight(day: str) -> int:
    return int(dt.datetime.fromisoformat(day).replace(tzinfo=dt.UTC).timestamp())


def content_of(result: simcord.InteractionResult) -> str:
    assert result.response is not None
    return result.response.content


def lines_of(embed: discord.Embed) -> list[str]:
    return (embed.description or "").splitlines()


# ---------------------------------------------------------------------------- start


async def test_an_admin_starts_a_season_and_only_one_runs(
    simcord_env: simcord.Env,
    world: World,
    admin: MemberActor,
    set_locale: Callable[[str], None],
) -> None:
    env = simcord_env
    assert env.now().date() == dt.date(2026, 1, 1)
    channel = world.channel

    for bad in ("tomorrow", "2026-13-01", "2026-02-30", "1/3/2026"):
        refused = await admin.slash(channel, "tute season start", ends=bad)
        assert refused.ephemeral
        assert content_of(refused) == t("standings.season.bad_date", "en", value=bad)
    for past in ("2025-12-31", "2026-01-01"):  # 00:00 UTC today has come already
        refused = await admin.slash(channel, "tute season start", ends=past)
        assert refused.ephemeral
        assert content_of(refused) == (
            f"A season must end on a day ahead: {past} at 00:00 UTC has already come."
        )
    member = await world.member.slash(channel, "tute season start", ends="2026-02-01")
    assert member.ephemeral
    assert content_of(member) == t("standings.season.forbidden", "en")
    assert await running_season(db_of(env), world.guild.id) is None

    started = await admin.slash(channel, "tute season start", ends="2026-02-01")

    assert not started.ephemeral
    ends = midnight("2026-02-01")
    assert content_of(started) == (
        "**Season 1 has started!** Ratings start afresh in it; it ends on 2026-02-01 "
        f"at 00:00 UTC (<t:{ends}:R>)."
    )
    season = await running_season(db_of(env), world.guild.id)
    assert season is not None and season.number == 1
    assert (season.ends_at, season.channel_id) == (ends, channel.id)

    again = await admin.slash(channel, "tute season start")
    assert again.ephemeral
    assert content_of(again) == ("Season 1 is running already: end it first with /tute season end.")
    set_locale("es-ES")
    spanish = await admin.slash(channel, "tute season start", ends="mañana")
    assert content_of(spanish).startswith("`mañana` no es una fecha")


# ---------------------------------------------------------------------------- end


async def test_ending_a_season_posts_its_podium(
    simcord_env: simcord.Env, world: World, admin: MemberActor
) -> None:
    env = simcord_env
    guild_id = world.guild.id
    games = Games(env, guild_id)
    await set_min_games(env, guild_id, 2)
    a, b, c, d = 501, 502, 503, 504
    await games.play((d, a), (d, b), (d, c))  # before the season: not in it

    started = await admin.slash(world.channel, "tute season start")
    assert content_of(started) == (
        "**Season 1 has started!** Ratings start afresh in it; an admin ends it with "
        "/tute season end."
    )
    await games.play((a, b), (a, c), (b, c), (a, b), (d, c))  # d: one game, under 2
    await games.play((a, b), family=Family.PAIRS)  # one game each: nobody qualifies
    forbidden = await world.member.slash(world.channel, "tute season end")
    assert content_of(forbidden) == t("standings.season.forbidden", "en")
    season = await running_season(db_of(env), guild_id)
    assert season is not None
    rated = await seasons.season_ratings(db_of(env), season)

    ended = await admin.slash(world.channel, "tute season end")

    assert not ended.ephemeral
    assert content_of(ended) == "**Season 1 has ended!** Here is its podium."
    embed = embed_of(ended)
    assert embed.title == "Season 1: the podium"
    fields = fields_of(embed)
    assert fields["Two players"] == "\n".join(
        [
            place("🥇", a, rated[(a, Family.TWO)]),
            place("🥈", b, rated[(b, Family.TWO)]),
            place("🥉", c, rated[(c, Family.TWO)]),
        ]
    )
    assert rated[(a, Family.TWO)].games == 3  # the games before the season do not count
    for family in ("Three players", "Four players", "Pairs"):
        assert fields[family] == "Nobody qualified"
    assert embed.footer.text == (
        "Ranked from 2 rated games in the season\n"
        "Everyone starts at 1,000. A rating still settling moves a lot with each game, "
        "and ranks lower on the boards until it settles."
    )
    assert await running_season(db_of(env), guild_id) is None

    nothing = await admin.slash(world.channel, "tute season end")
    assert nothing.ephemeral
    assert content_of(nothing) == "No season is running in this server."

    # show: any season by number, anyone
    shown = await world.member.slash(world.channel, "tute season show", number=1)
    assert not shown.ephemeral
    shown_embed = embed_of(shown)
    assert shown_embed.title == "Season 1"
    assert fields_of(shown_embed)["Two players"] == fields["Two players"]
    assert (shown_embed.description or "").startswith("From <t:")
    unknown = await world.member.slash(world.channel, "tute season show", number=4)
    assert content_of(unknown) == "There is no season 4 in this server."
    none = await world.member.slash(world.channel, "tute season show")
    assert content_of(none) == "No season is running in this server."


async def test_show_gives_the_running_seasons_best_so_far(
    simcord_env: simcord.Env, world: World, admin: MemberActor
) -> None:
    env = simcord_env
    games = Games(env, world.guild.id)
    await set_min_games(env, world.guild.id, 1)
    await admin.slash(world.channel, "tute season start", ends="2026-03-01")
    await games.play((601, 602))
    season = await running_season(db_of(env), world.guild.id)
    assert season is not None
    rated = await seasons.season_ratings(db_of(env), season)

    shown = await world.member.slash(world.channel, "tute season show")

    embed = embed_of(shown)
    assert embed.title == "Season 1"
    assert embed.description == (
        f"Started <t:{int(season.started_at)}:D>; ends on 2026-03-01 at 00:00 UTC "
        f"(<t:{midnight('2026-03-01')}:R>)."
    )
    fields = fields_of(embed)
    assert fields["Two players"] == "\n".join(
        [place("🥇", 601, rated[(601, Family.TWO)]), place("🥈", 602, rated[(602, Family.TWO)])]
    )
    assert fields["Pairs"] == "Nobody qualifies yet"


# ---------------------------------------------------------------------------- planned end


async def test_a_planned_end_comes_by_itself_and_a_failed_post_stops_nothing(
    simcord_env: simcord.Env, world: World, admin: MemberActor, caplog: pytest.LogCaptureFixture
) -> None:
    env = simcord_env
    guild_id = world.guild.id
    await set_min_games(env, guild_id, 1)
    # Another server's season ends at the same time, first, in a channel the bot may no
    # longer post in: its podium is dropped, and this server's comes all the same.
    other = env.create_guild("Elsewhere")
    closed = other.create_text_channel("closed")
    now = env.now().timestamp()
    await seasons.start(db_of(env), other.id, now, float(midnight("2026-01-02")), closed.id)
    env.inject_error(
        "POST",
        f"/channels/{closed.id}/messages",
        status=403,
        code=50013,
        message="Missing Permissions",
        times=None,
    )
    await admin.slash(world.channel, "tute season start", ends="2026-01-02")
    await Games(env, guild_id).play((701, 702))
    before = len(world.channel.history())

    await env.advance_time(DAY - 120)  # 23:58: not yet

    assert await running_season(db_of(env), guild_id) is not None
    assert len(world.channel.history()) == before

    await env.advance_time(180)  # 00:01 of the planned day: ended within the minute

    assert await running_season(db_of(env), guild_id) is None
    assert await running_season(db_of(env), other.id) is None
    posted = world.channel.last_message
    assert posted is not None
    assert posted.content == "**Season 1 has ended!** Here is its podium."
    [embed] = posted.embeds
    assert embed.title == "Season 1: the podium"
    assert fields_of(embed)["Two players"].startswith("🥇 <@701>: **")
    assert not closed.history()
    assert f"Could not post the podium of season 1 of server {other.id}" in caplog.text

    # The clock goes on: a season started now ends at its planned end too.
    await admin.slash(world.channel, "tute season start", ends="2026-01-03")
    await env.advance_time(DAY)
    season = await season_number(db_of(env), guild_id, 2)
    assert season is not None and season.ended_at is not None
    last = world.channel.last_message
    assert last is not None and last.content == "**Season 2 has ended!** Here is its podium."


# ---------------------------------------------------------------------------- leaderboard


async def test_a_seasons_rating_board_pages_and_keeps_its_season(
    simcord_env: simcord.Env, world: World, admin: MemberActor
) -> None:
    env = simcord_env
    guild_id = world.guild.id
    games = Games(env, guild_id)
    await set_min_games(env, guild_id, 1)
    await games.play((900, 901))  # all-time only
    await admin.slash(world.channel, "tute season start")
    # Members 1..12, six games: the winners above the losers.
    await games.play(*((n, n + 1) for n in range(1, 13, 2)))

    result = await world.member.slash(world.channel, "tute leaderboard", by="rating", season=0)

    assert not result.ephemeral
    embed = embed_of(result)
    assert embed.title == "Leaderboard: skill rating · Two players · season 1"
    lines = lines_of(embed)
    assert len(lines) == 10
    assert {line.split(":")[0].split()[-1] for line in lines[:6]} == {
        f"<@{n}>" for n in range(1, 13, 2)
    }
    assert not any("<@900>" in line or "<@901>" in line for line in lines)
    assert result.response is not None
    previous, following = buttons_of(result.response.message)
    assert following.custom_id == "tute:lb:rating:two:s1:1"
    assert previous.custom_id == "tute:lb:rating:two:s1:-1"
    assert len(following.custom_id) < 100

    await admin.slash(world.channel, "tute season end")
    # The buttons keep showing season 1 after it ended.
    await world.member.click(result.response, custom_id="tute:lb:rating:two:s1:1")
    page_two = result.response.message.embeds[0]
    assert page_two.title == "Leaderboard: skill rating · Two players · season 1"
    assert page_two.footer.text is not None and page_two.footer.text.startswith("Page 2 of 2")
    assert len(lines_of(page_two)) == 2

    by_number = await world.member.slash(world.channel, "tute leaderboard", season=1)
    assert embed_of(by_number).title == "Leaderboard: skill rating · Two players · season 1"
    all_time = await world.member.slash(world.channel, "tute leaderboard", by="rating")
    assert embed_of(all_time).title == "Leaderboard: skill rating · Two players"
    assert any("<@900>" in line for line in lines_of(embed_of(all_time)))

    none = await world.member.slash(world.channel, "tute leaderboard", season=0)
    assert none.ephemeral and content_of(none) == "No season is running in this server."
    unknown = await world.member.slash(world.channel, "tute leaderboard", season=3)
    assert unknown.ephemeral and content_of(unknown) == "There is no season 3 in this server."


# ---------------------------------------------------------------------------- stats


async def test_stats_show_the_running_seasons_rating(
    simcord_env: simcord.Env, world: World, admin: MemberActor
) -> None:
    env = simcord_env
    alice = world.member
    games = Games(env, world.guild.id)
    await games.play((alice.id, 801), (alice.id, 802))
    before = fields_of(embed_of(await alice.slash(world.channel, "tute stats")))
    assert not any(name.startswith("Season") for name in before)

    await admin.slash(world.channel, "tute season start")
    fresh = fields_of(embed_of(await alice.slash(world.channel, "tute stats")))
    assert fresh["Season 1"] == "No rated games this season yet"
    await games.play((803, alice.id))
    season = await running_season(db_of(env), world.guild.id)
    assert season is not None
    mine = (await seasons.season_ratings(db_of(env), season))[(alice.id, Family.TWO)]

    fields = fields_of(embed_of(await alice.slash(world.channel, "tute stats")))

    assert fields["Season 1"] == (
        f"Two players: **{mine.shown:,}** · still settling, 1 rated game"
        " · 4 more games to be on the leaderboard"
    )
    assert mine.shown < 1000  # the season's only game was a loss
    assert "3 rated games" in fields["Skill rating"]  # all-time: every game

    await admin.slash(world.channel, "tute season end")
    after = fields_of(embed_of(await alice.slash(world.channel, "tute stats")))
    assert "Season 1" not in after


# ---------------------------------------------------------------------------- daily


@pytest.mark.simcord(settle_timeout=10)
async def test_daily_waits_for_the_servers_minimum_account_and_membership_age(
    simcord_env: simcord.Env,
    world: World,
    admin: MemberActor,
    set_locale: Callable[[str], None],
) -> None:
    env = simcord_env
    guild, channel = world.guild, world.channel
    # SimCord makes an account (its id's time) and a membership now.
    eve = guild.add_member(env.create_user("eve"))
    shown = await admin.slash(channel, "tute config", min_account_days=2)
    said = fields_of(embed_of(shown))
    assert said[t("settings.config.min_account_days", "en")] == "2 days"

    new = await eve.slash(channel, "tute daily")

    assert new.ephemeral
    assert content_of(new) == (
        "Your Discord account is too new for the daily chips here (this server's minimum: "
        "2 d). Come back in 2 days."
    )
    await env.advance_time(DAY + 60)
    assert content_of(await eve.slash(channel, "tute daily")).endswith("Come back in 1 day.")

    # An account a day old that joins now: the membership is what it waits for.
    frank_user = env.create_user("frank")
    await env.advance_time(DAY)
    frank = guild.add_member(frank_user)
    shown = await admin.slash(channel, "tute config", min_account_days=1, min_member_days=1)
    said = fields_of(embed_of(shown))
    assert said[t("settings.config.min_member_days", "en")] == "1 day"
    assert content_of(await frank.slash(channel, "tute daily")) == (
        "You joined this server too recently for the daily chips (its minimum: 1 d). "
        "Come back in 1 day."
    )
    set_locale("es-ES")
    assert content_of(await frank.slash(channel, "tute daily")).startswith(
        "Llevas muy poco en este servidor"
    )

    # eve is old enough on both counts now.
    claimed = await eve.slash(channel, "tute daily")
    assert content_of(claimed).startswith("Has recogido **100** fichas.")
