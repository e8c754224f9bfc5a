"""How long a card played at the web table takes to reach every socket of its table, with
many tables playing at once, and what an open socket costs the bot.

The bot's side is real: the web table's app (``WebTable``: the aiohttp app, its hub as a
presenter of the table service) on 127.0.0.1, a real ``TableService`` on a SQLite file in a
temporary folder, the wall clock and real waits. Each table is a game of pairs of four
members (no robots: every change is a member's card), watched by ``--spectators`` more.

The players are another process (as they are on other machines): it opens every socket with
a signed session, as the page does, and at each table the member whose turn it is plays a
card of their hand's ``playable`` (chosen by a seeded ``random.Random``); the next card of
that table is played once every socket of the table has the state the last one made and
its player has thought for a while: 0 to twice ``--pace`` seconds (``--pace 0``: no
thinking, every table as fast as the bot answers, a load no set of people makes). Every
table plays at once.

Printed:
- the round trip of a card: from the ``act`` sent on the player's socket until the last
  socket of the table has received the ``state`` it made: count, p50, p90, p99, max (ms);
- memory per open socket, in the bot's process, over ``--idle`` sockets that stay open and
  idle (spectators of one table): what Python allocated for them (tracemalloc) and the
  growth of the resident memory (RSS), each divided by their number.

With ``--relayed`` the players reach another process of the bot, which holds none of the
tables and relays every socket to the bot's process (``bot.web.relay``), as the bot run as
several processes does for a socket that lands on the wrong one: the round trip then has
one more hop each way.

Run: ``python benchmarks/web_roundtrip.py [--tables 100] [--moves 20] [--pace 1]
[--idle 1000] [--relayed] [--profile FILE]``;
``--quick`` plays a few cards at a few tables.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402

from bot.engine import Options, Variant  # noqa: E402
from bot.storage import open_database  # noqa: E402
from bot.tables.runtime import Runtime  # noqa: E402
from bot.tables.service import TableService  # noqa: E402
from bot.web import Session, sign, verify  # noqa: E402
from bot.web.relay import RELAY, Relay, relay_if_elsewhere  # noqa: E402
from bot.web.server import WebTable  # noqa: E402
from bot.web.sockets import Sockets  # noqa: E402

SECRET = b"benchmark-secret-of-thirty-two-bytes!"
GUILD = 1
CHANNEL = 10_000
"""Table ``n`` plays in channel ``CHANNEL + n``."""
MEMBER = 100_000
"""Table ``n`` seats members ``MEMBER + 4n`` to ``MEMBER + 4n + 3``."""
SPECTATOR = 900_000
WAIT = 30.0
"""Seconds a card's state may take before the run is called stuck."""


def member(table: int, seat: int) -> int:
    return MEMBER + 4 * table + seat


def token(user_id: int, table: int) -> str:
    session = Session(
        user_id=user_id,
        name=f"user{user_id}",
        instance_id=f"i-{table}",
        channel_id=CHANNEL + table,
        guild_id=GUILD,
        expires=time.time() + 3600,
    )
    return sign(session, SECRET)


def _rss() -> int:
    """This process's resident memory now, in bytes (Linux /proc)."""
    with open("/proc/self/statm") as stat:
        return int(stat.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _cpu_stalled() -> float | None:
    """Seconds so far that some task of this machine waited for a CPU (Linux's pressure
    stall information), or None where it is not kept."""
    try:
        with open("/proc/pressure/cpu") as pressure:
            first = pressure.readline().split()
    except OSError:
        return None
    return int(first[-1].removeprefix("total=")) / 1e6


def percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * share))]


# ---------------------------------------------------------------- the players' process


@dataclass
class Sock:
    ws: aiohttp.ClientWebSocketResponse
    user_id: int
    hand: dict[str, Any] | None = None
    states: int = 0


