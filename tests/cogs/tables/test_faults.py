"""Discord failing under a game, end to end through SimCord: each error Discord answers with
(a closed DM, a missing permission, a deleted thread or message, an expired interaction, a
rate limit, an outage) on each kind of call a table makes (the table message's edit, a hand
sent or edited by DM, the game's thread, a click's or ``/tute new``'s answer); then a chaos
run that mixes them at random moments with restarts, and checks the ledger and the logs.

Whatever fails, the game finishes for everyone: the table message shows the end, every hand
ends without a card to click, and a restart finds the table where it was left.

To keep these many whole games quick (and the same on every run) the pictures are a tiny
constant PNG (the presenter attaches them just the same; the renderers have tests of their
own), the robots play the easy level (no time-bound search: the same cards every run), and
SimCord polls a settling bot more often (see ``quick_games``).
"""

from __future__ import annotations

import fnmatch
import functools
import inspect
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
import simcord
from simcord import MemberActor

from bot.ai import Level, choose_action
from bot.client import TuteBot
from bot.config import Config
from bot.engine import Action, Deal, Kind, SeatView
from bot.i18n import t
from bot.storage import Database, ledger
from bot.storage import tables as table_repo
from bot.storage.settings import update_settings
from bot.tables import service as service_module
from bot.tables.model import Status, Table
from bot.tables.service import DECLARE_GRACE, TableService
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from cogs.tables import pictures
from cogs.tables.buttons import decode_action
from cogs.tables.presenter import RETRY_AFTER
from tests.cogs.tables import test_play as tables_e2e
from tests.cogs.tables.test_play import (
    Btn,
    add_member,
    buttons,
    channel_of,
    hand_buttons,
    op_button,
)
from tests.conftest import World, fast_bot
from tests.tables._play import tables_of

table_seed = tables_e2e.table_seed
"""Pin the shuffle of the next tables (the fixture of the table tests)."""

Message = discord.Message | simcord.ResponseMessage

TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)
QUICK_SETTLE = 0.002
"""Seconds between SimCord's checks of a settling bot (0.05 by default): a table's clock
task that goes to sleep on the simulated clock would otherwise hold each click 50 ms."""


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)


def easy_robot(view: SeatView, level: str, rng: random.Random, budget: float) -> Action | None:
    """Every robot plays the easy level: its choice depends on the table's seed alone."""
    del level
    return choose_action(view, Level.EASY, rng, budget)


