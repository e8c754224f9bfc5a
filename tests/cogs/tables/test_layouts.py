"""The table and the hand drawn with layout components: every variant's messages are ones
Discord takes (SimCord's validator, Discord's limits), short enough for a phone, their cards
shown with their faces when the application has them; and a message sent with embeds keeps
them."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import discord
import pytest
from simcord.components import COMPONENTS_V2_FLAG, validate_message_state

from bot.engine import CODES, Action, Kind, Options, Variant
from bot.i18n import t
from bot.tables import play
from bot.tables.model import GameTally, Status, Table
from bot.tables.views import hand_view, table_view
from cogs.tables import embeds as ui
from cogs.tables import layouts, messages, pictures
from cogs.tables.buttons import HandButton
from cogs.tables.faces import CardFaces
from cogs.tables.places import Place
from tests.cogs._said import components
from tests.cogs.tables.test_views_rendered import buttons_of, layout_text, playing_table

TEXT_LIMIT = 4000
"""Characters Discord allows in all the text displays of a message."""


class SomeFaces(CardFaces):
    """A registry that has a face for every card, as after a sync."""

    def __init__(self) -> None:
        super().__init__()
        for card, code in enumerate(CODES):
            self._emojis[code] = discord.PartialEmoji(name=f"tute_{code}_0", id=1000 + card)

    def emoji(self, card: int) -> discord.PartialEmoji | None:
        return self._emojis.get(CODES[card])

    def inline(self, card: int) -> str:
        return str(self._emojis[CODES[card]])


def accepted(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The payload's components as Discord takes them (SimCord raises what it refuses)."""
    view = payload["view"]
    assert isinstance(view, discord.ui.LayoutView)
    components = view.to_components()
    validate_message_state(
        components, flags=COMPONENTS_V2_FLAG, content=None, embeds=[], require_nonempty=True
    )
    return components


def to_the_end_of_a_deal(table: Table, rng: random.Random) -> None:
    """Play the deal out as the service does, until the next deal (or the end)."""
    deal = table.deal
    assert deal is not None
    first = table.deal_no
    while table.deal_no == first and table.status is Status.PLAYING:
        deal = table.deal
        assert deal is not None
        actions = deal.legal_actions()
        plays = [a for a in actions if a.kind in (Kind.PLAY, Kind.PASS, Kind.BID)]
        action = rng.choice(plays or actions)
        play.apply(table, deal, action)
        play.move_on(table, [action], lambda: 0.0, 60.0)


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_variant_renders_as_a_layout_discord_takes(variant: Variant, lang: str) -> None:
    table = playing_table(variant, options=Options(rounds=1))
    table.language = lang
    rng = random.Random(3)
    for moment in range(3):  # the start, a deal over (its summary), the end
        view = table_view(table)
        public = accepted(messages.table_payload(view, Place(7, 2), SomeFaces()))
        assert len(components(public)) <= 40
        assert len(layout_text(messages.table_payload(view, Place(7, 2))["view"])) <= TEXT_LIMIT
        for seat in range(variant.players):
            for ephemeral in (False, True):
                hand = messages.hand_payload(
                    view, hand_view(table, seat), lang, ephemeral=ephemeral, faces=SomeFaces()
                )
                accepted(hand)
        if view.summary is not None:
            accepted(messages.summary_payload(view, view.summary))
        if moment < 2 and table.status is Status.PLAYING:
            to_the_end_of_a_deal(table, rng)


def test_the_table_reads_in_a_few_lines() -> None:
    """Title, picture, trumps, turn, scores, the last events, the buttons, the deal: the
    text of a table in play is a dozen short lines."""
    for variant in Variant:
        table = playing_table(variant)
        table.turn_deadline = 1_000.0
        text = layout_text(messages.table_payload(table_view(table), Place(7, 2))["view"])
        lines = text.splitlines()
        assert len(lines) <= 6 + variant.players, lines
        deal = table.deal
        assert deal is not None
        name = ui.seat_name(table.seats[deal.turn], "en")
        assert t("tables.turn", "en", name=name, clock="<t:1000:R>") in text


def test_cards_are_named_and_the_faces_show_in_the_text() -> None:
    faces = SomeFaces()
    table = playing_table(Variant.ARRASTRADO, seed=4)
    deal = table.deal
    assert deal is not None
    while deal.turn != 0:
        deal.apply(next(a for a in deal.legal_actions() if a.kind is Kind.PLAY))
    view = table_view(table)
    hand = hand_view(table, 0)
    payload = messages.hand_payload(view, hand, "es", ephemeral=False, faces=faces)
    cards = [b for b in buttons_of(payload["view"]) if isinstance(b, HandButton)]
    for button, card in zip(cards, hand.cards, strict=False):
        # the card's whole name, which a screen reader says, and no face: two share a line
        assert button.item.label == ui.card_name(card, "es") and button.item.emoji is None
    # the trick in play is a picture of the table from the hand's seat, said in its alt text
    galleries = [
        i for i in payload["view"].walk_children() if isinstance(i, discord.ui.MediaGallery)
    ]
    assert [g.items[0].media.url for g in galleries] == [f"attachment://{pictures.TRICK_FILE}"]
    (drawn,) = messages.hand_files(view, hand, "es")
    assert drawn is not None and drawn.description is not None
    for _, card in deal.trick_seats():
        assert ui.card_name(card, "es") in drawn.description
    public = layout_text(messages.table_payload(view, Place(7, 2), faces)["view"])
    assert view.deal is not None
    # the turned card: its face, and its name for a screen reader (which reads a face as
    # its emoji's name, tute_12B_0)
    turned = view.deal.turned
    assert f"{faces.inline(turned)} {ui.card_name(turned, 'en')}" in public


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_face_in_a_line_of_text_is_followed_by_its_cards_name(lang: str) -> None:
    faces = SomeFaces()
    table = playing_table(Variant.PAIRS, seed=6)
    deal = table.deal
    assert deal is not None
    while len(deal.tricks) < 2:
        deal.apply(next(a for a in deal.legal_actions() if a.kind is Kind.PLAY))
    view = table_view(table)
    lines = [
        ui.last_trick_line(view, lang, faces),
        ui.turned_line(view.deal, lang, faces),  # type: ignore[arg-type]
        *(ui.card_text(card, lang, faces) for card in range(40)),
    ]
    for line in lines:
        for face in re.finditer(r"<:tute_(\w+?)_0:\d+>", line):
            card = CODES.index(face[1])
            assert line[face.end() :].startswith(f" {ui.card_name(card, lang)}"), line