@dataclass
class Play:
    """A table's players: its sockets, and the card waiting for every socket's state."""

    table: int
    sockets: list[Sock] = field(default_factory=list[Sock])
    waiting: set[int] = field(default_factory=set[int])
    sent_at: float = 0.0
    done: asyncio.Future[str] | None = None

    def on_message(self, index: int, message: dict[str, Any]) -> None:
        sock = self.sockets[index]
        kind = message.get("type")
        if kind == "state":
            sock.states += 1
            if message.get("hand") is not None:
                sock.hand = message["hand"]
            self.waiting.discard(index)
            if not self.waiting and self.done is not None and not self.done.done():
                self.done.set_result("state")
        elif kind in ("refused", "no_table", "lost") and self.done and not self.done.done():
            self.done.set_result(f"{kind} {message.get('key', '')}")


async def _read(play: Play, index: int) -> None:
    ws = play.sockets[index].ws
    async for message in ws:
        if message.type is aiohttp.WSMsgType.TEXT:
            play.on_message(index, json.loads(message.data))


async def _drive(
    play: Play, moves: int, pace: float, rng: random.Random, timings: list[float]
) -> str:
    """Play ``moves`` cards at one table, each once the last has reached every socket and
    its player has thought for a while (0 to twice ``pace`` seconds)."""
    loop = asyncio.get_running_loop()
    for _ in range(moves):
        if pace > 0:
            await asyncio.sleep(rng.uniform(0, 2 * pace))
        turn = next((s for s in play.sockets if s.hand is not None and s.hand["your_turn"]), None)
        if turn is None or not turn.hand or not turn.hand["playable"]:
            return "no card to play"
        hand = turn.hand
        card = rng.choice(hand["playable"])
        play.waiting = set(range(len(play.sockets)))
        play.done = loop.create_future()
        play.sent_at = time.perf_counter()
        await turn.ws.send_str(
            json.dumps(
                {"type": "act", "code": card, "deal": hand["deal_no"], "trick": hand["trick_no"]}
            )
        )
        outcome = await asyncio.wait_for(play.done, WAIT)
        if outcome != "state":
            return outcome
        timings.append((time.perf_counter() - play.sent_at) * 1000)
    return "ok"


async def _open(http: aiohttp.ClientSession, url: str, user_id: int, table: int) -> Sock:
    ws = await http.ws_connect(url, params={"session": token(user_id, table)})
    return Sock(ws, user_id)


async def players(
    port: int, tables: int, moves: int, spectators: int, pace: float, seed: int
) -> None:
    """Open every table's sockets, play, print the timings as one JSON line."""
    url = f"http://127.0.0.1:{port}/api/ws"
    rng = random.Random(seed)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        plays: list[Play] = []
        for n in range(tables):
            users = [member(n, seat) for seat in range(4)]
            users += [SPECTATOR + n * spectators + k for k in range(spectators)]
            socks = await asyncio.gather(*(_open(http, url, u, n) for u in users))
            play = Play(n, list(socks))
            # every socket's first state (the table as it is) before any card
            play.waiting = set(range(len(socks)))
            play.done = asyncio.get_running_loop().create_future()
            plays.append(play)
        readers = [
            asyncio.create_task(_read(play, i)) for play in plays for i in range(len(play.sockets))
        ]
        for play in plays:
            await asyncio.wait_for(play.done, WAIT)  # type: ignore[arg-type]
        print("ready", flush=True)
        cpu, wall = time.process_time(), time.perf_counter()
        timings: list[float] = []
        outcomes = await asyncio.gather(
            *(_drive(play, moves, pace, random.Random(rng.random()), timings) for play in plays)
        )
        busy = (time.process_time() - cpu) / (time.perf_counter() - wall)
        for play in plays:
            for sock in play.sockets:
                await sock.ws.close()
        await asyncio.gather(*readers, return_exceptions=True)
    stopped = sorted({o for o in outcomes if o != "ok"})
    print(json.dumps({"timings": timings, "stopped": stopped, "busy": busy}), flush=True)


