"""What skill ratings cost: a rebuild (or a season's ratings) replays every kept game, and
each finished game rates its members inside the settlement's transaction.

Printed, for ``--games`` seeded games of pairs among ``--members`` members (a real SQLite
file in a temporary folder):
- the replay of the games in memory (``bot.tables.ratings.replay``), the part a season's
  board and ``/tute stats`` pay on each call;
- ``rebuild`` from the file: reading the kept games, replaying, writing every rating;
- one game kept and rated (``record_game``), as the settlement does at a game's end, the
  median over the last ``--sample`` games.

Run: ``python benchmarks/ratings.py [--games 10000] [--members 200] [--sample 200]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import open_database
from bot.tables.ratings import (
    Family,
    GameResult,
    Player,
    RatingRules,
    rebuild,
    record_game,
    replay,
)


def games_of(count: int, members: int, seed: int = 1) -> list[tuple[GameResult, float]]:
    rng = random.Random(seed)
    games: list[tuple[GameResult, float]] = []
    for i in range(count):
        a, b, c, d = rng.sample(range(1, members + 1), 4)
        sides = ((Player(a), Player(b)), (Player(c), Player(d)))
        games.append((GameResult(Family.PAIRS, sides, (0, 1)), 1.8e9 + 60.0 * i))
    return games


async def measure(args: argparse.Namespace) -> None:
    games = games_of(args.games, args.members)
    start = time.perf_counter()
    replay(games, RatingRules(pair_cap=10))
    print(f"replay of {args.games} games in memory: {time.perf_counter() - start:.2f} s")
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "tute.db")
        try:
            rules = RatingRules(pair_cap=10)
            times: list[float] = []
            async with db.transaction() as conn:
                for table_id, (result, at) in enumerate(games, start=1):
                    start = time.perf_counter()
                    await record_game(conn, 1, table_id, result, at, rules)
                    times.append(time.perf_counter() - start)
            tail = times[-args.sample :]
            print(f"one game kept and rated: {statistics.median(tail) * 1000:.2f} ms (median)")
            start = time.perf_counter()
            async with db.transaction() as conn:
                read = await rebuild(conn, 1, rules)
            print(f"rebuild of {read} games from the file: {time.perf_counter() - start:.2f} s")
        finally:
            await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--sample", type=int, default=200)
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
