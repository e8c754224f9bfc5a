"""The card table says the rounds each side won in words ("Rounds: 1"), not as an
unexplained "★1"."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import LANGUAGES, t

ROOT = Path(__file__).resolve().parents[2]


def test_the_rounds_won_are_said_in_words() -> None:
    pages = sorted((ROOT / "web" / "src").glob("*.ts"))
    for path in (*pages, ROOT / "bot" / "web" / "static" / "table.js"):
        assert "★" not in path.read_text(encoding="utf-8"), path
    for lang in LANGUAGES:
        said = t("web.rounds_short", lang, count=1)
        assert said.endswith(": 1") and said[0].isalpha()
