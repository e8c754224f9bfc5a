"""A table played through SimCord while Discord fails under it (see ``_faults``): its humans
click wherever their hand is, and at its end every place it shows is checked.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord
from simcord import MemberActor

from bot.config import Config
from bot.engine import Deal, Kind
from bot.i18n import t
from bot.storage import Database
from bot.storage import tables as table_repo
from bot.tables.codes import decode_action
from bot.tables.model import Status, Table
from bot.tables.service import DECLARE_GRACE, TableService
from bot.tables.views import table_view
from cogs.tables import messages
from cogs.tables.faces import faces_of
from cogs.tables.layouts import ASK
from cogs.tables.presenter import RETRY_AFTER
from tests.cogs.tables._faults import Injected
from tests.cogs.tables._settings import set_options, split
from tests.cogs.tables._world import (
    Btn,
    Message,
    add_member,
    buttons,
    card_of,
    channel_of,
    dm_place,
    gone,
    hand_buttons,
    layout_texts,
    op_button,
    placed,
)
from tests.conftest import World, fast_bot
from tests.tables._play import tables_of


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
        """The table's message. A table whose end failed to show on its message shows it on
        a message posted again, which an ended table does not note: for a table that is
        over, that is the latest message drawn with layout components where it played."""
        table = self.table
        history = self.messages(placed(table).where_id)
        if not table.status.is_open:
            drawn = [m for m in history if m.flags.components_v2]
            if drawn and drawn[-1].id > (placed(table).play_message_id or 0):
                return drawn[-1]
        return next(m for m in history if m.id == placed(table).play_message_id)

    def dm_message(self, human: Human) -> discord.Message | None:
        occupant = self.table.seats[self.seat(human)]
        assert occupant is not None
        if dm_place(self.table, self.seat(human)).dm_message_id is None:
            return None
        history = human.member.user.dm_channel.history()
        return next(
            (m for m in history if m.id == dm_place(self.table, self.seat(human)).dm_message_id),
            None,
        )

    def table_is_current(self) -> bool:
        """Whether the table message shows the table as it is now."""
        table = self.table
        view = table_view(table)
        expected = messages.table_payload(view, placed(view), faces_of(self.env.bot))["view"]
        wanted = [
            c.content for c in expected.walk_children() if isinstance(c, discord.ui.TextDisplay)
        ]
        return layout_texts(self.table_message()) == wanted

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
            if code.startswith(ASK):
                continue  # capote or resigning asks first: a player here never does either
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
        shown = sorted(c for b in hand_buttons(message) if (c := card_of(b)) is not None)
        legal = {a.arg for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PLAY}
        enabled = {
            c for b in hand_buttons(message) if not b.disabled and (c := card_of(b)) is not None
        }
        return shown == cards and enabled == legal

    # -- the lobby

    async def open(
        self,
        variant: str = "habanero",
        *,
        robots: int = 1,
        rounds: int = 1,
        teams: list[int] | None = None,
        **options: Any,
    ) -> None:
        """``/tute new`` by the first human (the options of the Settings form set there), the
        others join (in pairs, the team ``teams`` gives each human), the host adds robots."""
        host = self.humans[0].member
        options.setdefault("turn_time", 3600)
        opening, form = split(options)
        result = await host.slash(
            self.world.channel, "tute new", variant=variant, rounds=rounds, **opening
        )
        lobby = result.response
        assert lobby is not None and not result.ephemeral
        await set_options(host, lobby, **form)
        self.lobby = lobby
        self.table_id = max(tables_of(self.service))
        for i, human in enumerate(self.humans[1:], start=1):
            op = f"team{teams[i]}" if teams else "join"
            joined = await human.member.click(lobby, custom_id=op_button(lobby, op))
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
        if placed(table).by_dm(table_view(table), seat):
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
        human.ephemeral_by_dm = placed(self.table).by_dm(table_view(self.table), seat)
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
        assert (
            layout_texts(final)[0].splitlines()[0]
            == f"### {t('summary.game_over', lang, id=table.id)}"
        ), layout_texts(final)
        # three buttons are left: to play again, to replay the last deal and to review it
        assert [b.custom_id for b in buttons(final)] == [
            f"tute:t:{table.id}:rematch",
            f"tute:rp:{table.id}:{table.deal_no}",
            f"tute:rv:{table.id}:{table.deal_no}",
        ]
        for human in self.humans:
            occupant = table.seats[self.seat(human)]
            assert occupant is not None
            if not dm_place(table, self.seat(human)).dm_closed:
                dm = self.dm_message(human)
                assert dm is not None, "the hand reached the DMs"
                assert not [b for b in hand_buttons(dm) if not b.disabled], "the DM hand ended"
            if human.ephemeral is not None and not human.ephemeral_by_dm:
                ended = [b for b in hand_buttons(human.ephemeral) if not b.disabled]
                went = gone(self.env, human.ephemeral)
                assert went or not ended, "the hand under My hand ended, or went"
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
        assert layout_texts(again) == layout_texts(ended)
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


async def new_game(env: simcord.Env, world: World, *, humans: int = 1, notify: bool = True) -> Game:
    """A habanero lobby: alice, and bob or a robot. ``notify`` off: they said ``/tute notify
    on:False`` first, so their DM hands are edited in place all game long."""
    members = [world.member]
    if humans == 2:
        members.append(await add_member(env, world, "bob"))
    if not notify:
        for member in members:
            said = await member.slash(world.channel, "tute notify", on=False)
            assert said.ephemeral and said.response is not None
    game = Game(env, world, [Human(m) for m in members], SEED)
    await game.open(robots=2 - humans)
    return game


SEED = 0
"""A short game of two deals, where alice (the first human) plays first."""


def check_dms_closed_notice(game: Game, *names: str) -> None:
    table = game.table
    lang = table.language
    said = layout_texts(game.table_message())
    assert any(t("tables.dms_closed", lang, names=", ".join(names)) in text for text in said)
