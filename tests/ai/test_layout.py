"""bot/ai imports only the engine and the standard library, and robots may think in
threads at the same time."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bot.ai import Level
from bot.engine import Game, Options, Variant

from .helpers import play_game

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import sys
before = set(sys.modules)
import bot.ai, bot.ai.heuristic, bot.ai.knowledge, bot.ai.robot, bot.ai.search, bot.ai.solver
loaded = set(sys.modules) - before
allowed = set(sys.stdlib_module_names)
print(" ".join(sorted(
    name for name in loaded
    if name.split(".")[0] not in allowed
    and name not in ("bot", "bot.ai", "bot.engine")
    and not name.startswith(("bot.ai.", "bot.engine."))
)))
"""


def test_robots_import_only_the_engine_and_the_standard_library() -> None:
    result = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_robots_play_in_several_threads_at_once() -> None:
    """No shared mutable state: games in threads end like the same games played alone."""
    cases = [(Variant.PAIRS, seed) for seed in range(3)] + [(Variant.HABANERO, 5)]
    levels = {Variant.PAIRS: [Level.NORMAL, Level.EASY] * 2, Variant.HABANERO: [Level.NORMAL] * 2}

    def run(case: tuple[Variant, int]) -> list[object]:
        variant, seed = case
        game = play_game(variant, Options(), levels[variant], seed)
        return [r.to_json() for r in game.results]

    alone = [run(case) for case in cases]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(run, cases))
    assert together == alone

    def hard_game(seed: int) -> Game:
        return play_game(Variant.PAIRS, Options(), [Level.HARD] * 4, seed)

    with ThreadPoolExecutor(max_workers=2) as pool:
        games = list(pool.map(hard_game, [1, 2]))
    assert all(g.finished for g in games)
