"""Discord's REST routes in a few classes, so that a request's label never names a channel,
a message or a user: the figures keep a bounded set of series however many there are."""

from __future__ import annotations

import re
from typing import Final

ROUTE_CLASSES: Final = (
    "interaction",
    "message_send",
    "message_edit",
    "message_delete",
    "message_other",
    "thread",
    "dm_open",
    "channel",
    "commands",
    "emoji",
    "guild",
    "user",
    "card_table",
    "other",
)
"""Every class a request may be counted under."""

_MESSAGE = re.compile(r"^/channels/\{channel_id\}/messages(/\{message_id\})?$")


def route_class(method: str, path: str) -> str:
    """The class of a request by its method and its path as a template
    (``/channels/{channel_id}/messages/{message_id}``: discord.py's ``Route.path``), or as
    sent (an interaction's callback, a webhook)."""
    method = method.upper()
    if path.startswith(("/interactions/", "/webhooks/")):
        return "interaction"
    message = _MESSAGE.match(path)
    if message is not None:
        if message.group(1) is None:
            return "message_send" if method == "POST" else "message_other"
        if method == "PATCH":
            return "message_edit"
        if method == "DELETE":
            return "message_delete"
        return "message_other"
    if "/threads" in path or path.endswith("/thread-members/@me"):
        return "thread"
    if path.startswith("/channels/") and "/messages" in path:
        return "message_other"
    if path == "/users/@me/channels":
        return "dm_open"
    if path.startswith("/channels/"):
        return "channel"
    if path.startswith("/applications/"):
        return "emoji" if "/emojis" in path else "commands"
    if path.startswith("/guilds/"):
        return "guild"
    if path.startswith(("/users/", "/oauth2/")):
        return "user"
    return "other"
