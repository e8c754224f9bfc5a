"""Many tables moving at once in SimCord: the real TuteBot, slash commands and buttons.

Each table has one member (its host) and robots: the host opens it with ``/tute new`` in a
channel of its own (ten tables per server, the default ``max_tables``), adds robots with
the lobby's button (``--add-robots``; else the start fills the seats) and starts it.
Robots play at once (``robot_delay = 0``, ``think_budget = 0.02``) and SimCord waits with
``settle_timeout = 3`` seconds, as in tests/cogs/tables/test_whole_games.py.

SimCord runs one operation at a time (a click from another task while one runs is refused
with ``SetupError: operation overlaps active click``; ``--order gather`` shows it), and each
operation returns once the bot's work has settled. So tables are started one after another
(``--order open-then-start``: every lobby, then every start; ``interleaved``: each table
opened and started before the next), and "at once" is when one operation makes every table
move: ``--advance K`` runs every member's turn clock out K times (``env.advance_time``: a
robot plays for each member, the robots answer, at every table in that one operation);
``--restart`` stops the bot and restores every table in a new one; ``--play`` has every
host play to the end, one card per table in turn.

Each operation must settle within ``settle_timeout``: an absolute deadline, however much
progress the bot makes. ``--clocks real`` (the default, as the tests do) leaves the tables'
clocks on plain ``asyncio.sleep``, which SimCord waits out in real time when it ends before
that deadline (so a ``settle_timeout`` above a turn clock waits each turn out in real
time); ``--clocks virtual`` declares them with ``env.external_wait``, as bot/sandbox.py
does, so that only ``advance_time`` ends them.

Every run is bounded: ``--timeout`` for the whole run (15 s before it, every asyncio task's
await chain and every thread's stack are printed), and a last-resort faulthandler dump and
exit if the event loop itself is stuck. A SimCord settle timeout prints the tasks too.

Prints the time taken and whether every table got where it should (playing, its member on
turn again after each advance; finished with ``--play``). Exits 0 when every table did.

Run: ``python benchmarks/simcord_many_tables.py --tables 120 [--variant pairs]
[--advance 1] [--settle-timeout 3] [--clocks real|virtual] [--play] [--restart]``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
import faulthandler
import logging
import os
import pstats
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord

from bot.app import TuteApp
from bot.client import TuteBot
from bot.config import Config
from bot.engine import Options
from bot.sandbox.waits import SimulatedWaits
from bot.tables.model import Status
from bot.tables.runtime import Runtime
from bot.tables.service import TableService
from tests.tables._play import keep_ended, tables_of

PER_GUILD = 10
ROBOTS = {"habanero": 1, "arrastrado": 2, "individual": 3, "pairs": 3}
ROOT = str(Path(__file__).resolve().parent.parent) + "/"
SITE = str(Path(simcord.__file__).resolve().parent.parent) + "/"
START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", flush=True)


# ------------------------------------------------------------------ diagnostics


def async_stack(task: asyncio.Task[Any]) -> list[str]:
    """Where a task waits: each coroutine of its await chain (``Task.print_stack`` shows
    only the outermost one), down to what it waits on."""
    lines: list[str] = []
    coro: Any = task.get_coro()
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None:
            path = frame.f_code.co_filename.replace(ROOT, "").replace(SITE, "")
            lines.append(f"  {path}:{frame.f_lineno} {frame.f_code.co_name}")
        awaited = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
        if awaited is None or not (hasattr(awaited, "cr_frame") or hasattr(awaited, "gi_frame")):
            if awaited is not None:
                lines.append(f"  waits on {type(awaited).__name__}")
            break
        coro = awaited
    return lines


def dump_tasks(limit: int = 12) -> None:
    """Every asyncio task with its await chain (tasks alike grouped), every thread's stack."""
    tasks = asyncio.all_tasks()
    groups: dict[str, list[str]] = {}
    for task in tasks:
        groups.setdefault("\n".join(async_stack(task)), []).append(task.get_name())
    print(f"--- {len(tasks)} asyncio tasks, {len(groups)} distinct await chains ---")
    for stack, names in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:limit]:
        print(f"{len(names)} x {names[:3]}{' ...' if len(names) > 3 else ''}\n{stack}")
    print("--- threads (innermost frame) ---")
    frames = sys._current_frames()  # pyright: ignore[reportPrivateUsage]
    for thread in threading.enumerate():
        frame = frames.get(thread.ident or -1)
        where = traceback.format_stack(frame)[-1].strip().splitlines()[0] if frame else ""
        print(f"{thread.name}: {where.replace(ROOT, '').replace(SITE, '')}")
    sys.stdout.flush()


# ------------------------------------------------------------------ the scenario


