"""Whether Discord still has a session's Activity instance and still lists its player,
asked when a socket opens with a session (a page that reconnects), so a session signed at
login does not outlive the Activity it was signed for.

Discord's clear word decides: an instance it no longer has (``no such instance``), or one
that no longer lists the player (``not in the instance``), refuses the socket, and the page
logs in again (which Discord then refuses too). A Discord that does not answer (down, slow,
rate limited: :class:`DiscordCallError`) decides nothing: the signed session stands, as
Discord proved it at login, until it runs out, so an outage of Discord's API never locks
the players of a running game out of it.

Every answer (either way, and no answer too) is kept for ``ttl`` seconds of the injected
clock, and the lookups of one instance at the same time share one call: a page that
reconnects in a loop, or all the pages of an instance coming back after a restart, cost at
most one call to Discord per instance in that time (refused calls count against a limit
per IP). A login vouches for its player in its instance for as long: it has just asked.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol, TypeVar

from .activity import DiscordCallError, Instance
from .sessions import Session, WebAuthError

log = logging.getLogger(__name__)

CHECK_TTL: Final = 60.0
"""Seconds an answer about an instance is kept."""
MAX_KEPT: Final = 4096
"""The most answers (and vouched players) kept; past it the oldest are forgotten."""
K = TypeVar("K")
V = TypeVar("V")

NOT_IN_INSTANCE: Final = "not in the instance"


class InstanceSource(Protocol):
    """Who says where an instance runs and who is in it (Discord, or the sandbox)."""

    async def instance(self, instance_id: str) -> Instance: ...


@dataclass(frozen=True, slots=True)
class _Answer:
    instance: Instance | None
    """Discord's word; None when it refused (``refusal``) or did not answer."""
    refusal: str | None
    until: float


class InstanceCheck:
    """Asks ``source`` about the instances of the sessions that open sockets, and keeps
    its answers for ``ttl`` seconds of ``clock``."""

    def __init__(
        self, source: InstanceSource, clock: Callable[[], float], *, ttl: float = CHECK_TTL
    ) -> None:
        self._source = source
        self._clock = clock
        self._ttl = ttl
        self._answers: dict[str, _Answer] = {}
        self._asking: dict[str, asyncio.Task[_Answer]] = {}
        self._vouched: dict[tuple[str, int], float] = {}

    def vouch(self, session: Session) -> None:
        """A login has just found the session's player in its instance."""
        _keep(self._vouched, (session.instance_id, session.user_id), self._clock() + self._ttl)

    async def refusal(self, session: Session) -> str | None:
        """Why the session may no longer play, in a word; None when it may."""
        now = self._clock()
        if self._vouched.get((session.instance_id, session.user_id), now) > now:
            return None
        answer = self._answers.get(session.instance_id)
        if answer is None or answer.until <= now:
            answer = await self._ask(session.instance_id)
        if answer.refusal is not None:
            return answer.refusal
        instance = answer.instance
        if instance is None:
            return None  # no word from Discord: the signed session stands
        if session.user_id not in instance.users:
            return NOT_IN_INSTANCE
        return None

    async def _ask(self, instance_id: str) -> _Answer:
        """One call for every socket that asks about the instance meanwhile (a socket
        that goes away while it waits does not cancel it for the others)."""
        task = self._asking.get(instance_id)
        if task is None:
            task = asyncio.create_task(self._lookup(instance_id))
            self._asking[instance_id] = task
            task.add_done_callback(lambda _: self._asking.pop(instance_id, None))
        return await asyncio.shield(task)

    async def _lookup(self, instance_id: str) -> _Answer:
        instance: Instance | None = None
        refusal: str | None = None
        try:
            instance = await self._source.instance(instance_id)
        except WebAuthError as error:
            refusal = error.reason
        except DiscordCallError as error:
            log.warning("Could not ask Discord about an Activity instance: %s", error)
        except Exception:
            log.exception("Could not ask about an Activity instance")
        answer = _Answer(instance, refusal, self._clock() + self._ttl)
        _keep(self._answers, instance_id, answer)
        return answer


def _keep(kept: dict[K, V], key: K, value: V) -> None:
    """``kept[key] = value``, forgetting the oldest entries past :data:`MAX_KEPT`."""
    kept.pop(key, None)
    kept[key] = value
    while len(kept) > MAX_KEPT:
        del kept[next(iter(kept))]
