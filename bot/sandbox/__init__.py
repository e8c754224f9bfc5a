"""The sandbox: play the real bot in a browser, with no Discord application and no token.

``tute-bot --sandbox`` runs the real :class:`~bot.client.TuteBot` (its cogs, its database)
against SimCord, a simulated Discord, and serves a Discord-like page on 127.0.0.1: one server,
one ``#tute`` channel, you and three friends whose seats you take by switching the viewer. The
SQLite file (``data/sandbox.db``) is kept between runs, so the standings and a game left
half-way are still there next time.

``tute-bot --sandbox --screenshot DIR`` plays a short scripted game against a robot instead and
saves pictures of it (then of its replay, the daily deal's board, a hint and a lesson), taken
with the system's Chromium.

Time: SimCord's clock only moves when told to. The sandbox's clock sets it to the real date
and ticks it along with real time, and the tables' waits (a robot's pause, a turn's clock, a
lobby's expiry) are declared to SimCord as waits on that clock, so a click in the page is
answered at once and each robot play comes a moment later, as on Discord. In the page, a
turn's clock ("in 60 seconds") counts down every second on that clock, and the leaderboard
names its members, as Discord shows them.

SimCord 3.2 and the table service have no public way to do what the sandbox needs, so it
reaches into their internals for it (each place says so):

- start the simulated clock at the real date and name the bot, through ``env.backend``;
- put the table service's waits on the simulated clock, by wrapping its timer coroutine;
- keep a click in the page from overlapping the clock's tick, by wrapping the preview's
  action entry point (SimCord refuses two operations at once);
- stamp each publication of the page with the simulated time, by wrapping the preview's
  publishing method, and serve the page a script of the sandbox's that counts relative
  timestamps down, through the preview server's table of files (``page.py``);
- show mentions in embeds as names, by turning them on in the preview's text policies;
- take screenshots with the system Chromium, by replacing the screenshot browser launcher
  (SimCord would download a browser of its own);
- show each member's DMs with the bot beside the channel, by moving a page to the DM channel
  when its viewer is named ``dm:`` and an id (``dms.py``);
- answer Play at the table with the Activity (an interaction callback SimCord does not know)
  and open the card table, which the bot serves, over the channel (``launch.py``);
- check the bot's pictures in the page's server at once, in-process, instead of one new
  process per picture (``page.py``).
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import sqlite3
import sys
from pathlib import Path

import discord
import simcord

from bot.config import ConfigError, parse_metrics_port
from bot.i18n import Language

from .pictures import SCREENSHOT_FILES, find_chromium
from .pictures_more import screenshots
from .server import ROBOT_DELAY, SANDBOX_DB_PATH, SERVER_ID, YOU, Sandbox, open_sandbox, serve
from .web_pictures import web_files, web_screenshots

__all__ = [
    "ROBOT_DELAY",
    "SCREENSHOT_FILES",
    "SERVER_ID",
    "YOU",
    "Sandbox",
    "find_chromium",
    "main",
    "open_sandbox",
    "screenshots",
    "serve",
]

EXIT_FAILED = 1
EXIT_MISSING = 2


def main(
    *,
    db_path: Path = SANDBOX_DB_PATH,
    screenshot_dir: Path | None = None,
    language: Language = "en",
    width: int = 0,
    web: bool = False,
) -> int:
    """``tute-bot --sandbox [--screenshot DIR [--width PX | --web]]``. 0 when it ran (and the person
    stopped it), 1 when it failed, 2 when something it needs is not installed."""
    if screenshot_dir is not None:
        return _main_screenshots(screenshot_dir, language, width, web=web)
    discord.utils.setup_logging(level=logging.WARNING, root=True)
    try:
        metrics_port = parse_metrics_port(os.environ.get("TUTE_METRICS_PORT", "").strip() or None)
    except ConfigError as error:
        print(f"tute-bot: {error}", file=sys.stderr)
        return EXIT_FAILED
    try:
        asyncio.run(serve(db_path, language, metrics_port))
    except KeyboardInterrupt:
        print(f"\nSandbox stopped; games and standings are kept in {db_path}.")
    except (simcord.SetupError, sqlite3.Error, OSError) as error:
        print(f"tute-bot: the sandbox could not run ({db_path}): {error}", file=sys.stderr)
        return EXIT_FAILED
    return 0


def _main_screenshots(
    out_dir: Path, language: Language, width: int = 0, *, web: bool = False
) -> int:
    chromium = find_chromium()
    if chromium is None:
        print(
            "tute-bot: the screenshots need Chromium, which is not installed: "
            "apt-get install chromium",
            file=sys.stderr,
        )
        return EXIT_MISSING
    if importlib.util.find_spec("playwright") is None:
        print(
            "tute-bot: the screenshots need Playwright, which is not installed: "
            'pip install -e ".[sandbox]"',
            file=sys.stderr,
        )
        return EXIT_MISSING
    discord.utils.setup_logging(level=logging.WARNING, root=True)
    if web:
        return _web_screenshots(out_dir, chromium, language)
    print(f"Playing a game against a robot; pictures by {chromium} go to {out_dir}.", flush=True)
    try:
        saved = asyncio.run(screenshots(out_dir, chromium, language=language, width=width))
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
        return EXIT_FAILED
    except simcord.SetupError as error:
        print(f"tute-bot: the screenshots failed: {error}", file=sys.stderr)
        return EXIT_FAILED
    for path in saved:
        print(f"Saved {path}")
    if len(saved) != len(SCREENSHOT_FILES):
        print("tute-bot: the game ended before every picture could be taken.", file=sys.stderr)
        return EXIT_FAILED
    return 0


def _web_screenshots(out_dir: Path, chromium: Path, language: Language) -> int:
    from playwright.async_api import Error as PlaywrightError

    print(
        f"Playing pairs with three robots at the card table; pictures by {chromium} go to "
        f"{out_dir}.",
        flush=True,
    )
    try:
        saved = asyncio.run(web_screenshots(out_dir, chromium, language=language))
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
        return EXIT_FAILED
    except (simcord.SetupError, PlaywrightError, OSError) as error:
        print(f"tute-bot: the card table's pictures failed: {error}", file=sys.stderr)
        return EXIT_FAILED
    for path in saved:
        print(f"Saved {path}")
    return 0 if len(saved) == len(web_files(language)) else EXIT_FAILED