@dataclass
class Run:
    args: argparse.Namespace
    ops: int = 0
    slowest: tuple[float, str] = (0.0, "")
    started: int = 0
    failure: str | None = None
    moved: dict[int, int] = field(default_factory=dict[int, int])
    """table id -> actions of its deal before the last advance."""
    close_s: float = float("nan")
    statuses: dict[str, int] = field(default_factory=dict[str, int])
    good: int = 0
    busy: int = 0
    """tables whose lock was held (a robot run under way) when checked"""
    did_move: int = 0
    tables: int = 0
    errors: list[str] = field(default_factory=list[str])

    async def op(self, label: str, awaitable: Any) -> Any:
        """One SimCord operation, timed; a settle timeout prints where every task waits."""
        t0 = time.perf_counter()
        try:
            return await awaitable
        except TimeoutError as error:
            log(f"{label}: SimCord's settle timed out: {str(error).splitlines()[0]}")
            dump_tasks()
            raise
        finally:
            took = time.perf_counter() - t0
            self.ops += 1
            if took > self.slowest[0]:
                self.slowest = (took, label)
            if took > self.args.slow_op:
                log(f"slow operation: {label} took {took:.1f} s")


def button(message: Any, op: str) -> str:
    """The custom id of a lobby button (``robot``, ``start``...)."""
    for row in message.components:
        for child in getattr(row, "children", []):
            custom_id = getattr(child, "custom_id", None)
            if custom_id and custom_id.endswith(f":{op}"):
                return custom_id
    raise LookupError(op)


def enabled_cards(message: discord.Message) -> list[str]:
    found: list[str] = []
    for row in message.components:
        for child in getattr(row, "children", []):
            custom_id = getattr(child, "custom_id", None)
            if (
                isinstance(child, discord.Button)
                and not child.disabled
                and custom_id
                and custom_id.startswith("tute:h:")
                and custom_id.rsplit(":", 1)[1][0].isdigit()
            ):
                found.append(custom_id)
    return found


def make_bot(args: argparse.Namespace, config: Config, waits: SimulatedWaits) -> TuteBot:
    """``--clocks virtual``: what the sandbox does, the tables' waits declared to SimCord as
    waits on its clock (no real-time fallback; only ``advance_time`` ends them)."""
    runtime = Runtime(clock=lambda: discord.utils.utcnow().timestamp())
    if args.clocks == "virtual":
        runtime = dataclasses.replace(runtime, sleep=waits)
    return TuteApp(
        dataclasses.replace(config, robot_delay=args.robot_delay, think_budget=args.think_budget),
        runtime=runtime,
    )


def service_of(bot: discord.Client) -> TableService:
    return bot.tables  # type: ignore[attr-defined,no-any-return]


async def scenario(run: Run, folder: Path) -> None:
    args = run.args
    waits = SimulatedWaits()
    bot = make_bot(
        args, Config(token="not-a-real-token", db_path=folder / "tute.db", shard_count=1), waits
    )
    # as simcord.run does, but the clocks know SimCord's before the bot starts (the servers'
    # retention waits from the start)
    env = simcord.Env(bot, settle_timeout=args.settle_timeout)
    waits.env = env
    await env.start()
    with env.time_context():
        try:
            bot = await play(run, env, bot)
        except TimeoutError as error:
            run.failure = f"TimeoutError: {str(error).splitlines()[0]}"
        finally:
            bot = env.bot
            check(run, service_of(bot))
            run.errors = [repr(e)[:300] for e in env.errors]
            # as tests/conftest.py does: SimCord stops a bot without close(), and the
            # database's thread (not a daemon) would keep this process from exiting
            db = bot.db  # type: ignore[attr-defined]
            t0 = time.perf_counter()
            try:
                await asyncio.wait_for(bot.close(), args.close_timeout)
            except TimeoutError:
                log(f"bot.close() did not end in {args.close_timeout:g} s")
                dump_tasks()
                raise
            finally:
                run.close_s = time.perf_counter() - t0
                if db is not None:
                    await db.close()
            await env.shutdown()


async def play(run: Run, env: simcord.Env, bot: discord.Client) -> discord.Client:
    hosts = await start_tables(run, env)
    if run.args.restart:
        bot = await restart(run, env, bot)
    await advance(run, env, service_of(bot))
    if run.args.play:
        await play_out(run, hosts)
    return bot


