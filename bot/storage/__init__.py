"""Everything a server keeps, in SQLite: the one aiosqlite connection, numbered SQL
migrations applied at start-up, and repository functions (``tables``: the tables and their
action log; ``ledger``: the chips; ``members``: the members' records; ``settings``). No SQL
lives anywhere else."""

from aiosqlite import Connection

from .db import Database, Statement, open_database

__all__ = ["Connection", "Database", "Statement", "open_database"]
