-- Version 9: the bot as several processes on one database. Each process holds a lease on
-- the shards it runs (a server's tables belong to the process holding its shard) and renews
-- it every few seconds; a lease that has run out (its process died) is taken by the
-- process started with that shard, which then takes over the shard's tables.
CREATE TABLE shard_leases (
    shard       INTEGER PRIMARY KEY CHECK (shard >= 0),
    owner       TEXT    NOT NULL,   -- the process: host, process id and start time
    expires_at  REAL    NOT NULL
);
