"""The bot as several processes on one PostgreSQL database: which process runs which shards
(leases), and a DM click (a card, a hint) forwarded to the process holding its table. It
stands on the table service and nothing stands on it but the bot's start-up and the Discord
side.

``processes``: the leases, the takeover of a dead process's shards, forwarding."""

from .processes import (
    CARD,
    CLAIM_RETRY,
    FORWARD_TIMEOUT,
    HINT,
    HINT_TIMEOUT,
    LEASE_TTL,
    RENEW_EVERY,
    Click,
    Cluster,
    process_name,
    shard_of,
)

__all__ = [
    "CARD",
    "CLAIM_RETRY",
    "FORWARD_TIMEOUT",
    "HINT",
    "HINT_TIMEOUT",
    "LEASE_TTL",
    "RENEW_EVERY",
    "Click",
    "Cluster",
    "process_name",
    "shard_of",
]
