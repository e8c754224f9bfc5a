"""A link to where something is: a channel or a message of a server, or of the member's DMs
for what belongs to no server (a practice table's ``NO_SERVER``), which Discord spells
``@me``; a link with the server 0 in it would open nothing."""

from __future__ import annotations

import pytest

from bot.tables.lobby import NO_SERVER
from cogs._base import channel_url


@pytest.mark.parametrize(
    ("guild", "channel", "message", "expected"),
    [
        (7, 8, None, "https://discord.com/channels/7/8"),
        (7, 8, 9, "https://discord.com/channels/7/8/9"),
        (None, 8, None, "https://discord.com/channels/@me/8"),
        (NO_SERVER, 8, 9, "https://discord.com/channels/@me/8/9"),
    ],
)
def test_a_link_opens_the_servers_channel_or_the_dm(
    guild: int | None, channel: int, message: int | None, expected: str
) -> None:
    assert channel_url(guild, channel, message) == expected
