"""Tables end to end through SimCord: the real bot, slash commands, buttons and DMs.

The whole-game tests drive every human by clicking the enabled buttons of their own hand (in
their DMs, or in the ephemeral "My hand" reply when their DMs are closed) and, after every
click, audit what each person can see: the public channel and thread, each player's DMs and
ephemeral replies, and every REST call the bot made. A card still held in a hidden hand must
never show where somebody other than its holder can see it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord
from simcord import ChannelHandle, MemberActor

from bot.client import TuteBot
from bot.config import Config
from bot.engine import CODES, Action, Deal, IllegalActionError, Kind, Variant
from bot.engine.referee import judge
from bot.i18n import t
from bot.render.symbols import SUIT_SYMBOLS
from bot.storage.members import member_stats
from bot.storage.settings import update_settings
from bot.tables import service as service_module
from bot.tables.model import Status, Table
from bot.tables.service import DECLARE_GRACE, TableService
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from cogs.tables.buttons import HandButton, LobbyButton, TableButton
from tests.conftest import World, fast_bot
from tests.tables._play import tables_of


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)


def enabled_cards(message: discord.Message) -> list[str]:
    labels: list[str] = []
    for row in message.components:
        for child in getattr(row, "children", []):
            if (
                isinstance(child, discord.Button)
                and not child.disabled
                and child.custom_id
                and child.custom_id.startswith("tute:h:")
            ):
                code = child.custom_id.rsplit(":", 1)[1]
                if code[0].isdigit():
                    labels.append(child.custom_id)
    return labels


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_habanero_against_a_robot(simcord_env: simcord.Env, world: Any) -> None:
    env = simcord_env
    alice = world.member
    result = await alice.slash(world.channel, "tute new", variant="habanero")
    lobby = result.response
    assert lobby is not None and not result.ephemeral
    await alice.click(
        lobby, custom_id=lobby.message.components[1].children[0].custom_id
    )  # add robot
    start = next(
        c.custom_id
        for row in lobby.message.components
        for c in row.children
        if c.custom_id and c.custom_id.endswith(":start")
    )
    await alice.click(lobby, custom_id=start)
    dm = alice.user.dm_channel
    for _ in range(200):
        hand = dm.history()[-1]
        cards = enabled_cards(hand)
        if not cards:
            break
        await alice.user.click(hand, custom_id=cards[0])
    table = next(iter(tables_of(env.bot.tables).values()))  # type: ignore[attr-defined]
    assert table.status.value == "finished", table.status


# ------------------------------------------------------------------- helpers


@pytest.fixture
def table_seed(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Pin the shuffle of the next tables (each table draws its seed when it opens)."""

    def pin(seed: int) -> None:
        monkeypatch.setattr(service_module, "secrets", SimpleNamespace(randbits=lambda _: seed))

    return pin


Message = discord.Message | simcord.ResponseMessage

CARD_LABEL = re.compile(
    r"(?<![0-9])(1[012]|[1-7])(" + "|".join(re.escape(s) for s in SUIT_SYMBOLS.values()) + ")"
)
SUIT_BY_SYMBOL = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
CARD_BY_CODE = {code: card for card, code in enumerate(CODES)}
LOG_TITLES = {t("tables.log", lang) for lang in ("en", "es")}


def cards_in(text: str) -> set[int]:
    """The cards whose labels (``12🪙``) appear in a text."""
    return {
        CARD_BY_CODE[f"{rank}{SUIT_BY_SYMBOL[symbol]}"] for rank, symbol in CARD_LABEL.findall(text)
    }


@dataclass(frozen=True, slots=True)
class Btn:
    custom_id: str
    label: str
    disabled: bool


