"""Driving the sandbox's page through the HTTP API its browser page uses: open a page as a
member, run slash commands as the page lists them, click buttons, read what it shows. The
newcomer's walk (``walk.py``) goes through it, in the tests and for the pictures alike."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import aiohttp
import simcord


class PreviewPage:
    """One page of the sandbox's preview, driven through the HTTP API its browser page uses:
    open a page as a member, run slash commands, click buttons, focus a message."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.session = session
        self.base, self.capability = url.split("/#")
        self.state: dict[str, Any] = {}
        self.sequence = 0

    def _headers(self) -> dict[str, str]:
        headers = {"X-Simcord-Capability": self.capability}
        if self.state:
            headers["X-Simcord-Context"] = self.state["context"]["id"]
        return headers

    async def open(self, viewer: simcord.MemberActor) -> None:
        async with self.session.post(
            f"{self.base}/api/pages", json={"viewer_id": str(viewer.id)}, headers=self._headers()
        ) as response:
            assert response.status == 200, await response.text()
            self.state = await response.json()
        self.sequence = 0

    async def read(self) -> None:
        async with self.session.get(f"{self.base}/api/state", headers=self._headers()) as response:
            assert response.status == 200, await response.text()
            self.state = await response.json()

    async def act(self, kind: str, **fields: Any) -> dict[str, Any]:
        """One action; it must be admitted and settle. The page is read again after it."""
        self.sequence += 1
        body = {
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": str(uuid.uuid4()),
            "generation": self.state["context"]["generation"],
            "bot_generation": self.state["botGeneration"],
            "published_revision": self.state["publishedRevision"],
            "kind": kind,
            **fields,
        }
        async with self.session.post(
            f"{self.base}/api/action", json=body, headers=self._headers()
        ) as response:
            assert response.status == 200, await response.text()
            receipt = await response.json()
        assert not receipt["rejected"], receipt
        assert receipt["settlement"] == "settled", receipt
        await self.read()
        return receipt

    async def commands(self) -> list[dict[str, Any]]:
        """The slash commands the page lists (each as ``/invocation`` with its options)."""
        async with self.session.get(f"{self.base}/api/commands", headers=self._headers()) as r:
            catalog = await r.json()
        return list(catalog["entries"])

    async def command(self, invocation: str, **options: Any) -> int:
        """Run a slash command from the composer, as the page lists it (its options by the
        names the page shows); the id of the bot's answer."""
        receipt = await self.run(invocation, options)
        return int(receipt["outcomes"][0]["messageId"])

    async def run(self, invocation: str, options: dict[str, Any]) -> dict[str, Any]:
        """Run the command the page lists as ``invocation``; the page's answer. A
        LookupError where the page lists no such command."""
        entry = next((e for e in await self.commands() if e["invocation"] == invocation), None)
        if entry is None:
            raise LookupError(f"the page lists no /{invocation}")
        return await self.act(
            "run_command",
            command_id=entry["commandId"],
            path=entry["path"],
            schema_fingerprint=entry["schemaFingerprint"],
            options=options,
        )

    def message(self, message_id: int) -> dict[str, Any] | None:
        return self.state["messages"].get(str(message_id))

    async def show(self, message_id: int) -> dict[str, Any]:
        """The message as this page shows it, bringing it into the page's window first."""
        if self.message(message_id) is None:
            await self.act("focus", target_id=str(message_id))
        message = self.message(message_id)
        assert message is not None, f"message {message_id} is not visible"
        return message

    async def click(self, message_id: int, custom_id: str) -> dict[str, Any]:
        message = await self.show(message_id)
        button = next(b for b in buttons(message) if b["custom_id"] == custom_id)
        assert not button["disabled"], button
        return await self.act("click", target_id=str(message_id), control_key=button["control_key"])

    def bot_messages(self) -> list[dict[str, Any]]:
        """The page's messages from the bot, oldest first."""
        messages = [self.state["messages"][str(i)] for i in self.state["timeline"]]
        return [m for m in messages if m["author"].get("bot")]


BUTTON = 2
"""A button's component type (in rows of buttons, in layouts' containers and sections)."""


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The message's buttons, as the page has them, in order, wherever they sit."""

    def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for component in components:
            if component.get("type") == BUTTON:
                yield component
            yield from walk(component.get("components", []))
            if isinstance(accessory := component.get("accessory"), dict):
                yield from walk([accessory])

    return list(walk(message["components"]))


def message_text(message: dict[str, Any]) -> str:
    """What a message says, as written: its content, its embeds' titles, descriptions and
    fields, and its layout's texts (one a line)."""

    def texts(components: list[dict[str, Any]]) -> Iterator[str]:
        for component in components:
            if isinstance(content := component.get("content"), str):
                yield content
            yield from texts(component.get("components", []))

    lines = [message.get("content") or ""]
    for embed in message.get("embeds", []):
        lines += [embed.get("title") or "", embed.get("description") or ""]
        for field in embed.get("fields", []):
            lines += [field.get("name") or "", field.get("value") or ""]
    lines += texts(message.get("components", []))
    return "\n".join(line for line in lines if line)
