"""Whether the database answers: the readiness check's one question (``/readyz``)."""

from .base import Database


async def ping(db: Database) -> None:
    """Ask the database the least it can answer; raises whatever keeps it from answering
    (closed, unreachable, locked up)."""
    row = await db.fetchone("SELECT 1")
    if row is None:
        raise RuntimeError("the database answered SELECT 1 with nothing")
