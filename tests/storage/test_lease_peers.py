"""Where each process of the bot is reached, kept beside its shard leases (migration 11), on
both engines: the live holder of a shard and its address, none once the lease runs out or
is given back, and the address renewed with the lease."""

from bot.storage import Database, leases


async def test_the_holder_of_a_shard_and_its_address(db: Database) -> None:
    assert await leases.peer_of(db, 1, now=100.0) is None
    held = await leases.claim(
        db, "b", [1, 2], now=100.0, until=130.0, peer_url="http://10.0.0.2:8080"
    )
    assert held == {1, 2}
    await leases.claim(db, "a", [0], now=100.0, until=130.0)
    assert await leases.peer_of(db, 1, now=110.0) == ("b", "http://10.0.0.2:8080")
    assert await leases.peer_of(db, 0, now=110.0) == ("a", None)  # no web table there


async def test_a_lease_run_out_or_given_back_has_no_holder(db: Database) -> None:
    await leases.claim(db, "b", [1], now=100.0, until=130.0, peer_url="http://b:1")
    assert await leases.peer_of(db, 1, now=130.0) is None  # it ran out: "b" died
    # another process takes the shard over, with its own address
    assert await leases.claim(db, "c", [1], now=131.0, until=161.0, peer_url="http://c:1") == {1}
    assert await leases.peer_of(db, 1, now=140.0) == ("c", "http://c:1")
    # "b" cannot take it back while it holds
    assert await leases.claim(db, "b", [1], now=141.0, until=171.0, peer_url="http://b:1") == set()
    assert await leases.peer_of(db, 1, now=142.0) == ("c", "http://c:1")
    await leases.release(db, "c")
    assert await leases.peer_of(db, 1, now=143.0) is None


async def test_a_renewal_keeps_the_address_up_to_date(db: Database) -> None:
    await leases.claim(db, "b", [1], now=100.0, until=130.0, peer_url="http://old:1")
    await leases.claim(db, "b", [1], now=110.0, until=140.0, peer_url="http://new:1")
    assert await leases.peer_of(db, 1, now=135.0) == ("b", "http://new:1")
    assert await leases.holders(db) == {1: ("b", 140.0)}
