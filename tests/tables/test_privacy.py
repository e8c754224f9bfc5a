"""The erase confirmation (``bot.tables.privacy``): good for its member alone, for five
minutes, from the process that made it; anything else is refused in words and erases
nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Database, members
from bot.tables.errors import TableError
from bot.tables.privacy import CONFIRM_SECONDS, Privacy
from tests.migrated import open_migrated

from ._play import Clock

ALICE, BOB = 501, 502
GUILD = 1


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    opened = await open_migrated(tmp_path / "tute.db")
    async with opened.transaction() as conn:
        for user in (ALICE, BOB):
            await members.ensure_member(conn, GUILD, user, 1000, 0.0)
    yield opened
    await opened.close()


def refusal(privacy: Privacy, user_id: int, token: str) -> str | None:
    try:
        privacy.check(user_id, token)
    except TableError as refused:
        return refused.key
    return None


async def test_a_confirmation_is_its_members_for_five_minutes(db: Database) -> None:
    clock = Clock()
    privacy = Privacy(db, clock)
    token = await privacy.ask(ALICE)
    assert token is not None
    assert refusal(privacy, ALICE, token) is None
    assert refusal(privacy, BOB, token) == "privacy_forged"  # another member's
    assert refusal(Privacy(db, clock), ALICE, token) == "privacy_forged"  # after a restart
    for forged in ("", "nonsense", f"{int(clock()) + 60}.0123456789abcdef", token + "0"):
        assert refusal(privacy, ALICE, forged) == "privacy_forged", forged
    clock.now += CONFIRM_SECONDS
    assert refusal(privacy, ALICE, token) is None
    clock.now += 1
    assert refusal(privacy, ALICE, token) == "privacy_expired"


async def test_a_refused_confirmation_erases_nothing(db: Database) -> None:
    clock = Clock()
    privacy = Privacy(db, clock)
    token = await privacy.ask(ALICE)
    assert token is not None
    clock.now += CONFIRM_SECONDS + 1
    with pytest.raises(TableError) as late:
        await privacy.erase(ALICE, token, lambda lang: "a former player")
    assert late.value.key == "privacy_expired"
    with pytest.raises(TableError) as forged:
        await privacy.erase(BOB, privacy.confirmation(ALICE), lambda lang: "a former player")
    assert forged.value.key == "privacy_forged"
    assert await members.member_stats(db, GUILD, ALICE) is not None
    assert await members.member_stats(db, GUILD, BOB) is not None
    erased = await privacy.erase(ALICE, privacy.confirmation(ALICE), lambda lang: "a former player")
    assert erased.standings == 1 and await members.member_stats(db, GUILD, ALICE) is None
    assert await privacy.ask(ALICE) is None, "nothing left to erase"
