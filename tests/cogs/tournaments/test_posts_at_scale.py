"""A tournament's posts at scale: 64 entrants with long hostile names, in English and in
Spanish, stay within what Discord takes (the sign-up message, the round's pairings over
several messages, the winner), and a post Discord cannot take for now is tried again."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.engine import Variant, parse_options
from bot.i18n import t
from bot.tables.competition.tournament import Draw, Format
from bot.tables.competition.tournaments import Tournament, TournamentStatus
from cogs.tournaments import announce, posts
from cogs.tournaments.buttons import signup_payload
from tests.discord_limits import check_message

FIRST_ID = 412_345_678_901_234_567
"""A snowflake's length: mentions are as long as real ones."""
HOSTILE_PARTS = (
    "**x** @everyone <@1> ||s|| __u__ ",
    "[Free](https://evil.example) # ",
    "\u202e\u05d8\u05d5\u05e8\u05e0\u05d9\u05e8 RTL 🃏🂡 `c` ~~x~~ > q ",
    "<@&123456789012345678> @here _i_ ",
    "*_~|`*_~|`*_~|`*_~|`",  # every character escaped: twice as long shown
)


def hostile_names(count: int) -> list[str]:
    """``count`` names of 32 characters, Discord's longest, full of markdown and mentions."""
    return [(f"{i:02d}" + HOSTILE_PARTS[i % len(HOSTILE_PARTS)] * 2)[:32] for i in range(count)]


def tour_of(count: int, lang: str, *, draw: Draw | None = None) -> Tournament:
    ids = [FIRST_ID + i for i in range(count)]
    return Tournament(
        id=12,
        guild_id=FIRST_ID,
        channel_id=FIRST_ID + 1,
        host_id=ids[0],
        variant=Variant.HABANERO,
        options=parse_options(Variant.HABANERO, {}),
        format=Format.KNOCKOUT,
        swiss_rounds=0,
        deadline=1_800_000_000.0,
        created_at=0.0,
        language=lang,
        entry=1_000_000,
        entrants=list(zip(ids, hostile_names(count), strict=True)),
        status=TournamentStatus.SIGNUP if draw is None else TournamentStatus.RUNNING,
        draw=draw,
    )


def body_of(payload: dict[str, Any]) -> dict[str, Any]:
    embed = payload["embed"]
    assert isinstance(embed, discord.Embed)
    return {"embeds": [embed.to_dict()]}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("count", [1, 28, 40, 64])
def test_the_sign_up_message_fits_with_every_entrant_counted(lang: str, count: int) -> None:
    body = body_of(signup_payload(tour_of(count, lang)))
    assert list(check_message(body)) == []
    (embed,) = body["embeds"]
    lines = "\n".join(f["value"] for f in embed["fields"][1:]).split("\n")
    named = [line for line in lines if line.startswith(tuple(f"{i}. " for i in range(1, 65)))]
    if len(named) < count:
        assert lines[-1] == t("tournaments.signup.more", lang, count=count - len(named))
    assert len(named) >= min(count, 40)  # most of them by name
    assert embed["fields"][1]["name"] == t("tournaments.signup.entrants", lang, count=count)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_once_started_the_sign_up_message_says_so_without_buttons(lang: str) -> None:
    draw = Draw(tuple(FIRST_ID + i for i in range(8)), 2, Format.KNOCKOUT)
    draw.next_round()
    payload = signup_payload(tour_of(8, lang, draw=draw))
    view = payload["view"]
    assert isinstance(view, discord.ui.View) and view.children == []
    (embed,) = body_of(payload)["embeds"]
    closes = t("tournaments.signup.body", lang, format="F", host="H", deadline="D")
    assert closes.split("\n")[-1].split("D")[0] not in embed["description"]
    assert t("tournaments.signup.started", lang) in embed["description"]


def sixty_four_drawn(lang: str) -> tuple[Tournament, dict[int, str]]:
    draw = Draw(tuple(FIRST_ID + i for i in range(64)), 2, Format.KNOCKOUT)
    draw.next_round()
    tour = tour_of(64, lang, draw=draw)
    tour.tables = {i: 100_000 + i for i in range(len(draw.matches))}
    links = {
        table: f"https://discord.com/channels/{FIRST_ID}/{FIRST_ID + table}/{FIRST_ID + 7}"
        for table in tour.tables.values()
    }
    return tour, links


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_pairings_of_64_go_out_in_messages_that_fit(lang: str) -> None:
    tour, links = sixty_four_drawn(lang)
    parts = posts.round_parts(tour, links)
    assert len(parts) > 1
    for part in parts:
        pinged = [str(u) for u in part.players]
        assert (
            list(check_message({"content": part.text, "allowed_mentions": {"users": pinged}})) == []
        )
        assert all(f"<@{u}>" in part.text for u in part.players)
    assert sorted(u for p in parts for u in p.players) == sorted(tour.entrant_ids())
    assert sorted(table for p in parts for table in p.tables) == sorted(links)


def test_a_tournament_nobody_won_pings_nobody_for_it() -> None:
    draw = Draw(tuple(FIRST_ID + i for i in range(2)), 2, Format.KNOCKOUT)
    (final,) = draw.next_round()
    draw.decide(final, None, out=final.players)
    tour = tour_of(2, "en", draw=draw)
    tour.status = TournamentStatus.FINISHED
    (part,) = posts.winner_parts(tour)
    assert part.players == ()


class FlakyChannel:
    """A channel whose first sends fail as an outage would."""

    def __init__(self, failures: int, status: int = 503) -> None:
        self.failures = failures
        self.status = status
        self.sent: list[str] = []

    async def send(self, content: str, **_: object) -> SimpleNamespace:
        if self.failures:
            self.failures -= 1
            response = SimpleNamespace(status=self.status, reason="outage")
            raise discord.HTTPException(cast(Any, response), "outage")
        self.sent.append(content)
        return SimpleNamespace(jump_url=f"https://discord.com/channels/1/2/{len(self.sent)}")

    def get_partial_messageable(self, *_: object, **__: object) -> FlakyChannel:
        return self


async def test_a_post_discord_cannot_take_for_now_is_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(announce, "RETRY_DELAYS", (0.0, 0.0, 0.0))
    tour, links = sixty_four_drawn("en")
    channel = FlakyChannel(failures=2)
    parts = posts.round_parts(tour, links)
    bot = cast(discord.Client, channel)
    sent = await announce.send_parts(bot, tour, parts, picture=False)
    assert {table for part, _ in sent for table in part.tables} == set(links)
    assert channel.sent == [part.text for part in parts]
    refused = FlakyChannel(failures=1, status=403)  # refused for good: not tried again
    assert not await announce.send_parts(cast(discord.Client, refused), tour, parts[:1])
    assert refused.sent == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_tournament_hosted_by_a_former_player_names_them_so(lang: str) -> None:
    """A member whose data was erased (``/tute privacy erase``) hosts under an id that is no
    Discord id: the sign-up message calls them a former player, in no mention."""
    tour = tour_of(3, lang)
    tour.host_id = -1
    tour.status = TournamentStatus.CANCELLED
    (embed,) = body_of(signup_payload(tour))["embeds"]
    assert t("privacy.former_player", lang) in embed["description"]
    assert "<@-1>" not in embed["description"]
