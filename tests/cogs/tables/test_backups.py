"""A backup taken while a game plays (``tute-bot backup``) is a database a fresh bot plays
that game on from, to its end: restoring it is stopping the bot and starting it on the copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
import simcord

from bot.__main__ import main
from bot.config import Config
from bot.storage import ledger
from bot.tables.model import Status
from tests.cogs.tables import _faults
from tests.cogs.tables._game import SEED, db_of, new_game
from tests.conftest import World
from tests.tables._play import tables_of

quick_games = _faults.quick_games


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_backup_taken_mid_game_plays_on_to_the_end_in_a_fresh_bot(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    test_config: Config,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = simcord_env
    monkeypatch.chdir(tmp_path)
    for name in ("TUTE_DB_PATH", "TUTE_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    table_seed(SEED)  # two deals
    game = await new_game(env, world)
    await game.start()
    await game.play_until(lambda: len(game.deal.actions) >= 10)
    before = game.table
    table_id, deal_no, played = before.id, before.deal_no, list(game.deal.actions)

    # the bot runs on, its database open: the backup is taken meanwhile, and checked
    backup = tmp_path / "backups" / "tute.db"
    argv = ["backup", str(backup), "--from", str(test_config.db_path)]
    assert await asyncio.to_thread(main, argv) == 0
    assert await asyncio.to_thread(main, ["check", str(backup)]) == 0
    assert "Done: no problem found." in capsys.readouterr().out

    # restored: the bot stops, and starts again on a copy of the backup
    restored = tmp_path / "restored" / "tute.db"
    restored.parent.mkdir()
    shutil.copyfile(backup, restored)
    await game.restart(dataclasses.replace(test_config, db_path=restored))

    assert table_id in tables_of(game.service), "the game came back from the backup"
    table = game.table
    assert table is not before and table.status is Status.PLAYING
    assert (table.id, table.deal_no) == (table_id, deal_no)
    assert list(game.deal.actions) == played, "at the very card it was backed up at"
    await game.play()
    await game.check_end()
    audit = await ledger.audit(db_of(env), table.guild_id)
    assert audit.balanced, audit
    assert await asyncio.to_thread(main, ["check", str(restored)]) == 0, "its end balances"
    assert status_in(restored, table_id) == "finished", "the fresh bot played on the copy"
    assert status_in(test_config.db_path, table_id) == "playing", "not on the old file"


def status_in(path: Path, table_id: int) -> str:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        (status,) = conn.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
    return str(status)
