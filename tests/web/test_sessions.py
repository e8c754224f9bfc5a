"""A session token says who a player of the web table is, until when: only the bot's secret
makes one, nothing changed in it passes, and it runs out."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac

import pytest

from bot.web import Session, WebAuthError, sign, verify

SECRET = b"s" * 32
ANA = Session(
    user_id=1001, name="Ana", instance_id="i-1", channel_id=55, guild_id=7, expires=1000.0
)


def test_a_token_gives_back_its_session_until_it_runs_out() -> None:
    token = sign(ANA, SECRET)
    assert verify(token, SECRET, now=999.0) == ANA
    with pytest.raises(WebAuthError, match="expired"):
        verify(token, SECRET, now=1000.0)


def test_a_session_in_a_dm_has_no_server() -> None:
    dm = dataclasses.replace(ANA, guild_id=None, name="Ñandú 🃏")
    assert verify(sign(dm, SECRET), SECRET, now=0.0) == dm


def test_another_secret_or_a_changed_session_is_refused() -> None:
    token = sign(ANA, SECRET)
    with pytest.raises(WebAuthError, match="forged"):
        verify(token, b"t" * 32, now=0.0)
    payload, _, mac = token.partition(".")
    stretched = sign(dataclasses.replace(ANA, expires=10**9), SECRET).partition(".")[0]
    with pytest.raises(WebAuthError, match="forged"):
        verify(f"{stretched}.{mac}", SECRET, now=0.0)  # a later end, the old signature
    other = base64.urlsafe_b64encode(b'{"user_id":2}').rstrip(b"=").decode()
    with pytest.raises(WebAuthError, match="forged"):
        verify(f"{other}.{mac}", SECRET, now=0.0)
    assert payload != stretched


@pytest.mark.parametrize("token", ["", ".", "abc", "abc.", ".abc", "ñ.ñ", "a.b.c"])
def test_a_token_that_is_not_one_is_refused(token: str) -> None:
    with pytest.raises(WebAuthError):
        verify(token, SECRET, now=0.0)


def test_a_well_signed_token_of_nonsense_is_refused() -> None:
    payload = base64.urlsafe_b64encode(b"[1, 2]").rstrip(b"=").decode()
    mac = hmac.new(SECRET, payload.encode(), hashlib.sha256).digest()
    token = f"{payload}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"
    with pytest.raises(WebAuthError, match="malformed"):
        verify(token, SECRET, now=0.0)


def test_a_short_secret_signs_nothing() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        sign(ANA, b"short")
