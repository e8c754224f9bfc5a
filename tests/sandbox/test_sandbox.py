"""The sandbox: a whole game played through the page's own HTTP API, as the browser plays it;
the standings and a game in play kept between runs; the clock and the robots' pause; the
command itself; the screenshots (and the README showing each)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest

from bot import sandbox as sandbox_module
from bot.__main__ import main
from bot.i18n import t
from bot.sandbox import (
    ROBOT_DELAY,
    SCREENSHOT_FILES,
    SERVER_ID,
    YOU,
    Sandbox,
    find_chromium,
    open_sandbox,
)
from bot.sandbox import pictures as pictures_module
from bot.sandbox.pictures import buttons_in
from bot.storage.members import member_stats
from bot.storage.settings import get_settings
from bot.tables.model import Status
from cogs.tables.embeds import seat_name
from tests.runtime import draw_seed
from tests.sandbox._page import (
    FAST,
    FakeTime,
    PreviewPage,
    button_ending,
    card_to_play,
    message_text,
)
from tests.tables._play import table_of

pytest.importorskip("markdown_it", reason="the sandbox's page needs simcord[preview]")

ROOT = Path(__file__).resolve().parents[2]


async def play_habanero(box: Sandbox, page: PreviewPage) -> int:
    """Open a habanero table from the composer, seat a robot, start, and play every turn of
    the person from the "My hand" message until the game ends. The table's id. (The lowest
    target, 30 points, keeps the game to a deal or two.)"""
    lobby_id = await page.command("tute new", variant="habanero")
    lobby = await page.show(lobby_id)
    assert lobby["embeds"][0]["title"].startswith("Habanero")
    table_id = int(button_ending(lobby, ":start").split(":")[2])
    # the target the lobby's Settings form offers lowest
    await box.tables.set_option(table_id, table_of(box.tables, table_id).host_id, "target", "30")
    await page.click(lobby_id, button_ending(lobby, ":robot"))
    await page.click(lobby_id, button_ending(await page.show(lobby_id), ":start"))
    table = table_of(box.tables, table_id)
    place = box.place_of(table_id)
    assert table.status is Status.PLAYING and place is not None
    assert place.thread_id is None  # plays in #tute
    play_id = place.play_message_id
    assert play_id is not None
    for _ in range(400):
        if table.status is not Status.PLAYING:
            break
        deal = table.deal
        assert deal is not None
        seat = table.seats[deal.turn]
        if seat is None or seat.robot_plays:
            await asyncio.sleep(0.1)  # a robot waits on the clock (a partner's cante)
            continue
        receipt = await page.click(play_id, f"tute:t:{table_id}:hand")
        hand_id = int(receipt["outcomes"][0]["messageId"])
        hand = await page.show(hand_id)
        assert hand["ephemeral"] is True
        choice = card_to_play(hand)
        assert choice is not None, hand
        await page.click(hand_id, choice)
    return table_id


@pytest.mark.e2e
async def test_a_whole_game_through_the_page(tmp_path: Path) -> None:
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST) as box,
        aiohttp.ClientSession() as session,
    ):
        assert box.url.startswith("http://127.0.0.1:")
        settings = await get_settings(box.tables.db, SERVER_ID)
        assert settings.hand_delivery == "ephemeral"
        box.clock.start()  # time runs, and the page's clicks take turns with its ticks
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        table_id = await play_habanero(box, page)

        table = table_of(box.tables, table_id)
        assert table.status is Status.FINISHED and table.winner is not None
        await page.read()
        game_over = t("summary.game_over", table.language, id=table_id)
        shown = [text for m in page.bot_messages() if game_over in (text := message_text(m))]
        assert shown, "the page shows no game-over message"
        winner = table.seats[table.winner]
        assert seat_name(winner, table.language) in shown[-1]
        # No DM was ever sent: hands came as messages only their owner sees.
        assert not any(r.path == "/users/@me/channels" for r in box.env.http_requests)


@pytest.mark.e2e
async def test_a_second_tab_sees_the_first_ones_actions_and_its_own_clicks_count(
    tmp_path: Path,
) -> None:
    """Two tabs: what one does shows in the other at once, and a click in the other, made
    on the page as it was before that, is taken (not refused in silence)."""
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST) as box,
        aiohttp.ClientSession() as session,
    ):
        first, second = PreviewPage(session, box.url), PreviewPage(session, box.url)
        await first.open(box.you)
        await second.open(box.you)
        lobby_id = await first.command("tute new", variant="habanero")
        await second.read()
        lobby = await second.show(lobby_id)
        as_it_was = second.state

        await first.click(lobby_id, button_ending(lobby, ":robot"))
        await second.read()
        seated = await second.show(lobby_id)
        assert message_text(seated) != message_text(lobby), "the second tab shows no robot"

        second.state = as_it_was  # a click made before the republish reached the tab
        await second.click(lobby_id, button_ending(lobby, ":start"))
        table = next(iter(box.tables.tables.values()))
        assert table.status is Status.PLAYING


@pytest.mark.e2e
async def test_standings_and_ids_are_kept_between_runs(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    async with open_sandbox(db, **FAST) as box, aiohttp.ClientSession() as session:
        you_id = box.you.id
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        await page.command("tute daily")
        first = await member_stats(box.tables.db, SERVER_ID, you_id)
        assert first is not None
    async with open_sandbox(db, **FAST) as box:
        assert box.you.id == you_id
        again = await member_stats(box.tables.db, SERVER_ID, you_id)
        assert again is not None and again.balance == first.balance
        assert again.last_daily == first.last_daily


@pytest.mark.e2e
async def test_the_person_at_the_page_has_a_name_and_runs_the_server(tmp_path: Path) -> None:
    """Texts name them ("Alex wins", never "You wins"), and /tute config answers them with
    the server's settings, as it answers an admin."""
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST) as box,
        aiohttp.ClientSession() as session,
    ):
        assert YOU == "Alex" and box.you.user.global_name == YOU
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        answer = await page.show(await page.command("tute config"))
        title = t("standings.config.title", "en")
        assert [e.get("title") for e in answer["embeds"]] == [title], answer
        lobby = await page.show(await page.command("tute new", variant="habanero"))
        assert "Alex" in json.dumps(lobby["embeds"])