def raw_buttons(rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for row in rows:
        if row.get("type") == 2:
            yield row
        yield from raw_buttons(row.get("components", []))


def buttons(message: Message) -> list[Btn]:
    """Every button of a message, in order."""
    if isinstance(message, simcord.ResponseMessage):
        return [
            Btn(b.get("custom_id") or "", b.get("label") or "", bool(b.get("disabled")))
            for b in raw_buttons(message.components)
        ]
    return [
        Btn(child.custom_id or "", child.label or "", child.disabled)
        for row in message.components
        for child in getattr(row, "children", [])
        if isinstance(child, discord.Button)
    ]


def op_button(message: Message, op: str) -> str:
    return next(b.custom_id for b in buttons(message) if b.custom_id.endswith(f":{op}"))


def hand_buttons(message: Message) -> list[Btn]:
    return [b for b in buttons(message) if b.custom_id.startswith("tute:h:")]


def card_of(button: Btn) -> int | None:
    code = button.custom_id.rsplit(":", 1)[1]
    return CARD_BY_CODE[code] if code[0].isdigit() else None


def hand_cards(message: Message) -> list[int]:
    return [c for b in hand_buttons(message) if (c := card_of(b)) is not None]


def deal_and_trick(message: Message) -> tuple[int, int] | None:
    """The deal and trick a hand's buttons were drawn for (None: no hand buttons)."""
    for b in hand_buttons(message):
        return button_deal(b)
    return None


def button_deal(button: Btn) -> tuple[int, int]:
    _, _, _, deal, trick, _ = button.custom_id.split(":")
    return int(deal), int(trick)


def channel_of(message: Message) -> int:
    if isinstance(message, simcord.ResponseMessage):
        return message.channel_id
    return message.channel.id


def texts(message: Message, *, skip_past: bool = True) -> str:
    """What a message says: content, embeds (without the log of past events and without a
    finished deal's summary), button labels and the alt text of its pictures."""
    parts = [message.content or ""]
    for embed in message.embeds:
        if skip_past and embed.image.url == "attachment://summary.png":
            continue
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        for f in embed.fields:
            if skip_past and f.name in LOG_TITLES:
                continue
            parts += [f.name or "", f.value or ""]
    parts += [b.label for b in buttons(message)]
    parts += [a.description or "" for a in message.attachments]
    return "\n".join(parts)


def service_of(env: simcord.Env) -> TableService:
    return env.bot.tables  # type: ignore[attr-defined,no-any-return]


def the_table(env: simcord.Env) -> Table:
    return next(iter(tables_of(service_of(env)).values()))


def public_known(deal: Deal) -> set[int]:
    """Cards everybody has seen although a player may hold them: the turned card, and a trump
    7 or 2 given for it (it lay face up under the stock)."""
    known = {deal.dealt.turned}
    known.update(e.gave for e in deal.exchanges)
    return known


async def add_member(env: simcord.Env, world: World, name: str) -> MemberActor:
    member = world.guild.add_member(env.create_user(name))
    await env.settle()
    return member


async def open_table(
    env: simcord.Env,
    world: World,
    variant: str,
    humans: list[MemberActor],
    *,
    robots: int = 0,
    teams: list[int] | None = None,
    **options: Any,
) -> simcord.ResponseMessage:
    """``/tute new`` by the first human, the others join (a team each in pairs), the host adds
    robots with the button and starts (any seat still empty gets a robot)."""
    host = humans[0]
    result = await host.slash(world.channel, "tute new", variant=variant, rounds=1, **options)
    lobby = result.response
    assert lobby is not None and not result.ephemeral
    for i, member in enumerate(humans[1:], start=1):
        op = f"team{teams[i]}" if teams else "join"
        res = await member.click(lobby, custom_id=op_button(lobby, op))
        assert res.acknowledged and not res.ephemeral, op
    for _ in range(robots):
        await host.click(lobby, custom_id=op_button(lobby, "robot"))
    await host.click(lobby, custom_id=op_button(lobby, "start"))
    return lobby


def thread_of(world: World, table: Table) -> ChannelHandle:
    return next(c for c in world.channel.threads if c.id == table.thread_id)


# ------------------------------------------------------------------ the audit


@dataclass
class Player:
    member: MemberActor
    dm_open: bool = True
    ephemerals: list[simcord.ResponseMessage] = field(default_factory=list[simcord.ResponseMessage])


class Audit:
    """What each person can see, checked against the engine's hands after every click."""

    def __init__(self, env: simcord.Env, world: World, players: list[Player]) -> None:
        self.env = env
        self.world = world
        self.players = players
        self.cursor = len(env.http_requests)
        self.checks = 0

    @property
    def table(self) -> Table:
        return the_table(self.env)

    def seat_of(self, member: MemberActor) -> int:
        seat = self.table.seat_of(member.id)
        assert seat is not None
        return seat

    def hidden(self, viewer: int | None) -> set[int]:
        """The cards of the hands the viewer may not see (every hand for the public)."""
        table = self.table
        deal = table.deal
        if deal is None or table.status is not Status.PLAYING:
            return set()
        mine = table.seat_of(viewer) if viewer is not None else None
        cards = {c for s in range(deal.n) if s != mine for c in deal.hand(s)}
        return cards - public_known(deal)

    def public_messages(self) -> list[discord.Message]:
        table = self.table
        messages = self.world.channel.history()
        if table.thread_id is not None:
            messages += thread_of(self.world, table).history()
        return messages

    def private_messages(self, player: Player) -> list[Message]:
        """A player's DMs and every ephemeral reply they got, here and in the thread."""
        member = player.member
        messages: list[Message] = list(member.user.dm_channel.history(viewer=member.user))
        channels = [self.world.channel]
        if self.table.thread_id is not None:
            channels.append(thread_of(self.world, self.table))
        for channel in channels:
            messages += [m for m in channel.history(viewer=member) if m.flags.ephemeral]
        return messages

    def check(self) -> None:
        """Everything visible now, and every REST call since the last check."""
        self.checks += 1
        table = self.table
        deal = table.deal
        # public: the channel and the thread show no hand, and no card still held
        hidden_all = self.hidden(None)
        for message in self.public_messages():
            where = f"public message {message.id}"
            assert not hand_buttons(message), where
            assert not any(CARD_LABEL.fullmatch(b.label) for b in buttons(message)), where
            assert "hand.png" not in {a.filename for a in message.attachments}, where
            leaked = cards_in(texts(message)) & hidden_all
            assert not leaked, (where, [CODES[c] for c in leaked])
        # each player's DMs and ephemerals: their own hand only
        for player in self.players:
            member = player.member
            seat = table.seat_of(member.id)
            others = self.hidden(member.id)
            for message in self.private_messages(player):
                where = f"{member.user.name}'s message {message.id}"
                held = deal_and_trick(message)
                if held is not None:
                    assert seat is not None, where
                    assert all(
                        b.custom_id.startswith(f"tute:h:{table.id}:") for b in hand_buttons(message)
                    ), where
                if held is None or deal is None or held[0] != table.deal_no:
                    continue  # a snapshot of an earlier deal (or no hand at all)
                leaked = (cards_in(texts(message)) | set(hand_cards(message))) & others
                assert not leaked, (where, [CODES[c] for c in leaked])
            if seat is not None:
                self.check_dm(player, seat)
        self.check_requests()

    def check_dm(self, player: Player, seat: int) -> None:
        """The hand in the player's DMs is the engine's hand of their seat, its enabled cards
        the ones they may play. (While a robot is about to play, a hand its player cannot use
        may wait for that play to be shown.)"""
        table = self.table
        deal = table.deal
        occupant = table.seats[seat]
        if (
            deal is None
            or table.status is not Status.PLAYING
            or occupant is None
            or occupant.dm_message_id is None
        ):
            return
        on_turn = table.seats[deal.turn]
        if on_turn is not None and on_turn.robot_plays:
            return
        dm = next(
            m for m in player.member.user.dm_channel.history() if m.id == occupant.dm_message_id
        )
        assert sorted(hand_cards(dm)) == sorted(deal.hand(seat)), "the DM shows the hand"
        # the cards show once, in the picture (its alt text names them) and on the buttons
        held = set(deal.hand(seat))
        (embed,) = dm.embeds
        assert not cards_in(embed.description or "") & held, "the text does not list them"
        if held:
            assert embed.image.url == "attachment://hand.png"
            (picture,) = dm.attachments
            assert cards_in(picture.description or "") == held
        legal = {a.arg for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PLAY}
        enabled = {card_of(b) for b in hand_buttons(dm) if not b.disabled} - {None}
        assert enabled == (set() if occupant.robot_plays else legal), "the legal cards are enabled"

    def check_requests(self) -> None:
        """No REST call since the last check put a hand where its owner is not alone."""
        table = self.table
        public = {self.world.channel.id}
        if table.thread_id is not None:
            public.add(table.thread_id)
        dm_owner = {
            self.env.backend.dm_channels.get(p.member.id): p.member.id for p in self.players
        }
        for call in self.env.http_requests[self.cursor :]:
            body = json.dumps(call.json or {})
            if "tute:h:" not in body and "hand.png" not in body:
                continue
            match = re.match(r"/channels/(\d+)/messages", call.path)
            if match:
                channel_id = int(match[1])
                assert channel_id not in public, (call.method, call.path)
                owner = dm_owner.get(channel_id)
                assert owner is not None and table.seat_of(owner) is not None, call.path
                continue
            # an interaction answer: a new message must be ephemeral; an edit changes the
            # clicked message (a DM or an ephemeral: checked through the messages above)
            data = (call.json or {}).get("data", call.json or {})
            kind = (call.json or {}).get("type")
            if kind == 4 or ("webhooks" in call.path and call.method == "POST"):
                assert data.get("flags", 0) & 64, (call.method, call.path)
        self.cursor = len(self.env.http_requests)


# ------------------------------------------------------------------ the driver

DECLARATIONS = {Kind.SING, Kind.EXCHANGE, Kind.TUTE}


@dataclass
class Driver:
    env: simcord.Env
    world: World
    players: list[Player]
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    clicks: int = 0
    declared: list[str] = field(default_factory=list[str])
    """The declarations clicked, by code (``sO``: sing oros, ``x``: exchange...)."""
    summaries: set[int] = field(default_factory=set[int])
    """The deals whose summary the table message has shown."""

    def __post_init__(self) -> None:
        self.audit = Audit(self.env, self.world, self.players)

    @property
    def table(self) -> Table:
        return the_table(self.env)

    def player_at(self, seat: int) -> Player | None:
        occupant = self.table.seats[seat]
        if occupant is None or occupant.robot_plays:
            return None
        return next((p for p in self.players if p.member.id == occupant.user_id), None)

    def table_message(self) -> discord.Message:
        table = self.table
        return next(
            m for m in thread_of(self.world, table).history() if m.id == table.play_message_id
        )

    def check_table_message(self) -> None:
        """The table in the thread shows the state of play: trick, turn, scores; under it,
        the last deal's summary, until the next deal ends."""
        table = self.table
        deal = table.deal
        shown = self.table_message()
        expected = ui.table_embed(table_view(table), table.language)
        embed, *under = shown.embeds
        if table.summary is None:
            assert not under
        else:
            (summary,) = under
            summary_no = table.summary.deal_no
            assert summary.title == t(
                "summary.title", table.language, deal=summary_no + 1, id=table.id
            )
            # its picture until the first trick of the next deal is over
            if table.status is Status.PLAYING and deal is not None and deal.tricks:
                assert not summary.image.url
            else:
                assert summary.image.url == "attachment://summary.png"
            assert not summary.fields, "the summary is a few short lines, no columns"
            self.summaries.add(summary_no)
        assert embed.title == expected.title
        assert embed.description == expected.description
        assert [(f.name, f.value) for f in embed.fields] == [
            (f.name, f.value) for f in expected.fields
        ]
        if deal is not None and table.status is Status.PLAYING:
            name = ui.seat_name(table.seats[deal.turn], table.language)
            assert name in (embed.description or "")
            for _, card in deal.trick_seats():
                assert ui.card_text(card) in embed.fields[0].value  # type: ignore[operator]

    async def hand_message(self, player: Player, *, fresh: bool = False) -> Message:
        """Where the player's hand is now: their DM; or, for a player without one, the hand
        they opened with "My hand", which follows the game by itself (``fresh``: open
        another)."""
        table = self.table
        seat = self.audit.seat_of(player.member)
        deal = table.deal
        assert deal is not None
        if player.dm_open:
            occupant = table.seats[seat]
            assert occupant is not None and not occupant.dm_closed
            return next(
                m for m in player.member.user.dm_channel.history() if m.id == occupant.dm_message_id
            )
        if player.ephemerals and not fresh:
            reply = player.ephemerals[-1]
            assert sorted(hand_cards(reply)) == sorted(deal.hand(seat)), "it shows the hand"
            legal = {a.arg for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PLAY}
            enabled = {card_of(b) for b in hand_buttons(reply) if not b.disabled} - {None}
            assert enabled == legal, "the ephemeral hand is up to date"
            return reply
        result = await player.member.click(
            self.table_message(), custom_id=op_button(self.table_message(), "hand")
        )
        reply = result.response
        assert reply is not None and reply.ephemeral
        assert sorted(hand_cards(reply)) == sorted(deal.hand(seat)), "My hand shows the hand"
        player.ephemerals.append(reply)
        self.audit.check()
        return reply

    async def click(self, player: Player, message: Message, button: Btn) -> None:
        """One click in a hand. The robots play at once here (no delay): what the click and
        their plays after it show on the table is one edit of the table message."""
        before = len(self.env.http_requests)
        if channel_of(message) == player.member.user.dm_channel.id:
            result = await player.member.user.click(message, custom_id=button.custom_id)
        else:
            result = await player.member.click(message, custom_id=button.custom_id)
        self.clicks += 1
        table_message = f"/messages/{self.table.play_message_id}"
        edits = [
            call
            for call in self.env.http_requests[before:]
            if call.method == "PATCH" and call.path.endswith(table_message)
        ]
        assert len(edits) <= 1, "one edit of the table for the click and the robots' run"
        assert result.acknowledged
        reply = result.response
        assert reply is not None and reply.id == message.id, "the hand is edited in place"
        shown = deal_and_trick(reply)
        if card_of(button) is not None and shown is not None and shown[0] == button_deal(button)[0]:
            assert card_of(button) not in hand_cards(reply), "the card left the hand"
        self.audit.check()

    async def play(self, *, limit: int = 400) -> Table:
        """Play until the game is over: each human on turn clicks an enabled card (sometimes
        a declaration first); when only a robot waits for a human who may declare, time
        passes."""
        for _ in range(limit):
            table = self.table
            if table.status is not Status.PLAYING:
                break
            deal = table.deal
            assert deal is not None
            legal = deal.legal_actions()
            on_turn = self.player_at(deal.turn)
            declaring = [
                p
                for a in legal
                if a.kind in DECLARATIONS and (p := self.player_at(a.seat)) is not None
            ]
            if on_turn is not None and any(
                a.seat == deal.turn and a.kind is Kind.PLAY for a in legal
            ):
                player = on_turn
            elif declaring:
                player = declaring[0]
            else:
                await self.env.advance_time(DECLARE_GRACE + 1)
                continue
            message = await self.hand_message(player)
            mine = hand_buttons(message)
            cards = [b for b in mine if not b.disabled and card_of(b) is not None]
            extras = [
                b for b in mine if card_of(b) is None and b.custom_id.rsplit(":", 1)[1][0] in "sxt"
            ]
            if extras and self.rng.random() < 0.8:
                chosen = self.rng.choice(extras)
                await self.click(player, message, chosen)
                self.declared.append(chosen.custom_id.rsplit(":", 1)[1])
            elif cards:
                await self.click(player, message, self.rng.choice(cards))
            else:
                await self.env.advance_time(DECLARE_GRACE + 1)
                continue
            self.check_table_message()
        else:
            raise AssertionError("the game did not end")
        return self.table

    def check_end(self) -> None:
        """Each deal's summary shown in the table message, which ends on the final result
        with its winner over the last summary; no message of their own; every hand closed."""
        table = self.table
        assert table.status is Status.FINISHED, table.status
        assert table.winner is not None
        lang = table.language
        self.check_table_message()
        assert self.summaries == set(range(table.deal_no + 1))
        final, last = self.table_message().embeds
        assert final.title == t("summary.game_over", lang, id=table.id)
        assert ui.winner_line(table_view(table), table.winner, lang) in (final.description or "")
        assert last.title == t("summary.title", lang, deal=table.deal_no + 1, id=table.id)
        # one winner "wins", two partners "win"
        pair = table.variant is Variant.PAIRS
        if lang == "en":
            assert ("Winners: " if pair else "Winner: ") in (final.description or "")
            outcome = (last.description or "").splitlines()[0]
            if "round" in outcome:
                assert outcome.endswith(" win the round." if pair else " wins the round.")
        thread = thread_of(self.world, table).history()
        bot_id = self.env.bot.user.id  # type: ignore[union-attr]
        said = [m.id for m in thread if m.author.id == bot_id]
        assert said == [table.play_message_id], "the table message is the thread's only one"
        for player in self.players:
            if player.dm_open:
                (dm,) = player.member.user.dm_channel.history()
                assert not hand_buttons(dm), "the finished hand has no buttons"
        self.audit.check()


# ------------------------------------------------------------- whole games


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_pairs_two_partners_and_two_robots(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(1)
    bob = await add_member(env, world, "bob")
    lobby = await open_table(env, world, "pairs", [world.member, bob], robots=2, teams=[0, 0])
    table = the_table(env)
    assert [s.user_id if s else None for s in table.seats] == [world.member.id, None, bob.id, None]
    # the lobby now points to the game's thread, where the table is
    assert table.thread_id is not None and f"<#{table.thread_id}>" in (
        lobby.embeds[0].description or ""
    )
    (follow,) = [b for row in lobby.components for b in row["components"] if b.get("url")]
    assert follow["url"].endswith(f"/{table.thread_id}")
    driver = Driver(env, world, [Player(world.member), Player(bob)])
    driver.audit.check()
    await driver.play()
    driver.check_end()
    assert driver.clicks >= 10


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_habanero_two_humans(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(4)  # two deals; both players sing, one exchanges the trump 7 and then the 2
    bob = await add_member(env, world, "bob")
    await open_table(env, world, "habanero", [world.member, bob])
    driver = Driver(env, world, [Player(world.member), Player(bob)])
    driver.audit.check()
    await driver.play()
    driver.check_end()
    assert driver.table.deal_no == 1
    assert "x" in driver.declared and any(code[0] == "s" for code in driver.declared)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_habanero_one_human_and_a_robot(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """The robot draws and plays between alice's clicks; her DM follows her hand."""
    env = simcord_env
    table_seed(8)
    await open_table(env, world, "habanero", [world.member], robots=1)
    driver = Driver(env, world, [Player(world.member)])
    driver.audit.check()
    await driver.play()
    driver.check_end()
    assert driver.clicks >= 20


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_individual_two_humans_and_two_robots(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """One robot added with the button, the last seat filled at the start."""
    env = simcord_env
    table_seed(2)
    bob = await add_member(env, world, "bob")
    await open_table(env, world, "individual", [world.member, bob], robots=1)
    table = the_table(env)
    assert [s is not None and s.is_robot for s in table.seats] == [False, False, True, True]
    driver = Driver(env, world, [Player(world.member), Player(bob)])
    driver.audit.check()
    await driver.play()
    driver.check_end()
    assert driver.clicks >= 20


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_arrastrado_with_dms_closed(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Bob's DMs are closed: the table says so, and he plays the whole game through the
    ephemeral "My hand" reply in the thread."""
    env = simcord_env
    table_seed(3)
    bob = await add_member(env, world, "bob")
    env.inject_error(
        "POST",
        f"/channels/{bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await open_table(env, world, "arrastrado", [world.member, bob], robots=1)
    table = the_table(env)
    seat = table.seats[table.seat_of(bob.id) or 0]
    assert seat is not None and seat.dm_closed
    assert not bob.user.dm_channel.history()
    driver = Driver(env, world, [Player(world.member), Player(bob, dm_open=False)])
    (embed,) = driver.table_message().embeds
    closed = next(f for f in embed.fields if f.name == t("tables.dms_closed_title", "en"))
    assert "bob" in (closed.value or "") and "My hand" in (closed.value or "")
    driver.audit.check()
    await driver.play()
    driver.check_end()
    # bob opened his hand once: it followed the game, every turn, to the end
    (hand,) = driver.players[1].ephemerals
    assert hand.flags.ephemeral and not hand_buttons(hand), "it ends with the game"
    assert not bob.user.dm_channel.history(), "no DM ever reached bob"


# ------------------------------------------------------------------ refusals


async def crafted_click(
    env: simcord.Env, actor: MemberActor | simcord.UserHandle, message: Message, custom_id: str
) -> simcord.InteractionResult:
    """A click on a button the message does not offer enabled, as a modified or lagging client
    could send it. SimCord's actors refuse disabled buttons, so this builds the interaction
    itself (SimCord internals)."""
    stored = env.backend.get_message(channel_of(message), message.id)
    data = {"custom_id": custom_id, "component_type": 2}
    return await simcord.actors._component_interaction(actor, stored, data)  # type: ignore[attr-defined]


def refusal(result: simcord.InteractionResult) -> str:
    """The short ephemeral explanation a refused click got."""
    reply = result.response
    assert result.acknowledged and result.ephemeral and reply is not None
    assert not reply.embeds and not reply.components
    return reply.content


def illegal_text(deal: Deal, seat: int, card: int, lang: str = "en") -> str:
    """What the bot should say about this card, from the engine's own reason."""
    probe = deal.copy()
    with pytest.raises(IllegalActionError) as info:
        probe.apply(Action.play(seat, card))
    params: dict[str, Any] = {k: v for k, v in info.value.params.items() if isinstance(v, int)}
    for key in ("card", "beat"):
        if key in params:
            params[key] = ui.card_text(params[key])
    if "suit" in params:
        params["suit"] = ui.suit_text(params["suit"], lang)
    return t(f"tables.errors.illegal.{info.value.reason}", lang, **params)


def snapshot(message: discord.Message) -> tuple[Any, ...]:
    return (message.content, [e.to_dict() for e in message.embeds], buttons(message))


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_refusals_while_playing(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Not your turn, a button of an earlier trick, a card the rules forbid, and a member who
    does not play: each click gets a short ephemeral reason and changes nothing."""
    env = simcord_env
    table_seed(11)
    alice = world.member
    bob = await add_member(env, world, "bob")
    carol = await add_member(env, world, "carol")
    await open_table(env, world, "arrastrado", [alice, bob], robots=1)
    driver = Driver(env, world, [Player(alice), Player(bob)])
    table = driver.table
    deal = table.deal
    assert deal is not None and deal.turn == 0 and table.seat_of(alice.id) == 0
    a_dm, b_dm = alice.user.dm_channel, bob.user.dm_channel

    # alice is on turn: her "My hand" reply offers every card; she keeps two of them
    spare = driver.players[0]
    spare.dm_open = False
    first = await driver.hand_message(spare, fresh=True)
    second = await driver.hand_message(spare, fresh=True)
    spare.dm_open = True

    # bob's cards are disabled in his DM: a click sent anyway is not his turn
    (b_hand,) = b_dm.history()
    before = (len(deal.actions), snapshot(b_hand))
    card = deal.hand(1)[0]
    custom_id = f"tute:h:{table.id}:0:0:{CODES[card]}"
    assert Btn(custom_id, ui.card_text(card), True) in buttons(b_hand)
    said = refusal(await crafted_click(env, bob.user, b_hand, custom_id))
    assert said == t("tables.errors.illegal.not_your_turn", "en")
    (b_hand,) = b_dm.history()
    assert (len(deal.actions), snapshot(b_hand)) == before

    # alice plays from one reply; the other still offers cards, but it is bob's turn now
    await driver.click(spare, first, next(b for b in hand_buttons(first) if not b.disabled))
    assert deal.turn == 1 and len(deal.tricks) == 0
    left = [b for b in hand_buttons(second) if not b.disabled and card_of(b) in deal.hand(0)]
    before = (len(deal.actions), snapshot(a_dm.history()[0]))
    said = refusal(await alice.click(second, custom_id=left[0].custom_id))
    assert said == t("tables.errors.illegal.not_your_turn", "en")
    assert (len(deal.actions), snapshot(a_dm.history()[0])) == before

    # a card the rules forbid (its button is disabled): the reason is the engine's
    for _ in range(40):
        legal = {a.arg for a in deal.legal_actions() if a.kind is Kind.PLAY}
        forbidden = [c for c in deal.hand(1) if c not in legal]
        if deal.turn == 1 and forbidden:
            break
        player = driver.player_at(deal.turn)
        assert player is not None, "the robot played already"
        message = await driver.hand_message(player)
        await driver.click(
            player, message, next(b for b in hand_buttons(message) if not b.disabled)
        )
    else:
        raise AssertionError("bob never held a card he could not play")
    (b_hand,) = b_dm.history()
    deal_no, trick = deal_and_trick(b_hand) or (-1, -1)
    custom_id = f"tute:h:{table.id}:{deal_no}:{trick}:{CODES[forbidden[0]]}"
    assert Btn(custom_id, ui.card_text(forbidden[0]), True) in buttons(b_hand)
    before = (len(deal.actions), snapshot(b_hand))
    said = refusal(await crafted_click(env, bob.user, b_hand, custom_id))
    assert said == illegal_text(deal, 1, forbidden[0])
    assert said.startswith(("You must", "A trump was led", "You have none"))
    (b_hand,) = b_dm.history()
    assert (len(deal.actions), snapshot(b_hand)) == before

    # bob plays a card he may, the robot follows: alice's old reply is from an earlier trick
    while not deal.tricks:
        player = driver.player_at(deal.turn)
        assert player is not None
        message = await driver.hand_message(player)
        await driver.click(
            player, message, next(b for b in hand_buttons(message) if not b.disabled)
        )
    stale = [b for b in hand_buttons(second) if not b.disabled]
    said = refusal(await alice.click(second, custom_id=stale[-1].custom_id))
    assert said == t("tables.errors.stale", "en") and "earlier trick" in said

    # carol does not play here: no hand for her, no vote
    table_message = driver.table_message()
    for op in ("hand", "cancel"):
        said = refusal(await carol.click(table_message, custom_id=op_button(table_message, op)))
        assert said == t("tables.errors.not_seated", "en")
    driver.audit.check()


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_private_table_and_host_only_buttons(simcord_env: simcord.Env, world: World) -> None:
    env = simcord_env
    alice = world.member
    bob = await add_member(env, world, "bob")
    carol = await add_member(env, world, "carol")
    result = await alice.slash(
        world.channel, "tute new", variant="arrastrado", private=True, invite=bob
    )
    lobby = result.response
    assert lobby is not None and f"<@{bob.id}>" in lobby.content
    table = the_table(env)
    assert table.options.private and table.invited == [bob.id]

    said = refusal(await carol.click(lobby, custom_id=op_button(lobby, "join")))
    assert said == t("tables.errors.not_invited", "en")
    await bob.click(lobby, custom_id=op_button(lobby, "join"))
    assert table.seat_of(bob.id) == 1 and table.seat_of(carol.id) is None

    shown = snapshot(lobby.message)
    for member, op in ((carol, "robot"), (bob, "robot"), (bob, "start"), (carol, "start")):
        said = refusal(await member.click(lobby, custom_id=op_button(lobby, op)))
        assert said == t("tables.errors.host_only", "en"), (member, op)
    for member in (bob, carol):
        said = refusal(await member.click(lobby, custom_id=op_button(lobby, "close")))
        assert said == t("tables.errors.host_only", "en")
    assert table.status is Status.LOBBY and snapshot(lobby.message) == shown
    assert [s.user_id if s else None for s in table.seats] == [alice.id, bob.id, None]

    await alice.click(lobby, custom_id=op_button(lobby, "close"))
    assert table.status is Status.CLOSED
    assert not hand_buttons(lobby.message) and not buttons(lobby.message)
    assert world.channel.history()[-1].content == t("tables.announce.closed_by_host", "en")


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_spanish_server_and_players(
    simcord_env: simcord.Env, world: World, set_locale: Callable[[str], None]
) -> None:
    """A server whose language is Spanish gets its public messages in Spanish; players whose
    Discord is in Spanish get their replies and DMs in Spanish."""
    env = simcord_env
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, world.guild.id, language="es")
    set_locale("es-ES")
    alice = world.member
    bob = await add_member(env, world, "bob")
    carol = await add_member(env, world, "carol")
    lobby = (await alice.slash(world.channel, "tute new", variant="individual")).response
    assert lobby is not None
    table = the_table(env)
    (embed,) = lobby.embeds
    assert embed.title == t(
        "tables.title", "es", variant=t("variants.individual", "es"), id=table.id
    )
    labels = [b.label for b in buttons(lobby)]
    assert t("tables.btn.join", "es") in labels and t("tables.btn.start", "es") in labels
    assert "Join" not in labels

    await bob.click(lobby, custom_id=op_button(lobby, "join"))
    said = refusal(await bob.click(lobby, custom_id=op_button(lobby, "join")))
    assert (
        said == t("tables.errors.already_seated", "es") != t("tables.errors.already_seated", "en")
    )
    said = refusal(await carol.click(lobby, custom_id=op_button(lobby, "start")))
    assert said == t("tables.errors.host_only", "es")

    await alice.click(lobby, custom_id=op_button(lobby, "start"))
    driver = Driver(env, world, [Player(alice), Player(bob)])
    (embed,) = driver.table_message().embeds
    assert "Turno:" in (embed.description or "")
    assert buttons(driver.table_message())[0].label == t("tables.btn.hand", "es")
    for member in (alice, bob):
        (dm,) = member.user.dm_channel.history()
        assert dm.embeds[0].title == t(
            "hand.title", "es", variant=t("variants.individual", "es"), id=table.id
        )
    deal = table.deal
    assert deal is not None
    idle = next(p for p in driver.players if driver.audit.seat_of(p.member) != deal.turn)
    seat = driver.audit.seat_of(idle.member)
    (dm,) = idle.member.user.dm_channel.history()
    custom_id = next(b.custom_id for b in hand_buttons(dm))
    said = refusal(await crafted_click(env, idle.member.user, dm, custom_id))
    assert said == t("tables.errors.illegal.not_your_turn", "es") == "No es tu turno."
    assert seat == table.seat_of(idle.member.id)

    rules = (await alice.slash(world.channel, "tute rules")).response
    assert rules is not None and rules.ephemeral
    assert rules.embeds[0].title == t("rules.title", "es")
    listed = (await bob.slash(world.channel, "tute tables")).response
    assert listed is not None and listed.ephemeral
    assert listed.embeds[0].title == t("tables.list.title", "es")
    assert listed.embeds[0].fields[0].value.startswith("En juego")  # type: ignore[union-attr]
    driver.audit.check()


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_rules_tables_and_history(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(5)
    alice = world.member
    bob = await add_member(env, world, "bob")
    channel = world.channel

    rules = (await alice.slash(channel, "tute rules")).response
    assert rules is not None and rules.ephemeral
    (embed,) = rules.embeds
    assert embed.title == t("rules.title", "en")
    names = [f.name for f in embed.fields]
    assert names[:4] == [t(f"variants.{v.value}", "en") for v in Variant]
    one = (await alice.slash(channel, "tute rules", variant="pairs")).response
    assert one is not None
    assert one.embeds[0].fields[0].name == t("variants.pairs", "en")
    assert len(one.embeds[0].fields) == 2

    async def listed(member: MemberActor) -> discord.Embed:
        reply = (await member.slash(channel, "tute tables")).response
        assert reply is not None and reply.ephemeral
        return reply.embeds[0]

    assert (await listed(bob)).description == t("tables.list.none", "en")
    none = (await alice.slash(channel, "tute history")).response
    assert none is not None and none.ephemeral and none.content == t("history.none", "en")

    lobby = (await alice.slash(channel, "tute new", variant="arrastrado")).response
    assert lobby is not None
    table = the_table(env)
    guild = world.guild.id
    field_ = (await listed(bob)).fields[0]
    assert field_.name == ui.variant_title(table_view(table), "en")
    assert field_.value == t(
        "tables.list.lobby",
        "en",
        seated=1,
        seats=3,
        link=f"https://discord.com/channels/{guild}/{channel.id}/{lobby.id}",
    )
    for _ in range(2):
        await alice.click(lobby, custom_id=op_button(lobby, "robot"))
    await alice.click(lobby, custom_id=op_button(lobby, "start"))
    field_ = (await listed(bob)).fields[0]
    link = f"https://discord.com/channels/{guild}/{table.thread_id}/{table.play_message_id}"
    assert field_.value == t("tables.list.playing", "en", link=link)
    assert table.play_message_id in {m.id for m in thread_of(world, table).history()}

    driver = Driver(env, world, [Player(alice)])
    await driver.play()
    driver.check_end()
    assert (await listed(bob)).description == t("tables.list.none", "en")

    reply = (await alice.slash(channel, "tute history")).response
    assert reply is not None and reply.ephemeral
    assert reply.content == t("history.here", "en")
    (attachment,) = reply.attachments
    assert attachment.filename == "tute-record.json"
    answer = judge(json.loads(await attachment.read()))
    assert answer["error"] is None and answer["finished"] is True
    assert answer["result"]["winner"] is not None
    none = (await bob.slash(channel, "tute history")).response
    assert none is not None and none.content == t("history.none", "en")


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_table_in_its_channel_with_hands_as_ephemeral_messages(
    simcord_env: simcord.Env, table_seed: Callable[[int], None]
) -> None:
    """A server that deals the hands as ephemeral messages, in a channel where nobody may
    make threads: the lobby links to the table below it, the table says to click My hand
    (no word of DMs), and the one hand alice opens follows the game by itself; its refresh
    button redraws it in place."""
    env = simcord_env
    table_seed(8)
    guild = env.create_guild("Casino")
    no_threads = discord.PermissionOverwrite(
        create_public_threads=False, create_private_threads=False
    )
    channel = guild.create_text_channel("tute", overwrites={guild.default_role: no_threads})
    alice = guild.add_member(env.create_user("alice"))
    await env.settle()
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, guild.id, hand_delivery="ephemeral")
    lobby = await open_table(env, World(guild, channel, alice), "habanero", [alice], robots=1)
    table = the_table(env)
    assert table.thread_id is None and table.play_message_id is not None

    link = f"https://discord.com/channels/{guild.id}/{channel.id}/{table.play_message_id}"
    (status,) = lobby.embeds
    assert status.description == t("tables.lobby.status.playing_here", "en", link=link)
    (follow,) = [b for row in lobby.components for b in row["components"] if b.get("url")]
    assert follow["url"] == link

    def table_message() -> discord.Message:
        return next(m for m in channel.history() if m.id == table.play_message_id)

    footer = table_message().embeds[0].footer.text or ""
    assert footer == t("tables.play.footer.ephemeral", "en", deal=1)
    assert "DM" not in footer and "My hand" in footer

    opened = await alice.click(table_message(), custom_id=op_button(table_message(), "hand"))
    hand = opened.response
    assert hand is not None and hand.ephemeral
    deal = table.deal
    assert deal is not None
    seat = table.seat_of(alice.id)
    for _ in range(60):
        if table.status is not Status.PLAYING:
            break
        if deal.turn != seat:
            await env.advance_time(DECLARE_GRACE + 1)
            continue
        # alice's turn: the hand she opened shows it, without her asking again
        assert sorted(hand_cards(hand)) == sorted(deal.hand(seat or 0))
        legal = {a.arg for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PLAY}
        cards = [b for b in hand_buttons(hand) if not b.disabled and card_of(b) is not None]
        assert {card_of(b) for b in cards} == legal
        played = await alice.click(hand, custom_id=cards[0].custom_id)
        assert played.response is not None and played.response.id == hand.id
    else:
        raise AssertionError("the game did not end")
    assert table.status is Status.FINISHED
    assert not alice.user.dm_channel.history(), "no DM"

    # a hand opened before another one falls behind; its refresh button redraws it in place
    await open_table(env, World(guild, channel, alice), "habanero", [alice], robots=1)
    tables = tables_of(service_of(env))
    table = tables[max(tables)]
    deal = table.deal
    seat = table.seat_of(alice.id)
    assert deal is not None and seat is not None

    async def open_hand() -> simcord.ResponseMessage:
        message = next(m for m in channel.history() if m.id == table.play_message_id)
        reply = (await alice.click(message, custom_id=op_button(message, "hand"))).response
        assert reply is not None and reply.ephemeral
        return reply

    while deal.turn != seat:
        await env.advance_time(DECLARE_GRACE + 1)
    older, newer = await open_hand(), await open_hand()
    card = next(b for b in hand_buttons(newer) if not b.disabled)
    await alice.click(newer, custom_id=card.custom_id)
    while deal.turn != seat:
        await env.advance_time(DECLARE_GRACE + 1)
    assert card_of(card) in hand_cards(older), "the older hand fell behind"
    redrawn = await alice.click(older, custom_id=op_button(older, "refresh"))
    assert redrawn.response is not None and redrawn.response.id == older.id
    assert sorted(hand_cards(older)) == sorted(deal.hand(seat))
    legal = {a.arg for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PLAY}
    assert {card_of(b) for b in hand_buttons(older) if not b.disabled} - {None} == legal


async def test_buttons_keep_the_custom_ids_they_were_posted_with() -> None:
    """The three kinds of table button share one base; their custom_ids are as they always
    were, so a button posted long ago still parses into the same table, op, deal and trick."""
    posted = {
        "tute:l:7:team1": (LobbyButton, ("team1",)),
        "tute:t:7:hand": (TableButton, ("hand",)),
        "tute:h:7:2:13:12O": (HandButton, ("2", "13", "12O")),
        "tute:h:7:0:0:sC": (HandButton, ("0", "0", "sC")),
    }
    interaction: Any = None
    for custom_id, (kind, parts) in posted.items():
        matches = [
            k
            for k in (LobbyButton, TableButton, HandButton)
            if k.__discord_ui_compiled_template__.fullmatch(custom_id)
        ]
        assert matches == [kind], custom_id
        match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None
        button = await kind.from_custom_id(interaction, discord.ui.Button(), match)
        assert (button.table_id, button.parts, button.custom_id) == (7, parts, custom_id)
        assert kind(7, *parts).custom_id == custom_id
    hand = HandButton(7, 2, 13, "12O", label="12🪙", disabled=True)
    assert (hand.deal_no, hand.trick_no, hand.code) == (2, 13, "12O")
    assert hand.item.label == "12🪙" and hand.item.disabled
    assert LobbyButton(7, "start").op == "start" and TableButton(7, "back").op == "back"
    with pytest.raises(TypeError):
        HandButton(7, "12O")


# ------------------------------------------------------------- leaving, cancelling


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_last_member_leaving_asks_first_and_tells_one_outcome(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Leave asks first, saying what happens to the stake; once confirmed, one outcome is
    told, the ledger agrees with it, and the leaver's hand has nothing left to click."""
    env = simcord_env
    table_seed(3)
    alice = world.member
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, starting_chips=500)
    await open_table(env, world, "habanero", [alice], robots=1, bet=100)
    table = the_table(env)
    thread = thread_of(world, table)
    table_message = next(m for m in thread.history() if m.id == table.play_message_id)
    before = {m.id for m in thread.history()}

    question = await alice.click(table_message, custom_id=op_button(table_message, "leave"))
    reply = question.response
    assert reply is not None and question.ephemeral
    assert reply.content == t("tables.confirm.leave.end_stake", "en", stake=100)
    assert table.status is Status.PLAYING, "nothing happens before the answer"
    (confirm,) = buttons(reply)
    assert confirm.custom_id == f"tute:t:{table.id}:leaveok"

    done = await alice.click(reply, custom_id=confirm.custom_id)
    assert done.response is not None
    assert done.response.content == t("tables.done.leave_end", "en")
    assert table.status is Status.CANCELLED
    said = [m for m in thread.history() if m.id not in before]
    assert [m.content for m in said] == [
        t("tables.announce.abandoned_stake", "en", name="alice", stake=100)
    ], "one message tells the outcome"
    shown = next(m for m in thread.history() if m.id == table.play_message_id)
    assert t("tables.play.status.cancelled", "en") in texts(shown, skip_past=False)
    assert not any(b.custom_id.startswith("tute:t:") for b in buttons(shown))
    (hand,) = alice.user.dm_channel.history()
    assert not hand_buttons(hand), "the leaver's hand has nothing left to click"
    assert hand.embeds[0].description == t("tables.hand.left", "en")
    stats = await member_stats(service_of(env).db, world.guild.id, alice.id)
    assert stats is not None and stats.balance == 400, "the stake went to the bank"
    assert not buttons(done.response), "the question's button is gone with its answer"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_vote_to_cancel_asks_first_then_counts(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(3)
    alice = world.member
    bob = await add_member(env, world, "bob")
    await open_table(env, world, "habanero", [alice, bob])
    table = the_table(env)
    table_message = next(
        m for m in thread_of(world, table).history() if m.id == table.play_message_id
    )
    first = await alice.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert first.response is not None
    assert first.response.content == t("tables.confirm.cancel", "en", missing=1)
    assert not table.cancel_votes, "no vote before the answer"
    (yes,) = buttons(first.response)
    voted = await alice.click(first.response, custom_id=yes.custom_id)
    assert voted.response is not None
    assert voted.response.content == t("tables.done.cancel", "en")
    assert table.cancel_votes == [alice.id]
    second = await bob.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert second.response is not None
    assert second.response.content == t("tables.confirm.cancel_last", "en", missing=0)
    (yes,) = buttons(second.response)
    ended = await bob.click(second.response, custom_id=yes.custom_id)
    assert ended.response is not None
    assert ended.response.content == t("tables.done.cancelled", "en")
    assert table.status is Status.CANCELLED


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_tute_language_sets_the_servers_that_did_not_choose(
    simcord_env: simcord.Env, world: World, test_config: Config
) -> None:
    """TUTE_LANGUAGE=es: a server that never chose a language (or changed something else)
    gets its tables in Spanish; one that chose English keeps English."""
    env = simcord_env
    await env.restart_bot(fast_bot(dataclasses.replace(test_config, language="es")))
    alice = world.member
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, starting_chips=300)
    lobby = (await alice.slash(world.channel, "tute new", variant="habanero")).response
    assert lobby is not None
    table = the_table(env)
    assert table.language == "es"
    assert lobby.embeds[0].title == ui.lobby_embed(table_view(table), "es").title
    await alice.click(lobby, custom_id=op_button(lobby, "close"))
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, language="en")
    await alice.slash(world.channel, "tute new", variant="habanero")
    tables = tables_of(service_of(env))
    assert tables[max(tables)].language == "en"
