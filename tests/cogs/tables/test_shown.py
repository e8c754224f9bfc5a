"""What each message of a table last showed (:class:`Shown`), kept per message by a typed
key: a table's lobby, its table message, each seat's hand and each deal's summary are told
apart, and forgetting one table or one hand leaves every other message as it was."""

from __future__ import annotations

import discord

from cogs.tables.buttons import HandButton, TableButton, TableOp
from cogs.tables.messages import MessageKey, MessageKind, Payload, Shown, hand_digest, has_buttons


def every_key(table_id: int) -> list[MessageKey]:
    return [
        MessageKey.lobby(table_id),
        MessageKey.table(table_id),
        *(MessageKey.hand(table_id, seat) for seat in range(4)),
        *(MessageKey.summary(table_id, deal) for deal in range(4)),
    ]


def test_each_message_has_a_key_of_its_own() -> None:
    keys = every_key(7) + every_key(8)
    assert len(set(keys)) == len(keys), "a hand and a summary of the same number differ too"
    assert MessageKey.hand(7, 2) == MessageKey(7, MessageKind.HAND, seat=2)
    assert MessageKey.summary(7, 2) == MessageKey(7, MessageKind.SUMMARY, deal_no=2)


def test_forgetting_a_hand_or_a_table_forgets_only_it() -> None:
    shown = Shown()
    for key in every_key(7) + every_key(8):
        shown.digests[key] = "shown"
    shown.hand_shown(7, 1, {}, away=False, deal=0)
    assert shown.digests[MessageKey.hand(7, 1)] != "shown" and shown.buttons[(7, 1)] is False
    shown.forget_hand(7, 1)
    assert set(shown.digests) == set(every_key(7) + every_key(8)) - {MessageKey.hand(7, 1)}
    shown.forget_table(7)
    assert set(shown.digests) == set(every_key(8))


def hand(deal: int, trick: int, *, disabled: bool) -> Payload:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(7, deal, trick, "12O", label="12", disabled=disabled))
    view.add_item(TableButton(7, TableOp.REFRESH, label="Refresh"))
    return {"view": view}


def test_a_hand_changes_when_what_its_player_may_click_does() -> None:
    """A card held back stays the same card trick after trick: the DM is not edited for
    that; a card that may be played names its trick (a click on an older one is stale)."""
    assert hand_digest(hand(2, 3, disabled=True), away=False, deal=2) == hand_digest(
        hand(2, 4, disabled=True), away=False, deal=2
    )
    assert hand_digest(hand(2, 3, disabled=False), away=False, deal=2) != hand_digest(
        hand(2, 4, disabled=False), away=False, deal=2
    )
    assert hand_digest(hand(2, 3, disabled=True), away=False, deal=2) != hand_digest(
        hand(3, 3, disabled=True), away=False, deal=2
    )
    assert hand_digest(hand(2, 3, disabled=True), away=False, deal=2) != hand_digest(
        hand(2, 3, disabled=True), away=True, deal=2
    )
    assert has_buttons(hand(2, 3, disabled=True)) and not has_buttons({})


def test_a_hand_with_nothing_to_click_changes_with_the_deal() -> None:
    """A hand played out and the next deal's hand its player sits out (arrastrado with four)
    have no button either: the new deal is shown all the same."""
    assert hand_digest({}, away=False, deal=0) != hand_digest({}, away=False, deal=1)
