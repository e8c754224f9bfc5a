"""What the sandbox adds to SimCord's page: a turn's clock ("in 60 seconds") that counts down
every second on the simulated clock, and members' names where the bot writes ``<@id>`` in an
embed (the leaderboard)."""

from __future__ import annotations

import asyncio
import math
import re
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from simcord.preview import _markdown as simcord_markdown
from simcord.preview._markdown import markdown_tokens
from simcord.preview._media import MediaWorker

from bot.i18n import t
from bot.sandbox import YOU, find_chromium, open_sandbox
from bot.sandbox.page import (
    PAGE_SCRIPT,
    PNG,
    RELATIVE_MARK,
    SCRIPT_PATH,
    SCRIPT_TAG,
    chrome_words,
    show_mentions_in_embeds,
)
from bot.sandbox.pictures import CHROMIUM_ARGS
from bot.tables.model import Status
from tests.sandbox._page import FAST, FakeTime, PreviewPage, button_ending, card_to_play
from tests.tables._play import table_of

pytest.importorskip("markdown_it", reason="the sandbox's page needs simcord[preview]")


def tokens_of(tree: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The markdown tokens of a rendered text, flat, in order."""
    found: list[dict[str, Any]] = []
    for token in tree:
        found.append(token)
        found += tokens_of(token.get("children", []))
    return found


def shown_text(tree: list[dict[str, Any]]) -> str:
    """What the page writes for these tokens: texts as written, mentions by their label."""
    return "".join(
        token.get("label", "") if token["type"] == "mention" else token.get("content", "")
        for token in tokens_of(tree)
    )


# ------------------------------------------------------------------------- mentions


def test_mentions_in_embeds_are_shown_as_names_where_discord_shows_them() -> None:
    context = {"users": {"11": "Alex"}, "roles": {"22": "Admin"}, "channels": {"33": "tute"}}
    text = "<@11> of <@&22> in <#33>"
    undo = show_mentions_in_embeds()
    try:
        for field in ("embed_description", "embed_field_value", "message"):
            tokens = markdown_tokens(text, field, context=context)
            assert shown_text(tokens) == "@Alex of @Admin in #tute", field
        # not in titles and field names, as on Discord
        for field in ("embed_title", "embed_field_name"):
            assert shown_text(markdown_tokens(text, field, context=context)) == text, field
        # a user SimCord does not know (not a member) stays as written
        assert shown_text(markdown_tokens("<@99>", "embed_description", context=context)) == (
            "<@99>"
        )
    finally:
        undo()
    assert shown_text(markdown_tokens(text, "embed_description", context=context)) == text


@pytest.mark.e2e
async def test_the_leaderboard_in_the_page_names_its_members(tmp_path: Path) -> None:
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST) as box,
        aiohttp.ClientSession() as session,
    ):
        page = PreviewPage(session, box.url)
        await page.open(box.friends[0])
        await page.command("tute daily")
        await page.open(box.you)
        await page.command("tute daily")
        board = await page.show(await page.command("tute leaderboard"))
        embed = board["embeds"][0]
        assert f"<@{box.you.id}>" in embed["description"]  # what the bot wrote
        tokens = tokens_of(embed["description_tokens"])  # what the page shows
        mentions = [token for token in tokens if token["type"] == "mention"]
        friend = box.friends[0].user.global_name
        assert sorted(m["label"] for m in mentions) == sorted([f"@{YOU}", f"@{friend}"])
        assert {m["id"] for m in mentions} == {str(box.you.id), str(box.friends[0].id)}
        assert "<@" not in shown_text(embed["description_tokens"])


# ---------------------------------------------------------------------------- clocks


@pytest.mark.e2e
async def test_the_page_loads_the_sandbox_script(tmp_path: Path) -> None:
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST) as box,
        aiohttp.ClientSession() as session,
    ):
        base = box.url.partition("/#")[0]
        async with session.get(f"{base}/") as response:
            assert response.status == 200
            html = await response.text()
        assert html.count(SCRIPT_TAG) == 1
        assert html.index(SCRIPT_TAG) > html.index('src="/app.js"')
        async with session.get(f"{base}{SCRIPT_PATH}") as response:
            assert response.status == 200
            assert response.content_type == "application/javascript"
            assert await response.text() == PAGE_SCRIPT
            # SimCord's headers: its page's rules (no inline script) apply to it too
            assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        async with session.get(f"{base}/app.js") as response:  # SimCord's own, untouched
            assert SCRIPT_TAG not in await response.text()


@pytest.mark.e2e
async def test_every_publication_carries_the_simulated_time(tmp_path: Path) -> None:
    """The page writes ``<t:..:R>`` against the simulated time of its snapshot: a page
    opened, or a click answered, after the clock has moved says the time it moved to."""
    real = FakeTime()
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST, real_time=real) as box,
        aiohttp.ClientSession() as session,
    ):
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        assert page.state["profile"]["presentationTime"] == box.env.now().isoformat()
        real.advance(240)
        await box.clock.catch_up()
        await page.command("tute daily")
        assert page.state["profile"]["presentationTime"] == box.env.now().isoformat()
        real.advance(60)
        await box.clock.catch_up()
        await page.open(box.friends[0])
        assert page.state["profile"]["presentationTime"] == box.env.now().isoformat()


def js_round(value: float) -> int:
    """JavaScript's Math.round (halves go up)."""
    return math.floor(value + 0.5)


@pytest.mark.e2e
@pytest.mark.skipif(find_chromium() is None, reason="the page test needs Chromium")
async def test_a_turn_clock_counts_down_in_the_page_on_the_simulated_clock(
    tmp_path: Path,
) -> None:
    """In a browser: the table's "in 60 seconds" counts down as time passes in the browser,
    and jumps when the simulated clock does (the browser's clock is fixed by the test)."""
    pytest.importorskip("playwright", reason="the page test needs Playwright")
    from playwright.async_api import async_playwright, expect

    chromium = find_chromium()
    assert chromium is not None
    real = FakeTime()
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST, real_time=real) as box,
        aiohttp.ClientSession() as session,
    ):
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        lobby_id = await page.command("tute new", variant="habanero")
        await page.click(lobby_id, button_ending(await page.show(lobby_id), ":start"))
        table = table_of(box.tables, max(box.tables.tables))
        place = box.place_of(table.id)
        assert table.turn_deadline is not None and place is not None
        play_id = place.play_message_id
        assert play_id is not None
        deadline = int(table.turn_deadline)  # as the bot writes it: <t:DEADLINE:R>

        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=str(chromium), args=list(CHROMIUM_ARGS), headless=True
            )
            try:
                tab = await browser.new_page()
                await tab.clock.set_fixed_time("2030-01-01T00:00:00Z")  # the browser's clock
                await tab.goto(box.url)
                clock = tab.locator(f'[data-message-id="{play_id}"] time.discord-timestamp')
                await expect(clock).to_have_attribute(RELATIVE_MARK, "")

                async def seconds_left_at(browser_seconds: int) -> int:
                    """Set the browser's clock that long after the page's snapshot was
                    published; the seconds the turn clock then has left on the simulated
                    clock (the snapshot's simulated time, plus the time since)."""
                    # the page has taken in what it asked for (its viewport) and its answer
                    await tab.wait_for_function("() => window.simcordPreview.ready")
                    published, presented = await tab.evaluate(
                        """[window.simcordPreview.publication.publishedAt,
                            Date.parse(window.simcordPreview.profile.presentationTime)]"""
                    )
                    now = await tab.evaluate(
                        "([at, s]) => new Date(Date.parse(at) + s * 1000).toISOString()",
                        [published, browser_seconds],
                    )
                    await tab.clock.set_fixed_time(now)
                    return js_round((deadline * 1000 - presented) / 1000 - browser_seconds)

                left = await seconds_left_at(0)
                assert left in (59, 60)  # a 60-second clock, written in whole seconds
                await expect(clock).to_have_text(f"in {left} seconds")
                assert await seconds_left_at(10) == left - 10
                await expect(clock).to_have_text(f"in {left - 10} seconds")

                # The simulated clock moves 20 s on; the next publication tells the page.
                revision = await tab.evaluate("window.simcordPreview.publishedRevision")
                real.advance(20)
                await box.clock.catch_up()
                await box.preview.refresh()
                await tab.wait_for_function(
                    "revision => window.simcordPreview.publishedRevision > revision", arg=revision
                )
                assert await seconds_left_at(10) == left - 30
                await expect(clock).to_have_text(f"in {left - 30} seconds")
                text = await clock.text_content()
                assert text is not None and re.fullmatch(r"in \d+ seconds", text)
            finally:
                await browser.close()


