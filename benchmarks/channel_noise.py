"""Channel noise of a long game, on SimCord: four members at one table of each four-seat
variant (three rounds), two of them with their DMs closed (their hands under My hand),
every one with turn notices on and letting each turn wait 20 seconds before playing, so
every turn of a hand not in its DMs is pinged. The harness is tests/cogs/tables/_noise.py,
as in tests/cogs/tables/test_channel_noise.py.

Prints, for each variant, the messages left in the channel and in the game's thread (what a
member scrolling sees, and the only-you messages the bot could still delete), by kind, and
the turn pings sent on the way. Exits 0 when each game left only its lobby, its deals'
summaries and its result.

Run: ``python benchmarks/channel_noise.py [--seed 1] [--rounds 3] [--wait 90]
[--log CRITICAL]``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord

from bot.config import Config
from bot.tables.service import TableService
from tests.cogs.tables._noise import VARIANTS, Left, left_behind, slow_game
from tests.conftest import RUNNING, World, fast_bot
from tests.runtime import new_seeds
from tests.tables._play import keep_ended


async def one_game(
    variant: str, folder: Path, seed: int, rounds: int, wait: float | None
) -> tuple[Left, int]:
    """What one game of ``variant`` left, and how many deals it had."""
    config = Config(
        token="not-a-real-token", db_path=folder / "tute.db", robot_processes=0, shard_count=1
    )
    new_seeds().pin(seed)
    bot = fast_bot(config)
    async with simcord.run(bot, settle_timeout=3, check_errors=False) as env:
        RUNNING.append(env)
        try:
            guild = env.create_guild("Casino")
            channel = guild.create_text_channel("tute")
            alice = guild.add_member(env.create_user("alice"))
            await env.settle()
            game = await slow_game(
                env, World(guild, channel, alice), variant, rounds=rounds, wait=wait
            )
            return left_behind(game), game.table.deal_no + 1
        finally:
            RUNNING.remove(env)
            await bot.close()


def line(kinds: dict[str, int]) -> str:
    return ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items())) or "nothing"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="the deals' shuffle")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each game")
    parser.add_argument(
        "--wait",
        type=float,
        default=None,
        help="seconds each member lets their turn wait (default: just past the ping's 20;"
        " 90 makes a deal outlast 50 minutes, so its table moves to a fresh message)",
    )
    parser.add_argument("--log", default="CRITICAL", help="the bot's log level")
    args = parser.parse_args()
    logging.basicConfig(level=args.log, format="%(levelname)s %(name)s: %(message)s")
    keep_ended(TableService)
    ok = True
    wait = "just past 20" if args.wait is None else f"{args.wait:g}"
    print(f"messages a 4-member game leaves (2 with DMs closed, turn notices on, {wait} s a turn):")
    for variant in VARIANTS:
        with tempfile.TemporaryDirectory() as folder:
            left, deals = asyncio.run(
                one_game(variant, Path(folder), args.seed, args.rounds, args.wait)
            )
        clean = left.channel == {"lobby": 1} and left.thread == {
            "deal summary": deals - 1,
            "result": 1,
        }
        ok &= clean
        deleted = left.deletes.total()
        print(
            f"  {variant:<20} {deals} deals, {left.pings:>3} pings sent,"
            f" {deleted:>3} deleted, {left.total} left"
        )
        print(f"    channel: {line(left.channel)}")
        print(f"    thread:  {line(left.thread)}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
