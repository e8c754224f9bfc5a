"""A newcomer's walk through the sandbox: Alex runs every command of the README's table, as
the page lists it in the sandbox's language (``/tute nueva`` in Spanish), and presses the
button a newcomer would press next (the guide's next page, a lesson's first step, the daily
deal's first card, the settings form, the tournament's sign-up).

One sequence of steps, shared: the tests walk it and check each answer, and
``tute-bot --sandbox --screenshot DIR --web`` walks it and takes the README's pictures of the
page on the way (``page_pictures.py``), so those pictures come from the walk the tests check.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .dms import DM_PREFIX
from .driver import PreviewPage, buttons
from .localized import localized
from .server import Sandbox

Pick = Callable[[dict[str, Any]], str | None]
"""The custom id of the button to press on a message, or None when it has none."""


def ending(suffix: str) -> Pick:
    """The first enabled button whose id ends with ``suffix``."""

    def pick(message: dict[str, Any]) -> str | None:
        return next(
            (
                b["custom_id"]
                for b in buttons(message)
                if b["custom_id"].endswith(suffix) and not b["disabled"]
            ),
            None,
        )

    return pick


def starting(prefix: str) -> Pick:
    """The first enabled button whose id starts with ``prefix``."""

    def pick(message: dict[str, Any]) -> str | None:
        return next(
            (
                b["custom_id"]
                for b in buttons(message)
                if b["custom_id"].startswith(prefix) and not b["disabled"]
            ),
            None,
        )

    return pick


def a_card(message: dict[str, Any]) -> str | None:
    """The first card a hand allows (a card's code starts with its rank)."""
    return next(
        (
            b["custom_id"]
            for b in buttons(message)
            if b["custom_id"].startswith("tute:h:")
            and not b["disabled"]
            and b["custom_id"].rsplit(":", 1)[1][:1].isdigit()
        ),
        None,
    )


def a_move(message: dict[str, Any]) -> str | None:
    """A cante when the hand may sing one, else a card it allows, else a declaration it
    offers (any of its hand's buttons but the hint)."""
    moves = [
        b["custom_id"]
        for b in buttons(message)
        if b["custom_id"].startswith("tute:h:")
        and not b["disabled"]
        and not b["custom_id"].endswith(":hint")
    ]
    sings = [m for m in moves if m.rsplit(":", 1)[1].startswith("s")]
    return next(iter(sings), None) or a_card(message) or next(iter(moves), None)


def first_button(message: dict[str, Any]) -> str | None:
    """The message's first enabled button."""
    return next((b["custom_id"] for b in buttons(message) if not b["disabled"]), None)


@dataclass(frozen=True, slots=True)
class Press:
    """A button a newcomer presses next: on the command's answer, or on the newest message
    of their DMs with the bot that has it (``in_dms``)."""

    name: str
    """What it is, for the checks and the pictures: ``next page``, ``first step``."""
    pick: Pick
    in_dms: bool = False
    on: str = ""
    """Before the command (``Step.first``): pressed on the answer of this earlier step (its
    README name), or, when empty, on what the press before it answered with."""
    again: int = 0
    """Pressed again, as long as the button is there, up to this many times more (the rest
    of a deal): what it shows then is the newest message."""


@dataclass(frozen=True, slots=True)
class Step:
    """One command of the README's table, run as the page lists it."""

    readme: str
    """The command as the README's table names it (after ``/tute``): ``season start``."""
    path: tuple[str, ...]
    """The command as the bot declares it, under ``tute``."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Its options by their declared names (the page shows them in its language)."""
    presses: tuple[Press, ...] = ()
    first: tuple[Press, ...] = ()
    """Pressed before the command, on the answers of earlier steps (``Press.on``)."""


WALK: Final[tuple[Step, ...]] = (
    Step("new", ("new",), {"variant": "habanero"}),
    Step("play", ("play",)),
    Step("rules", ("rules",), {"variant": "habanero"}, (Press("next page", ending(":1")),)),
    Step("learn", ("learn",), presses=(Press("first step", starting("tute:learn:"), True),)),
    Step("tables", ("tables",)),
    Step("notify on", ("notify",), {"on": True}),
    Step("history", ("history",)),
    Step("leaderboard", ("leaderboard",)),
    Step("stats", ("stats",)),
    Step("season start", ("season", "start")),
    Step("season show", ("season", "show")),
    Step("season end", ("season", "end")),
    Step(
        "tournament new",
        ("tournament", "new"),
        {"variant": "habanero"},
        (Press("join", ending(":join")),),
    ),
    Step("tournament show", ("tournament", "show")),
    Step("daily", ("daily",)),
    Step(
        "challenge play",
        ("challenge", "play"),
        presses=(
            Press("first card", a_card, True),
            Press("the rest of the deal", a_move, True, again=100),
        ),
    ),
    Step("challenge board", ("challenge", "board")),
    Step("config", ("config",), presses=(Press("form", first_button),)),
    Step("privacy show", ("privacy", "show")),
    Step(
        "privacy erase",
        ("privacy", "erase"),
        presses=(Press("keep it", ending(":keep")),),
        # what it refuses to erase under: a table Alex hosts, a tournament they host
        first=(
            Press("close the table", ending(":close"), on="new"),
            Press("yes, close it", first_button),
            Press("call off the tournament", ending(":cancel"), on="tournament new"),
        ),
    ),
    Step("about", ("about",)),
)
"""The walk, in the README's order (``season show`` while the season runs; Alex closes
their table and call off their tournament before ``privacy erase``, which asks first then)."""


def moments(steps: tuple[Step, ...] = WALK) -> list[tuple[str, str | None]]:
    """The moments of the walk, in order: each step's presses before its command, the
    command (None), then its presses after it; each as (the step's README name, the press's
    name)."""
    return [
        (step.readme, press)
        for step in steps
        for press in (*(p.name for p in step.first), None, *(p.name for p in step.presses))
    ]


@dataclass(frozen=True, slots=True)
class Seen:
    """What the newcomer sees after a command (``press`` None) or after one of its presses:
    the message it answered with or changed, or the form it opened (None: no message, e.g.
    ``/tute play`` opens the card table), and the page's answer to the action."""

    step: Step
    press: Press | None
    message: dict[str, Any] | None
    receipt: dict[str, Any]
    page: PreviewPage


Watch = Callable[[Seen], Awaitable[None]]


class NotInThePage(LookupError):
    """The page does not offer what the walk looks for (a command, an option, a button)."""


async def walk(
    sandbox: Sandbox, page: PreviewPage, watch: Watch | None = None, steps: tuple[Step, ...] = WALK
) -> list[Seen]:
    """Walk ``steps`` in ``page`` as Alex (the page opened as them); ``watch`` is told of
    each moment as it comes (and may act on the page: it is left in the channel or the DMs
    as it was). Everything seen, in order."""
    seen: list[Seen] = []

    async def saw(moment: Seen) -> None:
        seen.append(moment)
        if watch is not None:
            await watch(moment)

    answers: dict[str, dict[str, Any] | None] = {}
    for step in steps:
        await _go(sandbox, page, dms=False)
        last: dict[str, Any] | None = None
        for press in step.first:
            earlier = answers.get(press.on) if press.on else last
            target = None if earlier is None else await page.show(int(earlier["id"]))
            custom_id = None if target is None else press.pick(target)
            if target is None or custom_id is None:
                raise NotInThePage(f"/tute {press.on}: no button for {press.name}")
            pressed = await page.click(int(target["id"]), custom_id)
            last = _shown(page, pressed) or target
            await saw(Seen(step, press, last, pressed, page))
        invocation, options = command_as_listed(sandbox, step)
        try:
            receipt = await page.run(invocation, options)
        except LookupError as error:
            raise NotInThePage(str(error)) from None
        answer = answers[step.readme] = await _message_of(page, receipt)
        await saw(Seen(step, None, answer, receipt, page))
        for press in step.presses:
            if press.in_dms:
                await _go(sandbox, page, dms=True)
                target = next(
                    (m for m in reversed(page.bot_messages()) if press.pick(m) is not None), None
                )
            else:
                target = None if answer is None else await page.show(int(answer["id"]))
            custom_id = None if target is None else press.pick(target)
            if target is None or custom_id is None:
                raise NotInThePage(f"/tute {step.readme}: no button for {press.name}")
            pressed = await page.click(int(target["id"]), custom_id)
            for _ in range(press.again):
                target = next(
                    (m for m in reversed(page.bot_messages()) if press.pick(m) is not None), None
                )
                if target is None:
                    break
                custom_id = press.pick(target)
                assert custom_id is not None
                pressed = await page.click(int(target["id"]), custom_id)
            if press.again or target is None:
                changed = page.bot_messages()[-1]  # the newest: where the deal ended
            else:  # or, when the message gave way to a new one (a hand sent again), that
                changed = (
                    _shown(page, pressed)
                    or page.message(int(target["id"]))
                    or page.bot_messages()[-1]
                )
            await saw(Seen(step, press, changed, pressed, page))
    await _go(sandbox, page, dms=False)
    return seen


async def _go(sandbox: Sandbox, page: PreviewPage, dms: bool) -> None:
    """Alex in the channel, or in their DMs with the bot."""
    in_channel = page.state.get("channelId") == str(sandbox.channel.id)
    if in_channel == dms or page.state.get("viewerId") != str(sandbox.you.id):
        you = str(sandbox.you.id)
        await page.act("viewer", viewer_id=f"{DM_PREFIX}{you}" if dms else you)


def _shown(page: PreviewPage, receipt: dict[str, Any]) -> dict[str, Any] | None:
    """The message the action answered with or changed, or the form it opened, if the page
    shows it."""
    for outcome in receipt.get("outcomes", []):
        if outcome.get("kind") == "modal":
            return (page.state.get("modal") or {}).get("payload")
        if outcome.get("messageId"):
            return page.message(int(outcome["messageId"]))
    return None


async def _message_of(page: PreviewPage, receipt: dict[str, Any]) -> dict[str, Any] | None:
    """The message the action answered with or changed, or the form it opened."""
    for outcome in receipt.get("outcomes", []):
        if outcome.get("kind") == "modal":
            return (page.state.get("modal") or {}).get("payload")
        if outcome.get("messageId"):
            return await page.show(int(outcome["messageId"]))
    return None


def command_as_listed(sandbox: Sandbox, step: Step) -> tuple[str, dict[str, Any]]:
    """The step's command and options named as the page lists them, in its language."""
    locale = sandbox.clock.locale
    visible = sandbox.env.backend.visible_commands(
        user_id=sandbox.you.id, channel_id=sandbox.channel.id
    )
    try:
        node: Mapping[str, Any] = next(c for c in visible if c.get("name") == "tute")
        names = [localized(node, "name", locale)]
        for part in step.path:
            node = next(o for o in node.get("options") or [] if o.get("name") == part)
            names.append(localized(node, "name", locale))
        declared = {str(o.get("name")): o for o in node.get("options") or []}
        options = {localized(declared[k], "name", locale): v for k, v in step.options.items()}
    except (StopIteration, KeyError) as error:
        raise NotInThePage(f"/tute {step.readme} is not declared as walked") from error
    return " ".join(names), options
