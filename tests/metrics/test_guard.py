"""The guard on Discord's limit of refused requests (10,000 in ten minutes ban the IP): it
counts 401, 403 and 429 over the last ten minutes of its clock, holds optional work past its
limit, says so once when it crosses and once when it is back under."""

from __future__ import annotations

import logging

import pytest

from bot.metrics import REFUSED_LIMIT, RefusalGuard


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def test_the_default_limit_is_well_under_the_ban() -> None:
    assert REFUSED_LIMIT <= 10_000 // 4


def test_only_refusals_count_and_only_for_ten_minutes() -> None:
    clock = Clock()
    guard = RefusalGuard(clock, limit=5)
    for status in (200, 204, 400, 404, 500, 401, 403, 429):
        guard.refused(status)
    assert guard.recent() == 3
    clock.now += 300
    guard.refused(403)
    assert guard.recent() == 4
    clock.now += 301
    assert guard.recent() == 1, "the first three are over ten minutes old"
    clock.now += 300
    assert guard.recent() == 0


def test_optional_work_stops_at_the_limit_and_goes_on_after_the_window(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    guard = RefusalGuard(clock, limit=3)
    with caplog.at_level(logging.WARNING, logger="bot.metrics.guard"):
        guard.refused(403)
        guard.refused(429)
        assert guard.optional
        guard.refused(401)
        assert not guard.optional
        for _ in range(10):
            guard.refused(403)
            assert not guard.optional
        crossed = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(crossed) == 1, "said once, loudly"
        assert "10000" in crossed[0].getMessage()

        clock.now += 599
        assert not guard.optional
        clock.now += 2
        assert guard.optional
        assert guard.optional
    back = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(back) == 1 and "back under" in back[0].getMessage()


def test_the_count_stays_small_however_many_come() -> None:
    clock = Clock()
    guard = RefusalGuard(clock, limit=REFUSED_LIMIT)
    for _ in range(1_200):
        clock.now += 1
        for _refusal in range(20):
            guard.refused(429)
    # counted by the second: a refusal stays until its whole second is ten minutes old
    assert 600 * 20 <= guard.recent() <= 601 * 20
    assert len(guard._seconds) <= 601  # pyright: ignore[reportPrivateUsage]
