"""A DM click that reaches a process which does not hold its table (Discord sends every DM
to shard 0): the bot acknowledges the click at once and has the holder play it
(``Cluster.forward``; the holder's side is tested in tests/tables/test_cluster.py). Here the
real bot in SimCord plays shard 0 of 2, and its table is made another process's."""

from __future__ import annotations

import pytest
import simcord

from bot.i18n import t
from bot.tables.cluster import Click
from bot.tables.errors import SaveFailed, TableError
from tests.cogs.tables._game import Game, code_of, new_game, service_of
from tests.conftest import World

pytestmark = pytest.mark.e2e


async def held_elsewhere(env: simcord.Env, world: World) -> tuple[Game, list[Click]]:
    """Alice's game, on her turn with her hand in her DMs; then the table is another
    process's, and the clicks this process forwards are kept."""
    game = await new_game(env, world)
    await game.start()
    human = game.humans[0]
    assert game.deal.turn == game.seat(human)
    service = service_of(env)
    cluster = env.bot.cluster  # type: ignore[attr-defined]
    forwarded: list[Click] = []

    async def forward(click: Click) -> None:
        forwarded.append(click)

    cluster.shard_count, cluster.shards = 2, frozenset({0})
    cluster.forward = forward
    game.last = service.tables.pop(game.table_id)  # the holder has it now
    return game, forwarded


async def test_a_dm_click_for_a_table_held_elsewhere_is_forwarded_and_acknowledged(
    simcord_env: simcord.Env, world: World
) -> None:
    game, forwarded = await held_elsewhere(simcord_env, world)
    human = game.humans[0]
    dm = game.dm_message(human)
    assert dm is not None
    button = game.usable(dm, game.seat(human))[0]

    result = await human.member.user.click(dm, custom_id=button.custom_id)

    assert result.acknowledged and result.deferred  # within Discord's 3 seconds
    assert result.followups == []  # nothing to say: the holder redraws the hand
    table = game.table
    assert forwarded == [
        Click(table.id, human.member.id, code_of(button), table.deal_no, len(game.deal.tricks))
    ]


@pytest.mark.parametrize(
    ("refusal", "key"),
    [(TableError("stale"), "tables.errors.stale"), (SaveFailed(), "tables.errors.save_failed")],
)
async def test_the_holders_refusal_reaches_the_member(
    simcord_env: simcord.Env, world: World, refusal: TableError, key: str
) -> None:
    game, _ = await held_elsewhere(simcord_env, world)
    cluster = simcord_env.bot.cluster  # type: ignore[attr-defined]

    async def refuse(click: Click) -> None:
        raise refusal

    cluster.forward = refuse
    human = game.humans[0]
    dm = game.dm_message(human)
    assert dm is not None
    button = game.usable(dm, game.seat(human))[0]

    result = await human.member.user.click(dm, custom_id=button.custom_id)

    assert result.acknowledged
    [said] = result.followups
    assert said.ephemeral
    assert said.content == t(key, "en")