@pytest.mark.e2e
async def test_the_sandbox_speaks_spanish_when_asked(tmp_path: Path) -> None:
    """``--lang es``: the page's clicks come in Spanish, and so does the bot's default; the
    page lists the commands, their options and choices as a Spanish client does."""
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST, language="es") as box,
        aiohttp.ClientSession() as session,
    ):
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        new = f"{t('commands.tute.name', 'es')} {t('commands.tute.new.name', 'es')}"
        listed = {e["invocation"]: e for e in await page.commands()}
        assert new == "tute nueva" and "tute new" not in listed
        variant = next(o for o in listed[new]["options"] if o["name"] == "modalidad")
        assert variant["description"] == t("options.variant.description", "es")
        assert t("variants.habanero", "es") in [c["name"] for c in variant["choices"]]
        lobby_id = await page.command(new, modalidad="habanero")
        table = table_of(box.tables, max(box.tables.tables))
        assert table.language == "es"
        lobby = await page.show(lobby_id)
        assert lobby["embeds"][0]["title"] == t(
            "tables.title", "es", variant=t("variants.habanero", "es"), id=table.id
        )
        rules = await page.show(await page.command("tute reglas"))
        assert t("guide.title", "es") in json.dumps(rules, ensure_ascii=False)

        # the page's own words: the page carries them, in Spanish, for its script
        async with session.get(page.base + "/") as response:
            html = await response.text()
        assert '<html lang="es">' in html
        carried = re.search(r'<script type="application/json" id="[^"]+">(.*?)</script>', html)
        assert carried is not None, "the page carries no words of its own"
        words = json.loads(carried.group(1))
        assert words["Viewing as"] == t("sandbox.page.viewing_as", "es") == "Viendo como"
        assert words["Message #tute"] == "Enviar mensaje a #tute"


