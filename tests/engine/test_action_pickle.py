"""An action crosses to a robot's worker process as three numbers and comes back as the one
shared instance of that action."""

from __future__ import annotations

import pickle

from bot.engine import Action


def test_every_action_unpickles_as_its_shared_instance() -> None:
    actions = list(Action._table.values())  # pyright: ignore[reportPrivateUsage]
    assert len(actions) > 40 * 4
    for action in actions:
        data = pickle.dumps(action)
        assert pickle.loads(data) is action
        assert len(data) < 64, "three numbers, not the whole object"
