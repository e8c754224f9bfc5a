"""``tute-referee``: read one game record on standard input, judge it, print JSON."""

from __future__ import annotations

import json
import sys
from typing import Any

from .cards import CODES
from .deal import Deal
from .record import RecordError, parse_record, replay


def judge(data: Any) -> dict[str, Any]:
    """The referee's answer for a parsed JSON record (raises RecordError when invalid)."""
    result = replay(parse_record(data))
    deal = result.deal
    return {
        "valid_until": result.applied,
        "error": None if result.error is None else str(result.error),
        "legal": legal_json(deal),
        "tricks": [
            {"leader": t.leader, "cards": [CODES[c] for c in t.cards], "winner": t.winner}
            for t in deal.tricks
        ],
        "finished": deal.finished,
        "result": None if deal.result is None else deal.result.to_json(),
    }


def legal_json(deal: Deal) -> list[dict[str, Any]]:
    """Every legal action, sorted by seat, kind, then strength (REFEREE.md)."""
    actions = sorted(deal.legal_actions(), key=lambda a: a.sort_key)
    return [a.to_json() for a in actions]


def main(argv: list[str] | None = None) -> int:
    del argv
    try:
        data = json.loads(sys.stdin.read())
    except json.JSONDecodeError as exc:
        print(f"tute-referee: the input is not JSON: {exc}", file=sys.stderr)
        return 2
    try:
        answer = judge(data)
    except RecordError as exc:
        print(f"tute-referee: not a valid record: {exc}", file=sys.stderr)
        return 2
    json.dump(answer, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