@pytest.mark.e2e
async def test_a_lobby_left_open_is_closed_and_a_game_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    async with open_sandbox(db, **FAST) as box, aiohttp.ClientSession() as session:
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        lobby_id = await page.command("tute new", variant="habanero")
        await page.click(lobby_id, button_ending(await page.show(lobby_id), ":start"))
        await page.open(box.friends[0])
        await page.command("tute new", variant="habanero")
        playing, waiting = sorted(box.tables.tables)
    async with open_sandbox(db, **FAST) as box:
        assert box.resumed == (playing,)
        assert table_of(box.tables, waiting).status is Status.CLOSED
        table = table_of(box.tables, playing)
        assert table.status is Status.PLAYING
        # Its table is shown again in the channel, with the "My hand" button.
        await box.env.settle()
        place = box.place_of(playing)
        assert place is not None
        message = next(m for m in box.channel.history() if m.id == place.play_message_id)
        assert any(b.custom_id == f"tute:t:{playing}:hand" for b in buttons_in(message.components))


@pytest.mark.e2e
async def test_a_robot_plays_a_moment_after_the_click(tmp_path: Path) -> None:
    """The click is answered at once; the robot's pause runs on the sandbox's clock, and the
    tick that ends it plays the robot's card and shows it in the page."""
    real = FakeTime()
    async with (
        open_sandbox(
            tmp_path / "sandbox.db",
            robot_delay=ROBOT_DELAY,
            think_budget=0.02,
            real_time=real,
            seeds=draw_seed,
        ) as box,
        aiohttp.ClientSession() as session,
    ):
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        lobby_id = await page.command("tute new", variant="habanero")
        await page.click(lobby_id, button_ending(await page.show(lobby_id), ":start"))
        table = next(iter(box.tables.tables.values()))
        deal = table.deal
        assert deal is not None and deal.turn == 0  # you lead the first trick
        place = box.place_of(table.id)
        assert place is not None and place.play_message_id is not None
        receipt = await page.click(place.play_message_id, f"tute:t:{table.id}:hand")
        hand_id = int(receipt["outcomes"][0]["messageId"])
        card = card_to_play(await page.show(hand_id))
        assert card is not None
        await page.click(hand_id, card)
        assert len(deal.trick) == 1 and deal.turn == 1  # the robot has not played yet
        revision = page.state["publishedRevision"]

        real.advance(ROBOT_DELAY * 0.6)
        await box.clock.catch_up()
        assert len(deal.trick) == 1 and not deal.tricks, "the robot played before its pause"
        await page.read()
        assert page.state["publishedRevision"] == revision  # nothing new to show

        real.advance(ROBOT_DELAY * 0.6)
        await box.clock.catch_up()
        assert len(deal.tricks) == 1, "the robot did not play"
        if deal.turn != 0:
            # The robot took the trick and leads the next one: the table is shown when a
            # person is to play, once the robot has led, a pause later.
            await page.read()
            assert page.state["publishedRevision"] == revision
            real.advance(ROBOT_DELAY * 1.1)
            await box.clock.catch_up()
            assert deal.turn == 0 and len(deal.trick) == 1
        await page.read()
        assert page.state["publishedRevision"] > revision, "the page was not told"


SAFETY_NET = 600.0
"""Seconds after which a wait on the sandbox (a tick, an answer, the process's exit) gives
up: a bound for a hang, never a wait (each test goes on as soon as the sandbox does)."""


