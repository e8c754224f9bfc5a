"""Each member's DMs with the bot, in the sandbox's page, as Discord shows them: beside the
server's channel, the member viewing has their Direct messages with the bot (where the
lessons of ``/tute learn``, the daily deal of ``/tute challenge play`` and a hand sent by DM
come), and the page switches between the two as it switches the member viewing; its
messages and buttons work there as in the channel.

SimCord 3.2's page shows one channel, so this reaches into its internals (each place says
so): a page's "viewer" action names either a member (the channel, as before) or
``dm:`` and a member (that member's DMs), and the page is moved to that channel before the
action runs; the sandbox's page script adds the two places to the page (``page.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

import simcord
from simcord.preview import Preview

DM_PREFIX: Final = "dm:"
"""A viewer of the page named so is the member, in their DMs with the bot."""


def show_direct_messages(preview: Preview, channel: simcord.ChannelHandle) -> None:
    """The page's "viewer" action takes ``dm:`` and a member's id to show that member's
    DMs, and a member's id to show ``channel``. Call before the sandbox's clock wraps the
    page's actions (so that the move and the action run between two ticks).

    SimCord internals: a page's channel and viewer are its ``channel_id`` and ``viewer``; a
    DM is viewed by the user (a ``UserHandle``, whose clicks there are the user's), not by
    the member; the preview resolves a viewer's id through ``Preview._viewer``, finds the
    message an action names through ``Preview._target_id`` and hands every action of the
    page to ``Preview._action``."""
    member_of: Callable[[Any], Any] = preview._viewer
    backend = preview.env.backend

    def viewer(viewer_id: Any) -> Any:
        if isinstance(viewer_id, str) and viewer_id.startswith(DM_PREFIX):
            return member_of(viewer_id.removeprefix(DM_PREFIX)).user
        return member_of(viewer_id)

    act: Callable[[str | None, Any], Awaitable[dict[str, Any]]] = preview._action

    async def action_in_its_channel(context_id: str | None, body: Any) -> dict[str, Any]:
        page = preview._pages.get(context_id or "")
        if page is None or not isinstance(body, dict) or body.get("kind") != "viewer":
            return await act(context_id, body)
        named = body.get("viewer_id")
        before = page.channel_id
        try:
            chosen = viewer(named)
        except Exception:
            return await act(context_id, body)  # SimCord refuses it, and says why
        in_dms = isinstance(named, str) and named.startswith(DM_PREFIX)
        page.channel_id = backend.get_dm_channel(chosen.id).id if in_dms else channel.id
        answer = await act(context_id, body)
        if answer.get("rejected"):
            page.channel_id = before
        return answer

    target_of: Callable[..., int | None] = preview._target_id

    def target_id(
        target_id: Any, viewer: Any = None, *, denied_fallback: bool = False
    ) -> int | None:
        # SimCord internals: it finds a message a page names in the preview's channel; a
        # page in DMs names one of the DMs (its viewer is the user)
        if not isinstance(viewer, simcord.UserHandle):
            return target_of(target_id, viewer, denied_fallback=denied_fallback)
        here = preview.channel
        preview.channel = viewer.dm_channel
        try:
            return target_of(target_id, viewer, denied_fallback=denied_fallback)
        finally:
            preview.channel = here

    preview._viewer = viewer
    preview._target_id = target_id
    preview._action = action_in_its_channel
