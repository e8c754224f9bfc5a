"""What the table tests do in SimCord and read back: the buttons of a message, the cards
named in a text, a member added to the server, a table opened through its lobby, a click
a client should not send, the reason a click was refused, a deal played in a member's DMs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
import simcord
from simcord import ChannelHandle, MemberActor

from bot.engine import CODES, Deal
from bot.i18n import t
from bot.render.symbols import SUIT_SYMBOLS
from bot.sandbox.pictures import walk_components as walk
from bot.tables.clock import DECLARE_GRACE
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.tables.views import TableView
from cogs.tables.embeds import card_name
from cogs.tables.places import HandPlace, Place
from cogs.tables.presenter import presenter_of
from tests.cogs._said import components
from tests.cogs.tables._settings import set_options, split
from tests.conftest import RUNNING, World
from tests.tables._play import tables_of

Message = discord.Message | simcord.ResponseMessage

CARD_LABEL = re.compile(
    r"(?<![0-9])(1[012]|[1-7])(" + "|".join(re.escape(s) for s in SUIT_SYMBOLS.values()) + ")"
)
SUIT_BY_SYMBOL = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
CARD_BY_CODE = {code: card for card, code in enumerate(CODES)}
LOG_TITLES = {t("tables.log", lang) for lang in ("en", "es")}


FACE = re.compile(r"<:tute_(1[012]|[1-7])([OCEB])_[0-9a-f]+:\d+>")
"""A card's face, as the application's emoji."""
CARD_NAMES = {card_name(card, lang): card for card in range(len(CODES)) for lang in ("en", "es")}


def cards_in(text: str) -> set[int]:
    """The cards a text shows: by their labels (``12🪙``), their faces (emojis) or their
    names ("King of coins", "Rey de oros")."""
    found = {
        CARD_BY_CODE[f"{rank}{SUIT_BY_SYMBOL[symbol]}"] for rank, symbol in CARD_LABEL.findall(text)
    }
    found |= {CARD_BY_CODE[f"{rank}{suit}"] for rank, suit in FACE.findall(text)}
    found |= {card for name, card in CARD_NAMES.items() if re.search(rf"\b{name}\b", text)}
    return found


@dataclass(frozen=True, slots=True)
class Btn:
    custom_id: str
    label: str
    disabled: bool


def buttons(message: Message) -> list[Btn]:
    """Every button of a message, in order."""
    if isinstance(message, simcord.ResponseMessage):
        return [
            Btn(b.get("custom_id") or "", b.get("label") or "", bool(b.get("disabled")))
            for b in components(message.components)
            if b.get("type") == 2
        ]
    return [
        Btn(child.custom_id or "", child.label or "", child.disabled)
        for child in walk(message.components)
        if isinstance(child, discord.Button)
    ]


def layout_texts(message: Message) -> list[str]:
    """The text displays of a message drawn with layout components, in order."""
    if isinstance(message, simcord.ResponseMessage):
        return [
            c.get("content") or "" for c in components(message.components) if c.get("type") == 10
        ]
    return [c.content for c in walk(message.components) if isinstance(c, discord.TextDisplay)]


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
    for text in layout_texts(message):
        if skip_past and text.startswith("-# • "):
            continue  # the log of past events
        parts.append(text)
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
    """``/tute new`` by the first human (the options of the Settings form set there), the
    others join (a team each in pairs), the host adds robots with the button and starts
    (any seat still empty gets a robot)."""
    host = humans[0]
    opening, form = split(options)
    result = await host.slash(world.channel, "tute new", variant=variant, rounds=1, **opening)
    lobby = result.response
    assert lobby is not None and not result.ephemeral
    await set_options(host, lobby, **form)
    for i, member in enumerate(humans[1:], start=1):
        op = f"team{teams[i]}" if teams else "join"
        res = await member.click(lobby, custom_id=op_button(lobby, op))
        assert res.acknowledged and not res.ephemeral, op
    for _ in range(robots):
        await host.click(lobby, custom_id=op_button(lobby, "robot"))
    await host.click(lobby, custom_id=op_button(lobby, "start"))
    return lobby


def thread_of(world: World, table: Table) -> ChannelHandle:
    return next(c for c in world.channel.threads if c.id == placed(table).thread_id)


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


async def close_lobby(host: MemberActor, lobby: Message) -> simcord.InteractionResult:
    """The host's Close and, to the question it asks first, Yes: the answer's result."""
    question = await host.click(lobby, custom_id=op_button(lobby, "close"))
    asked = question.response
    assert asked is not None and question.ephemeral
    return await host.click(asked, custom_id=op_button(asked, "closeok"))


def place_of(env: simcord.Env, table_id: int) -> Place:
    """Where the bot shows a table's messages now (its thread, lobby, table message, DM
    hands), as its presenter keeps them; read from the database if it has not shown the
    table since it started."""
    presenter = presenter_of(env.bot)
    place = presenter.places.known(table_id)
    return place if place is not None else Place(table_id, 0)


def dm_of(env: simcord.Env, table: Table, seat: int) -> HandPlace:
    """Where a seat's hand lives in its member's DMs (nowhere yet: an empty place)."""
    occupant = table.seats[seat]
    assert occupant is not None and occupant.user_id is not None
    dm = place_of(env, table.id).hand(seat, occupant.user_id)
    return dm if dm is not None else HandPlace(occupant.user_id)


def placed(table: Table | TableView) -> Place:
    """Where the running test's bot shows ``table``'s messages now."""
    (env,) = RUNNING
    return place_of(env, table.id)


def dm_place(table: Table, seat: int) -> HandPlace:
    """Where the running test's bot keeps ``seat``'s hand in its member's DMs."""
    (env,) = RUNNING
    return dm_of(env, table, seat)


def gone(env: simcord.Env, message: simcord.ResponseMessage) -> bool:
    """Whether the bot deleted the message (an ephemeral copy of a hand left behind)."""
    return message.id not in env.backend.messages.get(message.channel_id, {})


Seen = TypeVar("Seen")


def dm_hand(dm: ChannelHandle) -> discord.Message | None:
    """The member's hand in their DMs (the newest message with cards to click)."""
    for message in reversed(dm.history()):
        if hand_buttons(message):
            return message
    return None


async def play_in_dm(
    env: simcord.Env, member: MemberActor, until: Callable[[ChannelHandle], Seen | None]
) -> Seen:
    """The member plays the first card they may, each turn, in their DMs, until ``until``
    sees what it waits for there (and returns it). Where a robot gives them time to sing
    first, that time passes."""
    dm = member.user.dm_channel
    for _ in range(100):
        seen = until(dm)
        if seen is not None:
            return seen
        hand = dm_hand(dm)
        cards = [
            b.custom_id
            for b in (hand_buttons(hand) if hand is not None else [])
            if not b.disabled and card_of(b) is not None
        ]
        if hand is not None and cards:
            await member.user.click(hand, custom_id=cards[0])
        else:
            await env.advance_time(DECLARE_GRACE + 1)
    raise AssertionError("the deal never ended")
