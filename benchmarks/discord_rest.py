"""REST calls the bot makes to Discord while a table plays, through SimCord with the real bot.

Whole games of each variant, humans and robots together: the humans click an enabled card
of their hand (in their DMs), now and then a declaration; the robots play on their clocks.
Every call to Discord is in SimCord's request log, so:

- a human play costs the calls made while the bot handles that click (the interaction's
  answer counts as one);
- the robots play in the clock tasks, after the click is answered: the calls made between
  two clicks go to the robots, shared among the robot actions taken in between;
- but when a robot plays next, the bot shows the human's play together with the robots'
  (one edit of the table instead of two): then the first edit of the table message after
  the click shows them all, and its call is shared equally among the human play and the
  robot actions it shows. The "raw" robot figure leaves this out (it gives the robots the
  whole edit) and is printed too;
- a deal (a round) costs every call from its first action to its summary; the start (the
  thread, the table message, the first hands by DM) is counted apart.

Targets, for each setup: at most 3 calls per human card play (on average, and for every
play, a play that ends a deal or the game included), on average at most 1.5 per robot play.
The command exits with status 1 when a setup misses a target.

Run: ``python benchmarks/discord_rest.py [--games N] [--seed S] [--budget SECONDS] [--routes]``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord

from bot.app import TuteApp
from bot.config import Config
from bot.engine import Deal, Kind
from bot.sandbox.pictures import buttons_in
from bot.sandbox.waits import SimulatedWaits
from bot.tables.model import Status, Table
from bot.tables.runtime import Runtime
from bot.tables.service import DECLARE_GRACE, TableService
from cogs.tables.places import Place
from cogs.tables.presenter import presenter_of
from cogs.tables.summaries import ARCHIVE_AFTER

HUMAN_TARGET = 3.0
ROBOT_TARGET = 1.5
ROBOT_DELAY = 10.0
"""Seconds of SimCord's virtual clock a robot waits: longer than the time a click may take
to settle, so the robots only move when the benchmark lets the time pass."""
SETTLE_TIMEOUT = 3.0

SETUPS: dict[str, tuple[int, int]] = {
    # variant: (humans, robots)
    "habanero": (2, 0),
    "arrastrado": (2, 1),
    "individual": (2, 2),
    "pairs": (2, 2),
}
HABANERO_WITH_A_ROBOT = ("habanero", (1, 1))


@dataclass
class Tally:
    human_plays: list[float] = field(default_factory=list[float])
    ended_deal: list[bool] = field(default_factory=list[bool])
    """For each human play: whether it ended a deal (it also shows its summary)."""
    declarations: list[float] = field(default_factory=list[float])
    robot_calls: float = 0.0
    robot_calls_raw: int = 0
    """The calls between the clicks, without sharing an edit with the human play it shows."""
    robot_actions: int = 0
    deals: list[int] = field(default_factory=list[int])
    start: list[int] = field(default_factory=list[int])
    by_route: Counter[str] = field(default_factory=Counter[str])
    notices: int = 0
    """Turns a member was told of: each costs one call more than the edit it replaces (the
    old hand goes, a fresh one comes, and that notifies). The budget allows one per notice,
    so that call is counted here, apart from the plays'."""

    def add(self, other: Tally) -> None:
        self.notices += other.notices
        self.human_plays += other.human_plays
        self.ended_deal += other.ended_deal
        self.declarations += other.declarations
        self.robot_calls += other.robot_calls
        self.robot_calls_raw += other.robot_calls_raw
        self.robot_actions += other.robot_actions
        self.deals += other.deals
        self.start += other.start
        self.by_route.update(other.by_route)


def _route(entry: Any) -> str:
    """A request's route with the ids taken out, to see where the calls go."""
    parts = [
        "{id}" if part.isdigit() or part.startswith("simcord_") else part
        for part in entry.path.split("/")
    ]
    return f"{entry.method} {'/'.join(parts)}"


def _enabled(message: discord.Message) -> list[str]:
    """The custom ids of the buttons one can click."""
    return [
        child.custom_id
        for child in buttons_in(message.components)
        if child.custom_id and not child.disabled
    ]


