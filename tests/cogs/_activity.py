"""Discord's LAUNCH_ACTIVITY answer (interaction callback type 12) for SimCord, which does not
know it (it refuses the callback as an unknown type): the sandbox's own
(:func:`bot.sandbox.launch.answer_launches`), the way Discord documents it, undone at the end
of the test. Each launch is recorded, with the interaction's channel and user, for the test
to read."""

from __future__ import annotations

import pytest
import simcord

from bot.sandbox.launch import LAUNCH_ACTIVITY as LAUNCH_ACTIVITY
from bot.sandbox.launch import Launch
from bot.sandbox.launch import answer_launches as sandbox_launches


def answer_launches(monkeypatch: pytest.MonkeyPatch) -> list[Launch]:
    """From now on SimCord takes type-12 callbacks; the list fills with each launch."""
    launched: list[Launch] = []
    router = simcord.http.router
    before = router.dispatch
    undo = sandbox_launches(launched, instances="i-")
    taking = router.dispatch
    undo()
    monkeypatch.setattr(router, "dispatch", taking)  # put back at the end of the test
    assert router.dispatch is not before
    return launched
