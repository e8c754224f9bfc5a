"""``tute-referee``: read one game record on standard input, judge it, print JSON.
``tute-referee verify RECORD``: deal the record's cards again from its shuffle and say
"fair" or what differs."""

from __future__ import annotations

import json
import sys
from typing import Any

from .cards import CODES
from .deal import Deal
from .fairness import records_of, verify_record
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


def verify(path: str) -> int:
    """``tute-referee verify PATH`` (``-``: standard input): check every deal the file
    holds; "fair" and exit 0 when each is, else each deal's differences and exit 1 (2: not
    a record)."""
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
        data = json.loads(text)
    except OSError as exc:
        print(f"tute-referee: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as exc:
        print(f"tute-referee: the input is not JSON: {exc}", file=sys.stderr)
        return 2
    records = records_of(data)
    fair = True
    for number, record in enumerate(records, 1):
        where = f"deal {number}: " if len(records) > 1 else ""
        try:
            verdict = verify_record(record)
        except RecordError as exc:
            print(f"tute-referee: {where}not a valid record: {exc}", file=sys.stderr)
            return 2
        if verdict.unverifiable is not None:
            fair = False
            print(where + verdict.unverifiable)
        for difference in verdict.differences:
            fair = False
            print(where + difference)
    if fair:
        print("fair")
    return 0 if fair else 1


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["verify"]:
        if len(args) != 2:
            print("usage: tute-referee verify RECORD (- for standard input)", file=sys.stderr)
            return 2
        return verify(args[1])
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
