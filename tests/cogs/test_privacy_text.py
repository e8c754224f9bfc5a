"""``/tute privacy show``'s answer for a member of many servers with long names: one message
Discord takes (2,000 characters), the servers that fit listed and the rest counted, and
what is kept in the records and for how long always said."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import cast

import discord
import pytest

from bot.i18n import t
from bot.storage.privacy import MemberData, ServerData
from cogs.privacy.commands import MESSAGE_LIMIT, erase_path, kept_text

SERVERS = 300


def client_with_long_names() -> discord.Client:
    guild = SimpleNamespace(name="Casino *Royal* " + "x" * 85)  # Discord's longest name
    return cast(discord.Client, SimpleNamespace(get_guild=lambda guild_id: guild))


def everything(guild_id: int) -> ServerData:
    return ServerData(guild_id, True, 12_345, 1_234_567, 99_999, 4, 365, 1, 2_500)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_member_of_many_servers_reads_it_in_one_message(lang: str) -> None:
    data = MemberData(tuple(everything(n) for n in range(1, SERVERS + 1)), 5000, 9000, 40, 800)
    text = kept_text(client_with_long_names(), data, lang, 30)
    assert len(text) <= MESSAGE_LIMIT
    listed = text.count(r"Casino \*Royal\*")  # escaped, as a name a member chose
    assert 0 < listed < SERVERS
    more = t("privacy.more_servers", lang, count="{count}")
    pattern = re.escape(more).replace(re.escape("{count}"), r"(\d+)")
    (left,) = re.findall(pattern, text)
    assert listed + int(left) == SERVERS
    assert t("privacy.how_long", lang, command=erase_path(lang)) in text
    assert text.endswith(t("privacy.server_left", lang, days=30))
    assert t("privacy.records", lang) in text


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_few_servers_are_all_listed(lang: str) -> None:
    data = MemberData((everything(1), everything(2)), 0, 0, 0, 0)
    text = kept_text(client_with_long_names(), data, lang, 30)
    assert text.count(r"Casino \*Royal\*") == 2
    assert t("privacy.more_servers", lang, count=0)[:5] not in text
    assert t("privacy.records", lang) not in text


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "- Reviews of your deals: 3"), ("es", "- Análisis de tus manos: 3")],
)
def test_the_reviews_kept_are_counted_in_their_server(lang: str, line: str) -> None:
    """A server where the member only asked for reviews of their deals is listed, with them;
    and erasing is said to delete them."""
    reviews_only = ServerData(5, False, 0, 0, 0, 0, 0, 0, 3)
    text = kept_text(client_with_long_names(), MemberData((reviews_only,), 0, 0, 0, 0), lang, 30)
    assert text.splitlines()[1:3] == [r"**Casino \*Royal\* " + "x" * 85 + "**", line]
    assert t("privacy.how_long", lang, command=erase_path(lang)) in text
    assert {"en": "deal reviews", "es": "análisis de manos"}[lang] in text
