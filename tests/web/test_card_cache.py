"""The cards' pictures carry their version in their address (``/api/config`` gives it to the
page): asked with it, a picture is cached for good; without it, or with an old one, only
briefly. A release that draws the cards anew has a new version, so no cache keeps an old
picture for a week."""

from __future__ import annotations

import re
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.storage import Database
from bot.web import cards as cards_module
from bot.web.app import LONG_CACHE, SHORT_CACHE, make_app
from bot.web.cards import card_version
from tests.web.browser import ANA, CHANNEL, GUILD, Served, open_page
from tests.web.browser import browser as browser  # the fixture
from tests.web.conftest import quick_hub, started_habanero


@pytest.fixture
async def client(db: Database) -> AsyncIterator[TestClient[Any, Any]]:
    app = make_app(hub=quick_hub(db), secret=b"k" * 32, clock=lambda: 0.0, auth=None)
    async with TestClient(TestServer(app)) as test_client:
        yield test_client


@pytest.fixture
def fresh_version() -> Iterator[None]:
    card_version.cache_clear()
    yield
    card_version.cache_clear()


@pytest.mark.parametrize("code", ["12O", "back"])
async def test_a_card_asked_by_its_version_is_cached_for_good_else_briefly(
    client: TestClient[Any, Any], code: str
) -> None:
    version = (await (await client.get("/api/config")).json())["cards"]
    assert version == card_version() and len(version) == 16
    named = await client.get(f"/cards/{code}.png", params={"v": version})
    assert named.status == 200 and named.headers["Cache-Control"] == LONG_CACHE
    for params in ({}, {"v": "0123456789abcdef"}, {"v": ""}):
        unnamed = await client.get(f"/cards/{code}.png", params=params)
        assert unnamed.status == 200 and unnamed.headers["Cache-Control"] == SHORT_CACHE
        assert await unnamed.read() == await named.read()


def test_a_renderer_that_draws_anew_gives_the_cards_a_new_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_version: None
) -> None:
    render = tmp_path / "render"
    shutil.copytree(cards_module.RENDER, render, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cards_module, "RENDER", render)
    before = card_version()
    assert before == card_version()
    card_version.cache_clear()
    with (render / "cards.py").open("a", encoding="utf-8") as cards:
        cards.write("\n# drawn anew\n")
    assert card_version() != before


@pytest.mark.e2e
async def test_the_page_asks_every_card_by_its_version(db: Database, browser: Any) -> None:
    served = Served(quick_hub(db))
    await served.start()
    try:
        await started_habanero(
            served.service, served.hub, guild_id=GUILD, channel_id=CHANNEL, host_id=ANA
        )
        page = await open_page(browser, served, ANA)
        await page.wait_for_selector("button.card img")
        sources = await page.eval_on_selector_all(
            "img[src*='/cards/']", "images => images.map(i => i.getAttribute('src'))"
        )
        assert len(sources) > 5  # the hand, the stock's back, the turned card
        version = card_version()
        for source in sources:
            assert re.fullmatch(rf"/cards/(\w+)\.png\?v={version}", source), source
    finally:
        await served.stop()
