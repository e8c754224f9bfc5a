"""The bot as several processes on one PostgreSQL database, each running some of its shards.

A server's tables (and tournaments) belong to the process holding the server's shard,
``(guild_id >> 22) % shard_count`` as Discord deals servers to shards: their clocks and
robots run only there. A process holds its shards by a lease in the database
(:mod:`bot.storage.leases`), renewed every ``RENEW_EVERY`` seconds; it starts its tables only
once it holds every lease, so a process that takes the shards of one that died waits for
that lease to run out (``LEASE_TTL``), then restores the tables from the database as after
a restart: every action a member was answered for is in the log.

Direct messages reach shard 0 only, so a click on a hand in a DM may reach a process that
does not hold the table. That process forwards it to the holder (:meth:`Cluster.forward`)
over LISTEN/NOTIFY: the holder plays it as if clicked there, redraws what changed (the DM
hand too) and answers; the click is answered with that answer, or with "try again" when
none comes within ``FORWARD_TIMEOUT`` (Discord gives 3 seconds). A click on a hand's Hint
button goes the same way (:meth:`Cluster.forward_hint`): the holder thinks of the hint,
counts it in its table and answers with it, redrawing nothing; the clicking process words
it for the member, or says "try again" after ``HINT_TIMEOUT``.

The web table's sockets reach whichever process Discord's Activity URL mapping (one
address) sends them to. Each process keeps its own address for the others (``peer_url``)
beside its leases, and one that gets a socket for a server it does not hold relays it to the
holder (:meth:`Cluster.peer_of` says where; :mod:`bot.web.relay` pipes it).

One process with every shard on SQLite (the default) needs none of this: no lease, no bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bot.storage import Database, leases
from bot.storage import tables as repo
from bot.storage.bus import Bus

from ..errors import SaveFailed, TableError
from ..hints import Hint
from ..service import TableService
from ..views import Outcome

log = logging.getLogger(__name__)

LEASE_TTL = 30.0
"""Seconds a lease holds without being renewed: how long the shards of a process that died
wait before another takes them."""

RENEW_EVERY = 10.0
"""Seconds between two renewals of a process's leases (a third of their life)."""

CLAIM_RETRY = 5.0
"""Seconds between two tries at shards another process still holds."""

FORWARD_TIMEOUT = 2.5
"""Seconds a forwarded click waits for the holder's answer, inside Discord's 3."""

HINT_TIMEOUT = 10.0
"""Seconds a forwarded hint waits for the holder's answer: the click was deferred first (then
Discord waits 15 minutes), and the hard robot thinks up to about a second of a core, longer
on a busy holder, before the hint is counted and saved there."""

CARD = "card"
"""A forwarded click's kind: a card or declaration of a hand, played by the holder."""
HINT = "hint"
"""A forwarded click's kind: a hand's Hint button, thought of and counted by the holder."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord puts a server on."""
    return (guild_id >> 22) % shard_count


