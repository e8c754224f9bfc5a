"""A new SQLite file for a test, already migrated to the latest version: a copy of one file
migrated once per test run. Migrating from empty took about 10 ms a test (hundreds of tests
open a database of their own), a copy about 1 ms; the copy is what opening an empty file
would make of it, so the tests of the migrations themselves still start from empty."""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import shutil
import tempfile
from pathlib import Path

from bot.storage import Database, open_database

_template: Path | None = None


async def _new_template() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="tute-migrated-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    template = folder / "tute.db"
    await (await open_database(template)).close()  # closed: its journal is in the file
    return template


async def copy_migrated(path: Path) -> None:
    """Put at ``path`` (its folder made) a SQLite file migrated to the latest version."""
    global _template
    if _template is None:
        _template = await _new_template()
    await asyncio.to_thread(_copy, _template, path)


def copy_migrated_now(path: Path) -> None:
    """``copy_migrated`` for a synchronous fixture: the template is made (once) on a loop
    and a thread of its own, leaving the test's loop alone."""
    global _template
    if _template is None:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            _template = pool.submit(asyncio.run, _new_template()).result()
    _copy(_template, path)


def _copy(source: Path, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, path)


async def open_migrated(path: Path) -> Database:
    """``open_database(path)``, quicker where there is no file yet: it starts as a copy of
    the migrated one."""
    if not await asyncio.to_thread(path.exists):
        await copy_migrated(path)
    return await open_database(path)
