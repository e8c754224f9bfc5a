"""The script the sandbox adds to SimCord's page (``page.py`` serves it): relative
timestamps that count down on the simulated clock, the page's own words in the sandbox's
language (and the "used" over a command's answer), pictures shown once loaded, each
member's DMs beside the channel, and the card table opened over the channel by Play at the
table."""

from __future__ import annotations

from typing import Final

from .dms import DM_PREFIX
from .launch import CARD_TABLE_FIELD

SCRIPT_PATH: Final = "/tute-sandbox.js"
"""Where the page loads the sandbox's script from (same origin: the page's rules allow it)."""
SCRIPT_TAG: Final = f'<script type="module" src="{SCRIPT_PATH}"></script>'
CHROME_ID: Final = "tute-sandbox-words"
"""The id of the page's element that carries its own words in the sandbox's language."""
TABLE_WORDS_ID: Final = "tute-sandbox-table-words"
"""The id of the page's element that carries the card table panel's words."""
PLACES_ID: Final = "tute-sandbox-places"
"""The id of the page's list of places: the server's channel, the DMs with the bot."""
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

// "Alex used /tute", the line SimCord's page writes over a command's answer (in English,
// inside the messages, which the page's words leave alone): in the page's language.
(() => {
  "use strict";
  const words = JSON.parse(document.getElementById("__TABLE_WORDS__")?.textContent || "{}");
  const used = words.used;
  if (!used || used === "used") return;
  function say(root) {
    if (root.nodeType !== Node.ELEMENT_NODE) return;
    const headers = root.matches(".message-interaction-header") ? [root]
      : root.querySelectorAll(".message-interaction-header");
    for (const header of headers) {
      const text = header.firstChild;
      if (text?.nodeType !== Node.TEXT_NODE) continue;
      const value = text.nodeValue || "";
      if (value.endsWith(" used ")) text.nodeValue = `${value.slice(0, -" used ".length)} ${used} `;
      else if (value === "Used ") text.nodeValue = `${used[0].toUpperCase()}${used.slice(1)} `;
    }
  }
  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(say);
  }).observe(document.documentElement, { childList: true, subtree: true });
  say(document.body);
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

// Each member's DMs with the bot, beside the channel, as Discord lists them: the page switches
// between the two as it switches the member viewing (the sandbox takes "dm:" and a member's id
// as a viewer: that member, in their DMs).
(() => {
  "use strict";
  const words = JSON.parse(document.getElementById("__TABLE_WORDS__")?.textContent || "{}");
  const picker = document.getElementById("viewer-picker");
  const layout = document.getElementById("channel-layout");
  if (!picker || !layout) return;
  const nav = document.createElement("nav");
  nav.id = "__PLACES__";
  nav.setAttribute("aria-label", words.places || "");
  Object.assign(nav.style, { display: "flex", gap: "4px", padding: "6px 12px 0",
    font: "500 14px system-ui, sans-serif" });
  const channel = place("#", words.channel, false);
  const dms = place("@", words.bot, true);
  nav.append(channel, dms);
  layout.prepend(nav);

  function place(glyph, name, inDms) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.place = inDms ? "dms" : "channel";
    button.textContent = `${glyph} ${name || ""}`;
    if (inDms) button.title = words.dms || "";
    Object.assign(button.style, { border: "0", borderRadius: "4px", padding: "4px 10px",
      cursor: "pointer", font: "inherit", color: "#dbdee1", background: "transparent" });
    button.addEventListener("click", () => go(inDms));
    return button;
  }

  function go(inDms) {
    const viewer = window.simcordPreview?.viewerId;
    if (!viewer) return;
    const value = inDms ? `__DM__${viewer}` : String(viewer);
    if (![...picker.options].some((option) => option.value === value)) picker.append(new Option("", value));
    picker.value = value;
    picker.dispatchEvent(new Event("change"));
  }

  function mark() {
    const inDms = document.querySelector(".channel-hash")?.textContent === "@";
    for (const [button, here] of [[channel, !inDms], [dms, inDms]]) {
      button.setAttribute("aria-current", here ? "page" : "false");
      button.style.background = here ? "#404249" : "transparent";
      button.style.color = here ? "#ffffff" : "#b5bac1";
    }
  }
  new MutationObserver(mark).observe(layout, { childList: true, subtree: true, characterData: true });
  mark();

  // "Your lesson is waiting in your DMs: <link>": the link opens the DMs here, not Discord's
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!link || !link.href.startsWith("https://discord.com/channels/@me")) return;
    event.preventDefault();
    event.stopPropagation();
    go(true);
  }, true);
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
    .replace("__PLACES__", PLACES_ID)
    .replace("__DM__", DM_PREFIX)
)
