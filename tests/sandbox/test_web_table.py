"""The card table in the sandbox: a tab logs in as a member of the sandbox's server with the
SDK mock's code and its ``?user_id=``, and plays a whole game on its socket, while the
simulated channel's table follows it."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image

from bot.sandbox import Sandbox, find_chromium, open_sandbox
from bot.sandbox.launch import CARD_TABLE_FIELD
from bot.sandbox.page_pictures import PAGE_VIEW, page_files
from bot.sandbox.web_pictures import WEB_WIDTHS, tap_a_card, web_files, web_screenshots
from bot.tables.model import Status
from tests.sandbox._page import FAST, PreviewPage, button_ending, card_to_play
from tests.tables._play import table_of
from tests.web.browser import browser as browser  # the fixture

pytest.importorskip("markdown_it", reason="the sandbox's page needs simcord[preview]")


async def _login(
    http: aiohttp.ClientSession, box: Sandbox, user_id: Any, *, key: str | None = None
) -> aiohttp.ClientResponse:
    assert box.web is not None
    return await http.post(
        f"http://127.0.0.1:{box.web.port}/api/token",
        json={
            "code": "mock",
            "instance_id": "i-1",
            "user_id": user_id,
            "key": box.web.key if key is None else key,
        },
    )


async def _open_table(box: Sandbox, page: PreviewPage) -> int:
    """A habanero lobby from the composer, a robot seated, started: the table's id."""
    lobby_id = await page.command("tute new", variant="habanero")
    lobby = await page.show(lobby_id)
    table_id = int(button_ending(lobby, ":start").split(":")[2])
    await box.tables.set_option(table_id, table_of(box.tables, table_id).host_id, "target", "30")
    await page.click(lobby_id, button_ending(lobby, ":robot"))
    await page.click(lobby_id, button_ending(await page.show(lobby_id), ":start"))
    return table_id


@pytest.mark.e2e
async def test_a_tab_logs_in_as_a_member_of_the_sandbox_and_no_one_else(tmp_path: Path) -> None:
    async with (
        open_sandbox(tmp_path / "sandbox.db", web_port=0, **FAST) as box,
        aiohttp.ClientSession() as http,
    ):
        assert box.web is not None and box.web.port
        url = box.web_url(box.friends[0])
        assert url is not None and f"?user_id={box.friends[0].id}&lang=en&key=" in url
        answer = await _login(http, box, str(box.friends[0].id))
        assert answer.status == 200
        body = await answer.json()
        assert body["user"] == {"id": str(box.friends[0].id), "name": "Lola"}
        for stranger in (12345, "not a number"):
            refused = await _login(http, box, stranger)
            assert refused.status == 401
            assert (await refused.json())["error"] == "not in the instance"
        # the address is the password: a program of this computer without it is refused
        refused = await _login(http, box, str(box.you.id), key="guess")
        assert (refused.status, (await refused.json())["error"]) == (401, "code refused")


@pytest.mark.e2e
async def test_a_whole_game_on_the_card_tables_socket(tmp_path: Path) -> None:
    """Every card of the member is played from the socket; the robot plays on the sandbox's
    clock; the channel's table (SimCord's) and the socket end with the same winner."""
    async with (
        open_sandbox(tmp_path / "sandbox.db", web_port=0, **FAST) as box,
        aiohttp.ClientSession() as http,
    ):
        assert box.web is not None
        page = PreviewPage(http, box.url)
        await page.open(box.you)
        table_id = await _open_table(box, page)
        box.clock.start()
        session = (await (await _login(http, box, box.you.id)).json())["session"]
        ws = await http.ws_connect(f"http://127.0.0.1:{box.web.port}/api/ws?session={session}")
        played = 0
        last: dict[str, Any] = {}
        async with asyncio.timeout(120):
            while True:
                message = await ws.receive_json()
                if message["type"] != "state":
                    continue
                last = message
                if message["table"]["status"] != "playing":
                    break
                hand = message["hand"]
                if hand is not None and hand["your_turn"] and hand["playable"]:
                    await ws.send_json(
                        {
                            "type": "act",
                            "code": hand["playable"][0],
                            "deal": hand["deal_no"],
                            "trick": hand["trick_no"],
                        }
                    )
                    played += 1
        await ws.close()
        table = table_of(box.tables, table_id)
        assert table.status is Status.FINISHED
        assert played >= 8  # a habanero deal is 8 tricks at least
        assert last["table"]["winner"] == table.winner