@pytest.mark.e2e
async def test_the_clock_follows_real_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord's clock is set to the real date, and each tick moves it by the real time
    since the last one, the time the sandbox took to start included."""
    real = FakeTime()
    async with open_sandbox(tmp_path / "sandbox.db", **FAST, real_time=real) as box:
        start = box.env.now()
        assert abs(start - datetime.now(UTC)) < timedelta(minutes=1)
        real.advance(2.5)  # starting took that long
        await box.clock.catch_up()
        assert (box.env.now() - start).total_seconds() == pytest.approx(2.5)
        await box.clock.catch_up()  # no real time passed
        assert (box.env.now() - start).total_seconds() == pytest.approx(2.5)

        ticked = asyncio.Event()
        catch_up = box.clock.catch_up

        async def catch_up_and_tell() -> None:
            await catch_up()
            ticked.set()

        monkeypatch.setattr(box.clock, "catch_up", catch_up_and_tell)
        box.clock.start()  # ticking on its own, every TICK real seconds
        real.advance(0.6)
        # the tick comes when the loop gets to it: wait for it, however long that is
        async with asyncio.timeout(SAFETY_NET):
            await ticked.wait()
        await box.clock.stop()
        assert (box.env.now() - start).total_seconds() == pytest.approx(3.1)


def _ctrl_c_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.e2e
def test_the_command_serves_the_page_until_ctrl_c(tmp_path: Path) -> None:
    """``tute-bot --sandbox`` with no token: it prints the page's loopback address, the page
    answers, and Ctrl-C stops it cleanly, keeping its database."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TUTE_"))}
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environ.get("PYTHONPATH")]))
    environ["CI"] = "1"  # no browser to open here
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "--sandbox"],
        cwd=tmp_path,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as a terminal delivers it, even where the tests run as a background job
        # (which starts with SIGINT ignored, and a child would inherit that)
        preexec_fn=_ctrl_c_default,
    )
    # Every step waits on the process itself (a line printed, an answer, its exit), never on
    # a time: the watchdog only ends a sandbox that hangs, so its bound is far beyond any
    # machine's start-up under load.
    watchdog = threading.Timer(SAFETY_NET, process.kill)
    watchdog.start()
    try:
        assert process.stdout is not None
        url = None
        for line in process.stdout:
            if found := re.search(r"http://127\.0\.0\.1:\d+/#\S+", line):
                url = found.group()
                break
        assert url is not None, "no address printed"
        page = url.partition("#")[0]
        with urllib.request.urlopen(page, timeout=SAFETY_NET) as response:
            assert response.status == 200
        process.send_signal(signal.SIGINT)
        out, err = process.communicate()  # until it exits (or the watchdog ends it)
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert "Sandbox stopped" in out
    assert (tmp_path / "data" / "sandbox.db").is_file()


@pytest.mark.e2e
@pytest.mark.skipif(
    find_chromium() is None, reason="the screenshots need Chromium: apt-get install chromium"
)
async def test_the_screenshots_are_saved(tmp_path: Path) -> None:
    pytest.importorskip("playwright", reason="the screenshots need simcord[screenshot]")
    chromium = find_chromium()
    assert chromium is not None
    out = tmp_path / "shots"
    saved = await sandbox_module.screenshots(out, chromium, think_budget=0.02)
    assert [path.name for path in saved] == list(SCREENSHOT_FILES)
    for path in saved:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path


def test_the_readme_shows_every_screenshot_with_words_for_it() -> None:
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    for name in SCREENSHOT_FILES:
        assert (root / "docs" / "screenshots" / name).is_file(), name
        alt = re.search(rf"!\[([^\]]+)\]\(docs/screenshots/{re.escape(name)}\)", readme)
        assert alt is not None and len(alt.group(1)) > 20, name


def test_without_chromium_the_screenshots_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(pictures_module.shutil, "which", lambda name: None)
    assert main(["--sandbox", "--screenshot", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "apt-get install chromium" in error
