"""The sandbox's screenshots: the game of :mod:`.pictures`, then the replay of its deal
(``/tute history``), the board of the daily deal once you have played it
(``/tute challenge``), a hint at a friendly table and a tutorial step right after a wrong
move (``/tute learn``, in your DMs)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final, Protocol

import aiohttp
import discord
import simcord
from simcord.preview import Preview

from bot.i18n import Language
from bot.tables.codes import encode_action
from bot.tables.model import Status
from bot.tables.tutorial import LESSONS, NEXT, wrong_moves

from .driver import PreviewPage
from .page import card_face_assets
from .pictures import (
    SCREENSHOT_FILES,
    SHOT_HEIGHT,
    button_id,
    buttons_in,
    photograph,
    scratch_sandbox,
    table_message,
    take_screenshots,
    use_chromium,
    walk_components,
)
from .server import PAGE_SIZE, Sandbox
from .walk import WALK, Seen, walk

REPLAY_STEPS: Final = 3
"""How many times the replay is stepped on (▶) before its picture: a few tricks in."""
LESSON: Final = 1
"""The lesson whose first wrong move is shown: following suit."""
FORWARD: Final = "▶"
"""The replay's button that steps on."""
WALKED: Final[dict[tuple[str, str | None], str]] = {("challenge board", None): "challenge.png"}
"""The pictures taken at moments of the newcomer's walk (``walk.py``): the command, and the
button pressed after it (None: its answer)."""


class Shoot(Protocol):
    """Saves a picture of a message: its file name (one of SCREENSHOT_FILES), the message,
    and the preview it shows in when not the channel's (a DM's)."""

    async def __call__(self, name: str, target: Any, preview: Preview | None = None) -> None: ...


async def screenshots(
    out_dir: Path,
    chromium: Path,
    *,
    think_budget: float = 0.1,
    language: Language = "en",
    width: int = 0,
) -> list[Path]:
    """Every picture of SCREENSHOT_FILES that could be taken, in its order, in a sandbox of
    its own: a temporary database, robots without delay, the whole of it in ``language``,
    its page ``width`` pixels wide (0: the sandbox's)."""
    page = (width or PAGE_SIZE[0], max(PAGE_SIZE[1], SHOT_HEIGHT))
    async with scratch_sandbox(language, think_budget, page_size=page) as sandbox:
        saved = await take_screenshots(sandbox, out_dir, chromium)
        saved += await take_more_screenshots(sandbox, out_dir, chromium)
    return sorted(saved, key=lambda path: SCREENSHOT_FILES.index(path.name))


async def take_more_screenshots(sandbox: Sandbox, out_dir: Path, chromium: Path) -> list[Path]:
    """Once the game of :func:`take_screenshots` is over: the replay of its deal, the daily
    board, a hint and a lesson step, as PNG files named as in SCREENSHOT_FILES; one that
    cannot be taken is left out (the caller counts them). The lesson is in your DMs, in a
    preview of their own: the channel's is closed then, so it comes last."""
    saved: list[Path] = []

    async def shoot(name: str, target: Any, preview: Preview | None = None) -> None:
        saved.append(await photograph(sandbox, out_dir / name, target, preview))

    await _replay(sandbox, shoot)
    await _challenge(sandbox, shoot)  # before the hint's table: one table at a time
    await _hint(sandbox, shoot)
    await _lesson(sandbox, shoot, chromium)
    return saved


async def _replay(sandbox: Sandbox, shoot: Shoot) -> None:
    """``/tute history``: the last deal, stepped a few tricks in."""
    reply = (await sandbox.you.slash(sandbox.channel, "tute history")).response
    if reply is None or not reply.attachments:
        return
    shown: Any = reply
    for _ in range(REPLAY_STEPS):
        found = [b for b in _buttons(shown) if b.label == FORWARD and not b.disabled]
        if not found or found[0].custom_id is None:
            break
        stepped = (await sandbox.you.click(shown, custom_id=found[0].custom_id)).response
        if stepped is None:
            break
        shown = stepped
    await shoot("replay.png", shown)


async def _hint(sandbox: Sandbox, shoot: Shoot) -> None:
    """A friendly table (not competitive, set in the lobby's Settings form) against a robot:
    on your first turn, the Hint button of your hand, and its answer."""
    you, channel = sandbox.you, sandbox.channel
    lobby = (await you.slash(channel, "tute new", variant="habanero")).response
    assert lobby is not None
    table_id = int(button_id(lobby.message, ":start").split(":")[2])
    panel = (await you.click(lobby, custom_id=button_id(lobby.message, ":settings"))).response
    assert panel is not None
    await you.select(panel, ["false"], custom_id=_select_id(panel.message, "competitive"))
    await you.click(lobby, custom_id=button_id(lobby.message, ":robot"))
    await you.click(lobby, custom_id=button_id(lobby.message, ":start"))
    table = sandbox.tables.get(table_id)
    for _ in range(20):
        deal = table.deal
        if table.status is not Status.PLAYING or deal is None:
            return
        occupant = table.seats[deal.turn]
        if occupant is not None and not occupant.robot_plays:
            break
        await sandbox.env.advance_time(10)
    else:
        return
    play = table_message(channel, sandbox, table)
    hand = (await you.click(play, custom_id=button_id(play, ":hand"))).response
    assert hand is not None
    answer = (await you.click(hand, custom_id=button_id(hand.message, ":hint"))).response
    if answer is not None and answer.content:
        await shoot("hint.png", answer)


