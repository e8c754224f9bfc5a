-- Version 11: where each process of the bot can be reached by the others (its web table's
-- address, TUTE_WEB_PEER_URL), kept beside its leases: a socket of the web table that
-- reaches a process without its table is relayed to the process holding the table's shard.
-- NULL: a process without a web table, or from before.
ALTER TABLE shard_leases ADD COLUMN peer_url TEXT;
