"""Play at the table, in the sandbox: the bot answers the button (and ``/tute play``) with
Discord's Activity, as on Discord, and the page opens the sandbox's card table for the member
viewing it, over the channel, as Discord opens an Activity.

SimCord 3.2 does not know the Activity's answer (interaction callback type 12, which it
refuses as an unknown type) and its page cannot show one, so this reaches into its internals
(each place says so):

- SimCord's router takes the answer the way Discord documents it (the interaction must be
  known, in time and not yet answered) and records who launched it, where;
- the page's action that launched it carries the card table's address for that member
  (:data:`CARD_TABLE_FIELD`), which the sandbox's page script opens (``page.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import simcord
from simcord.backend import errors
from simcord.preview import Preview
from simcord.types import HttpLogEntry

LAUNCH_ACTIVITY: Final = 12
"""Discord's interaction callback that opens the application's Activity."""
CARD_TABLE_FIELD: Final = "tuteCardTable"
"""The field of a page action's answer that carries the card table's address to open."""


@dataclass(frozen=True, slots=True)
class Launch:
    """Someone asked for the Activity: the interaction, its channel (and server: None in
    DMs), its user, and the Activity instance it opened there."""

    interaction_id: int
    channel_id: int
    guild_id: int | None
    user_id: int
    instance_id: str


def answer_launches(launched: list[Launch], *, instances: str = "sandbox-") -> Callable[[], None]:
    """From now on SimCord takes the Activity's answer; ``launched`` fills with each launch,
    each instance named ``instances`` and the interaction's id. Returns what undoes it.

    SimCord internals: every request of the bot goes through its router's ``dispatch``."""
    router: Any = simcord.http.router
    dispatch = router.dispatch

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
        instance = f"{instances}{record.id}"
        launched.append(
            Launch(record.id, record.channel_id, record.guild_id, record.user_id, instance)
        )
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

    router.dispatch = with_launches

    def undo() -> None:
        router.dispatch = dispatch

    return undo


def open_the_card_table(
    preview: Preview, launched: list[Launch], address: Callable[[Launch], str | None]
) -> None:
    """A page action that launched the Activity (a click on Play at the table) answers with
    the card table's address for the member viewing, in the instance it launched
    (``address``: of the launch), which the page opens: where it was launched (the
    channel, or the member's DMs) decides which table the card table shows.

    SimCord internals: the preview's server hands every action of the page to
    ``Preview._action`` and sends the page what it returns."""
    act: Callable[[str | None, Any], Awaitable[dict[str, Any]]] = preview._action

    async def action_then_table(context_id: str | None, body: Any) -> dict[str, Any]:
        before = len(launched)
        answer = await act(context_id, body)
        viewer = _viewer_of(preview, context_id)
        for launch in launched[before:]:
            url = address(launch) if launch.user_id == viewer else None
            if url is not None:
                answer = {**answer, CARD_TABLE_FIELD: url}
        return answer

    preview._action = action_then_table


def _viewer_of(preview: Preview, context_id: str | None) -> int | None:
    """SimCord internals: the id of the member the page (one per tab) views as."""
    page = preview._pages.get(context_id or "")
    return None if page is None else int(page.viewer.id)
