"""What the sandbox adds to SimCord's page, so that it shows what Discord shows:

- relative timestamps (``<t:...:R>``, "in 60 seconds", a turn's clock) that count down every
  second, on the simulated clock;
- mentions (``<@id>``, ``<@&id>``, ``<#id>``) in embeds' descriptions and field values shown
  as names (the leaderboard's members), as Discord's clients show them.

SimCord 3.2 has no setting for either, so each reaches into its internals (each place says so).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import simcord
from simcord.backend.cdn import CDN_BASE
from simcord.preview import Preview
from simcord.preview import _markdown as simcord_markdown

from bot.render.faces import emoji_png, key_of

SCRIPT_PATH: Final = "/tute-sandbox.js"
"""Where the page loads the sandbox's script from (same origin: the page's rules allow it)."""
SCRIPT_TAG: Final = f'<script type="module" src="{SCRIPT_PATH}"></script>'
RELATIVE_MARK: Final = "data-tute-relative"
"""The attribute the script puts on each relative timestamp it keeps counting."""

PAGE_SCRIPT: Final = (
    r"""// The Tute sandbox: Discord's relative timestamps (<t:...:R>, "in 60 seconds") count
// down every second, on the simulated clock.
//
// SimCord's page writes such a timestamp once, against the simulated time of the snapshot it
// renders, and leaves it until the message changes. Each snapshot says when it was published
// (real time) and what the simulated time was then (the sandbox stamps every publication),
// and the sandbox moves the simulated clock along with real time: the simulated time now is
// the snapshot's plus the real time since it was published.
(() => {
  "use strict";
  const checked = new WeakSet();

  /** SimCord's own account of the page (null until the page is up). */
  function preview() {
    try {
      return window.simcordPreview ?? null;
    } catch {
      return null;
    }
  }

  /** A relative timestamp as SimCord's page writes it (static/text.js, renderTimestamp). */
  function relativeText(instant, now, locale) {
    const seconds = (instant - now) / 1000;
    const size = Math.abs(seconds);
    const [unit, amount] = size < 60 ? ["second", seconds]
      : size < 3600 ? ["minute", seconds / 60]
        : size < 86400 ? ["hour", seconds / 3600]
          : size < 604800 ? ["day", seconds / 86400]
            : ["week", seconds / 604800];
    return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(Math.round(amount), unit);
  }

  function simulatedNow(state) {
    const presented = Date.parse(state.profile?.presentationTime ?? "");
    const published = Date.parse(state.publication?.publishedAt ?? "");
    if (Number.isNaN(presented) || Number.isNaN(published)) return null;
    return presented + (Date.now() - published);
  }

  function update() {
    const state = preview();
    if (!state) return;
    const locale = state.profile?.locale || "en-US";
    // A timestamp SimCord has just written says the snapshot's time: the relative ones are
    // those whose text is the relative text for that time (the others are dates and hours).
    const presented = Date.parse(state.profile?.presentationTime ?? "");
    const now = simulatedNow(state);
    if (Number.isNaN(presented) || now === null) return;
    for (const time of document.querySelectorAll("time.discord-timestamp[datetime]")) {
      if (checked.has(time)) continue;
      checked.add(time);
      const instant = Date.parse(time.dateTime);
      if (!Number.isNaN(instant) && time.textContent === relativeText(instant, presented, locale)) {
        time.setAttribute("__MARK__", "");
      }
    }
    for (const time of document.querySelectorAll("time.discord-timestamp[__MARK__]")) {
      const text = relativeText(Date.parse(time.dateTime), now, locale);
      if (time.textContent !== text) time.textContent = text;  // unchanged: no mutation
    }
  }

  new MutationObserver(update).observe(document.documentElement, { childList: true, subtree: true });
  setInterval(update, 1000);
  update();
})();
"""
).replace("__MARK__", RELATIVE_MARK)


def stamp_with_the_simulated_time(preview: Preview) -> None:
    """Every publication of the page carries the simulated time it was made at.

    SimCord internals: the preview stamps its pages with the simulated time of the last
    "Refresh preview" only (a click, or a page opened later, keeps an older one), and the page
    writes each ``<t:...:R>`` against that stamp: "in 5 minutes" on a 60-second clock. This
    wraps the method that publishes a page, so that each publication is stamped afresh.
    """
    publish = preview._publish

    def publish_now(page: Any, **options: Any) -> None:
        preview._advance_presentation_time()
        publish(page, **options)

    preview._publish = publish_now


def serve_the_page_script(preview: Preview) -> None:
    """The page loads :data:`PAGE_SCRIPT`. Call before the preview is entered.

    SimCord internals: its server serves a fixed table of files, read when it starts, through
    one handler that checks the request and adds the page's headers. The script gets a route
    in that table (any of SimCord's scripts will do as its file: the handler's checks and
    headers apply, and its text is replaced) and the page's HTML a tag that loads it.
    """
    server: Any = preview._server
    static = server._static
    server._STATIC_FILES = {**server._STATIC_FILES, SCRIPT_PATH: "dom.js"}

    async def static_and_the_script(request: Any) -> Any:
        response = await static(request)
        if request.path == SCRIPT_PATH:
            response.text = PAGE_SCRIPT
        elif request.path == "/":
            response.text = response.text.replace("</body>", f"{SCRIPT_TAG}\n</body>", 1)
        return response

    server._static = static_and_the_script


MENTIONS_SHOWN_IN: Final = ("embed_description", "embed_field_value")
"""The parts of an embed where Discord's clients show a mention as a name (not in titles,
field names, authors or footers, where it stays ``<@id>``)."""


def show_mentions_in_embeds() -> Callable[[], None]:
    """The page shows ``<@id>`` in an embed's description or field values as ``@Name``, as
    Discord's clients do, for the server's members (and roles and channels likewise).

    SimCord internals: its page resolves mentions in messages' content only; in embeds it
    leaves them as written, by a policy per field, with no setting. This turns mentions on in
    the fields of :data:`MENTIONS_SHOWN_IN`. Returns what undoes it.
    """
    policies: dict[str, dict[str, Any]] = simcord_markdown._FIELD_POLICIES
    before = {field: policies[field]["mentions"] for field in MENTIONS_SHOWN_IN}
    for field in MENTIONS_SHOWN_IN:
        policies[field]["mentions"] = True

    def undo() -> None:
        for field, shown in before.items():
            policies[field]["mentions"] = shown

    return undo


def card_face_assets(env: simcord.Env) -> dict[str, tuple[str, bytes]]:
    """The pictures of the card faces the bot keeps as application emojis, for the page:
    SimCord keeps an uploaded emoji's name but not its picture, so the page gets each one
    from its drawing (the emoji's name says which card it is)."""
    assets: dict[str, tuple[str, bytes]] = {}
    for emoji in env.backend.application_emojis.values():
        key = key_of(emoji.name)
        if key is not None:
            assets[f"{CDN_BASE}/emojis/{emoji.id}.png"] = ("image/png", emoji_png(key))
    return assets
