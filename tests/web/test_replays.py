"""The web table's replays: a member's finished deals in their Activity's server (from DMs,
their own of any server), and one deal stepped through as the Discord replay steps it; a
deal of another server, another's deal from DMs, one not over, and a page without a good
session are refused."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.engine import Variant
from bot.engine.referee import judge
from bot.i18n import t
from bot.storage import Database
from bot.tables.replay import steps_of
from bot.tables.review import review_record
from bot.web import Session, sign
from bot.web.app import HUB, make_app
from bot.words.reviews import review_words
from tests.tables.test_replay import GUILD, finished_record, store_deal
from tests.web.conftest import quick_hub

SECRET = b"k" * 32
ANA = 11


def _bearer(guild: int | None = GUILD, user: int = ANA) -> dict[str, str]:
    session = Session(
        user_id=user, name="Ana", instance_id="i-1", channel_id=3, guild_id=guild, expires=2e9
    )
    return {"Authorization": "Bearer " + sign(session, SECRET)}


@pytest.fixture
async def client(db: Database) -> AsyncIterator[TestClient[Any, Any]]:
    app = make_app(hub=quick_hub(db), secret=SECRET, clock=lambda: 1e9, auth=None)
    test_client = TestClient(TestServer(app))
    await test_client.start_server()
    yield test_client
    await test_client.close()


async def test_a_members_deals_are_listed_and_one_steps_as_the_referee_reads_it(
    client: TestClient[Any, Any], db: Database
) -> None:
    record = finished_record(Variant.ARRASTRADO)
    table_id = await store_deal(db, record, finished=True)
    listed = await client.get("/api/replays", headers=_bearer())
    assert listed.status == 200
    (deal,) = (await listed.json())["deals"]
    assert (deal["table_id"], deal["deal_no"], deal["variant"]) == (table_id, 0, "arrastrado")
    assert (await (await client.get("/api/replays", headers=_bearer(user=99))).json()) == {
        "deals": []
    }

    answer = await client.get(f"/api/replays/{table_id}/0", headers=_bearer())
    assert answer.status == 200
    replay = await answer.json()
    expected = judge(json.loads(json.dumps(record)))
    steps = replay["steps"]
    assert len(steps) == len(steps_of(record))
    tricks = [s["trick"] for s in steps if s["trick"] is not None]
    assert [[code for _, code in t["cards"]] for t in tricks] == [
        t["cards"] for t in expected["tricks"]
    ]
    assert [t["winner"] for t in tricks] == [t["winner"] for t in expected["tricks"]]
    assert steps[-1]["result"] == expected["result"]
    assert steps[0]["hands"][0] and replay["seats"][0]["name"] == "Ana"
    assert replay["seats"][1] == {"user_id": None, "name": None, "robot": 1}


async def test_from_dms_a_member_lists_and_steps_their_own_deals_of_any_server(
    client: TestClient[Any, Any], db: Database
) -> None:
    table_id = await store_deal(db, finished_record(Variant.PAIRS), finished=True)
    listed = await client.get("/api/replays", headers=_bearer(None))
    assert listed.status == 200
    assert [(d["table_id"], d["deal_no"]) for d in (await listed.json())["deals"]] == [
        (table_id, 0)
    ]
    assert (await client.get(f"/api/replays/{table_id}/0", headers=_bearer(None))).status == 200
    others = await client.get("/api/replays", headers=_bearer(None, user=99))
    assert (await others.json()) == {"deals": []}


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_another_servers_or_an_unfinished_deal_is_refused_in_words(
    client: TestClient[Any, Any], db: Database, lang: str
) -> None:
    record = finished_record(Variant.HABANERO)
    done = await store_deal(db, record, finished=True)
    playing = await store_deal(db, record, finished=False)
    cases = [
        (f"/api/replays/{done}/0", _bearer(GUILD + 1), 403, "replay_elsewhere", {}),
        (f"/api/replays/{playing}/0", _bearer(), 403, "replay_unfinished", {"id": playing}),
        (f"/api/replays/{done}/4", _bearer(), 404, "replay_none", {"id": done, "deal": 5}),
        (f"/api/replays/{done}/0", _bearer(None, user=99), 403, "replay_elsewhere", {}),
    ]
    for path, headers, status, key, params in cases:
        answer = await client.get(f"{path}?lang={lang}", headers=headers)
        assert answer.status == status, path
        said = await answer.json()
        assert said["error"] == key
        assert said["text"] == t(f"tables.errors.{key}", lang, **{"deal": 1, **params})


async def test_nothing_is_replayed_without_a_good_session(client: TestClient[Any, Any]) -> None:
    good = _bearer()["Authorization"]
    forged = good[:-2] + ("AA" if not good.endswith("AA") else "BB")
    expired = Session(
        user_id=ANA, name="Ana", instance_id="i", channel_id=3, guild_id=GUILD, expires=1.0
    )
    stale = "Bearer " + sign(expired, SECRET)
    for header in ({}, {"Authorization": forged}, {"Authorization": stale}):
        answer = await client.get("/api/replays", headers=header)
        assert answer.status == 401


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_member_reviews_their_own_deal_in_the_page_and_it_is_kept(
    client: TestClient[Any, Any], db: Database, lang: str
) -> None:
    record = finished_record(Variant.HABANERO)
    table_id = await store_deal(db, record, finished=True)  # Ana in seat 0
    service = client.app[HUB].service
    service.reviews.worlds = 2
    path = f"/api/replays/{table_id}/0/review?lang={lang}"
    answer = await client.get(path, headers=_bearer())
    assert answer.status == 200
    review = await answer.json()
    expected = review_record(json.dumps(record), 0, table_id, 0, worlds=2)
    words = review_words(expected, lang, plain=True)
    assert review["summary"] == list(words.summary) and review["how"] == words.how
    assert [i["step"] for i in review["items"]] == [d.step for d in expected.costliest()]
    assert [i["text"] for i in review["items"]] == [i.text for i in words.items]
    assert review["items"] and "**" not in "".join(i["text"] for i in review["items"])
    assert review["accuracy"] == round(expected.accuracy, 1)
    # a second look is the review kept
    again = await client.get(path, headers=_bearer())
    assert await again.json() == review and service.reviews.computed == 1
    # another member of the server did not play it; a deal in play has none; no session
    refused = await client.get(path, headers=_bearer(user=99))
    assert refused.status == 403
    assert (await refused.json())["text"] == t("tables.errors.review_not_played", lang)
    playing = await store_deal(db, record, finished=False)
    unfinished = await client.get(f"/api/replays/{playing}/0/review", headers=_bearer())
    assert unfinished.status == 403 and (await unfinished.json())["error"] == "replay_unfinished"
    assert (await client.get(path)).status == 401