async def start_tables(run: Run, env: simcord.Env) -> list[simcord.MemberActor]:
    """A channel and a host for each table; every lobby opened and started, in the order
    ``--order`` says. Returns the hosts."""
    args = run.args
    hosts: list[simcord.MemberActor] = []
    channels: list[simcord.ChannelHandle] = []
    guild: simcord.GuildHandle | None = None
    for n in range(args.tables):
        if guild is None or n % PER_GUILD == 0:
            guild = env.create_guild(f"Casino {n // PER_GUILD}")
        channels.append(guild.create_text_channel(f"tute-{n}"))
        hosts.append(guild.add_member(env.create_user(f"host{n}")))
    await env.settle()
    lobbies: list[Any] = []

    async def open_one(n: int) -> None:
        res = await run.op(
            f"open {n}",
            hosts[n].slash(
                channels[n],
                "tute new",
                variant=args.variant,
                rounds=1,
            ),
        )
        lobby = res.response
        assert lobby is not None and not res.ephemeral, res
        if args.turn_time != Options().turn_time:  # as the host sets it in the lobby's form
            service = service_of(env.bot)
            opened = service.open_in_channel(channels[n].id)
            assert opened is not None
            await service.set_option(opened.id, hosts[n].id, "turn_time", str(args.turn_time))
        for _ in range(ROBOTS[args.variant] if args.add_robots else 0):
            await run.op(
                f"robot {n}", hosts[n].click(lobby, custom_id=button(lobby.message, "robot"))
            )
        lobbies.append(lobby)

    async def start_one(n: int) -> None:
        lobby = lobbies[n]
        await run.op(f"start {n}", hosts[n].click(lobby, custom_id=button(lobby.message, "start")))
        run.started += 1
        if run.started % 40 == 0:
            log(f"{run.started} tables started")

    if args.order == "interleaved":
        for n in range(args.tables):
            await open_one(n)
            await start_one(n)
    else:
        for n in range(args.tables):
            await open_one(n)
        log(f"{args.tables} lobbies open")
        if args.order == "gather":
            outcomes = await asyncio.gather(
                *(start_one(n) for n in range(args.tables)), return_exceptions=True
            )
            refused = [o for o in outcomes if isinstance(o, BaseException)]
            if refused:
                log(f"{len(refused)} starts refused, e.g. {refused[0]!r}"[:300])
        else:
            for n in range(args.tables):
                await start_one(n)
    log(f"{run.started} tables started")
    return hosts


async def restart(run: Run, env: simcord.Env, bot: discord.Client) -> discord.Client:
    """The bot stops (the clocks keep their time left); a new one restores every table and
    shows it again, all in one operation."""
    await run.op("close", bot.close())
    old_db = bot.db  # type: ignore[attr-defined]
    waits = SimulatedWaits()
    waits.env = env
    again = make_bot(run.args, bot.config, waits)  # type: ignore[attr-defined]
    await run.op("restart", env.restart_bot(again))
    await old_db.close()
    bot = env.bot
    log(f"restarted: {len(service_of(bot).tables)} tables restored")
    return bot


async def advance(run: Run, env: simcord.Env, service: TableService) -> None:
    """Every member's turn clock runs out at the same instant, ``--advance`` times: in one
    operation a robot plays for each member and the robots answer, at every table."""
    args = run.args
    for k in range(args.advance):
        run.moved = {t.id: len(t.deal.actions) for t in service.tables.values() if t.deal}
        profile = cProfile.Profile() if args.profile else None
        if profile is not None:
            profile.enable()
        try:
            await run.op(f"advance {k}", env.advance_time(args.advance_by))
        finally:
            if profile is not None:
                profile.disable()
                stats = pstats.Stats(profile)
                stats.sort_stats("tottime").print_stats(12)
                stats.sort_stats("cumulative").print_stats(r"(bot|cogs)/", 20)
        log(f"advanced {args.advance_by:g} s of simulated time ({k + 1})")


async def play_out(run: Run, hosts: list[simcord.MemberActor]) -> None:
    """Every host plays a card in turn, round-robin, until every game is over."""
    clicks, mark = 0, time.perf_counter()
    live = list(range(run.args.tables))
    while live:
        still: list[int] = []
        for n in live:
            dm = hosts[n].user.dm_channel
            history = dm.history() if dm is not None else []
            cards = enabled_cards(history[-1]) if history else []
            if not cards:
                continue  # the game is over (checked at the end)
            await run.op(f"play {n}", hosts[n].user.click(history[-1], custom_id=cards[0]))
            clicks += 1
            still.append(n)
            if clicks % 500 == 0:
                log(f"{clicks} cards played, {500 / (time.perf_counter() - mark):.1f}/s lately")
                mark = time.perf_counter()
        live = still
    log(f"{clicks} cards played")


