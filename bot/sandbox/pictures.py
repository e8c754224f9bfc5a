"""Screenshots of the sandbox: a short scripted game against a robot, photographed with the
system's Chromium (SimCord would download a browser of its own)."""

from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
import types
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

import discord
import simcord
from simcord.preview import Preview

from bot.i18n import Language, t
from bot.tables.model import Status, Table

from .server import Sandbox, open_sandbox

log = logging.getLogger(__name__)

CHROMIUM_ARGS: Final = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    # a machine without the internet: no connections of Chromium's own
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--disable-sync",
)
"""How the system's Chromium is started headless, for the pictures and the tests."""
SCREENSHOT_FILES: Final = (
    "lobby.png",
    "trick.png",
    "hand.png",
    "summary.png",
    "result.png",
    "replay.png",
    "hint.png",
    "learn.png",
    "challenge.png",
)
SHOT_HEIGHT: Final = 1600
"""The page's height for the pictures: taller than any message, at a phone's width too."""


def find_chromium() -> Path | None:
    """The system's Chromium (Debian's package installs /usr/bin/chromium)."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return Path(found)
    return None


def use_chromium(preview: Preview, chromium: Path) -> None:
    """Take the preview's screenshots with this Chromium."""
    # SimCord internals: the screenshot manager launches Playwright's own browser, which
    # must be downloaded first; launch the system's instead.
    manager = preview._capture_manager

    async def ensure_browser(self: Any) -> Any:
        if self._browser is not None:
            return self._browser
        from playwright.async_api import async_playwright

        try:
            self._playwright = await async_playwright().start()
            self._browser = await self._playwright.chromium.launch(
                executable_path=str(chromium), args=list(CHROMIUM_ARGS), headless=True
            )
        except BaseException as error:
            await self.close()
            raise simcord.SetupError(f"could not start {chromium}: {error}") from error
        return self._browser

    manager._ensure_browser = types.MethodType(ensure_browser, manager)


async def take_screenshots(sandbox: Sandbox, out_dir: Path, chromium: Path) -> list[Path]:
    """Play a habanero game, you against a robot, through SimCord's actors, and save the
    lobby, a trick in play and your hand then (at the best moment of the game: the robot has
    led, a cante was sung and your hand holds back a card and says why), the first deal's
    summary, and the game's result, as PNG files named as in SCREENSHOT_FILES (the others
    are :mod:`.pictures_more`'s)."""
    use_chromium(sandbox.preview, chromium)
    await asyncio.to_thread(out_dir.mkdir, parents=True, exist_ok=True)
    env, you, channel = sandbox.env, sandbox.you, sandbox.channel
    saved: dict[str, Path] = {}

    async def shoot(name: str, target: Any) -> None:
        saved[name] = await photograph(sandbox, out_dir / name, target)

    new = await you.slash(channel, "tute new", variant="habanero")
    lobby = new.response
    assert lobby is not None
    table_id = int(button_id(lobby.message, ":start").split(":")[2])
    await you.click(lobby, custom_id=button_id(lobby.message, ":robot"))
    await shoot("lobby.png", lobby)
    await you.click(lobby, custom_id=button_id(lobby.message, ":start"))
    table = sandbox.tables.get(table_id)
    over = False
    best = -1
    for _ in range(400):
        if "summary.png" not in saved and (summary := summary_message(channel, table)):
            await shoot("summary.png", summary)
        if over:
            break
        if table.status is not Status.PLAYING:
            # what the end leaves to the clock: the last deal's message becoming its summary
            await env.advance_time(10)
            await shoot("result.png", table_message(channel, sandbox, table))
            over = True
            continue
        deal = table.deal
        assert deal is not None
        occupant = table.seats[deal.turn]
        if occupant is None or occupant.robot_plays:
            await env.advance_time(10)  # a robot still waits on the clock: let it play
            continue
        play = table_message(channel, sandbox, table)
        hand = (await you.click(play, custom_id=button_id(play, ":hand"))).response
        assert hand is not None
        # the trick and your hand at the best moment seen so far: the robot has led, your
        # hand holds back a card and says why, a cante was sung; else the robot has led;
        # else any turn of yours (a game may lack the best moment: it is the robots' game)
        moment = _moment(len(deal.trick) == 1, _holds_back(hand.message), bool(deal.cantes))
        if moment > best:
            best = moment
            await shoot("trick.png", play)
            await shoot("hand.png", hand)
        await you.click(hand, custom_id=hand_choice(hand.message))
    return [saved[name] for name in SCREENSHOT_FILES if name in saved]


