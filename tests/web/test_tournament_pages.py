"""A page of the card table waiting in a channel follows the first table shown there, however
it opened: one a tournament opens is published as it opens, like any other, so the page
that waits in the tournament's channel follows it from its lobby on (not only once a member
clicks at it)."""

from __future__ import annotations

from typing import Any

from bot.engine import Options, Variant
from bot.storage import Database
from bot.tables.competition.tournament import Format
from bot.tables.competition.tournaments import TournamentService
from tests.tables.test_service import Clock
from tests.web.conftest import quick_hub

GUILD, CHANNEL, HOST = 1, 2, 10
ANA, LUIS = 100, 101


class Waiting:
    """A page in a channel with no table yet (``bot.web.sockets.Waiting``)."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.place = GUILD
        self.language = "en"
        self.channel_id = CHANNEL
        self.followed: list[int] = []
        self.sent: list[dict[str, Any]] = []

    def follow(self, table_id: int) -> None:
        self.followed.append(table_id)

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


async def test_a_table_a_tournament_opens_reaches_the_page_waiting_in_its_channel(
    db: Database,
) -> None:
    hub = quick_hub(db)
    tables = hub.service
    clock = Clock()
    tournaments = TournamentService(db, tables, clock)
    ana, elsewhere = Waiting(ANA), Waiting(LUIS)
    elsewhere.channel_id = CHANNEL + 1
    hub.wait(ana)
    hub.wait(elsewhere)
    t = await tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        variant=Variant.HABANERO,
        options=Options(turn_time=3600),
        format=Format.KNOCKOUT,
        deadline=clock() + 600,
        swiss_rounds=3,
        max_entrants=8,
        entry=0,
    )
    for user in (ANA, LUIS):
        await tournaments.sign_up(t.id, user, f"user{user}")
    await tournaments.start(t.id, clock(), by=HOST)

    (table,) = [x for x in tables.tables.values() if x.tournament_id == t.id]
    assert ana.followed == [table.id], "the page follows the tournament's table"
    states = [m for m in ana.sent if m["type"] == "state"]
    assert states[0]["table"]["status"] == "lobby", "from its first show: the lobby"
    assert states[-1]["table"]["status"] == "playing"
    assert states[-1]["hand"] is not None, "Ana sits at it: her own hand"
    assert hub.peers(table.id) == {ana}
    assert elsewhere.followed == [] and elsewhere.sent == [], "another channel's page waits on"