async def _lesson(sandbox: Sandbox, shoot: Shoot, chromium: Path) -> None:
    """``/tute learn``: the lessons before :data:`LESSON` walked right, then its first step
    answered with a wrong move, which the lesson explains."""
    user = sandbox.you.user
    await sandbox.you.slash(sandbox.channel, "tute learn")
    sent = user.dm_channel.history()
    if not sent:
        return
    shown: Any = sent[-1]
    lang = _lang_of(shown)
    for number, lesson in enumerate(LESSONS[:LESSON]):
        for step, taught in enumerate(lesson.steps):
            here = f"tute:learn:{lang}:{number}:{step}:"
            move = NEXT if taught.expected is None else encode_action(taught.expected)
            shown = await _lesson_click(user, shown, f"{here}{move}:{user.id}")
        opens = [
            b.custom_id
            for b in _buttons(shown)
            if b.custom_id and b.custom_id.startswith(f"tute:learn:{lang}:{number + 1}:0:")
        ]
        shown = await _lesson_click(user, shown, opens[0])
    steps = LESSONS[LESSON].steps
    step = next(i for i in range(len(steps)) if wrong_moves(LESSON, i))
    code, _ = wrong_moves(LESSON, step)[0]
    wrong = await _lesson_click(user, shown, f"tute:learn:{lang}:{LESSON}:{step}:{code}:{user.id}")
    async with dm_preview(sandbox, chromium) as preview:
        await shoot("learn.png", wrong, preview)


@asynccontextmanager
async def dm_preview(sandbox: Sandbox, chromium: Path) -> AsyncIterator[Preview]:
    """A preview of your DMs with the bot, like the channel's (its size, its language, the
    cards' faces), photographed with ``chromium``. SimCord serves one preview at a time: the
    channel's is closed for good first (closing it again at the sandbox's end does nothing)."""
    channel = sandbox.preview
    await channel.close()
    preview = sandbox.env.preview(
        sandbox.you.user.dm_channel,
        viewers=[sandbox.you.user],
        width=channel.width,
        height=channel.height,
        locale=sandbox.clock.locale,
        assets=card_face_assets(sandbox.env),
    )
    use_chromium(preview, chromium)
    async with preview:
        yield preview


async def _lesson_click(user: simcord.UserHandle, shown: Any, custom_id: str) -> Any:
    result = await user.click(shown, custom_id=custom_id)
    assert result.response is not None, custom_id
    return result.response


def _lang_of(message: Any) -> str:
    """The language of a lesson's message, as its buttons carry it."""
    for button in _buttons(message):
        if button.custom_id and button.custom_id.startswith("tute:learn:"):
            return button.custom_id.split(":")[2]
    raise LookupError(f"no lesson button on message {message.id}")


async def _challenge(sandbox: Sandbox, shoot: Shoot) -> None:
    """``/tute challenge play`` and ``board`` as the newcomer's walk runs them (``walk.py``):
    today's deal played in your DMs to its end, then the board of the day, you on it."""
    steps = tuple(step for step in WALK if step.path[0] == "challenge")

    async def watch(seen: Seen) -> None:
        board = seen.message
        name = WALKED.get((seen.step.readme, None if seen.press is None else seen.press.name))
        if name is not None and board is not None and board.get("embeds"):
            await shoot(name, int(board["id"]))

    async with aiohttp.ClientSession() as session:
        page = PreviewPage(session, sandbox.url)
        await page.open(sandbox.you)
        await walk(sandbox, page, watch, steps)


def _buttons(shown: Any) -> list[discord.Button]:
    """The buttons of a message, or of an interaction's answer (SimCord's response)."""
    message = getattr(shown, "message", shown)
    return list(buttons_in(message.components))


def _select_id(message: Any, option: str) -> str:
    """The custom id of the select of ``option`` in the lobby's Settings form."""
    for component in walk_components(message.components):
        custom_id = getattr(component, "custom_id", None) or ""
        if isinstance(component, discord.SelectMenu) and custom_id.endswith(f":{option}"):
            return custom_id
    raise LookupError(f"no select {option!r} on message {message.id}")