def test_the_result_keeps_the_last_deals_summary_and_offers_a_rematch() -> None:
    table = playing_table(Variant.HABANERO, options=Options(rounds=1))
    rng = random.Random(5)
    while table.status is Status.PLAYING:
        to_the_end_of_a_deal(table, rng)
    assert table.status is Status.FINISHED and table.summary is not None
    view = table_view(table)
    payload = messages.table_payload(view, Place(7, 2))
    accepted(payload)
    said = layout_text(payload["view"])
    assert said.startswith(f"### {t('summary.game_over', 'en', id=table.id)}")
    summary = t("summary.title", "en", deal=table.summary.deal_no + 1, id=table.id)
    assert f"**{summary}**" in said
    assert [getattr(b, "custom_id", None) for b in buttons_of(payload["view"])] == [
        f"tute:t:{table.id}:rematch",
        f"tute:rp:{table.id}:{table.summary.deal_no}",
        f"tute:rv:{table.id}:{table.summary.deal_no}",
    ]
    galleries = [
        i for i in payload["view"].walk_children() if isinstance(i, discord.ui.MediaGallery)
    ]
    assert [g.items[0].media.url for g in galleries] == ["attachment://summary.png"]


def test_the_hand_shows_the_table_on_its_turn_and_a_refresh_only_when_ephemeral() -> None:
    table = playing_table(Variant.PAIRS)
    deal = table.deal
    assert deal is not None
    for turn in (False, True):  # the others' turn, then the member's (seat 0)
        if turn:
            while deal.turn != 0:
                deal.apply(next(a for a in deal.legal_actions() if a.kind is Kind.PLAY))
        view = table_view(table)
        hand = hand_view(table, 0)
        dm = messages.hand_payload(view, hand, "en", ephemeral=False)["view"]
        mine = messages.hand_payload(view, hand, "en", ephemeral=True)["view"]
        ids = [getattr(b, "custom_id", "") for b in buttons_of(mine)]
        assert f"tute:t:{table.id}:refresh" in ids
        dm_ids = [getattr(b, "custom_id", "") for b in buttons_of(dm)]
        assert f"tute:t:{table.id}:refresh" not in dm_ids
        galleries = [i for i in dm.walk_children() if isinstance(i, discord.ui.MediaGallery)]
        shown = [g.items[0].media.url for g in galleries]
        # the table from its seat on its turn; between turns it would fall behind
        assert shown == ([f"attachment://{pictures.TRICK_FILE}"] if turn else [])
        assert len(messages.hand_files(view, hand, "en")) == len(shown)


def test_cards_sit_two_to_a_row_in_order_and_capote_asks_first() -> None:
    table = playing_table(Variant.HABANERO, seed=3)
    view = table_view(table)
    hand = hand_view(table, 0)
    layout = messages.hand_payload(view, hand, "en", ephemeral=False)["view"]
    rows = [i for i in layout.walk_children() if isinstance(i, discord.ui.ActionRow)]
    card_rows = [[b.code for b in row.children if isinstance(b, HandButton)] for row in rows]
    cards = [[code for code in row if code[0].isdigit()] for row in card_rows]
    assert all(len(row) <= 2 for row in cards), card_rows  # two names share a phone's line
    assert [code for row in cards for code in row] == [CODES[c] for c in hand.cards]
    capote = Action(0, Kind.CAPOTE)
    ids = [
        b.custom_id
        for b in layouts.declaration_buttons(replace(hand, declarations=(capote,)), "en")
    ]
    assert ids == [f"tute:h:{table.id}:{hand.deal_no}:{hand.trick_no}:{layouts.ASK}k"]


def test_the_hand_says_at_the_end_what_its_player_won() -> None:
    """The hand is all a player needs: at the end it tells the winner and their own chips
    and experience (not the others')."""
    table = playing_table(Variant.HABANERO, options=Options(bet=100))
    table.status = Status.FINISHED
    table.winner = 0
    table.tally = GameTally(chips={100: 100}, xp={100: 20}, places={100: (3, 1)})
    view = table_view(table)
    said = layout_text(
        messages.hand_payload(view, hand_view(table, 0), "en", ephemeral=False)["view"]
    )
    mine = t("summary.tally_line", "en", name="ana", chips="+100", xp=20)
    assert mine + t("summary.tally_place", "en", before=3, after=1) in said
    assert ui.winner_line(view, 0, "en") in said
