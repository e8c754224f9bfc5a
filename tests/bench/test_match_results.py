"""A long duplicate match is played over several runs: the deals kept in a results file
count without being played again."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from benchmarks.robots import Match, Tally, play_all, run_deal
from bot.engine import Options, Variant


def _match(b: str = "normal") -> Match:
    return Match(Variant.PAIRS, Options(), "easy", b, 0.01, 0.01, 1)


def _quiet(tally: Tally, done: int, spent: float) -> str:
    return f"{done} deals"


def _totals(tally: Tally) -> dict[str, object]:
    row = dataclasses.asdict(tally)
    row.pop("times")  # seconds: the only part that differs between runs
    return row


def test_a_match_goes_on_from_its_results_file(tmp_path: Path) -> None:
    results = tmp_path / "pairs.jsonl"
    match = _match()
    first = play_all([(match, 1), (match, 2)], run_deal, 1, _quiet, results)
    assert first.boards == 2
    assert len(results.read_text().splitlines()) == 2

    whole = play_all([(match, s) for s in (1, 2, 3)], run_deal, 1, _quiet, results)
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["deal"] for r in rows) == [1, 2, 3]  # deal 3 alone was played
    fresh = play_all([(match, s) for s in (1, 2, 3)], run_deal, 1, _quiet)
    assert _totals(whole) == _totals(fresh)


def test_another_match_and_a_cut_line_are_not_counted(tmp_path: Path) -> None:
    results = tmp_path / "mixed.jsonl"
    play_all([(_match("easy"), 1)], run_deal, 1, _quiet, results)
    with results.open("a") as f:
        f.write('{"match": "cut sho')
    tally = play_all([(_match(), 1)], run_deal, 1, _quiet, results)
    assert tally.boards == 1
    lines = results.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[-1])["deal"] == 1  # on a line of its own
