"""The guard on Discord's limit of refused requests: 10,000 answered 401, 403 or 429 in ten
minutes ban the IP, for every process behind it. Well before that, the bot stops what it
may leave undone (the redraws of tables whose channel refuses it, the turn pings) and says
so loudly; once the last ten minutes are back under the limit, it takes them up again."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Final

log = logging.getLogger(__name__)

REFUSED_WINDOW: Final = 600.0
"""Seconds over which Discord counts refused requests."""
REFUSED_LIMIT: Final = 2_000
"""Refused requests in the window past which optional work stops (TUTE_REFUSED_LIMIT): a
fifth of Discord's 10,000, which leaves room for the bot's other processes on one IP."""
DISCORD_BAN: Final = 10_000
REFUSED_STATUSES: Final = frozenset({401, 403, 429})
"""What Discord counts as refused."""


class RefusalGuard:
    """The refused requests of the last :data:`REFUSED_WINDOW` seconds, counted by the
    second on ``clock`` (so that the count stays a few hundred numbers however many come),
    and whether optional work may go on."""

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        limit: int = REFUSED_LIMIT,
        window: float = REFUSED_WINDOW,
    ) -> None:
        self.clock = clock
        self.limit = limit
        self.window = window
        self._seconds: deque[list[int]] = deque()
        """[second, refused in it], oldest first."""
        self._recent = 0
        self._over = False

    def refused(self, status: int) -> None:
        """A request Discord answered ``status``: counted when it is a refusal."""
        if status not in REFUSED_STATUSES:
            return
        second = int(self.clock())
        if self._seconds and self._seconds[-1][0] == second:
            self._seconds[-1][1] += 1
        else:
            self._seconds.append([second, 1])
        self._recent += 1
        self._check()

    def recent(self) -> int:
        """Refused requests in the last window."""
        self._check()
        return self._recent

    @property
    def optional(self) -> bool:
        """Whether what the bot may leave undone goes on: False while the last window holds
        :attr:`limit` refused requests or more."""
        self._check()
        return not self._over

    def _check(self) -> None:
        oldest = self.clock() - self.window
        while self._seconds and self._seconds[0][0] + 1 <= oldest:
            self._recent -= self._seconds.popleft()[1]
        over = self._recent >= self.limit
        if over == self._over:
            return
        self._over = over
        if over:
            log.error(
                "Discord refused %d requests in the last %d minutes (it bans the IP of every"
                " process at %d): redraws of channels that refuse the bot and turn pings stop"
                " until the count falls under %d",
                self._recent,
                round(self.window / 60),
                DISCORD_BAN,
                self.limit,
            )
        else:
            log.warning(
                "Refused requests are back under %d in the last %d minutes (%d): redraws and"
                " turn pings go on",
                self.limit,
                round(self.window / 60),
                self._recent,
            )
