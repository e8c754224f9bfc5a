"""What the ledger's copy (migration 8, the tournaments' account) costs an existing server:
a file at version 7 with ``--rows`` ledger rows (grants and three-row stake movements, as
the version-7 bot wrote them) is migrated to the latest version, on a real SQLite file in a
temporary folder. Printed: the rows, the time the migration took, and the file's size.

Run: ``python benchmarks/migrations.py [--rows 1000000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import ledger, open_database

MEMBERS = 500


async def measure(rows: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tute.sqlite3"
        db = await open_database(path, migrate=False)
        await db.migrate(target=7)
        movements = (rows - MEMBERS) // 3
        async with db.transaction() as conn:
            await conn.executemany(
                "INSERT INTO members (guild_id, user_id) VALUES (1, ?)",
                [(u,) for u in range(MEMBERS)],
            )
            await conn.executemany(
                "INSERT INTO ledger (guild_id, account, user_id, table_id, kind, amount,"
                " created_at, movement) VALUES (1, 'member', ?, NULL, 'start', 1000, 0, ?)",
                [(u, u + 1) for u in range(MEMBERS)],
            )
            stakes = []
            for n in range(movements):
                movement = MEMBERS + 1 + n
                a, b = n % MEMBERS, (n * 7 + 1) % MEMBERS
                stakes += [
                    ("member", a, n, "transfer", -1, movement),
                    ("member", b, n, "transfer", 1, movement),
                    ("table", None, n, "mark", 0, movement),
                ]
            await conn.executemany(
                "INSERT INTO ledger (guild_id, account, user_id, table_id, kind, amount,"
                " created_at, movement) VALUES (1, ?, ?, ?, ?, ?, 0, ?)",
                stakes,
            )
        total = MEMBERS + 3 * movements
        started = time.perf_counter()
        await db.migrate()
        took = time.perf_counter() - started
        assert (await ledger.audit(db, 1)).balanced
        await db.close()
        size = path.stat().st_size
    print(f"{total:,} ledger rows migrated to version 8 in {took:.2f} s (file {size / 1e6:.0f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    asyncio.run(measure(args.rows))


if __name__ == "__main__":
    main()