class Game:
    """One table from ``/tute new`` to the final result, counting calls as it goes."""

    def __init__(self, env: simcord.Env, humans: list[simcord.MemberActor], rng: random.Random):
        self.env = env
        self.humans = humans
        self.rng = rng
        self.tally = Tally()
        self.shown_later: tuple[list[float], int] | None = None
        """The human play (its list and index) whose click did not edit the table: the next
        edit shows it with the robots' plays."""
        self.interval_actions = 0
        """Robot actions since the last click."""
        self._table: Table | None = None

    @property
    def service(self) -> TableService:
        return self.env.bot.tables  # type: ignore[attr-defined,no-any-return]

    @property
    def place(self) -> Place:
        """Where the table's messages live, as the bot shows it."""
        place = presenter_of(self.env.bot).places.known(self.table.id)
        assert place is not None
        return place

    @property
    def table(self) -> Table:
        # kept: the service lets a table go once its game is over
        if self._table is None:
            self._table = next(iter(self.service.tables.values()))
        return self._table

    def mark(self) -> int:
        return len(self.env.http_requests)

    def count(self, since: int) -> int:
        """The calls since then, but for the one more that each turn notice costs (the only
        deletions here: a hand in the DMs that a fresh one replaces)."""
        calls = self.env.http_requests[since:]
        self.tally.by_route.update(_route(c) for c in calls)
        notices = sum(1 for c in calls if c.method == "DELETE")
        self.tally.notices += notices
        return len(calls) - notices

    def edits_table(self, since: int) -> bool:
        """Whether a call since then edited (or posted) the table message (a deal's own
        message, or the next one)."""
        where = f"/channels/{self.place.where_id}/messages"
        return any(c.path.startswith(where) for c in self.env.http_requests[since:])

    def robots_share(self, since: int) -> None:
        """The calls since the last click go to the robots' actions taken meanwhile, but for
        a share of the table's edit when it also shows the human play before them."""
        calls = self.count(since)
        self.tally.robot_calls_raw += calls
        shared = 0.0
        if self.shown_later is not None and self.edits_table(since):
            plays, index = self.shown_later
            shared = 1 / (self.interval_actions + 1)
            plays[index] += shared
        self.tally.robot_calls += calls - shared
        self.tally.robot_actions += self.interval_actions
        self.shown_later = None
        self.interval_actions = 0

    async def open(self, channel: simcord.ChannelHandle, variant: str, robots: int) -> None:
        host = self.humans[0]
        lobby = (await host.slash(channel, "tute new", variant=variant, rounds=1)).response
        assert lobby is not None

        def op(name: str) -> str:
            return next(c for c in _enabled(lobby.message) if c.endswith(name))

        for i, member in enumerate(self.humans[1:], start=1):
            await member.click(
                lobby, custom_id=op(f":team{i % 2}" if variant == "pairs" else ":join")
            )
        for _ in range(robots):
            await host.click(lobby, custom_id=op(":robot"))
        since = self.mark()
        await host.click(lobby, custom_id=op(":start"))
        self.tally.start.append(self.count(since))

    def human_at(self, seat: int) -> simcord.MemberActor | None:
        occupant = self.table.seats[seat]
        if occupant is None or occupant.robot_plays:
            return None
        return next(m for m in self.humans if m.id == occupant.user_id)

    def to_act(self) -> tuple[simcord.MemberActor, bool] | None:
        """The human to click now, and whether they may only declare."""
        deal = self.table.deal
        assert deal is not None
        legal = deal.legal_actions()
        on_turn = self.human_at(deal.turn)
        if on_turn is not None and any(a.kind is Kind.PLAY for a in legal):
            return on_turn, False
        for action in legal:
            if action.kind in (Kind.SING, Kind.EXCHANGE, Kind.TUTE):
                member = self.human_at(action.seat)
                if member is not None:
                    return member, True
        return None

    async def click(self, member: simcord.MemberActor, declare_only: bool) -> bool:
        """One click in the member's DM; False when they let a declaration pass."""
        seat = self.table.seat_of(member.id)
        assert seat is not None
        dm = self.place.hand(seat, member.id)
        assert dm is not None
        hand = next(m for m in member.user.dm_channel.history() if m.id == dm.dm_message_id)
        enabled = [c for c in _enabled(hand) if c.startswith("tute:h:")]
        cards = [c for c in enabled if c.rsplit(":", 1)[1][0].isdigit()]
        declarations = [c for c in enabled if c.rsplit(":", 1)[1][0] in "sxt"]
        if declarations and self.rng.random() < 0.5:
            chosen, tally = self.rng.choice(declarations), self.tally.declarations
        elif cards and not declare_only:
            chosen, tally = self.rng.choice(cards), self.tally.human_plays
        else:
            return False
        since, deal_before = self.mark(), self.table.deal_no
        result = await member.user.click(hand, custom_id=chosen)
        assert result.acknowledged
        tally.append(self.count(since))
        if tally is self.tally.human_plays:
            self.tally.ended_deal.append(
                self.table.deal_no != deal_before or self.table.status is not Status.PLAYING
            )
        if self.table.status is Status.PLAYING and not self.edits_table(since):
            self.shown_later = (tally, len(tally) - 1)
        return True

    async def play(self) -> None:
        """Click for the humans and let the time pass for the robots, to the end."""
        deal_start = robot_since = self.mark()
        deal_no = 0
        for _ in range(2000):
            table = self.table
            if table.deal_no != deal_no or table.status is not Status.PLAYING:
                now = self.mark()
                self.tally.deals.append(now - deal_start)
                deal_start, deal_no = now, table.deal_no
            if table.status is not Status.PLAYING:
                break
            actor = self.to_act()
            if actor is not None:
                # the robots' share since the last click
                self.robots_share(robot_since)
                deal_before = self.table.deal_no
                clicked = await self.click(*actor)
                robot_since = self.mark()
                if self.table.deal_no != deal_before or self.table.status is not Status.PLAYING:
                    # a moment later, the deal's message becomes its summary (and the
                    # lobby of a game over says how it ended)
                    await self.env.advance_time(ARCHIVE_AFTER + 0.1)
                if clicked:
                    continue
            round_before = self.table.deal
            before = len(round_before.actions) if round_before else 0
            await self.env.advance_time(ROBOT_DELAY + DECLARE_GRACE + 0.1)
            self.interval_actions += self._robot_actions(round_before, before)
        else:
            raise RuntimeError("the game did not end")
        self.robots_share(robot_since)

    def _robot_actions(self, round_before: Deal | None, before: int) -> int:
        """The robot actions taken since (the deal may have changed in between)."""
        table = self.table
        done = round_before.actions[before:] if round_before is not None else []
        if table.deal is not None and table.deal is not round_before:
            done = done + table.deal.actions
        return sum(1 for a in done if (s := table.seats[a.seat]) is not None and s.robot_plays)


