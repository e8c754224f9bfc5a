"""What one card click costs on its way through the bot, with the real bot on SimCord.

Whole games (two members at a habanero table by default): each member clicks a card of the
hand in their DMs, and while the bot handles that click this counts

- the calls from the Discord side (``cogs/``) into the table service and what stands beside
  it in ``bot/tables`` (its notes, this process's place among the bot's processes);
- the table views built (``table_view``) and the hands (``hand_view``);
- the database commits (every SQLite commit);
- the pictures encoded, and how many of them on the event loop's thread;
- the REST calls to Discord (SimCord's request log).

It prints the mean and the largest count per card click, for each figure. Run:
``python benchmarks/click_path.py [--games N] [--seed S] [--variant V] [--robots R]``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiosqlite
import simcord

import cogs.tute  # noqa: F401  (every module of the Discord side, to count what they call)
from benchmarks import discord_rest
from bot.render import png
from bot.tables import views
from bot.tables.cluster import Cluster
from bot.tables.notes import Notes
from bot.tables.service import TableService

FIGURES = ("service calls", "table views", "hand views", "commits", "pictures", "on the loop")


@dataclass
class Counts:
    """The figures of the click being handled, by name, and which service calls they were."""

    now: Counter[str] = field(default_factory=Counter[str])
    calls_now: Counter[str] = field(default_factory=Counter[str])
    calls: Counter[str] = field(default_factory=Counter[str])
    """The service calls from the Discord side during the card clicks, by name."""
    per_click: list[Counter[str]] = field(default_factory=list[Counter[str]])


COUNTS = Counts()


def _replace_everywhere(original: Callable[..., Any], wrapper: Callable[..., Any]) -> None:
    """``wrapper`` wherever a module of the bot holds ``original`` under its name."""
    for module in list(sys.modules.values()):
        if not isinstance(module, ModuleType) or not module.__name__.startswith(("bot", "cogs")):
            continue
        for name, value in list(vars(module).items()):
            if value is original:
                setattr(module, name, wrapper)


def _counting(original: Callable[..., Any], figure: str) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        COUNTS.now[figure] += 1
        return original(*args, **kwargs)

    return wrapper


def _encode_counting(original: Callable[..., bytes]) -> Callable[..., bytes]:
    def wrapper(*args: Any, **kwargs: Any) -> bytes:
        COUNTS.now["pictures"] += 1
        if threading.current_thread() is threading.main_thread():
            COUNTS.now["on the loop"] += 1
        return original(*args, **kwargs)

    return wrapper


def _service_counting(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """A call into the service counts when it comes from the Discord side (a cog)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1).f_code.co_filename  # pyright: ignore[reportPrivateUsage]
        if "/cogs/" in caller:
            COUNTS.now["service calls"] += 1
            COUNTS.calls_now[name] += 1
        return original(*args, **kwargs)

    return wrapper


def instrument() -> None:
    """Count what a click costs, wherever the bot does it."""
    # the façade and every class it stands on (its core), the notes, the cluster
    prefixes: dict[type, str] = {Notes: "notes.", Cluster: "cluster."}
    for kind in (*TableService.__mro__[:-1], Notes, Cluster):
        for name, value in list(vars(kind).items()):
            if callable(value) and not name.startswith("_"):
                prefix = prefixes.get(kind, "")
                setattr(kind, name, _service_counting(prefix + name, value))
    _replace_everywhere(views.table_view, _counting(views.table_view, "table views"))
    _replace_everywhere(views.hand_view, _counting(views.hand_view, "hand views"))
    _replace_everywhere(png.encode_png, _encode_counting(png.encode_png))
    commit = aiosqlite.Connection.commit

    async def counted_commit(self: aiosqlite.Connection) -> None:
        COUNTS.now["commits"] += 1
        await commit(self)

    aiosqlite.Connection.commit = counted_commit  # type: ignore[method-assign]


class ClickGame(discord_rest.Game):
    """A game whose card clicks are counted one by one (declarations are left out)."""

    async def click(self, member: simcord.MemberActor, declare_only: bool) -> bool:
        COUNTS.now.clear()
        COUNTS.calls_now.clear()
        before = len(self.tally.human_plays)
        clicked = await super().click(member, declare_only)
        if clicked and len(self.tally.human_plays) > before:
            counted = Counter(COUNTS.now)
            counted["REST calls"] = int(self.tally.human_plays[-1])
            COUNTS.per_click.append(counted)
            COUNTS.calls.update(COUNTS.calls_now)
        return clicked


def _report() -> None:
    clicks = COUNTS.per_click
    print(f"{len(clicks)} card clicks")
    for figure in (*FIGURES, "REST calls"):
        values = [c[figure] for c in clicks]
        print(f"  {figure:<14} mean {statistics.fmean(values):5.2f}  max {max(values):3d}")
    print("  calls from the cogs into bot/tables, per card click:")
    for name, count in COUNTS.calls.most_common():
        print(f"    {name:<28} {count / len(clicks):5.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games to play (2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="habanero")
    parser.add_argument("--humans", type=int, default=2)
    parser.add_argument("--robots", type=int, default=0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    discord_rest.Game = ClickGame  # type: ignore[misc]
    instrument()
    with tempfile.TemporaryDirectory() as folder:
        for game in range(args.games):
            db = Path(folder) / f"{game}.db"
            seed = args.seed * 1000 + game
            asyncio.run(
                discord_rest.one_game(args.variant, args.humans, args.robots, seed, 0.02, db)
            )
    _report()


if __name__ == "__main__":
    main()
