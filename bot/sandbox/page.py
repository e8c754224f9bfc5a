"""What the sandbox adds to SimCord's page, so that it shows what Discord shows:

- relative timestamps (``<t:...:R>``, "in 60 seconds", a turn's clock) that count down every
  second, on the simulated clock;
- mentions (``<@id>``, ``<@&id>``, ``<#id>``) in embeds' descriptions and field values shown
  as names (the leaderboard's members), as Discord's clients show them.

SimCord 3.2 has no setting for either, so each reaches into its internals (each place says so).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import webbrowser
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, Final

import simcord
from simcord.backend.cdn import CDN_BASE
from simcord.preview import Preview
from simcord.preview import _component_projection as simcord_projection
from simcord.preview import _markdown as simcord_markdown
from simcord.preview import _messages as simcord_messages
from simcord.preview._media import MediaInfo, MediaWorker, _process_media

from bot.i18n import CATALOGS, Language, t
from bot.render.faces import emoji_png, key_of

from .launch import CARD_TABLE_FIELD

SCRIPT_PATH: Final = "/tute-sandbox.js"
"""Where the page loads the sandbox's script from (same origin: the page's rules allow it)."""
SCRIPT_TAG: Final = f'<script type="module" src="{SCRIPT_PATH}"></script>'
CHROME_ID: Final = "tute-sandbox-words"
"""The id of the page's element that carries its own words in the sandbox's language."""
TABLE_WORDS_ID: Final = "tute-sandbox-table-words"
"""The id of the page's element that carries the card table panel's words."""
CARD_TABLE_PANEL: Final = "tute-card-table"
"""The id of the panel the card table opens in, over the channel."""
RELATIVE_MARK: Final = "data-tute-relative"
"""The attribute the script puts on each relative timestamp it keeps counting."""

PAGE_SCRIPT: Final = (
    (
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

// The page's own words (toolbar, composer, buttons) in the sandbox's language: SimCord's page
// writes them in English; each one the sandbox has a word for is replaced as it appears.
// Messages, dialogs and their components are the bot's: left as they are.
(() => {
  "use strict";
  const data = document.getElementById("__CHROME__");
  const words = new Map(Object.entries(JSON.parse(data?.textContent || "{}")));
  if (!words.size) return;
  const CONTENT = "#channel-message-list, #focused-content, #modal-root";
  const ATTRIBUTES = ["placeholder", "aria-label", "title"];

  function ours(node) {
    const element = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
    return !element || !element.closest(CONTENT);
  }

  // words with a number in them ("+22 optional"): matched with any number, which is kept
  const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const counted = [...words].filter(([english]) => english.includes("{count}")).map(([english, said]) =>
    [new RegExp(`^${english.split("{count}").map(escaped).join("(\\d+)")}$`), said]);

  function wordFor(text) {
    const said = words.get(text);
    if (said !== undefined) return said;
    for (const [pattern, template] of counted) {
      const found = pattern.exec(text);
      if (found) return template.replace("{count}", found[1]);
    }
    return undefined;
  }

  function translateText(node) {
    const text = node.nodeValue || "";
    const said = wordFor(text.trim());
    if (said !== undefined && said !== text.trim()) node.nodeValue = text.replace(text.trim(), said);
  }

  function translateAttributes(element) {
    for (const name of ATTRIBUTES) {
      const value = element.getAttribute(name);
      const said = value === null ? undefined : wordFor(value);
      if (said !== undefined && said !== value) element.setAttribute(name, said);
    }
  }

  function translate(root) {
    if (!ours(root)) return;
    if (root.nodeType === Node.TEXT_NODE) return translateText(root);
    if (root.nodeType !== Node.ELEMENT_NODE) return;
    translateAttributes(root);
    const skip = { acceptNode: (node) => node.nodeType === Node.ELEMENT_NODE && node.matches(CONTENT)
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT };
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, skip);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) translateText(node);
      else translateAttributes(node);
    }
  }

  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "childList") record.addedNodes.forEach(translate);
      else translate(record.target);
    }
  }).observe(document.documentElement, {
    childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ATTRIBUTES,
  });
  translate(document.body);
})();

// A picture shows once it has loaded: never as its name or as a broken image meanwhile (the
// page makes each <img> first and gives it its picture when the server has sent it).
(() => {
  "use strict";
  function hold(image) {
    if (image.complete && image.naturalWidth > 0) return;
    image.style.visibility = "hidden";
    image.addEventListener("load", () => { image.style.visibility = ""; }, { once: true });
  }
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        if (node.matches("img")) hold(node);
        node.querySelectorAll("img").forEach(hold);
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
})();

// Play at the table: the bot answers it with Discord's Activity, and the sandbox's answer to
// that click carries the card table's address for the member viewing: it opens over the
// channel, as Discord opens an Activity (and in a tab of its own from its link).
(() => {
  "use strict";
  const words = JSON.parse(document.getElementById("__TABLE_WORDS__")?.textContent || "{}");
  const fetched = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const response = await fetched(...args);
    const asked = String(args[0] instanceof Request ? args[0].url : args[0]);
    if (asked.endsWith("/api/action")) {
      response.clone().json().then((answer) => {
        if (typeof answer?.__FIELD__ === "string") show(answer.__FIELD__);
      }).catch(() => {});
    }
    return response;
  };

  function element(tag, style, text) {
    const made = document.createElement(tag);
    Object.assign(made.style, style);
    if (text) made.textContent = text;
    return made;
  }

  function show(address) {
    document.getElementById("__PANEL__")?.remove();
    const panel = element("section", { position: "fixed", inset: "0", zIndex: "1000",
      display: "flex", flexDirection: "column", background: "#1e1f22" });
    panel.id = "__PANEL__";
    panel.setAttribute("aria-label", words.title || "");
    const bar = element("div", { display: "flex", alignItems: "center", gap: "12px",
      padding: "8px 12px", color: "#f2f3f5", font: "600 15px system-ui, sans-serif" });
    const title = element("span", { flex: "1" }, words.title);
    const tab = element("a", { color: "#00a8fc", fontWeight: "500" }, words.tab);
    tab.href = address;
    tab.target = "_blank";
    tab.rel = "noopener";
    const close = element("button", { background: "none", border: "0", color: "#f2f3f5",
      font: "inherit", fontSize: "20px", cursor: "pointer" }, "\u2715");
    close.type = "button";
    close.setAttribute("aria-label", words.close || "");
    close.addEventListener("click", () => panel.remove());
    bar.append(title, tab, close);
    const frame = element("iframe", { flex: "1", border: "0", width: "100%" });
    frame.title = words.title || "";
    frame.src = address;
    panel.append(bar, frame);
    document.body.append(panel);
  }
})();
"""
    )
    .replace("__MARK__", RELATIVE_MARK)
    .replace("__CHROME__", CHROME_ID)
    .replace("__TABLE_WORDS__", TABLE_WORDS_ID)
    .replace("__FIELD__", CARD_TABLE_FIELD)
    .replace("__PANEL__", CARD_TABLE_PANEL)
)


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