def process_name() -> str:
    """A name for this process that no other process, here or elsewhere, has had."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True, slots=True)
class Click:
    """A member's click on a hand's button, as forwarded. Of ``kind`` CARD: ``code`` is the
    button's action code (:mod:`bot.tables.codes`), ``deal_no`` and ``trick_no`` what it was
    drawn for. Of ``kind`` HINT (the Hint button): only the table and the member count."""

    table_id: int
    user_id: int
    code: str = ""
    deal_no: int = 0
    trick_no: int = 0
    kind: str = CARD

    @staticmethod
    def of(request: dict[str, Any]) -> Click:
        """The click a forwarded request carries (one from an older process has no kind:
        a card)."""
        return Click(
            int(request["table_id"]),
            int(request["user_id"]),
            str(request["code"]),
            int(request["deal_no"]),
            int(request["trick_no"]),
            str(request.get("kind", CARD)),
        )


class Cluster:
    """This process's place among the bot's processes."""

    def __init__(
        self,
        db: Database,
        *,
        shard_count: int = 1,
        shards: Iterable[int] | None = None,
        bus: Bus | None = None,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        name: str | None = None,
        forward_timeout: float = FORWARD_TIMEOUT,
        hint_timeout: float = HINT_TIMEOUT,
        lease_ttl: float = LEASE_TTL,
        peer_url: str | None = None,
    ) -> None:
        self.db = db
        self.shard_count = shard_count
        self.shards = frozenset(range(shard_count) if shards is None else shards)
        self.bus = bus
        self.clock = clock
        self.sleep = sleep
        self.name = name or process_name()
        self.forward_timeout = forward_timeout
        self.hint_timeout = hint_timeout
        """How long a forwarded hint waits for the holder's answer (``HINT_TIMEOUT``)."""
        self.lease_ttl = lease_ttl
        """How long a lease holds unrenewed; renewed every third of it."""
        self.peer_url = peer_url
        """Where the other processes reach this one's web table (``http://host:port``),
        kept with its leases; None: it has no web table."""
        self.service: TableService | None = None
        self.on_lost: Callable[[], Awaitable[None]] | None = None
        """Called when another process has taken this one's shards (its leases ran out
        unrenewed): this process must stop running their tables at once. The bot stops
        (its supervisor starts it again, to wait for its shards)."""
        self._inbox = f"tute_reply_{uuid.uuid4().hex}"
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._renewing: asyncio.Task[None] | None = None
        self._serving: set[asyncio.Task[None]] = set()
        self._held = False

    @property
    def held(self) -> bool:
        """Whether this process holds its shards now: from its start (once no other
        process holds them any more) until it stops or another process takes them."""
        return self._held

    @property
    def whole(self) -> bool:
        """Whether this process runs every shard (then nothing is ever forwarded)."""
        return self.shards == frozenset(range(self.shard_count))

    @property
    def leased(self) -> bool:
        """Whether this process holds its shards by leases: always on PostgreSQL, where
        another process may share the database."""
        return self.db.dialect == "postgres"

    def holds(self, table_id: int, tables: TableService) -> bool:
        """Whether a click on this table is played here: it is in memory, or no other
        process could have it."""
        return self.whole or table_id in tables.tables

    def owns(self, guild_id: int) -> bool:
        """Whether the server's tables run in this process."""
        return shard_of(guild_id, self.shard_count) in self.shards

    async def peer_of(self, guild_id: int) -> str | None:
        """The address of the process holding the server's shard, for a web table's socket
        of that server that reached this process. None when no other process holds it now
        with an address: its lease ran out (the process died, and its shards are not taken
        over yet), or it runs no web table."""
        held = await leases.peer_of(self.db, shard_of(guild_id, self.shard_count), now=self.clock())
        if held is None or held[0] == self.name:
            return None
        return held[1]

    async def server_in(self, channel_id: int) -> int | None:
        """The server a table playing in a DM channel is filed under: a member's practice
        or daily deal in their DMs belongs to no server or to its own, not to the channel
        (None: no table plays there)."""
        return await repo.open_channel_guild(self.db, channel_id)

    # ---------------------------------------------------------------- start and stop

    async def start(self, service: TableService) -> None:
        """Hold this process's shards (waiting for any another process still holds), listen
        for forwarded clicks, and only then let ``service`` restore its tables."""
        self.service = service
        service.owns = self.owns
        if self.leased:
            await self._claim_all()
            self._renewing = asyncio.create_task(self._renew(), name="shard-leases")
        self._held = True
        if self.bus is not None:
            await self.bus.start()
            await self.bus.listen(self._inbox, self._on_reply)
            for shard in sorted(self.shards):
                await self.bus.listen(_shard_channel(shard), self._on_request)

    async def _claim(self) -> set[int]:
        """Take or renew this process's leases; the shards it holds now."""
        now = self.clock()
        return await leases.claim(
            self.db,
            self.name,
            self.shards,
            now=now,
            until=now + self.lease_ttl,
            peer_url=self.peer_url,
        )

    async def _claim_all(self) -> None:
        while True:
            try:
                held = await self._claim()
            except Exception:
                log.exception("Could not claim shards %s: trying again", sorted(self.shards))
                await self.sleep(self._claim_retry)
                continue
            missing = sorted(self.shards - held)
            if not missing:
                log.info("Holding shards %s of %d", sorted(self.shards), self.shard_count)
                return
            log.info("Shards %s are held by another process: waiting for them", missing)
            await self.sleep(self._claim_retry)

    async def _renew(self) -> None:
        while True:
            await self.sleep(self.lease_ttl * RENEW_EVERY / LEASE_TTL)
            try:
                held = await self._claim()
            except Exception:
                # the lease holds LEASE_TTL: the next renewal may still be in time
                log.exception("Could not renew the leases of shards %s", sorted(self.shards))
                continue
            if held != self.shards:
                self._held = False
                log.error(
                    "Shards %s were taken by another process: stopping, so that no table is"
                    " played by two processes",
                    sorted(self.shards - held),
                )
                if self.on_lost is not None:
                    await self.on_lost()
                return

    async def stop(self) -> None:
        """Let the shards go at once (a clean stop: whoever takes them need not wait)."""
        self._held = False
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
            self._renewing = None
        for task in list(self._serving):
            task.cancel()
        if self.leased:
            try:
                await leases.release(self.db, self.name)
            except Exception:
                log.exception("Could not release the shard leases (they run out by themselves)")
        if self.bus is not None:
            await self.bus.close()

    @property
    def _claim_retry(self) -> float:
        return self.lease_ttl * CLAIM_RETRY / LEASE_TTL

    # ---------------------------------------------------------------- forwarding

    async def forward(self, click: Click) -> dict[str, Any]:
        """Have the process holding the click's table answer it: play a card (returns once
        that process has saved it) or think of a hint. Returns that process's answer (the
        hint under ``"hint"``); raises its refusal as a :class:`TableError`, ``gone`` when no
        table is open there, and :class:`SaveFailed` (try again) when no answer comes in
        time (``hint_timeout`` for a hint, ``forward_timeout`` for a card)."""
        guild_id = await repo.open_table_guild(self.db, click.table_id)
        if guild_id is None or self.owns(guild_id) or self.bus is None:
            # here, it would be in memory: it ended, or never was
            raise TableError("gone")
        request_id = uuid.uuid4().hex
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = answer
        request = {"id": request_id, "reply": self._inbox, **dataclasses.asdict(click)}
        try:
            await self.bus.send(
                _shard_channel(shard_of(guild_id, self.shard_count)), json.dumps(request)
            )
            timeout = self.hint_timeout if click.kind == HINT else self.forward_timeout
            reply = await asyncio.wait_for(answer, timeout)
        except TimeoutError:
            log.warning(
                "No answer to a %s click forwarded for table %s", click.kind, click.table_id
            )
            raise SaveFailed from None
        finally:
            self._waiting.pop(request_id, None)
        if "error" in reply:
            raise TableError(str(reply["error"]), **reply.get("params", {}))
        return reply

    async def forward_hint(self, table_id: int, user_id: int) -> Hint:
        """The hint the process holding the table thinks of for this member, counted there
        (refusals and "try again" as for :meth:`forward`)."""
        reply = await self.forward(Click(table_id, user_id, kind=HINT))
        return Hint.from_json(reply["hint"])

    def _on_reply(self, payload: str) -> None:
        reply = json.loads(payload)
        answer = self._waiting.get(str(reply.get("id")))
        if answer is not None and not answer.done():
            answer.set_result(reply)

    def _on_request(self, payload: str) -> None:
        task = asyncio.get_running_loop().create_task(self._serve(json.loads(payload)))
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)

    async def _serve(self, request: dict[str, Any]) -> None:
        """Answer a forwarded click as if clicked here: the answer goes back first (as a
        click's answer), then the service publishes what a card changed (the clicker's DM
        hand included: the process that got the click only acknowledged it)."""
        service, bus = self.service, self.bus
        assert service is not None and bus is not None
        click = Click.of(request)

        async def send(answer: dict[str, Any]) -> None:
            try:
                reply = json.dumps({"id": request["id"], **answer}, default=str)
                await bus.send(str(request["reply"]), reply)
            except Exception:
                log.exception("Could not answer a forwarded click on table %s", click.table_id)

        async def answered(_outcome: Outcome) -> None:
            await send({})

        try:
            if click.kind == HINT:
                hint = await service.hint(click.table_id, click.user_id)
                await send({"hint": hint.to_json()})
                return
            await service.click(
                click.table_id,
                click.user_id,
                click.code,
                deal_no=click.deal_no,
                trick_no=click.trick_no,
                reply=answered,
            )
        except TableError as refused:
            await send({"error": refused.key, "params": refused.params})
        except Exception:
            log.exception("A forwarded %s click on table %s failed", click.kind, click.table_id)
            await send({"error": "save_failed"})


def _shard_channel(shard: int) -> str:
    return f"tute_shard_{shard}"
