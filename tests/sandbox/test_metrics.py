"""The sandbox serves the bot's figures and health too (TUTE_METRICS_PORT): ready once the
simulated Discord is connected, and a command typed in the page counts as an interaction
answered and a table in its lobby."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from bot.sandbox import open_sandbox
from tests.metrics._scrape import get, scrape
from tests.sandbox._page import FAST, PreviewPage

pytest.importorskip("markdown_it", reason="the sandbox's page needs simcord[preview]")


@pytest.mark.e2e
async def test_the_sandbox_serves_its_figures(tmp_path: Path) -> None:
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST, metrics_port=0) as box,
        aiohttp.ClientSession() as session,
    ):
        port = box.bot.metrics_server.port  # type: ignore[attr-defined]
        assert port
        status, _, text = await get(port, "/readyz")
        assert status == 200, text
        before = await scrape(port)
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        await page.command("tute new", variant="habanero")
        after = await scrape(port)
        answered = "tute_interaction_first_answer_seconds_count"
        assert after.value(answered) == before.value(answered) + 1
        assert after.value("tute_tables_open", state="lobby") == 1
