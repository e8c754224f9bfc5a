"""A server's export, for its admins (``/tute config``'s Export): every member's standing as a
CSV sheet, and the server's finished deals with their game records as JSON, the records
``/tute history`` attaches.

The records are those the one audience rule lets the admin asking step through
(:func:`bot.tables.audience.check_replay`): a game played with spectators off stays its
players', and a daily deal is kept while it is still secret, as on every other door.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula: a
name that starts so (any member chooses theirs) is written after a ``'``, which shows it
as text."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from bot.storage import exports
from bot.storage._sql import Source
from bot.storage.exports import Standing
from bot.storage.tables import load_table

from .audience import check_replay
from .errors import TableError
from .persistence import table_of
from .ratings import Family, Rating

FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""How a cell a spreadsheet would run as a formula starts (OWASP's list)."""

COLUMNS: Final = ("member_id", "name", "chips", "xp", "games", "wins")
"""The standings' columns before the ratings, by their catalog names."""
FAMILIES: Final = tuple(Family)


def header_keys() -> list[tuple[str, Family | None]]:
    """The columns in order, as (what, family): the standings' own, then for each family of
    variants its rating and its rated games."""
    keys: list[tuple[str, Family | None]] = [(column, None) for column in COLUMNS]
    for family in FAMILIES:
        keys += [("rating", family), ("rated_games", family)]
    return keys


def text_cell(text: str) -> str:
    """A text as a spreadsheet shows it and never runs it."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def standings_rows(standings: Sequence[Standing], names: Mapping[int, str]) -> list[list[str]]:
    """One row a member, as :func:`header_keys` orders the columns: their name as Discord
    shows it now (empty where it could not be found)."""
    rows: list[list[str]] = []
    for member in standings:
        row = [
            str(member.user_id),
            text_cell(names.get(member.user_id, "")),
            str(member.chips),
            str(member.xp),
            str(member.games_played),
            str(member.games_won),
        ]
        for family in FAMILIES:
            stored = member.ratings.get(family.value)
            if stored is None:
                row += ["", "0"]
            else:
                row += [str(Rating(stored.mu, stored.sigma).shown), str(stored.games)]
        rows.append(row)
    return rows


def csv_text(header: Sequence[str], rows: Sequence[Sequence[str]]) -> bytes:
    """The sheet as CSV (UTF-8 with the mark spreadsheets read it by, fields quoted where
    they hold a comma, a quote or a line break)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([text_cell(cell) for cell in header])
    writer.writerows(rows)
    return out.getvalue().encode("utf-8-sig")


@dataclass(frozen=True, slots=True)
class ServerExport:
    standings: list[Standing]
    records: list[dict[str, object]]
    """Each finished deal the admin may see: its table, number (0 the first), variant, end
    (UTC), the members seated (seat -> user id; a seat not listed held a robot) and its game
    record."""
    kept: int
    """Finished deals left out: their players' own (spectators off), or a daily deal still
    secret."""

    def records_json(self) -> bytes:
        return json.dumps(self.records, indent=1, ensure_ascii=False).encode()


async def server_export(source: Source, guild_id: int, *, user_id: int, now: float) -> ServerExport:
    """The server's standings and the records of its finished deals that member ``user_id``
    may step through."""
    standings = await exports.standings(source, guild_id)
    records: list[dict[str, object]] = []
    spectators: dict[int, bool] = {}
    kept = 0
    for finished in await exports.finished_deals(source, guild_id):
        deal = finished.deal
        if deal.table_id not in spectators:
            row = await load_table(source, deal.table_id)
            spectators[deal.table_id] = row is None or table_of(row).options.spectators
        try:
            await check_replay(
                source,
                deal,
                spectators[deal.table_id],
                user_id=user_id,
                place=guild_id,
                now=now,
            )
        except TableError:
            kept += 1
            continue
        records.append(
            {
                "table_id": deal.table_id,
                "deal_no": deal.deal_no,
                "variant": finished.variant,
                "finished_at": datetime.fromtimestamp(finished.finished_at, UTC).isoformat(),
                "members": {str(seat): str(user) for seat, user in sorted(deal.members.items())},
                "record": json.loads(deal.record),
            }
        )
    return ServerExport(standings, records, kept)