# ----------------------------------------------------------------- the page's own words


@pytest.mark.e2e
@pytest.mark.skipif(find_chromium() is None, reason="the page test needs Chromium")
async def test_with_lang_es_the_page_says_its_own_words_in_spanish(tmp_path: Path) -> None:
    """In a browser: the toolbar's "Viewing as" and the composer's "Message #tute" read as
    a Spanish Discord client reads them; the bot's messages are left as they are."""
    pytest.importorskip("playwright", reason="the page test needs Playwright")
    from playwright.async_api import async_playwright, expect

    chromium = find_chromium()
    assert chromium is not None
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST, language="es") as box,
        async_playwright() as playwright,
    ):
        browser = await playwright.chromium.launch(
            executable_path=str(chromium), args=list(CHROMIUM_ARGS), headless=True
        )
        try:
            tab = await browser.new_page()
            await tab.goto(box.url)
            await tab.wait_for_function("() => window.simcordPreview?.ready")
            viewer = tab.locator("label.viewer-control")
            await expect(viewer).to_contain_text(t("sandbox.page.viewing_as", "es"))
            await expect(viewer).not_to_contain_text("Viewing as")
            composer = tab.locator("#channel-composer-input")
            said = t("sandbox.page.message_channel", "es", channel="tute")
            await expect(composer).to_have_attribute("placeholder", said)
            topic = t("sandbox.channel_topic", "es", command="tute nueva")
            await expect(tab.locator("#channel-topic")).to_have_text(topic)
            await composer.click()
            await tab.keyboard.type("/tute nu")  # the list of commands, as in Spanish
            listed = tab.get_by_text("/tute nueva", exact=True)
            await expect(listed).to_be_visible()
            await expect(tab.get_by_text(re.compile(r"^\+\d+ opcionales$"))).to_be_visible()
            await tab.screenshot(path=str(tmp_path / "es.png"))
        finally:
            await browser.close()


