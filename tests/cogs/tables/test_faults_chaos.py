"""Chaos runs: faults drawn at random (seeded) at random moments, with restarts; the ledger
and the logs checked at the end. And the fault matrix is whole.

The faults, and what keeps these games quick, are in ``_faults``; the games in ``_game``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
import simcord

from bot.config import Config
from bot.storage import ledger
from bot.storage.settings import update_settings
from bot.tables.model import Status
from cogs.tables.presenter import RETRY_AFTER
from tests.cogs.tables import _faults
from tests.cogs.tables._faults import FAULTS, KINDS, NOT_APPLICABLE, Injected, faults_for, inject
from tests.cogs.tables._game import Game, Human, check_logs, db_of, registered, service_of
from tests.cogs.tables._world import add_member, placed
from tests.conftest import World

quick_games = _faults.quick_games
"""Tiny pictures, easy robots, a SimCord that checks a settling bot often (every test here)."""


CHAOS_KINDS = {"table_edit": 3, "dm_edit": 3, "click_answer": 2, "dm_send": 1}
"""The calls a fault strikes mid-game, and how often (a DM is seldom sent mid-game)."""
CHAOS_FAULTS = [
    (kind, name)
    for kind, weight in CHAOS_KINDS.items()
    for name in FAULTS
    if (kind, name) not in NOT_APPLICABLE
    for _ in range(weight)
]


@dataclass
class Chaos:
    """Faults drawn at random (from a seeded ``random.Random``) on what the game uses now."""

    game: Game
    rng: random.Random
    injected: list[Injected] = field(default_factory=list[Injected])

    def strike(self) -> None:
        env = self.game.env
        kind, name = self.rng.choice(CHAOS_FAULTS)
        fault = FAULTS[name]
        table = self.game.table
        human = self.rng.choice(self.game.humans)
        dm = human.member.user.dm_channel.id
        if kind == "table_edit":
            method, path = (
                "PATCH",
                f"/channels/{placed(table).where_id}/messages/{placed(table).play_message_id}",
            )
        elif kind == "dm_send":
            method, path = "POST", f"/channels/{dm}/messages"
        elif kind == "dm_edit":
            method, path = "PATCH", f"/channels/{dm}/messages/*"
        else:
            method, path = "POST", "/interactions/*/*/callback"
        self.game.log.append(f"{kind}:{name}")
        self.injected.append(inject(env, method, path, fault))


CHAOS_GAMES = [
    # seed, variant, humans (the other seats are robots), bet
    pytest.param(1, "habanero", 1, 20, id="habanero-1-human-bet"),
    pytest.param(2, "arrastrado", 1, 0, id="arrastrado-1-human"),
    pytest.param(3, "arrastrado", 2, 50, id="arrastrado-2-humans-bet"),
]


@pytest.mark.e2e
@pytest.mark.parametrize(("seed", "variant", "humans", "bet"), CHAOS_GAMES)
@pytest.mark.simcord(settle_timeout=3)
async def test_chaos(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    seed: int,
    variant: str,
    humans: int,
    bet: int,
) -> None:
    """A game under faults drawn at random (seeded) from those above, at random moments,
    and one or two restarts (as in production, or a crash; the command sync failing at
    times). At the end: the game is over (finished, or cancelled with the stakes back), the
    chips add up, no table holds any, every deal's log is whole, and the command tree never
    shrank."""
    env = simcord_env
    rng = random.Random(seed)
    table_seed(rng.randrange(1 << 30))
    guild = world.guild.id
    async with db_of(env).transaction() as conn:
        await update_settings(conn, guild, starting_chips=rng.choice((100, 300)))
    members = [world.member]
    if humans == 2:
        members.append(await add_member(env, world, "bob"))
    game = Game(env, world, [Human(m) for m in members], seed)
    commands = registered(env)
    chaos = Chaos(game, rng)

    if rng.random() < 0.5:  # the answer to the first /tute new fails
        chaos.injected.append(inject(env, "POST", "/interactions/*/*/callback", FAULTS["outage"]))
        failed = await world.member.slash(world.channel, "tute new", variant=variant)
        assert not failed.acknowledged and not service_of(env).tables
    seats = 2 if variant == "habanero" else 3
    await game.open(variant, robots=seats - humans, bet=bet, turn_time=rng.choice((60, 3600)))
    if rng.random() < 0.5:
        thread_fault = FAULTS[rng.choice(("no-permission", "outage", "rate-limited"))]
        chaos.injected.append(
            inject(env, "POST", f"/channels/{world.channel.id}/*threads", thread_fault)
        )
    await game.start()

    restarts = sorted(rng.sample(range(2, 12), rng.choice((1, 2))))
    for step in range(400):
        if game.table.status is not Status.PLAYING:
            break
        if restarts and step == restarts[0]:
            restarts.pop(0)
            if rng.random() < 0.5:  # the command sync fails: Discord keeps what it had
                inject(env, "PUT", "/applications/*/commands", FAULTS["outage"])
            await game.restart(test_config, graceful=rng.random() < 0.5)
            game.log.append("restart")
            assert game.table_id in service_of(env).tables, "the table comes back"
        if rng.random() < 0.3:
            chaos.strike()
        await game.step()
    else:
        raise AssertionError("the game did not end")
    assert not restarts, "each restart came during the game"
    assert len([i for i in chaos.injected if i.failed]) >= 3, "faults struck"

    for delay in RETRY_AFTER:  # what Discord failed to take at the end is shown again
        await env.advance_time(delay + 1)
    table = game.table
    assert table.status in (Status.FINISHED, Status.CANCELLED), table.status
    if table.status is Status.FINISHED:
        await game.check_end()
    db = db_of(env)
    audit = await ledger.audit(db, guild)
    assert audit.balanced, audit
    assert audit.tables == 0, "no chips held by tables"
    await check_logs(db)
    rows = await db.fetchall("SELECT status FROM tables")
    assert {status for (status,) in rows} <= {"finished", "cancelled", "closed"}
    await game.check_after_restart(test_config)
    assert registered(env) >= commands, "the command tree never shrinks"


def test_every_fault_is_tried_on_every_call_or_said_why_not() -> None:
    """The matrix is whole: a fault left out of a kind of call has its reason."""
    assert set(NOT_APPLICABLE) <= {(kind, name) for kind in KINDS for name in FAULTS}
    for kind in KINDS:
        tried = {case.id for case in faults_for(kind)}
        left_out = {name for (k, name) in NOT_APPLICABLE if k == kind}
        assert tried | left_out == set(FAULTS) and not tried & left_out, kind
        assert len(tried) >= 5, kind