async def idlers(port: int, count: int) -> None:
    """Open ``count`` spectators' sockets at table 0, say so, keep them until told."""
    url = f"http://127.0.0.1:{port}/api/ws"
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        opened: list[aiohttp.ClientWebSocketResponse] = []
        batch = 100
        for start in range(0, count, batch):
            socks = await asyncio.gather(
                *(
                    _open(http, url, SPECTATOR * 2 + start + k, 0)
                    for k in range(min(batch, count - start))
                )
            )
            for sock in socks:
                first = await sock.ws.receive_json()
                assert first["type"] == "state", first
                opened.append(sock.ws)
        print("open", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        for ws in opened:
            await ws.close()


# ---------------------------------------------------------------- a process relaying them


class _Elsewhere:
    """Every server's tables are held by the bot's process (at ``address``)."""

    def __init__(self, address: str) -> None:
        self.address = address

    def owns(self, guild_id: int) -> bool:
        return False

    async def peer_of(self, guild_id: int) -> str | None:
        return self.address

    async def server_in(self, channel_id: int) -> int | None:
        return None  # every page here is of a server's channel


async def front(holder_port: int) -> None:
    """A process of the bot that holds none of the tables: it relays every socket to the
    bot's process (as the web app's socket handler does before anything else). Prints its
    port, runs until told."""

    async def socket(request: web.Request) -> web.StreamResponse:
        session = verify(request.query.get("session", ""), SECRET, time.time())
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        if not await relay_if_elsewhere(request, session, ws, secret=SECRET, now=time.time()):
            await ws.close()
        return ws

    app = web.Application()
    app[RELAY] = relay = Relay(_Elsewhere(f"http://127.0.0.1:{holder_port}"))
    app.router.add_get("/api/ws", socket)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(runner.addresses[0][1], flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    await runner.cleanup()
    await relay.close()


# ---------------------------------------------------------------- the bot's process


_children: list[asyncio.subprocess.Process] = []
"""The processes this one started (stopped when it stops, should anything fail)."""


async def _child(*args: str) -> asyncio.subprocess.Process:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    _children.append(child)
    return child


async def _stopping_children(run: Awaitable[None]) -> None:
    try:
        await run
    finally:
        for child in _children:
            if child.returncode is None:
                child.kill()
                await child.wait()


async def bot(
    tables: int,
    moves: int,
    spectators: int,
    pace: float,
    idle: int,
    seed: int,
    profile_to: str | None,
    relayed: bool,
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.db")
        sockets = Sockets(time.time)
        service = TableService(db, (sockets,), Runtime(clock=time.time), robot_delay=0)
        web = WebTable(
            service,
            sockets,
            secret=SECRET,
            clock=time.time,
            application_id=None,
            client_secret="",
            bot_token="",
        )
        await web.start("127.0.0.1", 0)
        assert web.port is not None
        for n in range(tables):
            view = await service.open_table(
                guild_id=GUILD,
                channel_id=CHANNEL + n,
                host_id=member(n, 0),
                host_name=f"host{n}",
                variant=Variant.PAIRS,
                options=Options(),
                language="en",
                max_tables=tables + 1,
            )
            for seat in (1, 2, 3):
                await service.join(view.id, member(n, seat), f"member{seat}", team=seat % 2)
            await service.start(view.id, member(n, 0))

        port = web.port
        relaying = None
        if relayed:
            relaying = await _child("--front", f"--port={web.port}")
            assert relaying.stdout is not None
            port = int(await relaying.stdout.readline())
        child = await _child(
            "--players",
            f"--port={port}",
            f"--tables={tables}",
            f"--moves={moves}",
            f"--spectators={spectators}",
            f"--pace={pace}",
            f"--seed={seed}",
        )
        assert child.stdout is not None
        assert (await child.stdout.readline()).startswith(b"ready")
        profile = cProfile.Profile() if profile_to else None
        cpu, wall, stalled = time.process_time(), time.perf_counter(), _cpu_stalled()
        if profile is not None:
            profile.enable()
        line = await child.stdout.readline()
        if profile is not None and profile_to is not None:
            profile.disable()
            profile.dump_stats(profile_to)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        stalled_now = _cpu_stalled()
        await child.wait()
        if relaying is not None and relaying.stdin is not None:
            relaying.stdin.write(b"stop\n")
            await relaying.stdin.drain()
            await relaying.wait()
        result = json.loads(line)
        timings = sorted(result["timings"])
        sockets = tables * (4 + spectators)
        print(
            f"{tables} tables of pairs, 4 members and {spectators} spectator(s) each"
            f" ({sockets} sockets{', each relayed by another process' if relayed else ''}),"
            " every table playing at once, a player thinking"
            f" {pace:g} s on average before a card; {os.cpu_count()} CPUs"
        )
        if timings:
            print(
                f"card round trip to every socket of its table: {len(timings)} cards"
                f" · p50 {statistics.median(timings):.1f} ms"
                f" · p90 {percentile(timings, 0.90):.1f} ms"
                f" · p99 {percentile(timings, 0.99):.1f} ms"
                f" · max {timings[-1]:.1f} ms"
            )
            print(
                f"{len(timings) / wall:.0f} cards a second; the bot's process busy"
                f" {cpu / wall:.0%} of the time ({cpu / len(timings) * 1000:.2f} ms of CPU a card,"
                f" as they play); the players' process busy {result['busy']:.0%}"
            )
        if stalled is not None and stalled_now is not None:
            print(
                f"the machine: some task waited for a CPU {(stalled_now - stalled) / wall:.0%}"
                " of the time (/proc/pressure/cpu; near 0% on a quiet machine)"
            )
        if result["stopped"]:
            print(f"tables that stopped early: {', '.join(result['stopped'])}")

        if idle:
            gc.collect()
            tracemalloc.start()
            traced_before, rss_before = tracemalloc.get_traced_memory()[0], _rss()
            child = await _child("--idlers", f"--port={web.port}", f"--idle={idle}")
            assert child.stdout is not None and child.stdin is not None
            assert (await child.stdout.readline()).startswith(b"open")
            gc.collect()
            traced, rss = tracemalloc.get_traced_memory()[0], _rss()
            tracemalloc.stop()
            peers = len(web.hub.peers(min(service.tables)))
            child.stdin.write(b"close\n")
            await child.stdin.drain()
            await child.wait()
            print(
                f"memory per open idle socket ({idle} spectators' sockets, {peers} at the"
                f" table): {(traced - traced_before) / idle / 1024:.1f} KiB allocated by"
                f" Python (tracemalloc) · {(rss - rss_before) / idle / 1024:.1f} KiB RSS"
            )
        await web.stop()
        await service.suspend()
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description="web table: a card's round trip, a socket's memory"
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20, help="cards played at each table")
    parser.add_argument("--spectators", type=int, default=1, help="at each table")
    parser.add_argument(
        "--pace",
        type=float,
        default=1.0,
        help="mean seconds a player thinks before each card (0: none, every table at full speed)",
    )
    parser.add_argument("--idle", type=int, default=1000, help="idle sockets to weigh (0: none)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true", help="3 tables, 5 cards, 50 idle sockets")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the bot's process as it plays")
    parser.add_argument(
        "--relayed",
        action="store_true",
        help="the players reach another process of the bot, which relays every socket",
    )
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--front", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--players", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--idlers", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.players:
        asyncio.run(
            players(args.port, args.tables, args.moves, args.spectators, args.pace, args.seed)
        )
        return
    if args.front:
        asyncio.run(front(args.port))
        return
    if args.idlers:
        asyncio.run(idlers(args.port, args.idle))
        return
    if args.quick:
        args.tables, args.moves, args.idle, args.pace = 3, 5, 50, 0.01
    asyncio.run(
        _stopping_children(
            bot(
                args.tables,
                args.moves,
                args.spectators,
                args.pace,
                args.idle,
                args.seed,
                args.profile,
                args.relayed,
            )
        )
    )


if __name__ == "__main__":
    main()
