"""Everything a server keeps, in SQLite: the one aiosqlite connection, numbered SQL
migrations applied at start-up, and repository functions. No SQL lives anywhere else."""

from aiosqlite import Connection

from .db import Database, Statement, open_database

__all__ = ["Connection", "Database", "Statement", "open_database"]
