"""Write the golden referee cases under tests/engine/golden/ (run deliberately, then review
the diff): ``python -m tests.engine.make_golden``."""

from __future__ import annotations

import json
from pathlib import Path

from bot.engine import Action, Deal, Kind, record_of
from bot.engine.referee import judge

from .test_properties import OPTION_SETS, play_random_game

GOLDEN = Path(__file__).parent / "golden"


def _with_illegal(r: Deal) -> dict[str, object]:
    """The record cut at the first trick where the seat on turn had a choice it could get
    wrong, with a wrong card appended."""
    record = record_of(r)
    replayed = Deal(r.dealt)
    for i, action in enumerate(r.actions):
        if action.kind is Kind.PLAY and replayed.trick and action.seat == replayed.turn:
            legal = {a.arg for a in replayed.legal_actions() if a.kind is Kind.PLAY}
            wrong = [c for c in replayed.hand(action.seat) if c not in legal]
            if wrong:
                record["actions"] = [
                    *record["actions"][:i],
                    Action.play(action.seat, wrong[0]).to_json(),
                ]
                return record
        replayed.apply(action)
    return record


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for old in GOLDEN.glob("*.json"):
        old.unlink()
    for index, (variant, options) in enumerate(OPTION_SETS):
        for seed in range(3):
            r = play_random_game(variant, options, 1000 * index + seed, carry=seed == 1)
            name = f"{index:02d}_{variant.value}_{seed}"
            cases = {name: record_of(r)}
            if seed == 0:
                cases[name + "_illegal"] = _with_illegal(r)
            if seed == 2:
                partial = record_of(r)
                partial["actions"] = partial["actions"][: len(partial["actions"]) // 2]
                cases[name + "_midway"] = partial
            for case, record in cases.items():
                answer = judge(json.loads(json.dumps(record)))
                (GOLDEN / f"{case}.json").write_text(
                    json.dumps({"record": record, "expected": answer}, indent=1) + "\n"
                )


if __name__ == "__main__":
    main()
