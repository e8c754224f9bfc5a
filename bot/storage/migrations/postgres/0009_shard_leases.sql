-- Version 9: the bot as several processes on one database (see ../0009_shard_leases.sql).
CREATE TABLE shard_leases (
    shard       BIGINT           PRIMARY KEY CHECK (shard >= 0),
    owner       TEXT             NOT NULL,
    expires_at  DOUBLE PRECISION NOT NULL
);
