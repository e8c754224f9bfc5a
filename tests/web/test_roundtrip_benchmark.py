"""The web table's round-trip benchmark runs: a few cards at a few tables, its figures
printed (what they say depends on the machine, and is not checked)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.e2e
@pytest.mark.parametrize("where", [[], ["--relayed"]], ids=["direct", "relayed"])
def test_the_benchmark_plays_and_prints_its_figures(where: list[str]) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "web_roundtrip.py"),
            "--tables=2",
            "--moves=3",
            "--idle=5",
            "--pace=0",
            *where,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    out = done.stdout
    assert "card round trip to every socket of its table: 6 cards · p50 " in out
    assert " · p99 " in out and " · max " in out
    assert "memory per open idle socket (5 spectators' sockets" in out
    assert "tables that stopped early" not in out
