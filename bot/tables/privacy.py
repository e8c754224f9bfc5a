"""A member's own data: what the bot keeps about them (``/tute privacy show``), and erasing it
on their request (``/tute privacy erase``), once they confirm.

What is kept, and what an erasure deletes or makes anonymous, is
:mod:`bot.storage.privacy`'s (its docstring lists every place a member's data lives). Here:
the refusal, in the table service's terms, while the member still plays; and the
confirmation, a short-lived token the erase button carries, bound to the member: one that
ran out, or that this process did not make (a forged click, or one from before a restart),
is refused and nothing is erased.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final

from bot.storage import Database
from bot.storage import privacy as stored
from bot.storage.privacy import Erased, FormerName, MemberBusy, MemberData

from .errors import TableError

CONFIRM_SECONDS: Final = 300
"""How long a confirmation stays good: five minutes after it was asked."""

_MAC_LENGTH: Final = 16
"""Hex digits of the token's signature kept in the button (64 bits)."""


@dataclass
class Privacy:
    """The members' data, read and erased, on ``db``; ``clock``: the wall clock (seconds
    since the epoch); ``uninvite``: see below; ``secret``: what signs the confirmations (drawn at the start of the
    process: a confirmation asked before a restart is refused, and asked again)."""

    db: Database
    clock: Callable[[], float]
    uninvite: Callable[[int], Awaitable[None]] | None = None
    """What makes the open tables this process holds forget the member where they do not
    sit (``Notes.forget``: an invitation, a lobby they joined and left), before an erasure:
    those tables are the service's to save, and the erasure leaves open tables alone."""
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)

    async def kept(self, user_id: int) -> MemberData:
        """What the bot keeps about the member, in every server."""
        return await stored.member_data(self.db, user_id)

    # ------------------------------------------------------------------ confirming

    async def ask(self, user_id: int) -> str | None:
        """``/tute privacy erase``: the confirmation to put on its button, or None when
        nothing is kept about the member. Refused at once while they still play (see
        :meth:`erase`)."""
        _refuse(await stored.still_playing(self.db, user_id))
        if (await self.kept(user_id)).empty:
            return None
        return self.confirmation(user_id)

    def confirmation(self, user_id: int) -> str:
        """A token the member's erase button carries: ``<expires>.<signature>``."""
        expires = int(self.clock()) + CONFIRM_SECONDS
        return f"{expires}.{self._sign(user_id, expires)}"

    def check(self, user_id: int, token: str) -> None:
        """Refuse (``privacy_expired``) a token that ran out, or that was not made for this
        member by this process (``privacy_forged``)."""
        expires_text, _, signature = token.partition(".")
        if not expires_text.isdecimal() or not hmac.compare_digest(
            signature, self._sign(user_id, int(expires_text))
        ):
            raise TableError("privacy_forged")
        if self.clock() > int(expires_text):
            raise TableError("privacy_expired")

    def _sign(self, user_id: int, expires: int) -> str:
        message = f"erase:{user_id}:{expires}".encode()
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()[:_MAC_LENGTH]

    # ------------------------------------------------------------------ erasing

    async def erase(self, user_id: int, token: str, former_name: FormerName) -> Erased:
        """Erase what the bot keeps about the member, once ``token`` is checked
        (:meth:`check`). ``former_name``: what they are called in the records that stay,
        in each record's language (the catalog's "a former player"). Refused
        (``privacy_at_table``, ``privacy_in_tournament``) while they still play, with
        nothing erased."""
        self.check(user_id, token)
        _refuse(await stored.still_playing(self.db, user_id))
        if self.uninvite is not None:
            await self.uninvite(user_id)
        try:
            return await stored.erase_member(self.db, user_id, former_name)
        except MemberBusy as busy:
            _refuse(busy)
            raise


def _refuse(busy: MemberBusy | None) -> None:
    """The refusal of a member who still plays, in the service's terms."""
    if busy is None:
        return
    if busy.kind == "tournament":
        raise TableError("privacy_in_tournament", tournament=busy.number) from None
    raise TableError("privacy_at_table", table=busy.number) from None
