"""The lobby from the web table: the Activity opened in a channel with no table opens one
there (the chat gets its lobby message too, where the bot may post), and a member takes a
seat, seats a robot, starts or leaves from the page, through the same service calls as the
lobby's buttons.

In a DM or a group DM (no server), the channel stands for the server: the tables opened
there, their chips and standings are that conversation's own. A page finds its table by
its channel alone (``TableService.open_in_channel``), whatever server the table is filed
under: in a member's DMs, their practice deal (of no server) or daily deal (of its server).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, assert_never

from bot.engine import Variant
from bot.tables.audience import place_of
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.views import Outcome, TableView

from .sessions import Session


class LobbyAction(StrEnum):
    """What a page may do in a lobby: the lobby's buttons it has. Each value is what the
    page sends (``{"type": "lobby", "do": ...}``)."""

    JOIN = "join"
    ROBOT = "robot"
    START = "start"
    LEAVE = "leave"


def server_of(session: Session) -> int:
    """The server a table opened from the session's page belongs to (its settings, its
    limit of tables, its chips): the channel itself in a DM."""
    return place_of(session.guild_id, session.channel_id)


async def channel_table(service: TableService, session: Session) -> TableView | None:
    """The open table of the Activity's channel (the newest, if several), or of the thread
    the game plays in, when the Activity was opened there."""
    found = service.open_in_channel(session.channel_id)
    if found is not None:
        return found
    return await service.open_in_thread(session.channel_id)


async def open_lobby(
    service: TableService, session: Session, variant: str, language: str
) -> TableView:
    """A lobby in the session's channel, hosted by its member."""
    try:
        chosen = Variant(variant)
    except ValueError:
        raise TableError("malformed") from None
    return await service.open_from_page(
        guild_id=server_of(session),
        channel_id=session.channel_id,
        host_id=session.user_id,
        host_name=session.name,
        variant=chosen,
        language=language,
    )


NONCE_DIGITS: Final = 32


def start_nonce(value: object) -> str | None:
    """The nonce a page's Start sends (32 hex digits, from the browser's randomness);
    anything else is none."""
    if isinstance(value, str) and len(value) == NONCE_DIGITS:
        lowered = value.lower()
        if all(c in "0123456789abcdef" for c in lowered):
            return lowered
    return None


async def lobby_action(
    service: TableService,
    table_id: int,
    session: Session,
    what: LobbyAction,
    language: str,
    *,
    nonce: str | None = None,
) -> Outcome:
    """One of the lobby's buttons, pressed from the page. A start mixes the page's
    ``nonce`` into the shuffle (none: the table's id)."""
    user = session.user_id
    if what is LobbyAction.JOIN:
        return await service.join(table_id, user, session.name, locale=language)
    if what is LobbyAction.ROBOT:
        return await service.add_robot(table_id, user)
    if what is LobbyAction.START:
        return await service.start(
            table_id, user, public_input=None if nonce is None else f"web:{nonce}"
        )
    if what is LobbyAction.LEAVE:
        return await service.leave(table_id, user, lobby=True)
    assert_never(what)