@pytest.fixture(autouse=True)
def quick_games(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("render_table", "render_hand", "render_summary"):
        monkeypatch.setattr(pictures, name, lambda scene: TINY_PNG)
    monkeypatch.setattr(service_module, "default_robot", easy_robot)
    settle = simcord.Env._settle_internal  # pyright: ignore[reportPrivateUsage]
    if "idle" not in inspect.signature(settle).parameters:
        return  # another SimCord: the games are slower, not different

    @functools.wraps(settle)
    async def quick(self: simcord.Env, **kwargs: Any) -> None:
        kwargs.setdefault("idle", QUICK_SETTLE)
        await settle(self, **kwargs)

    monkeypatch.setattr(simcord.Env, "_settle_internal", quick)


# ------------------------------------------------------------------ the faults


@dataclass(frozen=True, slots=True)
class Fault:
    """An error Discord answers a call with, ``times`` calls in a row."""

    status: int
    code: int
    message: str
    times: int = 1

    @property
    def retried(self) -> bool:
        """Whether it may work a little later (the presenter tries again)."""
        return self.status >= 500 or self.status == 429


FAULTS = {
    "closed-dm": Fault(403, 50007, "Cannot send messages to this user"),
    "no-permission": Fault(403, 50013, "Missing Permissions"),
    "unknown-channel": Fault(404, 10003, "Unknown Channel"),
    "unknown-message": Fault(404, 10008, "Unknown Message"),
    "unknown-interaction": Fault(404, 10062, "Unknown interaction"),
    "rate-limited": Fault(429, 0, "You are being rate limited."),
    "outage": Fault(500, 0, "Internal Server Error"),
    "rate-limited-x3": Fault(429, 0, "You are being rate limited.", times=3),
    "outage-x3": Fault(500, 0, "Internal Server Error", times=3),
}

KINDS = ("table_edit", "dm_send", "dm_edit", "thread_create", "click_answer", "command_answer")
"""The calls a fault is injected on: the table message's edit, a hand's first DM, a hand's
DM edit, the game's thread, the answer to a click in a hand, the answer to ``/tute new``."""

_ONLY_DMS = "Discord answers 50007 only to a message for a user (a DM)"
_ONLY_ANSWERS = "Discord answers 10062 only to an interaction's answer"
_NOT_ANSWERS = "an interaction's answer fails with 10062 or an outage, never with this"
_ONE_THREAD = "a table makes its thread once: a lasting fault fails that call, as one fault does"
NOT_APPLICABLE: dict[tuple[str, str], str] = {
    ("table_edit", "closed-dm"): _ONLY_DMS,
    ("table_edit", "unknown-interaction"): _ONLY_ANSWERS,
    ("dm_send", "unknown-message"): "a message being sent cannot be unknown (10008)",
    ("dm_send", "unknown-interaction"): _ONLY_ANSWERS,
    ("dm_edit", "unknown-interaction"): _ONLY_ANSWERS,
    ("thread_create", "closed-dm"): _ONLY_DMS,
    ("thread_create", "unknown-interaction"): _ONLY_ANSWERS,
    ("thread_create", "rate-limited-x3"): _ONE_THREAD,
    ("thread_create", "outage-x3"): _ONE_THREAD,
    **{
        (kind, name): _NOT_ANSWERS
        for kind in ("click_answer", "command_answer")
        for name in ("closed-dm", "no-permission", "unknown-channel", "unknown-message")
    },
}


def faults_for(kind: str) -> list[Any]:
    """The faults that can happen on one kind of call (the others, with the reason, are in
    ``NOT_APPLICABLE``)."""
    assert kind in KINDS
    return [
        pytest.param(fault, id=name)
        for name, fault in FAULTS.items()
        if (kind, name) not in NOT_APPLICABLE
    ]


@dataclass
class Injected:
    """A fault injected on the calls matching ``method`` and ``path`` (a glob), from the
    request log's ``cursor`` on; ``times`` None: for good (a message or thread deleted)."""

    env: simcord.Env
    method: str
    path: str
    fault: Fault
    times: int | None
    cursor: int

    @property
    def calls(self) -> int:
        """The matching calls the bot made since (the failed ones first)."""
        return sum(
            1
            for call in self.env.http_requests[self.cursor :]
            if call.method == self.method and fnmatch.fnmatch(call.path, self.path)
        )

    @property
    def failed(self) -> int:
        return self.calls if self.times is None else min(self.calls, self.times)

    @property
    def over(self) -> bool:
        """Whether a call went through after the fault (it lasted ``times`` calls)."""
        return self.times is not None and self.calls > self.times


FOR_GOOD = 0
"""``inject(times=FOR_GOOD)``: the fault never ends (what it says is gone stays gone)."""


def inject(
    env: simcord.Env, method: str, path: str, fault: Fault, *, times: int | None = None
) -> Injected:
    times = fault.times if times is None else (times or None)
    cursor = len(env.http_requests)
    env.inject_error(
        method, path, status=fault.status, code=fault.code, message=fault.message, times=times
    )
    return Injected(env, method, path, fault, times, cursor)


# ------------------------------------------------------------------ the games


def service_of(env: simcord.Env) -> TableService:
    service = env.bot.tables  # type: ignore[attr-defined]
    assert isinstance(service, TableService)
    return service


def db_of(env: simcord.Env) -> Database:
    return service_of(env).db


def registered(env: simcord.Env) -> set[str]:
    """The subcommands of ``/tute`` Discord knows."""
    command = env.backend.find_command("tute", None)
    assert command is not None, "/tute is registered"
    return {option["name"] for option in command["options"]}


DECLARE = "sxt"
"""The codes of the declarations a player here makes: sing, exchange the 7, tute."""


def code_of(button: Btn) -> str:
    """What a hand's button does: a card (``12O``) or a declaration (``sO``, ``x``...)."""
    return button.custom_id.rsplit(":", 1)[1]


@dataclass
class Human:
    member: MemberActor
    ephemeral: simcord.ResponseMessage | None = None
    """The hand last opened with My hand."""
    ephemeral_by_dm: bool = True
    """Whether the seat's hand was in its DMs then (that reply is a snapshot; else the
    table keeps it up to date)."""
    clicks: int = 0
    ephemeral_clicks: int = 0


@dataclass
class Game:
    """One table played by its humans, who click a legal card (or declaration) of their hand
    wherever it is: their DM; the reply of My hand when the DM cannot be used (closed, not
    there yet, behind); time passes when they cannot act (a robot waits for a declaration,
    a retry is due). Their choices depend on the table's state alone."""

    env: simcord.Env
    world: World
    humans: list[Human]
    seed: int
    table_id: int = 0
    last: Table | None = None
    lobby: simcord.ResponseMessage | None = None
    steps: int = 0
    waits: int = 0
    log: list[str] = field(default_factory=list[str])
    """What was clicked (``seat:code``) and what happened to the game, for a failure's
    report."""

    # -- where things are

    @property
    def service(self) -> TableService:
        return service_of(self.env)

    @property
    def table(self) -> Table:
        """The table as the service holds it; once it ended and the bot restarted, as it
        was at its end."""
        table = tables_of(self.service).get(self.table_id, self.last)
        assert table is not None and table.id == self.table_id
        self.last = table
        return table

    @property
    def deal(self) -> Deal:
        deal = self.table.deal
        assert deal is not None
        return deal

    def seat(self, human: Human) -> int:
        seat = self.table.seat_of(human.member.id)
        assert seat is not None
        return seat

    def human_at(self, seat: int) -> Human | None:
        occupant = self.table.seats[seat]
        if occupant is None or occupant.robot_plays:
            return None
        return next((h for h in self.humans if h.member.id == occupant.user_id), None)

    def messages(self, channel_id: int) -> list[discord.Message]:
        channel = self.world.channel
        if channel_id == channel.id:
            return channel.history()
        thread = next(c for c in channel.threads if c.id == channel_id)
        return thread.history()

    def table_message(self) -> discord.Message:
        table = self.table
        return next(m for m in self.messages(table.where_id) if m.id == table.play_message_id)

    def dm_message(self, human: Human) -> discord.Message | None:
        occupant = self.table.seats[self.seat(human)]
        assert occupant is not None
        if occupant.dm_message_id is None:
            return None
        history = human.member.user.dm_channel.history()
        return next((m for m in history if m.id == occupant.dm_message_id), None)

    def table_is_current(self) -> bool:
        """Whether the table message shows the table as it is now."""
        table = self.table
        shown = self.table_message().embeds[0]
        expected = ui.table_embed(table_view(table), table.language)
        return (shown.title, shown.description, [(f.name, f.value) for f in shown.fields]) == (
            expected.title,
            expected.description,
            [(f.name, f.value) for f in expected.fields],
        )

    def usable(self, message: Message, seat: int) -> list[Btn]:
        """The enabled buttons of a hand drawn for this very trick whose action is legal now
        (none: a hand of an earlier trick, or one its player cannot use)."""
        table = self.table
        deal = self.deal
        legal = {a for a in deal.legal_actions() if a.seat == seat}
        found: list[Btn] = []
        for button in hand_buttons(message):
            if button.disabled:
                continue
            _, _, tid, deal_no, trick, code = button.custom_id.split(":")
            if (int(tid), int(deal_no), int(trick)) != (table.id, table.deal_no, len(deal.tricks)):
                return []
            if decode_action(seat, code) in legal:
                found.append(button)
        return found

    def shows_hand(self, message: Message | None, human: Human) -> bool:
        """Whether a hand message shows the seat's cards now, the legal ones enabled."""
        if message is None:
            return False
        seat = self.seat(human)
        deal = self.deal
        cards = sorted(deal.hand(seat))
        shown = sorted(c for b in hand_buttons(message) if (c := tables_e2e.card_of(b)) is not None)
        legal = {a.arg for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PLAY}
        enabled = {
            c
            for b in hand_buttons(message)
            if not b.disabled and (c := tables_e2e.card_of(b)) is not None
        }
        return shown == cards and enabled == legal

    # -- the lobby

    async def open(self, variant: str = "habanero", *, robots: int = 1, **options: Any) -> None:
        """``/tute new`` by the first human, the others join, the host adds robots."""
        host = self.humans[0].member
        options.setdefault("turn_time", 3600)
        result = await host.slash(
            self.world.channel, "tute new", variant=variant, rounds=1, **options
        )
        lobby = result.response
        assert lobby is not None and not result.ephemeral
        self.lobby = lobby
        self.table_id = max(tables_of(self.service))
        for human in self.humans[1:]:
            joined = await human.member.click(lobby, custom_id=op_button(lobby, "join"))
            assert joined.acknowledged
        for _ in range(robots):
            await host.click(lobby, custom_id=op_button(lobby, "robot"))

    async def start(self) -> None:
        assert self.lobby is not None
        await self.humans[0].member.click(self.lobby, custom_id=op_button(self.lobby, "start"))
        assert self.table.status is Status.PLAYING

    # -- playing

    def chooser(self, seat: int) -> random.Random:
        return random.Random(f"{self.seed}:{self.table.deal_no}:{len(self.deal.actions)}:{seat}")

    def next_human(self) -> Human | None:
        """Who acts now: the human on turn, or one who may declare while a robot waits for
        that (and chooses to); None: time passes."""
        deal = self.deal
        legal = deal.legal_actions()
        on_turn = self.human_at(deal.turn)
        if on_turn is not None and any(a.seat == deal.turn and a.kind is Kind.PLAY for a in legal):
            return on_turn
        for action in legal:
            human = self.human_at(action.seat)
            if (
                human is not None
                and action.kind in (Kind.SING, Kind.TUTE, Kind.EXCHANGE)
                and self.chooser(action.seat).random() < 0.5
            ):
                return human
        return None

    async def hand(self, human: Human) -> Message | None:
        """Where the human can play now: their DM, their last My hand, or a new My hand."""
        table = self.table
        seat = self.seat(human)
        if table_view(table).by_dm(seat):
            dm = self.dm_message(human)
            if dm is not None and self.usable(dm, seat):
                return dm
        if human.ephemeral is not None and self.usable(human.ephemeral, seat):
            return human.ephemeral
        table_message = self.table_message()
        opened = await human.member.click(table_message, custom_id=op_button(table_message, "hand"))
        reply = opened.response
        if reply is None or not reply.ephemeral or not self.usable(reply, seat):
            return None  # its answer failed: try again after a while
        human.ephemeral = reply
        human.ephemeral_by_dm = table_view(self.table).by_dm(seat)
        return reply

    def choose(self, options: list[Btn], seat: int) -> Btn | None:
        rng = self.chooser(seat)
        plays = [b for b in options if code_of(b)[0].isdigit()]
        declarations = [b for b in options if code_of(b)[0] in DECLARE]
        if declarations and (not plays or rng.random() < 0.6):
            return rng.choice(declarations)
        return rng.choice(plays) if plays else None

    async def click(self, human: Human, message: Message, button: Btn) -> simcord.InteractionResult:
        human.clicks += 1
        if channel_of(message) == human.member.user.dm_channel.id:
            return await human.member.user.click(message, custom_id=button.custom_id)
        human.ephemeral_clicks += 1
        return await human.member.click(message, custom_id=button.custom_id)

    async def wait(self, seconds: float) -> None:
        self.waits += 1
        await self.env.advance_time(seconds)

    async def step(self) -> None:
        """One move of a human, or some time passing."""
        self.steps += 1
        human = self.next_human()
        if human is None:
            await self.wait(DECLARE_GRACE + 1)
            return
        seat = self.seat(human)
        message = await self.hand(human)
        button = self.choose(self.usable(message, seat), seat) if message is not None else None
        if message is None or button is None:
            await self.wait(RETRY_AFTER[0] + 1)
            return
        self.log.append(f"{seat}:{code_of(button)}")
        await self.click(human, message, button)

    async def play_until(self, done: Callable[[], bool], *, limit: int = 100) -> None:
        for _ in range(limit):
            if done():
                return
            assert self.table.status is Status.PLAYING, "the game ended first"
            await self.step()
        raise AssertionError("it did not happen")

    async def play(self, *, limit: int = 400) -> None:
        for _ in range(limit):
            if self.table.status is not Status.PLAYING:
                return
            await self.step()
        raise AssertionError("the game did not end")

    async def retries_until(self, injected: Injected) -> None:
        """Let the presenter's retries run (5 s, 30 s, 2 min...) until a call went through
        after the fault."""
        for delay in RETRY_AFTER:
            if injected.over:
                return
            await self.env.advance_time(delay + 1)
        assert injected.over, "the retries went through"

    # -- the end

    async def check_end(self) -> None:
        """Finished for everyone: the table message shows the end (no button left), every
        hand its player still has ends with nothing to click; the log is whole."""
        table = self.table
        assert table.status is Status.FINISHED, table.status
        lang = table.language
        final = self.table_message()
        assert final.embeds[0].title == t("summary.game_over", lang, id=table.id)
        assert not buttons(final), "the finished table has no buttons"
        for human in self.humans:
            occupant = table.seats[self.seat(human)]
            assert occupant is not None
            if not occupant.dm_closed:
                dm = self.dm_message(human)
                assert dm is not None, "the hand reached the DMs"
                assert not [b for b in hand_buttons(dm) if not b.disabled], "the DM hand ended"
            if human.ephemeral is not None and not human.ephemeral_by_dm:
                ended = [b for b in hand_buttons(human.ephemeral) if not b.disabled]
                assert not ended, "the hand under My hand ended"
        db = db_of(self.env)
        row = await table_repo.load_table(db, table.id)
        assert row is not None and row.status == Status.FINISHED.value
        deals = await db.fetchall(
            "SELECT DISTINCT deal_no FROM actions WHERE table_id = ? ORDER BY deal_no", (table.id,)
        )
        assert [deal for (deal,) in deals] == list(range(table.deal_no + 1)), "every deal logged"
        last = await table_repo.deal_actions(db, table.id, table.deal_no)
        assert len(last) == len(self.deal.actions), "the log is what was played"
        await check_logs(db)

    async def restart(self, config: Config, *, graceful: bool = True) -> None:
        """The bot stops (closing as in production, or crashing) and starts again: the
        command tree stays whole, and the hands opened with My hand are gone with the old
        process (their players open them again)."""
        before = registered(self.env)
        if graceful:
            await self.env.bot.close()
        await self.env.restart_bot(fast_bot(config))
        assert registered(self.env) >= before, "the command tree never shrinks"
        for human in self.humans:
            human.ephemeral = None

    async def check_after_restart(self, config: Config) -> None:
        """A game over stays over through a restart, its message as it ended; ``/tute``
        still answers."""
        status = self.table.status
        assert not status.is_open
        ended = self.table_message()
        await self.restart(config)
        service = self.service
        assert self.table_id not in service.tables, "a table over is not brought back"
        row = await table_repo.load_table(service.db, self.table_id)
        assert row is not None and row.status == status.value
        again = next(m for m in self.messages(ended.channel.id) if m.id == ended.id)
        assert [e.to_dict() for e in again.embeds] == [e.to_dict() for e in ended.embeds]
        assert self.env.backend.find_command("tute", None) is not None
        listed = await self.humans[0].member.slash(self.world.channel, "tute tables")
        assert listed.response is not None and listed.ephemeral


async def check_logs(db: Database) -> None:
    """Each deal's action log is whole: seq 0..n-1, no gap, no duplicate."""
    rows = await db.fetchall(
        "SELECT table_id, deal_no, COUNT(*), MIN(seq), MAX(seq) FROM actions"
        " GROUP BY table_id, deal_no"
    )
    for table_id, deal_no, count, low, high in rows:
        assert (low, high) == (0, count - 1), f"table {table_id}, deal {deal_no}"


async def new_game(env: simcord.Env, world: World, *, humans: int = 1) -> Game:
    """A habanero lobby: alice, and bob or a robot."""
    members = [world.member]
    if humans == 2:
        members.append(await add_member(env, world, "bob"))
    game = Game(env, world, [Human(m) for m in members], SEED)
    await game.open(robots=2 - humans)
    return game


# ------------------------------------------------------------- each fault, each call

SEED = 0
"""A short game of two deals, where alice (the first human) plays first."""


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("table_edit"))
@pytest.mark.simcord(settle_timeout=3)
async def test_a_table_message_edit_fails(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """Mid-game, the edit of the table message fails: shown again after a while (an
    outage), posted again (deleted, or its thread deleted), or left as it is while the host
    is told (no permission)."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world)
    await game.start()
    await game.play_until(lambda: len(game.deal.actions) >= 2)
    table = game.table
    old, thread = table.play_message_id, table.thread_id
    assert old is not None and thread is not None
    # a missing permission lasts: three edits in a row fail; a deleted message (or thread)
    # stays deleted
    path, times = f"/channels/{thread}/messages/{old}", fault.times
    if fault.code == 50013:
        times = 3
    elif fault.code == 10008:
        times = FOR_GOOD
    elif fault.code == 10003:
        path, times = f"/channels/{thread}/*", FOR_GOOD
    injected = inject(env, "PATCH", path, fault, times=times)
    await game.play_until(lambda: injected.failed >= 1)

    if fault.retried:
        # the table is behind until the presenter tries again (5 s later, then 30 s...)
        assert not game.table_is_current()
        await env.advance_time(RETRY_AFTER[0] + 1)
        if fault.times == 1:
            assert injected.over and game.table_is_current(), "the retry shows the table"
        await game.retries_until(injected)
        assert game.table_is_current()
    elif fault.code == 10003:
        # the thread is gone: the game goes on in the channel, in a new table message
        assert table.thread_id is None and table.play_message_id not in (None, old)
        assert table.play_message_id in {m.id for m in world.channel.history()}
        row = await table_repo.load_table(db_of(env), table.id)
        assert row is not None and json.loads(row.state)["thread_id"] is None
        # the lobby's link follows at the next change
        await game.step()
        assert game.lobby is not None
        links = [b.get("url") for row in game.lobby.components for b in row["components"]]
        link = ui.game_link(table_view(table))
        assert link in links and str(world.channel.id) in link
    elif fault.code == 10008:
        # the message is gone: the table is posted again where it plays
        assert table.thread_id == thread and table.play_message_id not in (None, old)
        assert table.play_message_id in {m.id for m in game.messages(thread)}
    else:
        # the bot may not edit there: the host is told, once, and the game goes on
        await game.play_until(lambda: injected.over)
        assert table.play_message_id == old and game.table_is_current()

    await game.play()
    await game.check_end()
    if fault.code == 50013:
        told = t(
            "tables.missing_permissions",
            table.language,
            host=f"<@{table.host_id}>",
            channel=f"<#{thread}>",
        )
        said = [m for m in world.channel.history() if m.content == told]
        assert len(said) == 1, "the host is told once"
        assert f"<@{world.member.id}>" in said[0].content
    await game.check_after_restart(test_config)


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("dm_send"))
@pytest.mark.simcord(settle_timeout=3)
async def test_a_hand_cannot_be_sent_by_dm(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """At the start, alice's hand cannot be sent by DM: her DMs are closed (she plays
    through My hand), or it is sent a little later."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world)
    alice = game.humans[0]
    dm = world.member.user.dm_channel
    injected = inject(env, "POST", f"/channels/{dm.id}/messages", fault)
    await game.start()
    assert injected.failed == 1
    table = game.table
    occupant = table.seats[game.seat(alice)]
    assert occupant is not None and game.deal.turn == game.seat(alice)

    if fault.status == 403:
        # closed DMs: the table says so, and alice plays through My hand
        assert occupant.dm_closed and occupant.dm_message_id is None
        check_dms_closed_notice(game, "alice")
    elif fault.retried:
        # the presenter tries again a little later
        assert not occupant.dm_closed and not dm.history()
        await env.advance_time(RETRY_AFTER[0] + 1)
        if fault.times == 1:
            assert game.shows_hand(game.dm_message(alice), alice), "the retry sends the hand"
        await game.retries_until(injected)
        assert game.shows_hand(game.dm_message(alice), alice)
    else:
        # refused: the hand goes by DM at the next change (alice opens My hand meanwhile)
        assert not occupant.dm_closed and not dm.history()

    await game.play()
    await game.check_end()
    if fault.status == 403:
        assert not dm.history(), "no DM ever reached alice"
        assert alice.ephemeral is not None and not alice.ephemeral_by_dm
        assert alice.ephemeral_clicks == alice.clicks > 0
    else:
        assert len(dm.history()) == 1, "one DM, edited to the end"
    await game.check_after_restart(test_config)


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("dm_send"))
@pytest.mark.simcord(settle_timeout=3)
async def test_a_hand_cannot_be_sent_again_mid_game(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """Mid-game, alice's DM is deleted (for good), and sending her hand again fails."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world)
    alice = game.humans[0]
    dm = world.member.user.dm_channel
    await game.start()
    await game.play_until(lambda: len(game.deal.actions) >= 2)
    occupant = game.table.seats[game.seat(alice)]
    assert occupant is not None and occupant.dm_message_id is not None
    old = occupant.dm_message_id
    deleted = inject(
        env, "PATCH", f"/channels/{dm.id}/messages/{old}", FAULTS["unknown-message"], times=FOR_GOOD
    )
    injected = inject(env, "POST", f"/channels/{dm.id}/messages", fault)
    await game.play_until(lambda: injected.failed >= 1)
    assert deleted.failed >= 1

    clicks = alice.ephemeral_clicks
    if fault.status == 403:
        assert occupant.dm_closed and occupant.dm_message_id is None
        check_dms_closed_notice(game, "alice")
    elif fault.retried:
        assert not game.shows_hand(game.dm_message(alice), alice)
        await env.advance_time(RETRY_AFTER[0] + 1)
        if fault.times == 1:
            assert game.shows_hand(game.dm_message(alice), alice), "the retry sends it"
        await game.retries_until(injected)
        assert occupant.dm_message_id not in (None, old)
        assert game.shows_hand(game.dm_message(alice), alice)
    else:
        assert not occupant.dm_closed

    await game.play()
    await game.check_end()
    assert occupant.dm_closed == (fault.status == 403)
    if fault.status == 403:
        assert alice.ephemeral_clicks > clicks, "she played on through My hand"
    else:
        assert occupant.dm_message_id not in (None, old), "a new DM, edited to the end"
    await game.check_after_restart(test_config)


def check_dms_closed_notice(game: Game, *names: str) -> None:
    table = game.table
    lang = table.language
    (embed, *_) = game.table_message().embeds
    notice = next(f for f in embed.fields if f.name == t("tables.dms_closed_title", lang))
    assert notice.value == t("tables.dms_closed", lang, names=", ".join(names))


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("dm_edit"))
@pytest.mark.simcord(settle_timeout=3)
async def test_a_hand_in_the_dms_cannot_be_edited(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """Mid-game, the edit of alice's hand in her DMs fails: she blocked the bot (My hand
    then), the DM is gone (sent again), or Discord fails for a while (edited later)."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world)
    alice = game.humans[0]
    dm = world.member.user.dm_channel
    await game.start()
    await game.play_until(lambda: len(game.deal.actions) >= 2)
    occupant = game.table.seats[game.seat(alice)]
    assert occupant is not None
    old = occupant.dm_message_id
    assert old is not None
    if fault.code == 10008:  # the DM is deleted, for good
        injected = inject(env, "PATCH", f"/channels/{dm.id}/messages/{old}", fault, times=FOR_GOOD)
    else:
        injected = inject(env, "PATCH", f"/channels/{dm.id}/messages/*", fault)
    await game.play_until(lambda: injected.failed >= 1)

    clicks = alice.ephemeral_clicks
    if fault.status == 403:
        # alice blocked the bot mid-game: the table says so, she plays on through My hand
        assert occupant.dm_closed and occupant.dm_message_id is None
        check_dms_closed_notice(game, "alice")
    elif fault.retried:
        assert not game.shows_hand(game.dm_message(alice), alice), "the DM is behind"
        await env.advance_time(RETRY_AFTER[0] + 1)
        if fault.times == 1:
            assert game.shows_hand(game.dm_message(alice), alice), "the retry edits the DM"
        await game.retries_until(injected)
        assert game.shows_hand(game.dm_message(alice), alice)
    else:
        # the DM is gone: the hand is sent again
        assert occupant.dm_message_id not in (None, old)
        assert game.shows_hand(game.dm_message(alice), alice)

    await game.play()
    await game.check_end()
    if fault.status == 403:
        assert alice.ephemeral is not None and not alice.ephemeral_by_dm
        assert alice.ephemeral_clicks > clicks, "she played on through My hand"
        assert len(dm.history()) == 1, "no hand was sent again to closed DMs"
    await game.check_after_restart(test_config)


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("thread_create"))
@pytest.mark.simcord(settle_timeout=3)
async def test_the_thread_cannot_be_made(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """The game's thread cannot be made: it plays in the channel."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world)
    injected = inject(env, "POST", f"/channels/{world.channel.id}/*threads", fault)
    await game.start()
    assert injected.failed == 1
    table = game.table
    assert table.thread_id is None and not world.channel.threads
    assert table.play_message_id in {m.id for m in world.channel.history()}
    await game.play()
    await game.check_end()
    await game.check_after_restart(test_config)


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("click_answer"))
@pytest.mark.simcord(settle_timeout=3)
async def test_a_click_in_a_hand_cannot_be_answered(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """Two humans: the card of a click whose answer fails is played all the same, and both
    hands and the table show it."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world, humans=2)
    await game.start()
    await game.play_until(lambda: len(game.deal.actions) >= 2)
    deal = game.deal
    player = game.human_at(deal.turn)
    assert player is not None
    other = next(h for h in game.humans if h is not player)
    seat = game.seat(player)
    hand = await game.hand(player)
    assert hand is not None and channel_of(hand) == player.member.user.dm_channel.id
    card = next(b for b in game.usable(hand, seat) if b.custom_id.rsplit(":", 1)[1][0].isdigit())
    played = decode_action(seat, card.custom_id.rsplit(":", 1)[1])
    before = len(deal.actions)

    injected = inject(env, "POST", "/interactions/*/*/callback", fault)
    result = await game.click(player, hand, card)
    assert injected.failed == 1 and not result.acknowledged
    # the card is played and saved; both hands and the table show it
    assert len(deal.actions) > before and deal.actions[before] == played
    saved = await table_repo.deal_actions(db_of(env), game.table_id, game.table.deal_no)
    assert len(saved) == len(deal.actions)
    assert game.shows_hand(game.dm_message(player), player)
    assert game.shows_hand(game.dm_message(other), other)
    assert game.table_is_current()

    await game.play()
    assert injected.failed == fault.times
    await game.check_end()
    await game.check_after_restart(test_config)


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("command_answer"))
@pytest.mark.simcord(settle_timeout=3)
async def test_tute_new_cannot_be_answered(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """Nobody can see a lobby whose answer failed: its table is closed at once; the next
    ``/tute new`` works."""
    env = simcord_env
    table_seed(SEED)
    injected = inject(env, "POST", "/interactions/*/*/callback", fault)
    service = service_of(env)
    for _ in range(fault.times):
        result = await world.member.slash(world.channel, "tute new", variant="habanero")
        assert not result.acknowledged and result.response is None
        assert not service.tables, "no table is left open"
        rows = await db_of(env).fetchall("SELECT status FROM tables")
        assert rows and {status for (status,) in rows} == {Status.CLOSED.value}
    assert injected.failed == fault.times

    game = Game(env, world, [Human(world.member)], SEED)
    await game.open(robots=1)
    await game.start()
    await game.play()
    await game.check_end()
    await game.check_after_restart(test_config)


# ------------------------------------------------------------------------ chaos

CHAOS_KINDS = {"table_edit": 3, "dm_edit": 3, "click_answer": 2, "dm_send": 1}
"""The calls a fault strikes mid-game, and how often (a DM is seldom sent mid-game)."""
CHAOS_FAULTS = [
    (kind, name)
    for kind, weight in CHAOS_KINDS.items()
    for name in FAULTS
    if (kind, name) not in NOT_APPLICABLE
    for _ in range(weight)
]


@dataclass
class Chaos:
    """Faults drawn at random (from a seeded ``random.Random``) on what the game uses now."""

    game: Game
    rng: random.Random
    injected: list[Injected] = field(default_factory=list[Injected])

    def strike(self) -> None:
        env = self.game.env
        kind, name = self.rng.choice(CHAOS_FAULTS)
        fault = FAULTS[name]
        table = self.game.table
        human = self.rng.choice(self.game.humans)
        dm = human.member.user.dm_channel.id
        if kind == "table_edit":
            method, path = "PATCH", f"/channels/{table.where_id}/messages/{table.play_message_id}"
        elif kind == "dm_send":
            method, path = "POST", f"/channels/{dm}/messages"
        elif kind == "dm_edit":
            method, path = "PATCH", f"/channels/{dm}/messages/*"
        else:
            method, path = "POST", "/interactions/*/*/callback"
        self.game.log.append(f"{kind}:{name}")
        self.injected.append(inject(env, method, path, fault))


CHAOS_GAMES = [
    # seed, variant, humans (the other seats are robots), bet
    pytest.param(1, "habanero", 1, 20, id="habanero-1-human-bet"),
    pytest.param(2, "arrastrado", 1, 0, id="arrastrado-1-human"),
    pytest.param(3, "arrastrado", 2, 50, id="arrastrado-2-humans-bet"),
]


@pytest.mark.e2e
@pytest.mark.parametrize(("seed", "variant", "humans", "bet"), CHAOS_GAMES)
@pytest.mark.simcord(settle_timeout=3)
async def test_chaos(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    seed: int,
    variant: str,
    humans: int,
    bet: int,
) -> None:
    """A game under faults drawn at random (seeded) from those above, at random moments,
    and one or two restarts (as in production, or a crash; the command sync failing at
    times). At the end: the game is over (finished, or cancelled with the stakes back), the
    chips add up, no table holds any, every deal's log is whole, and the command tree never
    shrank."""
    env = simcord_env
    rng = random.Random(seed)
    table_seed(rng.randrange(1 << 30))
    guild = world.guild.id
    async with db_of(env).transaction() as conn:
        await update_settings(conn, guild, starting_chips=rng.choice((100, 300)))
    members = [world.member]
    if humans == 2:
        members.append(await add_member(env, world, "bob"))
    game = Game(env, world, [Human(m) for m in members], seed)
    commands = registered(env)
    chaos = Chaos(game, rng)

    if rng.random() < 0.5:  # the answer to the first /tute new fails
        chaos.injected.append(inject(env, "POST", "/interactions/*/*/callback", FAULTS["outage"]))
        failed = await world.member.slash(world.channel, "tute new", variant=variant)
        assert not failed.acknowledged and not service_of(env).tables
    seats = 2 if variant == "habanero" else 3
    await game.open(variant, robots=seats - humans, bet=bet, turn_time=rng.choice((60, 3600)))
    if rng.random() < 0.5:
        thread_fault = FAULTS[rng.choice(("no-permission", "outage", "rate-limited"))]
        chaos.injected.append(
            inject(env, "POST", f"/channels/{world.channel.id}/*threads", thread_fault)
        )
    await game.start()

    restarts = sorted(rng.sample(range(2, 12), rng.choice((1, 2))))
    for step in range(400):
        if game.table.status is not Status.PLAYING:
            break
        if restarts and step == restarts[0]:
            restarts.pop(0)
            if rng.random() < 0.5:  # the command sync fails: Discord keeps what it had
                inject(env, "PUT", "/applications/*/commands", FAULTS["outage"])
            await game.restart(test_config, graceful=rng.random() < 0.5)
            game.log.append("restart")
            assert game.table_id in service_of(env).tables, "the table comes back"
        if rng.random() < 0.3:
            chaos.strike()
        await game.step()
    else:
        raise AssertionError("the game did not end")
    assert not restarts, "each restart came during the game"
    assert len([i for i in chaos.injected if i.failed]) >= 3, "faults struck"

    for delay in RETRY_AFTER:  # what Discord failed to take at the end is shown again
        await env.advance_time(delay + 1)
    table = game.table
    assert table.status in (Status.FINISHED, Status.CANCELLED), table.status
    if table.status is Status.FINISHED:
        await game.check_end()
    db = db_of(env)
    audit = await ledger.audit(db, guild)
    assert audit.balanced, audit
    assert audit.tables == 0, "no chips held by tables"
    await check_logs(db)
    rows = await db.fetchall("SELECT status FROM tables")
    assert {status for (status,) in rows} <= {"finished", "cancelled", "closed"}
    await game.check_after_restart(test_config)
    assert registered(env) >= commands, "the command tree never shrinks"


def test_every_fault_is_tried_on_every_call_or_said_why_not() -> None:
    """The matrix is whole: a fault left out of a kind of call has its reason."""
    assert set(NOT_APPLICABLE) <= {(kind, name) for kind in KINDS for name in FAULTS}
    for kind in KINDS:
        tried = {case.id for case in faults_for(kind)}
        left_out = {name for (k, name) in NOT_APPLICABLE if k == kind}
        assert tried | left_out == set(FAULTS) and not tried & left_out, kind
        assert len(tried) >= 5, kind
