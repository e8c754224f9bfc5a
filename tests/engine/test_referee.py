"""``tute-referee`` as a subprocess: golden records, exit codes, invalid records."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine.referee import judge

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def referee(stdin: str) -> subprocess.CompletedProcess[str]:
    command = shutil.which("tute-referee")
    argv = [command] if command else [sys.executable, "-m", "bot.engine.referee"]
    return subprocess.run(
        argv, input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


def test_there_are_golden_records_of_every_variant() -> None:
    names = " ".join(p.name for p in GOLDEN)
    for variant in ("habanero", "arrastrado", "individual", "pairs"):
        assert variant in names
    assert "illegal" in names and "midway" in names


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_in_process(path: Path) -> None:
    case = json.loads(path.read_text())
    assert judge(case["record"]) == case["expected"]


@pytest.mark.parametrize("path", GOLDEN[::6], ids=[p.stem for p in GOLDEN[::6]])
def test_golden_record_through_the_command(path: Path) -> None:
    case = json.loads(path.read_text())
    done = referee(json.dumps(case["record"]))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == case["expected"]


def _habanero() -> dict[str, Any]:
    case = json.loads(next(p for p in GOLDEN if "habanero_0" in p.name).read_text())
    return case["record"]


def test_illegal_action_still_exits_zero() -> None:
    record = _habanero()
    leader = (record["dealer"] + 1) % 2
    other_card = record["hands"][1 - leader][0]
    record["actions"] = [{"seat": leader, "play": other_card}]
    done = referee(json.dumps(record))
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert answer["valid_until"] == 0
    assert answer["error"] == f"seat {leader} does not hold {other_card}"
    assert {a["seat"] for a in answer["legal"]} == {leader}
    assert len(answer["legal"]) == 8 and answer["tricks"] == [] and answer["finished"] is False


def _mutations() -> list[tuple[str, Any]]:
    return [
        ("not json", "{"),
        ("unknown option", {"options": {"speed": 3}}),
        ("bad option value", {"options": {"stock_duty": "half"}}),
        ("deck 36 in habanero", {"options": {"deck": 36}}),
        ("unknown variant", {"variant": "mus"}),
        ("a card twice", "twice"),
        ("a bad card code", "badcard"),
        ("an action of no kind", {"actions": [{"seat": 1, "dance": True}]}),
        ("a seat out of range", {"dealer": 5}),
        ("short hand", "short"),
    ]


@pytest.mark.parametrize(("name", "change"), _mutations(), ids=[m[0] for m in _mutations()])
def test_invalid_records_exit_two_with_one_line(name: str, change: Any) -> None:
    record = _habanero()
    if change == "{":
        text = "{"
    else:
        if change == "twice":
            record["hands"][0][0] = record["hands"][1][0]
        elif change == "badcard":
            record["hands"][0][0] = "9O"
        elif change == "short":
            record["hands"][0] = record["hands"][0][:-1]
        else:
            record.update(change)
        text = json.dumps(record)
    done = referee(text)
    assert done.returncode == 2, name
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