async def one_game(
    variant: str, humans: int, robots: int, seed: int, budget: float, db: Path
) -> Tally:
    # the tables' clocks (a robot's wait, a deal's message turning into its summary) end
    # when the benchmark moves SimCord's clock, not in real time: each call falls where it
    # would, between the clicks; and the same deals for the same seed
    waits = SimulatedWaits()
    runtime = Runtime(clock=lambda: discord.utils.utcnow().timestamp(), sleep=waits)
    bot = TuteApp(
        Config(
            token="not-a-real-token",
            db_path=db,
            think_budget=budget,
            robot_delay=ROBOT_DELAY,
            robot_processes=0,  # the calls to Discord are what counts here
            shard_count=1,
        ),
        runtime=replace(runtime, seeds=lambda: seed),
    )
    # as simcord.run does, but the clocks know SimCord's before the bot starts (the servers'
    # retention waits from the start)
    env = simcord.Env(bot, settle_timeout=SETTLE_TIMEOUT)
    waits.env = env
    try:
        await env.start()
        with env.time_context():
            guild = env.create_guild("Casino")
            channel = guild.create_text_channel("tute")
            members = [
                guild.add_member(env.create_user(name))
                for name in ("alice", "bob", "carol")[:humans]
            ]
            await env.settle()
            game = Game(env, members, random.Random(seed))
            await game.open(channel, variant, robots)
            await game.play()
            assert game.table.status is Status.FINISHED
            await env.shutdown()
            env.raise_errors()
            return game.tally
    finally:
        # SimCord detaches the bot without closing it: close its database (and its thread)
        if "db" in vars(bot):
            await bot.db.close()


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def report(name: str, tally: Tally) -> bool:
    """One line of figures; True when the targets are met. A play that ends a deal also
    shows its summary (and at the end the result, and the lobby's new status): its largest
    count is shown apart too, and it is held to the same target."""
    human = _mean(tally.human_plays)
    worst = max(tally.human_plays, default=0.0)
    ending = [c for c, ended in zip(tally.human_plays, tally.ended_deal, strict=True) if ended]
    actions = tally.robot_actions
    robot = tally.robot_calls / actions if actions else 0.0
    raw = tally.robot_calls_raw / actions if actions else 0.0
    ok = human <= HUMAN_TARGET and worst <= HUMAN_TARGET and robot <= ROBOT_TARGET
    print(
        f"{name:<16} human card play: mean {human:.2f} max {worst:.2f}"
        f" (ending a deal: max {max(ending, default=0.0):.2f}; {len(tally.human_plays)} plays)"
        f" | declaration: {_mean(tally.declarations):.2f} ({len(tally.declarations)})"
        f" | robot play: {robot:.2f} (raw {raw:.2f}: {tally.robot_calls_raw} calls"
        f" / {actions} actions)"
        f" | per deal: {_mean([float(d) for d in tally.deals]):.1f} ({len(tally.deals)})"
        f" | start: {_mean([float(s) for s in tally.start]):.1f}"
        f" | turn notices: {tally.notices} (+1 call each)"
        f"  {'ok' if ok else 'MISSED'}"
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per setup")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=0.02, help="robot thinking time")
    parser.add_argument("--routes", action="store_true", help="print the calls by route")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    setups = [*SETUPS.items(), HABANERO_WITH_A_ROBOT]
    total = Tally()
    missed: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        for index, (variant, (humans, robots)) in enumerate(setups):
            tally = Tally()
            for game in range(args.games):
                db = Path(folder) / f"{variant}-{index}-{game}.db"
                seed = args.seed * 1000 + index * 100 + game
                tally.add(asyncio.run(one_game(variant, humans, robots, seed, args.budget, db)))
            name = f"{variant} {humans}h+{robots}r"
            if not report(name, tally):
                missed.append(name)
            total.add(tally)
    report("all", total)
    if args.routes:
        for route, count in total.by_route.most_common():
            print(f"{count:6d}  {route}")
    print(
        f"targets, for each setup: at most {HUMAN_TARGET:g} calls per human card play (on "
        f"average and for every play), at most {ROBOT_TARGET:g} per robot play on average,"
        " plus one per turn notice"
    )
    if missed:
        print(f"MISSED by: {', '.join(missed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
