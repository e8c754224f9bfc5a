-- Version 11: each process's address for the others (see ../0011_lease_peer_url.sql).
ALTER TABLE shard_leases ADD COLUMN peer_url TEXT;
