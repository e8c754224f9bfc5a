"""How long ``/tute stats``, ``season show`` and a season's rating board keep a member
waiting for an answer, with a season of ``--games`` kept games (a real SQLite file in a
temporary folder).

Printed:
- before: the answer came after the season's replay, run on the event loop: the time to
  the answer, and the event loop blocked all along (every other member waits too);
- now: the answer (a "thinking" defer) comes first; the replay runs in a thread: the time
  to the full answer, and the longest the event loop went without running meanwhile;
- a page button after that: the replay is reused while no game of the season ends.

Run: ``python benchmarks/season_answer.py [--games 20000] [--members 200]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ratings import games_of
from bot.storage import Database, open_database
from bot.storage.ratings import keep_game
from bot.storage.seasons import Season, season_games
from bot.storage.settings import get_settings
from bot.tables.competition import seasons
from bot.tables.ratings import RatingRules


async def longest_stall(work: asyncio.Future[Any], every: float = 0.005) -> float:
    """The longest the event loop went between two ticks of ``every`` while ``work`` ran."""
    longest, last = 0.0, time.perf_counter()
    while not work.done():
        await asyncio.sleep(every)
        now = time.perf_counter()
        longest, last = max(longest, now - last - every), now
    return longest


async def before(db: Database, season: Season) -> float:
    """The old way: read the games and replay them on the loop, then answer."""
    start = time.perf_counter()
    rules = RatingRules.of(await get_settings(db, season.guild_id))
    seasons.replay_rows(await season_games(db, season.id), rules)
    return time.perf_counter() - start


async def now_answer(db: Database, season: Season) -> tuple[float, float]:
    """The new way: the replay in a thread (the answer was deferred before): the time to
    the full answer and the loop's longest stall meanwhile."""
    start = time.perf_counter()
    work = asyncio.ensure_future(seasons.season_ratings(db, season))
    stall = await longest_stall(work)
    await work
    return time.perf_counter() - start, stall


async def measure(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "tute.db")
        try:
            season = await seasons.start(db, 1, 1.7e9, None, None)
            async with db.transaction() as conn:
                for table_id, (result, at) in enumerate(games_of(args.games, args.members), 1):
                    family = result.family.value
                    await keep_game(conn, 1, table_id, family, at, result.to_json())
            print(f"a season of {args.games} games among {args.members} members")
            waited = await before(db, season)
            print(f"before: answered after {waited:.2f} s,")
            print("        the event loop blocked all along")
            total, stall = await now_answer(db, season)
            print("now:    answered (deferred) at once, before any replay;")
            print(f"        the board edited in after {total:.2f} s,")
            print(f"        the event loop never stalled over {stall * 1000:.0f} ms")
            start = time.perf_counter()
            await seasons.season_ratings(db, season)
            print(f"a page button after it: {(time.perf_counter() - start) * 1000:.1f} ms")
        finally:
            await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--members", type=int, default=200)
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
