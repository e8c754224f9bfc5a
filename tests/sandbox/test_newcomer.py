"""A newcomer reaches every command of the README in the sandbox, in English and in Spanish.

The README's Commands table is the list: Alex, the sandbox's member, runs each command as
the page lists it in the sandbox's language (``/tute nueva`` in Spanish), along the walk
that ``tute-bot --sandbox --screenshot DIR --web`` photographs (``bot/sandbox/walk.py``),
and each answer says what the README promises, in that language: not an error, not the
other language, no catalog key left raw. The buttons a newcomer presses next work too."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import aiohttp
import pytest

from bot.i18n import CATALOGS, Language, t
from bot.sandbox import open_sandbox
from bot.sandbox.driver import PreviewPage, buttons, message_text
from bot.sandbox.page_pictures import PICTURES, page_files
from bot.sandbox.pictures_more import WALKED
from bot.sandbox.walk import WALK, Seen, moments, walk
from bot.tables.tutorial import LESSONS
from tests.sandbox._page import FAST, FakeTime

pytest.importorskip("markdown_it", reason="the sandbox's page needs simcord[preview]")

README = Path(__file__).resolve().parents[2] / "README.md"
OTHER: dict[Language, Language] = {"en": "es", "es": "en"}

Promise = tuple[str, dict[str, Any]]

PROMISES: dict[tuple[str, str | None], Promise | tuple[Promise, ...]] = {
    ("new", None): ("tables.lobby.status.lobby", {}),
    ("rules", None): ("guide.page_title.goal", {}),
    ("rules", "next page"): ("guide.page_title.trick", {}),
    ("learn", None): ("learn.sent", {}),
    ("learn", "first step"): ("learn.step", {"step": 2, "steps": len(LESSONS[0].steps)}),
    ("tables", None): ("tables.list.title", {}),
    ("notify on", None): ("tables.notify.on", {}),
    ("history", None): ("history.none", {}),
    ("leaderboard", None): ("standings.leaderboard.title.chips", {}),
    ("stats", None): ("standings.stats.title", {"name": "Alex"}),
    ("season start", None): ("standings.season.started_open", {}),
    ("season show", None): ("standings.season.dates_open", {}),
    ("season end", None): ("standings.season.ended", {"number": 1}),
    ("tournament new", None): ("tournaments.signup.body", {}),
    ("tournament new", "join"): ("tournaments.signup.body", {}),
    ("tournament show", None): ("tournaments.status.signup", {}),
    ("daily", None): ("standings.daily.claimed", {}),
    ("challenge play", None): ("daily.started", {}),
    ("challenge play", "first card"): ("hand.title", {}),
    ("challenge play", "the rest of the deal"): ("daily.scored", {}),
    # the board of the day, Alex on it with their points (played, not "playing now")
    ("challenge board", None): (("daily.board.title", {}), ("daily.board.line", {})),
    ("config", None): ("standings.config.title", {}),
    ("config", "form"): ("settings.config.form.chips", {}),
    ("privacy show", None): ("privacy.title", {}),
    # before it, Alex closes their table and calls off their tournament: then it asks first
    ("privacy erase", "close the table"): ("tables.confirm.close", {}),
    ("privacy erase", "yes, close it"): ("tables.done.closed", {}),
    ("privacy erase", "call off the tournament"): ("tournaments.signup.title", {}),
    ("privacy erase", None): ("privacy.confirm", {}),
    ("privacy erase", "keep it"): ("privacy.kept", {}),
    ("about", None): ("about.description", {}),
}
"""What each answer shows, as the README promises it: a catalog key (or several), and its
fields when the whole sentence is known (else its longest piece without fields must
show)."""
NO_MESSAGE = {("play", None)}
"""Answers with no message: ``/tute play`` opens the card table."""


def promises_of(promised: Promise | tuple[Promise, ...]) -> tuple[Promise, ...]:
    if isinstance(promised[0], str):
        return (cast(Promise, promised),)
    return cast(tuple[Promise, ...], promised)


def readme_commands() -> list[str]:
    """The commands of the README's table, after ``/tute``: ``season start``, ``season end``
    and ``season show`` for the row ``/tute season start [ends]`` · ``end`` · ``show``."""
    found: list[str] = []
    for line in README.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| `/tute "):
            continue
        named = [re.sub(r"\s*\[.*$", "", n) for n in re.findall(r"`([^`]+)`", line.split("|")[1])]
        first = named[0].removeprefix("/tute ")
        found.append(first)
        group = first.rsplit(" ", 1)[0] if " " in first else ""
        found += [f"{group} {more}".strip() for more in named[1:]]
    return found


def said(key: str, language: Language, fields: dict[str, Any]) -> str:
    """The words the answer must show: the whole sentence, or its longest piece."""
    if fields:
        return t(key, language, **fields).replace("**", "")
    pieces = re.split(r"\{[^}]*\}", CATALOGS[language][key].replace("**", ""))
    return max(pieces, key=len).strip()


def shown(seen: Seen) -> str:
    """What the newcomer reads: the message's words and its buttons' labels, or the form's
    title and its fields."""
    message = seen.message
    assert message is not None
    labels = [str(b.get("label") or "") for b in buttons(message)]
    title = str(message.get("title") or "")
    return "\n".join([title, message_text(message), *labels]).replace("**", "")


KEY = re.compile(r"\b[a-z][a-z_]*(?:\.[a-z0-9_]+){2,}\b")


def test_the_walk_runs_every_command_of_the_readme() -> None:
    """A command added to the README's table without a step of the walk fails here."""
    listed = readme_commands()
    assert len(listed) >= 19 and "season end" in listed and "challenge board" in listed
    walked = [step.readme for step in WALK]
    assert len(set(walked)) == len(walked)
    assert sorted(walked) == sorted(listed)


