"""A server's settings: defaults, changes, validation."""

from pathlib import Path

import pytest

from bot.storage import Database, open_database
from bot.storage.settings import (
    DEFAULT_SETTINGS,
    GuildSettings,
    InvalidSetting,
    get_settings,
    update_settings,
)


async def test_a_server_that_never_chose_gets_the_defaults(db: Database) -> None:
    settings = await get_settings(db, 1)

    assert settings == GuildSettings() == DEFAULT_SETTINGS
    assert (settings.starting_chips, settings.daily_grant, settings.turn_time) == (1000, 100, 60)
    assert (settings.language, settings.hand_delivery) == (None, "dm")
    assert settings.language_or("es") == "es", "no choice: the bot's own default"
    assert (settings.opener_role_id, settings.max_tables) == (None, 10)


async def test_changes_are_kept_per_server_and_survive_a_restart(
    db: Database, db_target: str | Path
) -> None:
    async with db.transaction() as conn:
        changed = await update_settings(conn, 1, starting_chips=500, language="es")
    async with db.transaction() as conn:
        changed = await update_settings(conn, 1, opener_role_id=42, hand_delivery="ephemeral")

    assert changed == GuildSettings(
        starting_chips=500, language="es", opener_role_id=42, hand_delivery="ephemeral"
    )
    assert await get_settings(db, 2) == DEFAULT_SETTINGS
    await db.close()
    reopened = await open_database(db_target)
    try:
        assert await get_settings(reopened, 1) == changed
    finally:
        await reopened.close()


async def test_the_opener_role_can_go_back_to_everyone(db: Database) -> None:
    async with db.transaction() as conn:
        await update_settings(conn, 1, opener_role_id=42)
        settings = await update_settings(conn, 1, opener_role_id=None)

    assert settings.opener_role_id is None


async def test_no_changes_reads_the_settings(db: Database) -> None:
    async with db.transaction() as conn:
        assert await update_settings(conn, 1) == DEFAULT_SETTINGS


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("starting_chips", -1),
        ("starting_chips", 1_000_001),
        ("starting_chips", "500"),
        ("starting_chips", True),
        ("daily_grant", -5),
        ("turn_time", 9),
        ("turn_time", 3601),
        ("language", "fr"),
        ("hand_delivery", "email"),
        ("opener_role_id", 0),
        ("max_tables", 0),
        ("max_tables", 51),
        ("colour", "green"),
    ],
)
async def test_a_bad_value_changes_nothing(db: Database, name: str, value: object) -> None:
    good = {"max_tables": 5} if name != "max_tables" else {"daily_grant": 5}
    with pytest.raises(InvalidSetting) as raised:
        async with db.transaction() as conn:
            await update_settings(conn, 1, **good, **{name: value})

    assert raised.value.name == name
    assert await get_settings(db, 1) == DEFAULT_SETTINGS


async def test_a_server_that_changed_something_else_keeps_the_bots_language(db: Database) -> None:
    """Changing the starting chips writes the server's row: its language stays unchosen, so
    TUTE_LANGUAGE still applies there (it used to be written as "en")."""
    async with db.transaction() as conn:
        changed = await update_settings(conn, 1, starting_chips=500)
    assert changed.language is None and changed.language_or("es") == "es"
    async with db.transaction() as conn:
        chosen = await update_settings(conn, 1, language="en")
    assert chosen.language_or("es") == "en", "a server's own choice wins"
    async with db.transaction() as conn:
        back = await update_settings(conn, 1, language=None)
    assert back.language is None


@pytest.mark.parametrize(
    ("account_days", "member_days", "created_ago", "joined_ago", "ok"),
    [
        (0, 0, None, None, True),  # no minimums: anyone
        (30, 0, 31, None, True),
        (30, 0, 29, 400, False),  # account too young
        (0, 7, 400, 6, False),  # in the server too short a time
        (0, 7, 400, 8, True),
        (30, 7, None, 8, False),  # unknown account age counts as new
    ],
)
def test_old_enough(
    account_days: int,
    member_days: int,
    created_ago: float | None,
    joined_ago: float | None,
    ok: bool,
) -> None:
    from bot.storage.settings import GuildSettings

    now = 1_800_000_000.0
    day = 86_400.0
    settings = GuildSettings(min_account_days=account_days, min_member_days=member_days)
    created = None if created_ago is None else now - created_ago * day
    joined = None if joined_ago is None else now - joined_ago * day
    assert settings.old_enough(created, joined, now) is ok
