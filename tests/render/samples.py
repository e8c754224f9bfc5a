"""Example scenes, for previews, tests and the benchmark.

``python -m tests.render.samples DIR`` writes every sample picture as a PNG into ``DIR``.
The captions here stand in for what the caller's message catalog provides.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.render.scenes import (
    SeatInfo,
    SideSummary,
    SummaryLabels,
    SummaryScene,
    TableScene,
)
from bot.render.symbols import ALL_CARDS

SAMPLE_SUMMARY_LABELS = SummaryLabels(
    card_points="Puntos de cartas", cantes="Cantes", last_ten="Diez de últimas", total="Total"
)


def table_four() -> TableScene:
    """Four players in pairs, three cards in the trick, the fourth player to play."""
    return TableScene(
        seats=(
            SeatInfo("Ana", team=0),
            SeatInfo("Paco", is_robot=True, team=1),
            SeatInfo("José María", team=0),
            SeatInfo("Lucía", team=1, is_turn=True),
        ),
        trump_suit="C",
        trick=((0, "12O"), (1, "1O"), (2, "3O")),
        turned="7C",
        viewer_seat=0,
    )


def table_two() -> TableScene:
    """Habanero: two players, the stock with the turned card under it."""
    return TableScene(
        seats=(
            SeatInfo("Ana", is_turn=True),
            SeatInfo("Paco", is_robot=True),
        ),
        trump_suit="E",
        trick=((1, "11E"),),
        turned="7E",
        stock_left=17,
        viewer_seat=0,
    )


def table_three() -> TableScene:
    """Arrastrado: three players, a complete trick whose winner is highlighted."""
    return TableScene(
        seats=(
            SeatInfo("Ana"),
            SeatInfo("Paco", is_robot=True),
            SeatInfo("Lucía", note="da"),
        ),
        trump_suit="B",
        trick=((1, "3C"), (2, "12C"), (0, "2B")),
        turned="4B",
        viewer_seat=None,
        trick_winner=0,
    )


def summary_pairs() -> SummaryScene:
    """The end of a round of pairs."""
    first = ("1O", "3O", "12O", "11O", "7O", "1C", "3C", "10C", "6C", "12E", "11E", "2E")
    first += ("1B", "3B", "12B", "10B", "5B", "4B", "7B", "2B")
    second = tuple(card for card in ALL_CARDS if card not in first)
    return SummaryScene(
        sides=(
            SideSummary("Ana & José María", first, (("C", 40), ("O", 20)), 78, True, 148, True, 0),
            SideSummary("Paco & Lucía", second, (), 42, False, 42, False, 1),
        ),
        title_lines=("Ana & José María ganan la ronda", "Partida: 1 - 0"),
        trump_suit="C",
        labels=SAMPLE_SUMMARY_LABELS,
    )


def summary_two() -> SummaryScene:
    """The end of a deal of two players (habanero), with cantes, the one in trumps 40."""
    first = ("1O", "3O", "12O", "10O", "5O", "4O", "1C", "11C", "10C", "6C", "5C", "1E")
    first += ("3E", "11E", "7E", "4E", "12B", "7B", "3B", "2B")
    second = tuple(card for card in ALL_CARDS if card not in first)
    return SummaryScene(
        sides=(
            SideSummary("Ana", first, (("E", 40),), 81, False, 121, True),
            SideSummary("Robot 1", second, (("O", 20), ("C", 20)), 39, True, 89),
        ),
        title_lines=("Mano 3 de la mesa n.º 12",),
        trump_suit="E",
        labels=SAMPLE_SUMMARY_LABELS,
    )


def summary_three() -> SummaryScene:
    """The end of a deal of arrastrado for three players, each on their own."""
    first = ("1O", "3O", "12O", "10O", "5O", "6C", "1E", "3E", "11E", "7E", "4E", "12B", "2B")
    second = ("11O", "7O", "6O", "4O", "2O", "1C", "11C", "10C", "5C", "6E", "2E", "7B", "3B")
    third = tuple(card for card in ALL_CARDS if card not in first + second)
    return SummaryScene(
        sides=(
            SideSummary("Ana", first, (), 55, False, 55),
            SideSummary("Paco", second, (("B", 40),), 29, False, 69, True),
            SideSummary("Lucía", third, (("O", 20),), 36, True, 66),
        ),
        title_lines=("Mano 5 de la mesa n.º 3",),
        trump_suit="B",
        labels=SAMPLE_SUMMARY_LABELS,
    )


def main(argv: list[str]) -> int:
    from bot.render import render_summary, render_table

    out = Path(argv[0] if argv else ".")
    out.mkdir(parents=True, exist_ok=True)
    pictures = {
        "table_four.png": render_table(table_four()),
        "table_two.png": render_table(table_two()),
        "table_three.png": render_table(table_three()),
        "summary_pairs.png": render_summary(summary_pairs()),
        "summary_two.png": render_summary(summary_two()),
        "summary_three.png": render_summary(summary_three()),
    }
    for name, data in pictures.items():
        (out / name).write_bytes(data)
        print(f"{out / name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
