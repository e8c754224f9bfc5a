"""The markers tell the truth: every test that runs the real bot in SimCord is marked ``e2e``,
so ``pytest -m "not e2e"`` (the fast loop) leaves out every whole-system test."""

import pytest

SIMCORD_FIXTURES = {"simcord_env"}
"""A test whose fixtures include one of these (directly or through ``world``, ``server``, ...)
starts the real bot in SimCord."""


def test_every_simcord_test_is_marked_e2e(request: pytest.FixtureRequest) -> None:
    # The items of this run, after -m/-k deselection: under -m "not e2e" a SimCord test
    # left unmarked is still here, and is named.
    unmarked = [
        item.nodeid
        for item in request.session.items
        if SIMCORD_FIXTURES & set(getattr(item, "fixturenames", ()))
        and item.get_closest_marker("e2e") is None
    ]
    assert unmarked == [], (
        "these tests run SimCord but are not marked e2e (add `pytestmark = pytest.mark.e2e` "
        "to the module, or @pytest.mark.e2e to the test):\n  " + "\n  ".join(unmarked)
    )
