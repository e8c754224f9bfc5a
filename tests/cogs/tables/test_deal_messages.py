"""Each deal has a message of its own: when a deal ends, the next deal's table comes as a new
message, and a moment later the old one becomes the deal's summary; so every deal stays in
the thread. A bot that stops in that moment makes the summary before it goes."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.config import Config
from bot.i18n import t
from bot.tables.model import Status
from cogs.tables.presenter import presenter_of
from cogs.tables.summaries import ARCHIVE_AFTER
from tests.cogs.tables import _faults
from tests.cogs.tables._game import SEED, Game, new_game
from tests.cogs.tables._world import buttons, layout_texts, placed
from tests.conftest import World

quick_games = _faults.quick_games

TWO_DEALS = 10
"""A seed whose games here take two deals each (nobody reaches the target in the first)."""


async def to_the_next_deal(game: Game) -> tuple[int, int]:
    """Play until the first deal is over; the deal, and the message that showed it."""
    await game.start()
    first, message = game.table.deal_no, placed(game.table).play_message_id
    assert message is not None
    await game.play_until(lambda: game.table.deal_no > first)
    return first, message


def is_summary(game: Game, message_id: int, deal: int) -> bool:
    table = game.table
    message = next(m for m in game.messages(placed(table).where_id) if m.id == message_id)
    title = t("summary.title", "en", deal=deal + 1, id=table.id)
    said = layout_texts(message)
    replay = [f"tute:rp:{table.id}:{deal}", f"tute:rv:{table.id}:{deal}"]  # Replay, Review
    return (
        bool(said)
        and said[0].startswith(f"### {title}\n")
        and [b.custom_id for b in buttons(message)] == replay
    )


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_deals_message_becomes_its_summary_a_moment_after_the_next(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(SEED)  # two deals
    game = await new_game(env, world, humans=1)
    first, old = await to_the_next_deal(game)
    table = game.table
    assert placed(table).play_message_id != old, "the next deal has a message of its own"
    assert placed(table).play_message_deal == table.deal_no
    assert not is_summary(game, old, first), "not yet: the next deal's message goes first"
    await env.advance_time(ARCHIVE_AFTER + 0.5)
    assert is_summary(game, old, first)
    thread = [m.id for m in game.messages(placed(table).where_id)]
    new = placed(table).play_message_id
    assert new is not None and thread.index(old) < thread.index(new), "the summary stays above"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_bot_that_stops_makes_the_summary_first(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    test_config: Config,
) -> None:
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world, humans=1)
    first, old = await to_the_next_deal(game)
    assert not is_summary(game, old, first)
    await game.restart(test_config)  # at once, within the moment
    assert is_summary(game, old, first)
    await game.play()
    await game.check_end()


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_no_summary_picture_is_kept_of_a_game_that_is_over(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """A game's last deal may end before the deal before it has become its summary: that
    summary still comes, and the bot keeps no picture of the game once it is over, however
    many games it hosts (each one drawn while its table plays costs memory until then)."""
    env = simcord_env
    table_seed(TWO_DEALS)  # two deals, the second played out before the first one's summary
    games = 3
    for _ in range(games):
        game = await new_game(env, world)
        first, old = await to_the_next_deal(game)
        await game.play()
        assert not is_summary(game, old, first), "the game ended first"
        await env.advance_time(ARCHIVE_AFTER + 0.5)
        assert is_summary(game, old, first)
        await game.check_end()
    shown = presenter_of(env.bot).shown
    kept = shown._summaries  # pyright: ignore[reportPrivateUsage]
    assert len(kept) == 0, f"pictures kept of {games} games over"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_play_that_ends_a_deal_or_the_game_costs_three_calls_at_most(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """The click that ends a deal shows the next deal's message and the other hand at once
    (the summary a moment later); the one that ends the game shows the end in the table
    message and in both hands at once, and the lobby in the channel says so a moment later.
    Each costs Discord three calls at most, the click's answer included (the hands are
    edited in place: no turn notice)."""
    env = simcord_env
    table_seed(4)  # two deals between alice and bob
    game = await new_game(env, world, humans=2, notify=False)
    await game.start()
    lobby_id = placed(game.table).message_id
    ending: list[tuple[str, list[str]]] = []
    for _ in range(400):
        table = game.table
        if table.status is not Status.PLAYING:
            break
        deal_no, since = table.deal_no, len(env.http_requests)
        clicks = sum(h.clicks for h in game.humans)
        await game.step()
        if sum(h.clicks for h in game.humans) == clicks:
            continue  # time passed: nobody clicked
        ended = "game" if table.status is not Status.PLAYING else "deal"
        if ended == "game" or table.deal_no != deal_no:
            calls = [f"{r.method} {r.path}" for r in env.http_requests[since:]]
            ending.append((ended, calls))
    assert [ended for ended, _ in ending] == ["deal", "game"]
    for ended, calls in ending:
        assert len(calls) <= 3, f"the play that ended the {ended}: {calls}"

    # nothing is lost: a moment later the lobby says how the game ended
    await env.advance_time(ARCHIVE_AFTER + 0.5)
    said = next(m for m in world.channel.history() if m.id == lobby_id)
    description = said.embeds[0].description
    assert description is not None
    assert description.startswith(t("tables.lobby.status.finished", "en") + "\n")
    assert "🏆" in description, "with the winner"
    await game.check_end()


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_bot_that_stops_as_a_game_ends_says_so_in_the_lobby_first(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    test_config: Config,
) -> None:
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world, humans=1)
    await game.start()
    lobby_id = placed(game.table).message_id
    await game.play()
    await game.restart(test_config)  # at once, within the moment
    said = next(m for m in world.channel.history() if m.id == lobby_id)
    description = said.embeds[0].description
    assert description is not None
    assert description.startswith(t("tables.lobby.status.finished", "en") + "\n")
