"""What a server's export reads (``/tute config``'s Export): every member's standing with
their chips and ratings, and the server's finished deals with their game records."""

from __future__ import annotations

from dataclasses import dataclass, field

from ._sql import Source, fetchall
from .ratings import StoredRating
from .replays import StoredDeal


@dataclass(frozen=True, slots=True)
class Standing:
    """A member's standing in the server: chips, experience, games and rounds, ratings by
    family of variants (those rated in)."""

    user_id: int
    chips: int
    xp: int
    games_played: int
    games_won: int
    rounds_played: int
    rounds_won: int
    ratings: dict[str, StoredRating] = field(default_factory=dict)


async def standings(source: Source, guild_id: int) -> list[Standing]:
    """Every member the server has seen, by chips (most first), then by id."""
    rows = await fetchall(
        source,
        "SELECT m.user_id, COALESCE(c.chips, 0), m.xp, m.games_played, m.games_won,"
        " m.rounds_played, m.rounds_won FROM members m"
        " LEFT JOIN (SELECT user_id, SUM(amount) AS chips FROM ledger"
        " WHERE guild_id = ? AND account = 'member' GROUP BY user_id) c"
        " ON c.user_id = m.user_id"
        " WHERE m.guild_id = ? ORDER BY 2 DESC, m.user_id",
        (guild_id, guild_id),
    )
    rated = await fetchall(
        source,
        "SELECT user_id, family, mu, sigma, games FROM ratings WHERE guild_id = ?",
        (guild_id,),
    )
    ratings: dict[int, dict[str, StoredRating]] = {}
    for user, family, mu, sigma, games in rated:
        ratings.setdefault(int(user), {})[str(family)] = StoredRating(
            float(mu), float(sigma), int(games)
        )
    return [
        Standing(
            int(user),
            int(chips),
            int(xp),
            int(played),
            int(won),
            int(rounds_played),
            int(rounds_won),
            ratings.get(int(user), {}),
        )
        for user, chips, xp, played, won, rounds_played, rounds_won in rows
    ]


@dataclass(frozen=True, slots=True)
class FinishedDeal:
    """A finished deal of the server as stored, with its table's variant and when it ended."""

    deal: StoredDeal
    variant: str
    finished_at: float


async def finished_deals(source: Source, guild_id: int) -> list[FinishedDeal]:
    """Every deal of the server played to its end, oldest first."""
    rows = await fetchall(
        source,
        "SELECT d.table_id, d.deal_no, d.record, d.finished_at, t.variant FROM deals d"
        " JOIN tables t ON t.id = d.table_id"
        " WHERE d.guild_id = ? AND d.finished_at IS NOT NULL"
        " ORDER BY d.finished_at, d.table_id, d.deal_no",
        (guild_id,),
    )
    seated = await fetchall(
        source,
        "SELECT p.table_id, p.deal_no, p.seat, p.user_id FROM deal_players p"
        " JOIN deals d ON d.table_id = p.table_id AND d.deal_no = p.deal_no"
        " WHERE d.guild_id = ? AND d.finished_at IS NOT NULL",
        (guild_id,),
    )
    members: dict[tuple[int, int], dict[int, int]] = {}
    for table, deal_no, seat, user in seated:
        members.setdefault((int(table), int(deal_no)), {})[int(seat)] = int(user)
    return [
        FinishedDeal(
            StoredDeal(
                int(table),
                int(deal_no),
                guild_id,
                str(record),
                True,
                members.get((int(table), int(deal_no)), {}),
            ),
            str(variant),
            float(finished_at),
        )
        for table, deal_no, record, finished_at, variant in rows
    ]