# ------------------------------------------------------------------- a long channel


@pytest.mark.e2e
async def test_a_publication_reads_no_text_it_has_read_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a full channel window (50 messages), a publication that shows nothing new
    parses no markdown again (it parsed each text of each message at every tick: the page
    fell behind the clock at about 50 messages); what the page shows stays the same."""
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST) as box,
        aiohttp.ClientSession() as session,
    ):
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        for _ in range(52):
            await page.command("tute leaderboard")
        await page.read()
        shown = page.state["messages"]
        assert len(page.state["timeline"]) == 50

        parsers = 0
        build = simcord_markdown._markdown_parser

        def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal parsers
            parsers += 1
            return build(*args, **kwargs)

        monkeypatch.setattr(simcord_markdown, "_markdown_parser", counted)
        await box.preview.refresh()
        assert parsers == 0
        await page.read()
        assert page.state["messages"] == shown


def test_in_english_the_page_keeps_its_words() -> None:
    """The page's words are replaced only where the language says something else."""
    assert chrome_words("en", "tute") == {}
    spanish = chrome_words("es", "tute")
    assert spanish["Send"] == "Enviar" and "Inspector" not in spanish


def status_words() -> set[str]:
    """Every status SimCord's page writes in its status line after an action (its
    actions.js, the function that words the page's state), as it writes them."""
    import simcord.preview

    script = Path(simcord.preview.__file__).parent / "static" / "actions.js"
    text = script.read_text(encoding="utf-8")
    start = text.index('return "Updating preview')
    block = text[start : text.index("return {", start)]
    return set(re.findall(r'"([A-Z][^"]*[a-z.…])"', block))


def test_in_spanish_the_page_says_its_status_in_spanish() -> None:
    """The status line under the toolbar ("Loading preview…", "Viewer switched") spoke
    English in a Spanish page, the last thing a newcomer read after each click."""
    words = status_words()
    assert {"Loading preview…", "Viewer switched", "Callback completed"} <= words
    spanish = chrome_words("es", "tute")
    assert not sorted(w for w in words if w not in spanish)
    assert spanish["Loading preview…"] == "Cargando la vista…"


# ------------------------------------------------------------------- card faces


@pytest.mark.e2e
async def test_the_pictures_of_an_update_are_served_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every picture the page asks for after an update is served, all asked together, and
    none of the bot's pictures (the card faces in the table's texts, the table's pictures)
    waits for SimCord's checker, which checked each new picture in a Python process of its
    own, one at a time (about 1 s for these): the page showed names and broken images
    meanwhile."""
    to_the_process: list[bool] = []  # whether each picture SimCord's process checked is a PNG
    validate = MediaWorker.validate

    async def in_the_process(
        self: MediaWorker, key: str, blob: bytes, *, media_time: float | None = None
    ) -> Any:
        to_the_process.append(blob.startswith(PNG))
        return await validate(self, key, blob, media_time=media_time)

    monkeypatch.setattr(MediaWorker, "validate", in_the_process)
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST) as box,
        aiohttp.ClientSession() as session,
    ):
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        lobby_id = await page.command("tute new", variant="habanero")
        await page.click(lobby_id, button_ending(await page.show(lobby_id), ":robot"))
        await page.click(lobby_id, button_ending(await page.show(lobby_id), ":start"))
        table = table_of(box.tables, max(box.tables.tables))
        place = box.place_of(table.id)
        assert place is not None and place.play_message_id is not None
        for _ in range(6):  # a few tricks: their cards' faces in the table's texts
            receipt = await page.click(place.play_message_id, f"tute:t:{table.id}:hand")
            hand_id = int(receipt["outcomes"][0]["messageId"])
            choice = card_to_play(await page.show(hand_id))
            if choice is None or table.status is not Status.PLAYING:
                break
            await page.click(hand_id, choice)
        await page.act("history", direction="latest")
        assets = [key for key, asset in page.state["assets"].items() if asset["available"]]
        assert len(assets) >= 5  # the faces, the table's pictures

        async def fetch(asset_id: str) -> int:
            async with session.get(
                f"{page.base}/api/assets/{asset_id}", headers=page._headers()
            ) as response:
                await response.read()
                return response.status

        answers = await asyncio.gather(*(fetch(asset_id) for asset_id in assets))
        assert answers == [200] * len(assets)
        assert True not in to_the_process, "a picture of the bot's waited for SimCord's process"