def chrome_words(language: Language, channel: str) -> dict[str, str]:
    """The page's own words as SimCord writes them (English), each with what the page says
    in ``language`` (from the catalog), those that differ; ``channel``: the name of the
    channel shown."""
    keys = [key for key in CATALOGS["en"] if key.startswith("sandbox.page.")]
    # a number the page writes stays "{count}": the script puts it back
    fill = {"channel": channel, "count": "{count}"}
    pairs = ((t(key, "en", **fill), t(key, language, **fill)) for key in keys)
    return {english: said for english, said in pairs if said != english}


def serve_the_page_script(
    preview: Preview,
    words: Mapping[str, str] | None = None,
    language: Language = "en",
    *,
    frames: str | None = None,
) -> None:
    """The page loads :data:`PAGE_SCRIPT`, and says its own ``words`` (English: what the page
    says instead) in ``language``; ``frames``: where the card table's pages come from, which
    the page may show in a frame (its Play at the table). Call before the preview is
    entered.

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
            table = {key: t(f"sandbox.table.{key}", language) for key in ("title", "tab", "close")}
            tags = _json_tag(CHROME_ID, dict(words or {})) + _json_tag(TABLE_WORDS_ID, table)
            page = response.text.replace("</body>", f"{tags}\n{SCRIPT_TAG}\n</body>", 1)
            response.text = page.replace('<html lang="en">', f'<html lang="{language}">', 1)
            if frames is not None:
                policy = response.headers["Content-Security-Policy"]
                response.headers["Content-Security-Policy"] = f"{policy}; frame-src {frames}"
        return response

    server._static = static_and_the_script


def _json_tag(element_id: str, value: Mapping[str, str]) -> str:
    """JSON in a tag the browser never runs; "</" escaped so no text can close it."""
    carried = json.dumps(dict(value), ensure_ascii=False).replace("</", "<\\/")
    return f'<script type="application/json" id="{element_id}">{carried}</script>'


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


MARKDOWN_KEPT: Final = 4096
"""How many texts' markdown the page keeps parsed (a channel window is 50 messages, each a
few texts: several windows' worth)."""


