"""Whole games through SimCord, audited.

The whole-game tests drive every human by clicking the enabled buttons of their own hand (in
their DMs, or in the ephemeral "My hand" reply when their DMs are closed) and, after every
click, audit what each person can see: the public channel and thread, each player's DMs and
ephemeral replies, and every REST call the bot made. A card still held in a hidden hand must
never show where somebody other than its holder can see it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import discord
import simcord
from simcord import MemberActor

from bot.engine import CODES, Kind, Variant
from bot.i18n import t
from bot.tables.model import Status, Table
from bot.tables.service import DECLARE_GRACE
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from cogs.tables.summaries import ARCHIVE_AFTER
from tests.cogs.tables._world import (
    CARD_LABEL,
    Btn,
    Message,
    button_deal,
    buttons,
    card_of,
    cards_in,
    channel_of,
    deal_and_trick,
    dm_place,
    gone,
    hand_buttons,
    hand_cards,
    layout_texts,
    op_button,
    placed,
    public_known,
    texts,
    the_table,
    thread_of,
)
from tests.conftest import World

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
        if placed(table).thread_id is not None:
            messages += thread_of(self.world, table).history()
        return messages

    def private_messages(self, player: Player) -> list[Message]:
        """A player's DMs and every ephemeral reply they got, here and in the thread."""
        member = player.member
        messages: list[Message] = list(member.user.dm_channel.history(viewer=member.user))
        channels = [self.world.channel]
        if placed(self.table).thread_id is not None:
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
            assert "trick.png" not in {a.filename for a in message.attachments}, where
            if message.flags.components_v2 and message.id != placed(table).play_message_id:
                continue  # an earlier deal's message: the cards it names are of that deal
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
            or dm_place(table, seat).dm_message_id is None
        ):
            return
        on_turn = table.seats[deal.turn]
        if on_turn is not None and on_turn.robot_plays:
            return
        dm = next(
            m
            for m in player.member.user.dm_channel.history()
            if m.id == dm_place(table, seat).dm_message_id
        )
        assert sorted(hand_cards(dm)) == sorted(deal.hand(seat)), "the DM shows the hand"
        # the cards show once, on the buttons (each names its card); on the player's turn
        # the picture is the table from their seat, the trick in its alt text
        held = set(deal.hand(seat))
        assert dm.flags.components_v2
        said = "\n".join(layout_texts(dm))
        named = {ui.card_name(c, lang) for c in held for lang in ("en", "es")}
        assert not any(name in said for name in named), "the text does not list them"
        labels = {b.label for b in hand_buttons(dm) if card_of(b) is not None}
        assert labels <= {ui.card_name(c, lang) for c in held for lang in ("en", "es")}
        if held and deal.turn == seat and not occupant.robot_plays:
            (picture,) = dm.attachments
            assert picture.filename == "trick.png"
            assert cards_in(picture.description or "") == {card for _, card in deal.trick_seats()}
        legal = {a.arg for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PLAY}
        enabled = {card_of(b) for b in hand_buttons(dm) if not b.disabled} - {None}
        assert enabled == (set() if occupant.robot_plays else legal), "the legal cards are enabled"

    def check_requests(self) -> None:
        """No REST call since the last check put a hand where its owner is not alone."""
        table = self.table
        public = {self.world.channel.id}
        thread_id = placed(table).thread_id
        if thread_id is not None:
            public.add(thread_id)
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
    """The deals whose summary the thread has kept."""

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
            m
            for m in thread_of(self.world, table).history()
            if m.id == placed(table).play_message_id
        )

    def deal_summaries(self) -> dict[int, discord.Message]:
        """The thread's summary of each deal that is over, by deal number."""
        table = self.table
        found: dict[int, discord.Message] = {}
        for message in thread_of(self.world, table).history():
            texts = layout_texts(message)
            for deal_no in range(table.deal_no + 1):
                title = t("summary.title", table.language, deal=deal_no + 1, id=table.id)
                if texts and texts[0].startswith(f"### {title}\n"):
                    found[deal_no] = message
        return found

    def check_table_message(self) -> None:
        """The table in the thread shows the state of play (its title, the turn and the
        trumps), drawn with layout components; each deal that is over keeps its summary, in
        the message that showed the deal, above the table."""
        table = self.table
        deal = table.deal
        shown = self.table_message()
        assert shown.flags.components_v2
        said = layout_texts(shown)
        lang = table.language
        if table.status is Status.PLAYING and deal is not None:
            assert said[0] == f"**{ui.variant_title(table_view(table), lang)}**"
            name = ui.seat_name(table.seats[deal.turn], lang)
            assert name in said[1] and ui.suit_text(deal.trump, lang) in said[1]
            (picture,) = shown.attachments
            assert picture.filename == "table.png"
        for deal_no, message in self.deal_summaries().items():
            assert message.flags.components_v2
            (picture,) = message.attachments
            assert picture.filename == "summary.png" and picture.description
            replay = [f"tute:rp:{table.id}:{deal_no}", f"tute:rv:{table.id}:{deal_no}"]
            assert [b.custom_id for b in buttons(message)] == replay, "a summary: Replay, Review"
            self.summaries.add(deal_no)

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
            assert occupant is not None and not dm_place(table, seat).dm_closed
            return next(
                m
                for m in player.member.user.dm_channel.history()
                if m.id == dm_place(table, seat).dm_message_id
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
        table_message = f"/messages/{placed(self.table).play_message_id}"
        edits = [
            call
            for call in self.env.http_requests[before:]
            if call.method == "PATCH" and call.path.endswith(table_message)
        ]
        assert len(edits) <= 1, "one edit of the table for the click and the robots' run"
        assert result.acknowledged
        dm = player.member.user.dm_channel
        if channel_of(message) == dm.id and all(m.id != message.id for m in dm.history()):
            # the robots played and the turn came back: a fresh hand told the player so
            (reply,) = [m for m in dm.history() if hand_buttons(m)]
        elif result.response is None:
            # the click ended the game: the hand under My hand went with it
            assert self.table.status is not Status.PLAYING
            assert isinstance(message, simcord.ResponseMessage) and gone(self.env, message)
            self.audit.check()
            return
        else:
            reply = result.response
            assert reply is not None and reply.id == message.id, "the hand is edited in place"
        shown = deal_and_trick(reply)
        if card_of(button) is not None and shown is not None and shown[0] == button_deal(button)[0]:
            assert card_of(button) not in hand_cards(reply), "the card left the hand"
        self.audit.check()

    async def play(self, *, limit: int = 400, until: Callable[[], bool] | None = None) -> Table:
        """Play until the game is over (or ``until`` says so): each human on turn clicks an
        enabled card (sometimes a declaration first); when only a robot waits for a human who
        may declare, time passes."""
        for _ in range(limit):
            table = self.table
            if table.status is not Status.PLAYING or (until is not None and until()):
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
            deal_no = table.deal_no
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
            if self.table.deal_no != deal_no:
                # a moment later the deal's message becomes its summary
                await self.env.advance_time(ARCHIVE_AFTER + 0.1)
            self.check_table_message()
        else:
            raise AssertionError("the game did not end")
        return self.table

    def check_end(self) -> None:
        """Each deal's summary kept in the message that showed the deal; the last one's
        under the final result, with its winner; no other message; every hand closed."""
        table = self.table
        assert table.status is Status.FINISHED, table.status
        assert table.winner is not None
        lang = table.language
        self.check_table_message()
        assert self.summaries == set(range(table.deal_no))
        final = "\n".join(layout_texts(self.table_message()))
        assert t("summary.game_over", lang, id=table.id) in final
        assert ui.winner_line(table_view(table), table.winner, lang) in final
        last = layout_texts(self.table_message())[-1]
        assert last.startswith(
            f"**{t('summary.title', lang, deal=table.deal_no + 1, id=table.id)}**"
        )
        # one winner "wins", two partners "win"
        pair = table.variant is Variant.PAIRS
        if lang == "en":
            assert ("Winners: " if pair else "Winner: ") in final
            outcome = last.splitlines()[1]
            if "round" in outcome:
                assert outcome.endswith(" win the round." if pair else " wins the round.")
        thread = thread_of(self.world, table).history()
        bot_id = self.env.bot.user.id  # type: ignore[union-attr]
        said = [m.id for m in thread if m.author.id == bot_id]
        summaries = [m.id for _, m in sorted(self.deal_summaries().items())]
        # a deal's summary each, in order, then the result over the last one's
        assert said == [*summaries, placed(table).play_message_id], "the thread keeps every deal"
        assert len(summaries) == table.deal_no
        for player in self.players:
            if player.dm_open:
                (dm,) = player.member.user.dm_channel.history()
                assert not hand_buttons(dm), "the finished hand has no buttons"
        self.audit.check()
