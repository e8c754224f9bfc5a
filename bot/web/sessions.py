"""A player's session at the web table: who they are (their Discord user), in which
Activity instance and channel, until when; signed with the bot's secret so the page can
carry it to every socket it opens, and nobody can forge or stretch one.

A token is ``<payload>.<signature>``: the session as compact JSON in unpadded base64url, and
its HMAC-SHA256 with the secret, in base64url too. Checking it takes no database and no
call to Discord. Times are seconds on the caller's clock (injected: tests own it).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import asdict, dataclass
from typing import Any, Final

SESSION_TTL: Final = 6 * 60 * 60.0
"""How long a session lasts, in seconds: a long evening of cards; the page asks Discord for
a new one after that."""
MIN_SECRET: Final = 32
"""The fewest bytes a signing secret may have."""


class WebAuthError(Exception):
    """A token or a login that does not prove who the player is. ``reason`` is short and
    fixed (it is safe to send back); nothing of the token is in it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Session:
    user_id: int
    name: str
    """Their name on Discord, as the table shows it."""
    instance_id: str
    """The Activity instance they opened (the same page for everyone in it)."""
    channel_id: int
    """Where the Activity runs: the channel whose table it shows."""
    guild_id: int | None
    """The server, or None in a DM or a group DM."""
    expires: float


def _encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, payload: str) -> str:
    return _encode(hmac.new(secret, payload.encode("ascii"), hashlib.sha256).digest())


def _check_secret(secret: bytes) -> None:
    if len(secret) < MIN_SECRET:
        raise ValueError(f"a signing secret has at least {MIN_SECRET} bytes")


def sign(session: Session, secret: bytes) -> str:
    """The session as a token the page keeps."""
    _check_secret(secret)
    payload = _encode(json.dumps(asdict(session), separators=(",", ":")).encode("utf-8"))
    return f"{payload}.{_mac(secret, payload)}"


def verify(token: str, secret: bytes, now: float) -> Session:
    """The session a token carries, if the secret signed it and it has not run out."""
    _check_secret(secret)
    payload, dot, mac = token.partition(".")
    if not dot or not payload or not mac or not token.isascii():
        raise WebAuthError("malformed")  # compare_digest takes no other text
    if not hmac.compare_digest(mac, _mac(secret, payload)):
        raise WebAuthError("forged")
    try:
        data: Any = json.loads(_decode(payload))
        session = Session(
            user_id=int(data["user_id"]),
            name=str(data["name"]),
            instance_id=str(data["instance_id"]),
            channel_id=int(data["channel_id"]),
            guild_id=None if data["guild_id"] is None else int(data["guild_id"]),
            expires=float(data["expires"]),
        )
    except (binascii.Error, ValueError, KeyError, TypeError):
        raise WebAuthError("malformed") from None
    if session.expires <= now:
        raise WebAuthError("expired")
    return session