def test_the_readme_pictures_of_the_page_are_taken_on_the_walk() -> None:
    """``--screenshot DIR --web`` takes the page's pictures at moments of this walk, and the
    README shows them; ``--screenshot DIR`` takes the daily deal's board on it too."""
    assert set(PICTURES) <= set(moments())
    assert set(WALKED) <= set(moments())  # the daily deal's board, of --screenshot DIR
    shown = set(
        re.findall(
            r"docs/screenshots/web/(page-[a-z]+-[a-z]+\.png)", README.read_text(encoding="utf-8")
        )
    )
    taken = set(page_files("en")) | set(page_files("es"))
    assert len(taken) == 2 * sum(len(names) for names in PICTURES.values())
    assert shown and shown <= taken, shown - taken


@pytest.mark.e2e
@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_newcomer_reaches_every_command_in_their_language(
    tmp_path: Path, language: Language
) -> None:
    real = FakeTime()
    async with (
        open_sandbox(
            tmp_path / "sandbox.db", **FAST, language=language, real_time=real, web_port=0
        ) as box,
        aiohttp.ClientSession() as session,
    ):
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        seen = await walk(box, page)

        walked = [(s.step.readme, None if s.press is None else s.press.name) for s in seen]
        assert walked == moments()
        assert set(walked) == set(PROMISES) | NO_MESSAGE
        keys = set(CATALOGS["en"])
        errors = [text for key, text in CATALOGS[language].items() if key.startswith("errors.")]
        other = OTHER[language]
        for moment in seen:
            where = (moment.step.readme, None if moment.press is None else moment.press.name)
            if where in NO_MESSAGE:
                continue
            text = shown(moment)
            promised = PROMISES[where]
            for key, fields in promises_of(promised):
                assert said(key, language, fields) in text, (where, text)
                foreign = said(key, other, fields)
                if foreign != said(key, language, fields):
                    assert foreign not in text, (where, text)
            assert not [k for k in KEY.findall(text) if k in keys], (where, text)
            assert not [e for e in errors if e[:40] in text], (where, text)

        # /tute play: the card table opens, for Alex, in the sandbox's language
        (play,) = [s for s in seen if s.step.readme == "play"]
        address = play.receipt.get("tuteCardTable")
        assert isinstance(address, str) and f"lang={language}" in address, play.receipt
        async with session.get(address) as response:
            assert response.status == 200
        # the tournament's sign-up lists Alex once they joined
        (joined,) = [s for s in seen if s.press is not None and s.press.name == "join"]
        assert "1. Alex" in shown(joined)
