"""Discord's LAUNCH_ACTIVITY answer (interaction callback type 12) for SimCord, which does not
know it (it refuses the callback as an unknown type). :func:`answer_launches` adds it the way
Discord documents it: the interaction must be known, in time and not yet answered; it is then
answered, and the callback's response names the Activity's instance. Each launch is recorded,
with the interaction's channel and user, for the test to read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
import simcord
from simcord.backend import errors
from simcord.types import HttpLogEntry

LAUNCH_ACTIVITY = 12


@dataclass(frozen=True)
class Launch:
    interaction_id: int
    channel_id: int
    user_id: int


def answer_launches(monkeypatch: pytest.MonkeyPatch) -> list[Launch]:
    """From now on SimCord takes type-12 callbacks; the list fills with each launch."""
    launched: list[Launch] = []
    dispatch = simcord.http.router.dispatch

    def with_launches(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        body = kwargs.get("json")
        segments = path.strip("/").split("/")
        if (
            method != "POST"
            or segments[:1] != ["interactions"]
            or segments[-1:] != ["callback"]
            or not isinstance(body, dict)
            or body.get("type") != LAUNCH_ACTIVITY
        ):
            return dispatch(backend, method, path, **kwargs)
        backend.http_requests.append(HttpLogEntry(method, path, {}, dict(body), None))
        record = backend.interactions.get(int(segments[1]))
        if record is None or record.token != segments[2]:
            raise errors.unknown_interaction()
        now = backend.now_iso()
        deadline = record.initial_response_deadline
        if (record.expires_at is not None and now >= record.expires_at) or (
            not record.responded and deadline is not None and now >= deadline
        ):
            raise errors.unknown_interaction()
        if record.responded:
            raise errors.already_acknowledged()
        record.responded = True
        launched.append(Launch(record.id, record.channel_id, record.user_id))
        instance = f"i-{record.id}"
        return {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "activity_instance_id": instance,
                "response_message_id": None,
                "response_message_loading": False,
                "response_message_ephemeral": False,
            },
            "resource": {"type": LAUNCH_ACTIVITY, "activity_instance": {"id": instance}},
        }

    monkeypatch.setattr(simcord.http.router, "dispatch", with_launches)
    return launched
