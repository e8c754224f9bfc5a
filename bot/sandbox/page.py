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

from .page_script import (
    CHROME_ID,
    PAGE_SCRIPT,
    RELATIVE_MARK,
    SCRIPT_PATH,
    SCRIPT_TAG,
    TABLE_WORDS_ID,
)

__all__ = [
    "PAGE_SCRIPT",
    "RELATIVE_MARK",
    "SCRIPT_PATH",
    "SCRIPT_TAG",
    "card_face_assets",
    "chrome_words",
    "open_in_browser",
    "remember_markdown",
    "serve_the_page_script",
    "show_mentions_in_embeds",
    "show_pictures_at_once",
    "stamp_with_the_simulated_time",
]


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


def chrome_words(language: Language, channel: str, bot: str = "Tute") -> dict[str, str]:
    """The page's own words as SimCord writes them (English), each with what the page says
    in ``language`` (from the catalog), those that differ; ``channel``: the name of the
    channel shown, ``bot``: the bot's (its DMs)."""
    keys = [key for key in CATALOGS["en"] if key.startswith("sandbox.page.")]
    # a number the page writes stays "{count}": the script puts it back
    fill = {"channel": channel, "bot": bot, "count": "{count}"}
    pairs = ((t(key, "en", **fill), t(key, language, **fill)) for key in keys)
    return {english: said for english, said in pairs if said != english}


def serve_the_page_script(
    preview: Preview,
    words: Mapping[str, str] | None = None,
    language: Language = "en",
    *,
    frames: str | None = None,
    places: Mapping[str, str] | None = None,
) -> None:
    """The page loads :data:`PAGE_SCRIPT`, and says its own ``words`` (English: what the page
    says instead) in ``language``; ``frames``: where the card table's pages come from, which
    the page may show in a frame (its Play at the table); ``places``: the names of the
    channel (``channel``) and of the bot (``bot``), the page's two places. Call before the
    preview is entered.

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
            table = {key: t(f"sandbox.table.{key}", language) for key in TABLE_WORDS}
            table |= dict(places or {})
            tags = _json_tag(CHROME_ID, dict(words or {})) + _json_tag(TABLE_WORDS_ID, table)
            page = response.text.replace("</body>", f"{tags}\n{SCRIPT_TAG}\n</body>", 1)
            response.text = page.replace('<html lang="en">', f'<html lang="{language}">', 1)
            if frames is not None:
                policy = response.headers["Content-Security-Policy"]
                response.headers["Content-Security-Policy"] = f"{policy}; frame-src {frames}"
        return response

    server._static = static_and_the_script


TABLE_WORDS: Final = ("title", "tab", "close", "places", "dms", "used")
"""The words of the page's own parts (``sandbox.table.*``): the card table's panel, the
list of places, and the "used" of "Alex used /tute" over a command's answer."""


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
