"""What one ``Table.state_json()`` costs: the table's state is written at every save (every
card played), on the event loop.

The table is one the service could hold: pairs, four seats (a member with their DM hand
message, a hard robot, a member who is away with a normal robot standing in, an easy
robot), options that differ from the defaults, stakes, the summary of the first deal and
the second deal half played, with a full log. Everything is drawn from a seeded
``random.Random``, so every run times the same table.

Printed: the microseconds one ``state_json()`` call takes (the median of ``--repeats`` runs
of ``--calls`` calls each, timed with ``time.perf_counter``) and the size of its JSON; then
the parts of it, timed alone the same way:
- the seats' dicts, with ``dataclasses.asdict`` (how state_json built them before) and with
  ``Seat.to_json`` (where the model has it);
- the options' dict (``Options.to_dict()``) and the summary's (``DealSummary.to_json()``):
  the model now builds each once per options / summary object and reuses it;
- the log's dicts, and ``json.dumps`` of the finished dict;
- the rest: the whole call less the parts above it pays (the other keys, the call itself).

Run: ``python benchmarks/state_json.py [--calls 2000] [--repeats 7]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import Level
from bot.engine import Deal, Game, Kind, Options, Variant
from bot.tables.events import Happened, LogEvent, Who
from bot.tables.model import Seat, Status, Table
from bot.tables.play import apply, summary_of

MEMBER, AWAY = 1_100_000_000_000_000_003, 1_100_000_000_000_000_004


def mid_deal_table(rng: random.Random) -> Table:
    """The table described above: its second deal half played."""
    variant = Variant.PAIRS
    options = Options(bet=50, turn_time=90, capote=False, rounds=3)
    now = 1_800_000_000.0
    table = Table(
        id=1,
        guild_id=1_100_000_000_000_000_001,
        channel_id=1_100_000_000_000_000_002,
        host_id=MEMBER,
        variant=variant,
        options=options,
        language="es",
        created_at=now - 600,
        seats=[
            Seat(
                name="Alicia",
                user_id=MEMBER,
                locale="es-ES",
            ),
            Seat(name="robot:1", robot=Level.HARD),
            Seat(
                name="Bernardo",
                user_id=AWAY,
                robot=Level.NORMAL,
                away=True,
                missed=2,
                locale="es-ES",
                notify=False,
            ),
            Seat(name="robot:2", robot=Level.EASY),
        ],
        status=Status.PLAYING,
        seed=rng.getrandbits(62),
        deal_no=1,
        stakes={MEMBER: 50, AWAY: 50},
    )
    game = table.game = Game(variant, options, dealer=variant.players - 1)
    table.add_log(LogEvent(Happened.OPENED, Who("Alicia", 1)))
    table.add_log(LogEvent(Happened.STARTED))

    def play(deal: Deal, until: Callable[[Deal], bool]) -> None:
        while not until(deal):
            actions = deal.legal_actions()
            plain = [a for a in actions if a.kind in (Kind.PLAY, Kind.PASS, Kind.BID)]
            apply(table, deal, rng.choice(plain or actions))  # logged as a table logs it

    first = Deal(game.deal_for(table.deal_rng()))
    play(first, lambda deal: deal.result is not None)
    result = first.result
    assert result is not None
    rounds_before = tuple(game.rounds_won)
    game.end_deal(first)
    table.summary = summary_of(table, first, result, rounds_before)
    table.deal_no += 1
    second = table.deal = Deal(game.deal_for(table.deal_rng()))
    play(second, lambda deal: len(deal.tricks) >= 5 or deal.result is not None)
    assert second.result is None
    table.turn_seat = second.turn
    table.turn_deadline = now + options.turn_time
    return table


def per_call(work: Callable[[], object], calls: int, repeats: int) -> float:
    """Microseconds one ``work()`` takes: the median of ``repeats`` runs of ``calls``."""
    runs: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            work()
        runs.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    calls, repeats = args.calls, args.repeats
    table = mid_deal_table(random.Random(2026))
    summary = table.summary
    assert summary is not None
    state = table.state_json()
    data: dict[str, Any] = json.loads(state)
    rest = {key: value for key, value in data.items() if key not in ("options", "summary")}
    seats = table.seats
    seat_json: Callable[[Seat], dict[str, Any]] | None = getattr(Seat, "to_json", None)
    reuse = hasattr(table, "_options_text")

    def time_it(work: Callable[[], object]) -> float:
        return per_call(work, calls, repeats)

    def dumps(value: object) -> str:
        return json.dumps(value, separators=(",", ":"))

    total = time_it(table.state_json)
    parts: list[tuple[str, float, bool]] = [
        (
            "seats to dicts, dataclasses.asdict",
            time_it(lambda: [None if s is None else asdict(s) for s in seats]),
            seat_json is None,
        )
    ]
    if seat_json is not None:
        parts.append(
            (
                "seats to dicts, Seat.to_json",
                time_it(lambda: [None if s is None else seat_json(s) for s in seats]),
                True,
            )
        )
    parts += [
        (
            "log to dicts",
            time_it(lambda: [e.to_json() for e in table.log]),
            True,
        ),
        ("options: to_dict() and its JSON", time_it(lambda: dumps(table.options.to_dict())), False),
        ("summary: to_json() and its JSON", time_it(lambda: dumps(summary.to_json())), False),
        ("JSON of the state less those two", time_it(lambda: dumps(rest)), True),
    ]
    if not reuse:
        parts = [
            (what, us, pays or "options" in what or "summary" in what) for what, us, pays in parts
        ]
    paid = sum(us for _, us, pays in parts if pays)
    print(
        f"state_json(): {total:.1f} µs a call, {len(state):,} bytes "
        f"(median of {repeats} runs of {calls:,} calls; Python {sys.version.split()[0]})"
    )
    print("its parts, timed alone (* what this model's state_json pays at every call):")
    for what, us, pays in parts:
        print(f"  {'*' if pays else ' '} {what:<36}{us:7.1f} µs")
    if reuse:
        print("    (this model writes the options' and the summary's JSON once per object)")
    print(f"    rest: the call less the parts it pays{total - paid:7.1f} µs")


if __name__ == "__main__":
    main()
