"""A throwaway PostgreSQL server for the tests, started from the machine's own binaries.

The server lives in a temporary folder (in memory, /dev/shm, where there is room), listens
on a Unix socket there (and nowhere else), runs without fsync (nothing it holds outlives the
tests) and is stopped at the end; the databases a test made are dropped after it. As root
(a container, CI), it runs as the ``postgres`` user, since PostgreSQL refuses to run as root.
Where no PostgreSQL is installed, :func:`find_binaries` says why, and the tests that need
one are skipped with that reason.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg

PORT = 5432
"""The socket's number: its name is ``.s.PGSQL.5432`` in the server's own folder."""


def find_binaries() -> tuple[Path | None, str]:
    """The folder of ``initdb`` and ``pg_ctl``, or None and why not."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.insert(0, Path(on_path).resolve().parent)
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder, ""
    return None, (
        "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH):"
        " apt-get install postgresql, as .ci/run does"
    )


def as_server_user() -> tuple[list[str], int | None]:
    """The command prefix that runs a program as the server's user, and that user's id."""
    if os.geteuid() != 0:
        return [], None
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        return [], None
    return ["runuser", "-u", "postgres", "--"], user.pw_uid


MEMORY = Path("/dev/shm")
"""A folder in memory, where Linux has one."""
MEMORY_NEEDED = 1 << 30
"""The room the server needs there, with plenty to spare: its own files (about 40 MB), the
template and the databases of the test running and the one before it (8 MB each; the
others are dropped, ``drop_made``)."""


def _in_memory() -> str | None:
    """Where to keep the server: in memory where there is room enough (a test's database is
    a copy of the template's files, written there several times faster than to a disk that
    other work is using too), else the temporary folder (None)."""
    try:
        room = shutil.disk_usage(MEMORY).free
    except OSError:
        return None
    return str(MEMORY) if room >= MEMORY_NEEDED and os.access(MEMORY, os.W_OK) else None


@contextlib.contextmanager
def running_server() -> Iterator[str]:
    """Start a server; yields the URL of its ``postgres`` database; stops it afterwards."""
    binaries, why = find_binaries()
    if binaries is None:
        raise RuntimeError(why)
    prefix, uid = as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="tute-pg-", dir=_in_memory()))
    if uid is not None:
        os.chown(folder, uid, -1)
    data = folder / "data"
    run: dict[str, Any] = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
    subprocess.run(
        [*prefix, str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
        **run,
    )
    options = (
        f"-p {PORT} -k {folder} -c listen_addresses='' -c fsync=off"
        " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    pg_ctl = [*prefix, str(binaries / "pg_ctl"), "-D", str(data)]
    subprocess.run(
        [*pg_ctl, "-o", options, "-l", str(folder / "log"), "-w", "start"],
        **run,
    )
    try:
        yield f"postgresql://postgres@/postgres?host={folder}&port={PORT}"
    finally:
        dropped_before()
        subprocess.run([*pg_ctl, "-m", "immediate", "-w", "stop"], check=False, capture_output=True)
        # the server's files (and any database a drop left): removed behind the run,
        # whose end need not wait for it
        if shutil.which("sh") is None:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            subprocess.run(
                ["sh", "-c", 'rm -rf -- "$1" >/dev/null 2>&1 &', "sh", str(folder)],
                check=False,
                start_new_session=True,
            )


def database_url(server: str, name: str) -> str:
    """The URL of database ``name`` on the server whose ``postgres`` database is ``server``."""
    return server.replace("/postgres?", f"/{name}?", 1)


_numbers = itertools.count(1)

_migrated: dict[str, str] = {}
"""Per server: the name of its database migrated to the latest version, made once, which
:func:`fresh_postgres` copies (opening a database migrates it: 13 migrations from empty
took about as long as creating the database itself)."""


_made: dict[str, list[str]] = {}
"""Per server: the databases made for the test running, which :func:`drop_made` drops."""

_dropper = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="tute-pg-drop")
_dropping: concurrent.futures.Future[None] | None = None


def drop_made() -> None:
    """Drop the databases made since the last call (the test's own, once it is over), so
    that a run keeps only those of the test running: the server may live in memory. The
    server drops them while the next test runs (on a loop and a thread of their own: the
    test's loop is gone by now); a drop waits for the one before it."""
    global _dropping
    dropped_before()
    if _made:
        made = list(_made.items())
        _made.clear()
        _dropping = _dropper.submit(asyncio.run, _drop(made))


def dropped_before() -> None:
    """Wait for the databases being dropped."""
    global _dropping
    if _dropping is not None:
        _dropping.result()
        _dropping = None


async def _drop(made: list[tuple[str, list[str]]]) -> None:
    for server, names in made:
        with contextlib.suppress(OSError, asyncpg.PostgresError):  # left: it only takes room
            admin = await asyncpg.connect(server)
            try:
                force = " WITH (FORCE)" if admin.get_server_version().major >= 13 else ""
                for name in names:
                    await admin.execute(f"DROP DATABASE IF EXISTS {name}{force}")
            finally:
                await admin.close()


async def fresh_postgres(server: str, *, migrated: bool = False) -> str:
    """The URL of a new database on the server: empty, or with ``migrated`` a copy of one
    migrated to the latest version (what opening an empty one would make of it; the tests of
    the migrations themselves, and of processes migrating at once, start from empty)."""
    template = await _migrated_template(server) if migrated else None
    name = f"tute_{os.getpid()}_{next(_numbers)}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        copy = f" TEMPLATE {template}" if template else ""
        if template and admin.get_server_version().major >= 15:
            # the files copied as they are, not written into the log page by page (the
            # default since 15): quicker for a database this small
            copy += " STRATEGY FILE_COPY"
        await admin.execute(f"CREATE DATABASE {name}{copy}")
    finally:
        await admin.close()
    _made.setdefault(server, []).append(name)
    return database_url(server, name)


async def _migrated_template(server: str) -> str:
    if server not in _migrated:
        from bot.storage import open_database

        url = await fresh_postgres(server)
        name = _made[server].pop()  # kept for the whole run
        db = await open_database(url)
        await db.close()  # a template is copied only while nobody is connected to it
        _migrated[server] = name
    return _migrated[server]
