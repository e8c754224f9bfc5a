"""Inside Discord the page asks the member's consent (the SDK's ``authorize``) before it logs
in. Declined (cancelled, or access denied), it stops asking and says so, with a button to be
asked again. Here headless Chromium runs the page in a frame of a stand-in for Discord's
client, which speaks the SDK's messages and declines every consent it is asked for."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Final

import pytest
from aiohttp import web

from bot.i18n import t
from bot.sandbox.web import SandboxAuth
from bot.storage import Database
from bot.web.app import make_app
from tests.web.browser import CHANNEL, GUILD, MEMBERS, NOW, SECRET
from tests.web.browser import browser as browser  # the fixture
from tests.web.conftest import quick_hub

pytestmark = pytest.mark.e2e

APPLICATION: Final = 4242
CLIENT: Final = """<!doctype html>
<html><body>
<iframe id="activity" src="/?frame_id=f-1&instance_id=i-1&platform=desktop&lang=%LANG%"
  style="width: 390px; height: 780px"></iframe>
<script>
  // Discord's client, as the SDK's messages see it: ready at once, every consent declined
  window.asked = 0;
  const frame = document.getElementById("activity");
  window.addEventListener("message", (event) => {
    if (!Array.isArray(event.data)) return;
    const [opcode, data] = event.data;
    const reply = (payload) => frame.contentWindow.postMessage([1, payload], "*");
    if (opcode === 0) {
      reply({ cmd: "DISPATCH", evt: "READY", nonce: null,
        data: { v: 1, config: { api_endpoint: "//discord.com/api", environment: "production" } } });
    } else if (opcode === 1 && data.cmd === "AUTHORIZE") {
      window.asked += 1;
      reply({ cmd: "AUTHORIZE", evt: "ERROR", nonce: data.nonce,
        data: { code: 5000, message: "User cancelled" } });
    }
  });
</script>
</body></html>
"""


@pytest.fixture
async def address(db: Database) -> AsyncIterator[str]:
    """The card table's app with an Activity set up (the page logs in through Discord)."""
    auth = SandboxAuth(clock=lambda: NOW)
    auth.admit(MEMBERS, channel_id=CHANNEL, guild_id=GUILD)
    app = make_app(
        hub=quick_hub(db),
        secret=SECRET,
        clock=lambda: NOW,
        auth=auth,
        application_id=APPLICATION,
    )
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_declined_consent_stops_asking_and_offers_to_try_again(
    address: str, browser: Any, lang: str
) -> None:
    context = await browser.new_context(viewport={"width": 420, "height": 820})
    page = await context.new_page()
    await page.clock.install()  # the page's waits pass only when the test says
    client = CLIENT.replace("%LANG%", lang)
    await page.route(
        f"{address}/client", lambda route: route.fulfill(body=client, content_type="text/html")
    )
    await page.goto(f"{address}/client")
    activity = page.frame_locator("#activity")
    again = activity.locator("#consent")
    await again.wait_for(state="visible")
    assert await again.text_content() == t("web.consent_again", lang)
    said = await activity.locator("#banner-text").text_content()
    assert said == t("web.consent_declined", lang)
    assert await page.evaluate("window.asked") == 1

    await page.clock.run_for(60_000)  # a minute later: not asked again
    assert await page.evaluate("window.asked") == 1
    assert await again.is_visible()

    await again.click()  # asked again, once, and declined again
    await page.wait_for_function("window.asked === 2")
    await again.wait_for(state="visible")
    await page.clock.run_for(60_000)
    assert await page.evaluate("window.asked") == 2
    await context.close()
