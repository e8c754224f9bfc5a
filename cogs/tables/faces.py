"""The card faces as this application's own emojis, so that a message can show a card as a
little picture (``<:tute_12B_1a2b3c4d:123>``) rather than as text.

Each picture (``bot.render.faces``) is an application emoji named
``tute_<code>_<hash>``: the card's code (``12B``, or ``back`` for the card back) and a short
hash of the drawing. At start-up :meth:`CardFaces.sync` lists the application's emojis once
and keeps every one whose name and hash match, so an emoji is uploaded once across
restarts; one of ours whose hash differs (the drawing changed) is deleted and uploaded
again; an emoji whose name does not follow the pattern is someone else's and is never
touched. Every Discord call may fail: a card without an emoji is shown as text, as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Final

import discord

from bot.engine import CODES
from bot.render.faces import (
    BACK,
    EMOJI_KEYS,
    current_names,
    emoji_png,
    faces_digest,
    key_of,
)

log = logging.getLogger(__name__)

SYNC_TIME_LIMIT: Final = 300.0
"""Seconds the sync may take in all (Discord may make the bot wait out a rate limit); what
is not done by then stays text until the next start, which carries on from there."""


def _partial(emoji: discord.Emoji) -> discord.PartialEmoji:
    return discord.PartialEmoji(name=emoji.name, id=emoji.id, animated=emoji.animated)


def _what(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status}, code {error.code}: {error.text or error}"
    return f"{type(error).__name__}: {error}"


class CardFaces:
    """The registry of this application's card-face emojis: which emoji shows each card and
    the back. It knows none until :meth:`sync` has found or made them, and any it could
    not get stays unknown: callers then write the card as text."""

    def __init__(self) -> None:
        self._emojis: dict[str, discord.PartialEmoji] = {}
        self._synced = asyncio.Event()
        self._started = False
        self._task: asyncio.Task[None] | None = None

    @property
    def ready(self) -> bool:
        """Whether every card and the back has its emoji (a caller that wants all cards
        alike, all pictures or all text, asks this rather than card by card)."""
        return all(key in self._emojis for key in EMOJI_KEYS)

    def emoji(self, card: int) -> discord.PartialEmoji | None:
        """The emoji of the engine's card ``card`` (0..39; ``CODES[card]`` is its code), or
        None when it has none: show the card as text."""
        return self._emojis.get(CODES[card])

    def inline(self, card: int) -> str:
        """The card's emoji as it is written in a message (``<:name:id>``), or "" when it
        has none."""
        emoji = self.emoji(card)
        return str(emoji) if emoji is not None else ""

    def back(self) -> discord.PartialEmoji | None:
        """The emoji of the card back, or None when it has none."""
        return self._emojis.get(BACK)

    def start(self, client: discord.Client) -> None:
        """Run :meth:`sync` in the background: nothing waits for it (the first start of a
        bot uploads 41 pictures, which may take a while under Discord's rate limits)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self.sync(client), name="tute card faces"
            )

    async def wait_synced(self, timeout: float) -> bool:  # noqa: ASYNC109
        """Wait up to ``timeout`` seconds for the sync to end; whether it has."""
        if self._synced.is_set():
            return True
        try:
            await asyncio.wait_for(self._synced.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def sync(self, client: discord.Client) -> None:
        """Find the card faces among the application's emojis, replace the outdated ones and
        upload the missing ones; once per registry. It never raises (a failure leaves those
        cards as text and is logged once) and ends within ``SYNC_TIME_LIMIT``."""
        if self._started:
            return
        self._started = True
        try:
            async with asyncio.timeout(SYNC_TIME_LIMIT):
                await self._sync(client)
        except TimeoutError:
            log.warning(
                "Card-face emojis: stopped after %.0f s with %d of %d; the others are text "
                "until the next start",
                SYNC_TIME_LIMIT,
                len(self._emojis),
                len(EMOJI_KEYS),
            )
        except Exception:
            log.exception("Card-face emojis: the sync failed; the cards missing are text")
        finally:
            self._synced.set()

    async def _sync(self, client: discord.Client) -> None:
        # the names hash the pictures: drawing all 41 takes about half a second, which the
        # start-up (restoring the tables meanwhile) should not wait out
        names = await asyncio.to_thread(current_names)
        try:
            listed = await client.fetch_application_emojis()
        except Exception as error:
            # without the list, an upload could only make a duplicate
            log.warning(
                "Card-face emojis: could not list the application's emojis (%s); cards are "
                "text this run",
                _what(error),
            )
            return
        outdated = self._take_current(listed, names)
        deleted = await self._delete(outdated)
        missing = [key for key in EMOJI_KEYS if key not in self._emojis]
        created = await self._create(client, {key: names[key] for key in missing})
        log.info(
            "Card-face emojis (pictures %s): %d found, %d created, %d outdated deleted; %d of "
            "%d ready",
            faces_digest(),
            len(EMOJI_KEYS) - len(missing),
            created,
            deleted,
            len(self._emojis),
            len(EMOJI_KEYS),
        )

    def _take_current(
        self, listed: Iterable[discord.Emoji], names: dict[str, str]
    ) -> list[discord.Emoji]:
        """Keep the emojis of the current pictures (the oldest of any duplicates); the
        outdated ones of ours."""
        outdated: list[discord.Emoji] = []
        for emoji in sorted(listed, key=lambda e: e.id):
            key = key_of(emoji.name)
            if key is None:
                continue  # not ours
            if emoji.name != names[key]:
                outdated.append(emoji)
            elif key not in self._emojis:
                self._emojis[key] = _partial(emoji)
        return outdated

    async def _delete(self, outdated: list[discord.Emoji]) -> int:
        """Delete the outdated emojis, stopping at the first refusal (the others would be
        refused alike; the next start tries again). How many were deleted."""
        deleted = 0
        for emoji in outdated:
            try:
                await emoji.delete()
            except discord.NotFound:
                continue  # already gone
            except Exception as error:
                log.warning(
                    "Card-face emojis: could not delete the outdated %s (%s); %d left for "
                    "the next start",
                    emoji.name,
                    _what(error),
                    len(outdated) - deleted,
                )
                break
            deleted += 1
        return deleted

    async def _create(self, client: discord.Client, missing: dict[str, str]) -> int:
        """Upload the missing pictures one after the other, each usable as soon as it is
        made, stopping at the first refusal: Discord refuses them alike (no permission, the
        application's limit of emojis, an outage), and the cards left are text until the
        next start. How many were made."""
        created = 0
        for key, name in missing.items():
            try:
                image = await asyncio.to_thread(emoji_png, key)
                emoji = await client.create_application_emoji(name=name, image=image)
            except Exception as error:
                log.warning(
                    "Card-face emojis: could not create %s (%s); %d pictures left as text this run",
                    name,
                    _what(error),
                    len(missing) - created,
                )
                break
            self._emojis[key] = _partial(emoji)
            created += 1
        return created


class _NoFaces(CardFaces):
    """The registry that never has any emoji: every card is text."""

    def __init__(self) -> None:
        super().__init__()
        self._synced.set()

    def start(self, client: discord.Client) -> None:
        """Nothing: this registry stays empty."""

    async def sync(self, client: discord.Client) -> None:
        """Nothing: this registry stays empty."""


NO_FACES: Final[CardFaces] = _NoFaces()
"""A registry without any emoji, shared: cards are text everywhere."""


def faces_of(bot: discord.Client) -> CardFaces:
    """The card faces of ``bot``, or ``NO_FACES`` when it has none (a bot whose tables cog
    has not started, or a client that is not the Tute bot)."""
    faces = getattr(bot, "faces", None)
    return faces if isinstance(faces, CardFaces) else NO_FACES
