"""The README's privacy policy says what the code does: the retention after the bot leaves a
server is the configuration's default."""

import re
from pathlib import Path

from bot.config import Config

README = Path(__file__).resolve().parent.parent / "README.md"


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_the_policy_states_the_retention_the_bot_keeps_by_default() -> None:
    policy = _section("Privacy policy")
    (days,) = re.findall(r"erased \*\*(\d+) days\*\* later", policy)
    assert int(days) == Config(token="x").retention_days
    assert "TUTE_RETENTION_DAYS" in policy


def test_the_terms_link_to_the_policy() -> None:
    assert "(#privacy-policy)" in _section("Terms of service")