async def photograph(
    sandbox: Sandbox, path: Path, target: Any, preview: Preview | None = None
) -> Path:
    """A picture of the message ``target`` at ``path``, as you see it in ``preview`` (the
    channel's unless said: a DM has a preview of its own)."""
    preview = preview or sandbox.preview
    viewer = sandbox.you if preview is sandbox.preview else sandbox.you.user
    await preview.screenshot(path, viewer=viewer, target=target, layout="message")
    return path


def _moment(led: bool, holds_back: bool, sung: bool) -> int:
    """How well a turn of yours shows the game: 2 the robot has led, your hand holds back
    a card and says why, a cante was sung; 1 the robot has led; 0 any other."""
    if not led:
        return 0
    return 2 if holds_back and sung else 1


def button_id(message: discord.Message, suffix: str) -> str:
    """The custom id of the message's button whose id ends with ``suffix``."""
    for custom_id in _button_ids(message, enabled_only=False):
        if custom_id.endswith(suffix):
            return custom_id
    raise LookupError(f"no button {suffix!r} on message {message.id}")


def hand_choice(message: discord.Message) -> str:
    """A cante when the hand may sing one (the table then shows it), else a card to play
    (the first one allowed), or else a declaration."""
    choices = [c for c in _button_ids(message, enabled_only=True) if c.startswith("tute:h:")]
    sings = [c for c in choices if c.rsplit(":", 1)[1].startswith("s")]
    if sings:
        return sings[0]
    cards = [c for c in choices if c.rsplit(":", 1)[1][0].isdigit()]
    if cards:
        return cards[0]
    if choices:
        return choices[0]
    raise LookupError(f"nothing to play in hand message {message.id}")


def _holds_back(message: discord.Message) -> bool:
    """The hand has a card it may not play now (and says why)."""
    cards = [c for c in _button_ids(message, enabled_only=False) if c.startswith("tute:h:")]
    enabled = set(_button_ids(message, enabled_only=True))
    return any(c.rsplit(":", 1)[1][0].isdigit() and c not in enabled for c in cards)


def _button_ids(message: discord.Message, *, enabled_only: bool) -> Iterable[str]:
    for button in buttons_in(message.components):
        if button.custom_id and not (enabled_only and button.disabled):
            yield button.custom_id


def buttons_in(components: Iterable[Any]) -> Iterator[discord.Button]:
    """The buttons among these components, in order, wherever they sit: in rows of buttons,
    or in a layout's containers and sections."""
    return (c for c in walk_components(components) if isinstance(c, discord.Button))


def walk_components(components: Iterable[Any]) -> Iterator[Any]:
    """Every component of a message, in order, the ones inside rows, containers and
    sections (and a section's accessory) too."""
    for component in components:
        yield component
        yield from walk_components(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from walk_components((accessory,))


def table_message(
    channel: simcord.ChannelHandle, sandbox: Sandbox, table: Table
) -> discord.Message:
    """The table's message, as it is now."""
    place = sandbox.place_of(table.id)
    for message in reversed(channel.history()):
        if place is not None and message.id == place.play_message_id:
            return message
    raise LookupError(f"table {table.id} has no message in #{channel.name}")


def summary_message(channel: simcord.ChannelHandle, table: Table) -> discord.Message | None:
    """The summary of the table's first deal: the message that showed the deal, once the
    deal is over (or the final result, over its summary, after a game of one deal)."""
    title = t("summary.title", table.language, deal=1, id=table.id)
    for message in reversed(channel.history()):
        said = [
            c.content
            for c in walk_components(message.components)
            if isinstance(c, discord.TextDisplay)
        ]
        if any(title in text for text in said) and message.attachments:
            return message
    return None


@asynccontextmanager
async def scratch_sandbox(
    language: Language, think_budget: float, **options: Any
) -> AsyncIterator[Sandbox]:
    """A sandbox of its own for pictures: a temporary database, robots without delay, the
    whole of it in ``language``; ``options`` for :func:`open_sandbox`."""
    with tempfile.TemporaryDirectory(prefix="tute-sandbox-") as folder:
        async with open_sandbox(
            Path(folder) / "sandbox.db",
            robot_delay=0,
            think_budget=think_budget,
            language=language,
            **options,
        ) as sandbox:
            yield sandbox


# ----------------------------------------------------------------------------- entry