def remember_markdown() -> Callable[[], None]:
    """Each text the page shows is parsed once, not at every publication. Returns what undoes
    it.

    SimCord internals: each publication projects every message in the page's window (50),
    and each text of each message (content, embed titles, fields...) builds a new markdown
    parser to read it: about 0.4 s a publication at 50 messages, at every move of the clock
    that showed something, while clicks wait. The tokens depend on the text, its field's
    policy and the page's context (names, emojis) alone, so they are kept under those, and
    each caller gets its own copy."""
    modules = (simcord_messages, simcord_projection)
    parse: Callable[..., list[dict[str, Any]]] = simcord_markdown.markdown_tokens
    kept: OrderedDict[tuple[str, str, str, str], str] = OrderedDict()

    def markdown_tokens(
        value: Any, profile: str = "message", *, context: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        if value is None:
            return []
        policy = simcord_markdown._FIELD_POLICIES.get(profile)
        key = (
            str(value),
            profile,
            json.dumps(policy, sort_keys=True, default=str),
            json.dumps(context, sort_keys=True, default=str),
        )
        found = kept.get(key)
        if found is None:
            found = json.dumps(parse(value, profile, context=context))
            kept[key] = found
            if len(kept) > MARKDOWN_KEPT:
                kept.popitem(last=False)
        else:
            kept.move_to_end(key)
        return json.loads(found)

    for module in modules:
        module.markdown_tokens = markdown_tokens  # type: ignore[attr-defined]

    def undo() -> None:
        for module in modules:
            module.markdown_tokens = parse  # type: ignore[attr-defined]

    return undo


def card_face_assets(env: simcord.Env) -> dict[str, tuple[str, bytes]]:
    """The pictures of the card faces the bot keeps as application emojis, for the page:
    SimCord keeps an uploaded emoji's name but not its picture, so the page gets each one
    from its drawing (the emoji's name says which card it is)."""
    assets: dict[str, tuple[str, bytes]] = {}
    for emoji in env.backend.application_emojis.values():
        key = key_of(emoji.name)
        if key is not None:
            assets[f"{CDN_BASE}/emojis/{emoji.id}.png"] = (f"{emoji.id}.png", emoji_png(key))
    return assets


PNG: Final = b"\x89PNG\r\n\x1a\n"


class PicturesAtOnce(MediaWorker):
    """Checks the pictures the page shows at once, so that an update never shows a card's
    emoji as its name, or a broken picture, while they load.

    SimCord internals: the page asks its server for each picture a publication shows, and
    the server checks each new one (as each page sees it) in a new Python process, one at a
    time (about 0.1 s each), and refuses more than 8 at once: a hand of card faces took 1-3
    seconds, showing names and broken images meanwhile. The bot's pictures are PNG files of
    its own drawing, so they are checked here, in a thread, each once (by its digest, the
    key the server asks with); anything else goes to SimCord's process as before."""

    def __init__(self) -> None:
        super().__init__()
        self._checked: dict[str, MediaInfo] = {}

    async def validate(
        self, key: str, blob: bytes, *, media_time: float | None = None
    ) -> MediaInfo:
        if media_time is not None or not blob.startswith(PNG):
            return await super().validate(key, blob, media_time=media_time)
        found = self._checked.get(key)
        if found is None:
            found = await asyncio.to_thread(_process_media, blob, None)
            self._checked[key] = found
        return found

    def release(self, key: str) -> None:
        self._checked.pop(key, None)
        super().release(key)


def show_pictures_at_once(preview: Preview) -> None:
    """The page's pictures are checked by :class:`PicturesAtOnce`. Call before the preview
    is entered (SimCord internals: the preview makes its worker on the first picture)."""
    preview._media_worker = PicturesAtOnce()


def open_in_browser(url: str) -> bool:
    """Open the page with the system's browser, when there is a desktop to show it on."""
    if os.environ.get("CI"):
        return False
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        # No desktop: webbrowser would fall back to a text browser in this terminal.
        return False
    try:
        return webbrowser.open(url, new=2)
    except webbrowser.Error:
        return False