def check(run: Run, service: TableService) -> None:
    """Where every table should be: finished after ``--play``; else playing and at rest (no
    robot run under way), and after an advance with more actions than before it."""
    tables = tables_of(service)  # with those it let go at their end (a tute ends a game)
    run.tables = len(tables)
    for table in tables.values():
        run.statuses[table.status.value] = run.statuses.get(table.status.value, 0) + 1
        busy = service.lock(table.id).locked()
        run.busy += busy
        if run.args.play:
            run.good += table.status is Status.FINISHED
            continue
        if table.status is Status.FINISHED:
            run.good += 1  # its game ended at once (a tute): it moved as far as it could
            continue
        deal = table.deal
        ok = table.status is Status.PLAYING and deal is not None and not busy
        if run.moved:
            moved = deal is not None and len(deal.actions) > run.moved.get(table.id, 0)
            run.did_move += moved
            ok = ok and moved
        run.good += ok


async def bounded(run: Run, folder: Path) -> None:
    timeout = run.args.timeout
    main = asyncio.ensure_future(scenario(run, folder))

    async def watchdog() -> None:
        await asyncio.sleep(timeout - 15)
        log(f"still running after {timeout - 15:.0f} s: where every task waits")
        dump_tasks()

    dog = asyncio.ensure_future(watchdog())
    try:
        done, _ = await asyncio.wait((main,), timeout=timeout)
        if not done:
            main.cancel()
            run.failure = f"no end after {timeout:.0f} s (--timeout)"
            return
        main.result()
    finally:
        dog.cancel()


def main() -> None:
    keep_ended(TableService)
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=120)
    parser.add_argument("--variant", default="pairs", choices=tuple(ROBOTS))
    parser.add_argument(
        "--order", default="open-then-start", choices=("open-then-start", "interleaved", "gather")
    )
    parser.add_argument("--add-robots", action="store_true", help="robots by the lobby's button")
    parser.add_argument("--advance", type=int, default=1, help="times every turn clock runs out")
    parser.add_argument("--advance-by", type=float, default=61.0, help="simulated seconds each")
    parser.add_argument("--restart", action="store_true", help="restart the bot once started")
    parser.add_argument("--play", action="store_true", help="then play every game to its end")
    parser.add_argument("--turn-time", type=int, default=60, help="each member's turn clock")
    parser.add_argument("--robot-delay", type=float, default=0.0)
    parser.add_argument("--think-budget", type=float, default=0.02)
    parser.add_argument(
        "--settle-timeout", type=float, default=3.0, help="SimCord's, per operation"
    )
    parser.add_argument("--clocks", default="real", choices=("real", "virtual"))
    parser.add_argument("--timeout", type=float, default=300.0, help="the whole run, seconds")
    parser.add_argument("--close-timeout", type=float, default=30.0, help="for bot.close()")
    parser.add_argument("--slow-op", type=float, default=2.0, help="report slower operations")
    parser.add_argument("--profile", action="store_true", help="profile each advance (loop thread)")
    parser.add_argument("--log", default="ERROR", help="the bot's log level")
    args = parser.parse_args()
    logging.basicConfig(level=args.log, format="%(levelname)s %(name)s: %(message)s")
    # last resort, if the event loop itself is stuck: every thread's stack, then exit
    faulthandler.dump_traceback_later(args.timeout + 60, exit=True)
    run = Run(args)
    with tempfile.TemporaryDirectory() as folder:
        t0 = time.perf_counter()
        asyncio.run(bounded(run, Path(folder)))
        elapsed = time.perf_counter() - t0
    faulthandler.cancel_dump_traceback_later()
    want = "finished" if args.play else "playing and at rest" + (", moved" if args.advance else "")
    every = run.good == args.tables and run.tables == args.tables
    what = f"{args.tables} {args.variant} tables ({args.order}"
    what += "".join(
        f", {w}"
        for w, on in (
            ("restarted", args.restart),
            (f"{args.advance} advance(s)", args.advance),
            ("played", args.play),
        )
        if on
    )
    print(
        f"{what}; settle_timeout {args.settle_timeout:g} s, {args.clocks} clocks):"
        f" {elapsed:.1f} s, {run.ops} operations, slowest {run.slowest[0]:.2f} s"
        f" ({run.slowest[1]}); statuses {run.statuses};"
        f" every table {want}: {'yes' if every else f'NO ({run.good} of {args.tables})'}"
        f" ({run.did_move} moved, {run.busy} still busy when checked);"
        f" bot errors: {len(run.errors)}; bot.close() {run.close_s:.1f} s"
    )
    if run.failure:
        print(f"FAILED: {run.failure}")
    for line in run.errors[:3]:
        print("  bot error:", line)
    sys.stdout.flush()
    # os._exit: a thread a failed run left behind (the database's) must not keep us here
    os._exit(0 if every and not run.failure else 1)


if __name__ == "__main__":
    main()