@pytest.mark.e2e
async def test_the_card_tables_pictures_from_opening_a_table_to_playing_it(tmp_path: Path) -> None:
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("needs Chromium: apt-get install chromium")
    saved = await web_screenshots(tmp_path, chromium, language="es", think_budget=0.02)
    assert [p.name for p in saved] == list(web_files("es"))
    widths = [WEB_WIDTHS[0][0], WEB_WIDTHS[0][0]] + [width for width, _ in WEB_WIDTHS]
    widths += [PAGE_VIEW[0]] * len(page_files("es"))  # the DMs, Play at the table
    for path, width in zip(saved, widths, strict=True):
        with Image.open(path) as picture:
            assert picture.width == width


@pytest.mark.e2e
async def test_one_card_from_the_page_the_next_from_the_chats_button(
    tmp_path: Path, browser: Any
) -> None:
    """The real bot in the sandbox: a card tapped in the card table shows in the chat's
    table, and the next one, played from the hand's button in the chat, leaves the page's
    hand too."""
    async with (
        open_sandbox(tmp_path / "sandbox.db", web_port=0, **FAST) as box,
        aiohttp.ClientSession() as http,
    ):
        page = PreviewPage(http, box.url)
        await page.open(box.you)
        table_id = await _open_table(box, page)
        table = table_of(box.tables, table_id)
        url = box.web_url(box.you)
        assert url is not None
        tab = await (await browser.new_context(viewport={"width": 390, "height": 780})).new_page()
        await tab.goto(url)
        await tab.wait_for_function("document.body.dataset.state === 'playing'")
        deal = table.deal
        assert deal is not None
        tricks = len(deal.tricks) + len(deal.trick)
        assert await tap_a_card(tab), "the robot has played: your turn"
        assert len(deal.tricks) + len(deal.trick) > tricks, "the table took the page's card"
        # the chat's table shows it: the hand's button plays the next card
        place = box.place_of(table_id)
        assert place is not None and place.play_message_id is not None
        receipt = await page.click(place.play_message_id, f"tute:t:{table_id}:hand")
        hand_id = int(receipt["outcomes"][0]["messageId"])
        choice = card_to_play(await page.show(hand_id))
        assert choice is not None
        code = choice.rsplit(":", 1)[1]
        await page.click(hand_id, choice)
        await tab.wait_for_function(f"!document.querySelector(\"button.card[data-card='{code}']\")")


@pytest.mark.e2e
async def test_play_at_the_table_opens_the_card_table_for_the_member_viewing(
    tmp_path: Path,
) -> None:
    """The bot serves the card table, so its tables offer Play at the table; a click on it
    in the page answers with the card table's address for the member who clicked."""
    async with (
        open_sandbox(tmp_path / "sandbox.db", web_port=0, **FAST) as box,
        aiohttp.ClientSession() as http,
    ):
        assert box.bot.web.serving
        page = PreviewPage(http, box.url)
        await page.open(box.friends[0])
        lobby_id = await page.command("tute new", variant="habanero")
        play = button_ending(await page.show(lobby_id), ":web")
        receipt = await page.click(lobby_id, play)
        url = box.web_url(box.friends[0])
        assert url is not None
        address, _, key = url.partition("&key=")
        # the member's address, in the instance the click launched
        launched = receipt[CARD_TABLE_FIELD]
        assert launched.startswith(f"{address}&instance_id=sandbox-")
        assert launched.endswith(f"&key={key}")
        async with http.get(f"{box.url.partition('/#')[0]}/") as response:
            frames = response.headers["Content-Security-Policy"]
        assert box.web is not None and f"frame-src {box.web.origin}" in frames


@pytest.mark.e2e
async def test_a_second_sandbox_serves_its_card_table_on_a_free_port(tmp_path: Path) -> None:
    """The card table's port is taken (another sandbox): this one takes a free one, and its
    addresses say which."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with open_sandbox(tmp_path / "sandbox.db", web_port=port, **FAST) as box:
            assert box.web is not None and box.web.port not in (None, port)
            url = box.web_url(box.you)
            assert url is not None and url.startswith(f"http://127.0.0.1:{box.web.port}/?")
