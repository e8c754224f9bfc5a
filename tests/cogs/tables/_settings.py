"""The lobby's Settings form as a host uses it: open it from the lobby, choose values."""

from __future__ import annotations

from typing import Any

import simcord
from simcord import MemberActor
from simcord.components import walk_components

from bot.tables.form import FORM_OPTIONS


def typed(value: Any) -> str:
    """A value as the form's selects carry it: ``true``, ``36``, ``sixty-five``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def select_id(panel: simcord.ResponseMessage, option: str) -> str:
    """The custom_id of the select of ``option`` in a Settings form."""
    return next(
        c["custom_id"]
        for c in walk_components(panel.components)
        if c.get("type") == 3 and str(c.get("custom_id", "")).endswith(f":{option}")
    )


async def open_settings(
    member: MemberActor, lobby: simcord.ResponseMessage
) -> simcord.InteractionResult:
    """``member`` clicks Settings on the lobby."""
    settings = next(
        c["custom_id"]
        for c in walk_components(lobby.components)
        if str(c.get("custom_id", "")).endswith(":settings")
    )
    return await member.click(lobby, custom_id=settings)


async def choose(
    member: MemberActor, panel: simcord.ResponseMessage, option: str, value: Any
) -> simcord.InteractionResult:
    """``member`` chooses ``value`` in the select of ``option`` of an open form."""
    return await member.select(panel, [typed(value)], custom_id=select_id(panel, option))


async def set_options(host: MemberActor, lobby: simcord.ResponseMessage, **options: Any) -> None:
    """The host sets table options through the lobby's Settings form, one select each."""
    if not options:
        return
    shown = await open_settings(host, lobby)
    panel = shown.response
    assert panel is not None and shown.ephemeral, shown
    for option, value in options.items():
        chosen = await choose(host, panel, option, value)
        assert chosen.acknowledged and chosen.response is not None, (option, value)
        assert not chosen.response.content, chosen.response.content  # not refused


def split(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A test's table options: those of ``/tute new``, and those of the Settings form."""
    opening = {k: v for k, v in options.items() if k not in FORM_OPTIONS}
    form = {k: v for k, v in options.items() if k in FORM_OPTIONS}
    return opening, form
