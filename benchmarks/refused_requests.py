"""Refused requests of a game in a channel the bot may not post in, on SimCord: a whole game
of two members played from the web table (the card table) in a group DM, a DM between two
members (opened with ``/tute play`` there), a server without the bot, and a channel of the
bot's own server it may no longer see. Every call the bot makes in that channel is refused
with 403 Missing Access, as Discord does, and counted: Discord bans an IP at 10,000 refused
requests (401, 403, 429) in 10 minutes. The stand-in is tests/cogs/tables/_closed.py, as in
tests/cogs/tables/test_closed_channels.py.

Prints, for each place, the refused requests the game cost and whether it ended. Exits 0
when every game ended.

Run: ``python benchmarks/refused_requests.py [--seed 4] [--log ERROR]``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pytest
import simcord

from bot.config import Config
from bot.tables.model import Status
from bot.tables.service import TableService
from tests.cogs._activity import answer_launches
from tests.cogs.tables._closed import (
    GROUP_DM,
    MEMBERS_DM,
    NO_BOT_CHANNEL,
    NO_BOT_SERVER,
    Page,
    Socket,
    between_members,
    closed_channel,
    session,
    web_bot,
)
from tests.conftest import RUNNING
from tests.runtime import new_seeds
from tests.tables._play import keep_ended

PLACES = ("group DM", "DM between members", "server without the bot", "channel it cannot see")


async def one_game(place: str, folder: Path, seed: int) -> tuple[int, bool]:
    """The refused requests of one game in ``place``, and whether it ended."""
    config = Config(
        token="not-a-real-token", db_path=folder / "tute.db", robot_processes=0, shard_count=1
    )
    new_seeds().pin(seed)  # the same deals for the same seed
    bot = web_bot(config)  # its tables wait on the clock of the SimCord running
    with pytest.MonkeyPatch.context() as patch:
        async with simcord.run(bot, settle_timeout=3, check_errors=False) as env:
            RUNNING.append(env)
            try:
                ana, luis = env.create_user("ana"), env.create_user("luis")
                guild: int | None = None
                if place == "group DM":
                    channel = GROUP_DM
                elif place == "DM between members":
                    channel = MEMBERS_DM
                    between_members(patch)
                    answer_launches(patch)
                    closed = closed_channel(env, channel)
                    await ana.slash("tute play")
                elif place == "server without the bot":
                    channel, guild = NO_BOT_CHANNEL, NO_BOT_SERVER
                else:
                    server = env.create_guild("Casino")
                    channel, guild = server.create_text_channel("tute").id, server.id
                    server.add_member(ana)
                    server.add_member(luis)
                    await env.settle()
                if place != "DM between members":
                    closed = closed_channel(env, channel)
                page = Page(
                    env, [Socket(session(u.id, u.name, channel, guild)) for u in (ana, luis)]
                )
                table_id = await page.open_and_start()
                table = await page.play_out(table_id)
                return closed.refused, table.status is Status.FINISHED
            finally:
                RUNNING.remove(env)
                await bot.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=4, help="the deal's shuffle")
    parser.add_argument("--log", default="CRITICAL", help="the bot's log level")
    args = parser.parse_args()
    logging.basicConfig(level=args.log, format="%(levelname)s %(name)s: %(message)s")
    keep_ended(TableService)
    ok = True
    print("refused requests of a 2-member game played from the card table:")
    for place in PLACES:
        with tempfile.TemporaryDirectory() as folder:
            refused, ended = asyncio.run(one_game(place, Path(folder), args.seed))
        ok &= ended
        print(f"  {place:<26} {refused:>4} refused  {'ended' if ended else 'DID NOT END'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
