"""The table's messages rendered from the service's views, without Discord: what each person
sees (and may not see), the hand's buttons, the embeds' words. Milliseconds each."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.ai import Level
from bot.engine import CODES, SUITS, Action, Deal, Game, Kind, Options, Variant, parse_card
from bot.i18n import CATALOGS, t
from bot.tables.codes import decode_action, encode_action
from bot.tables.model import GameTally, Seat, Status, Table
from bot.tables.views import HandView, Redraws, TableView, hand_view, table_view
from cogs.tables import embeds as ui
from cogs.tables import messages
from cogs.tables.buttons import HandButton, LobbyButton
from cogs.tables.places import Place


def playing_table(variant: Variant, *, seed: int = 1, options: Options | None = None) -> Table:
    """A table in play: seat 0 a member, the others robots, the first deal dealt."""
    options = options or Options()
    seats: list[Seat | None] = [Seat("ana", user_id=100)]
    seats += [Seat.for_robot(i, Level.HARD) for i in range(1, variant.players)]
    table = Table(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=100,
        variant=variant,
        options=options,
        language="en",
        created_at=0.0,
        seats=seats,
        status=Status.PLAYING,
        seed=seed,
    )
    table.game = Game(variant, options)
    table.deal = Deal(table.game.deal_for(table.deal_rng()))
    return table


def play_on(table: Table, moves: int, rng: random.Random) -> None:
    deal = table.deal
    assert deal is not None
    for _ in range(moves):
        legal = [a for a in deal.legal_actions() if a.kind in (Kind.PLAY, Kind.BID, Kind.PASS)]
        if deal.finished or not legal:
            return
        deal.apply(rng.choice(legal))


def buttons_of(view: discord.ui.View | discord.ui.LayoutView) -> list[discord.ui.Item[Any]]:
    """The buttons of a message, inside its containers and rows too, in order."""
    return [
        item
        for item in view.walk_children()
        if isinstance(item, discord.ui.Button | discord.ui.DynamicItem)
    ]


def layout_text(view: discord.ui.LayoutView) -> str:
    """Everything a layout message says in words."""
    return "\n".join(
        item.content for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay)
    )


def table_text(view: TableView, lang: str) -> str:
    """Everything the table message says in words."""
    return layout_text(messages.table_payload(view, Place(view.id, view.channel_id))["view"])


def hand_text(view: TableView, hand: HandView, lang: str) -> str:
    """Everything a hand (in the DMs) says in words."""
    return layout_text(messages.hand_payload(view, hand, lang, ephemeral=False)["view"])


@pytest.mark.parametrize("variant", list(Variant))
def test_the_table_shows_no_card_of_a_hand(variant: Variant) -> None:
    """No card still in a hand is shown on the table (but the turned card, which is
    public), at any moment of a deal."""
    rng = random.Random(3)
    for seed in range(15):
        table = playing_table(variant, seed=seed)
        play_on(table, rng.randrange(0, 30), rng)
        deal = table.deal
        assert deal is not None
        view = table_view(table)
        held = {c for seat in range(variant.players) for c in deal.hand(seat)}
        held.discard(deal.turned_card)
        text = table_text(view, "en")
        shown = [c for c in held if re.search(rf"(?<!\d){re.escape(ui.card_text(c, 'en'))}", text)]
        assert shown == []
        public = view.deal
        assert public is not None
        assert sum(public.hand_sizes) == sum(len(deal.hand(s)) for s in range(variant.players))
        assert {c for _, c in public.trick} == set(deal.trick)


@pytest.mark.parametrize("variant", list(Variant))
def test_a_hand_view_holds_its_own_cards_and_what_it_may_play(variant: Variant) -> None:
    rng = random.Random(5)
    for seed in range(10):
        table = playing_table(variant, seed=seed)
        play_on(table, rng.randrange(0, 8), rng)
        deal = table.deal
        assert deal is not None
        hand = hand_view(table, 0)
        assert hand.cards == tuple(deal.hand(0))
        legal = [a for a in deal.legal_actions() if a.seat == 0]
        assert hand.playable == {a.arg for a in legal if a.kind is Kind.PLAY}
        assert hand.playable <= set(hand.cards)
        refused = {r.card for r in hand.refusals}
        if hand.your_turn and hand.trick:
            assert refused == set(hand.cards) - hand.playable
        for refusal in hand.refusals:  # each reason is in the catalog, in both languages
            for lang in ("en", "es"):
                assert f"tables.errors.{refusal.key}" in CATALOGS[lang]


def test_the_hand_payload_has_one_button_per_card_the_playable_ones_enabled() -> None:
    table = playing_table(Variant.ARRASTRADO)
    view = table_view(table)
    hand = hand_view(table, 0)
    payload = messages.hand_payload(view, hand, "en", ephemeral=False)
    buttons = [b for b in buttons_of(payload["view"]) if isinstance(b, HandButton)]
    cards = [b for b in buttons if b.code[0].isdigit()]
    assert [b.item.label for b in cards] == [ui.card_name(c, "en") for c in hand.cards]
    for button in cards:
        card = decode_action(0, button.code).arg
        assert button.item.disabled is (card not in hand.playable)
        assert button.item.custom_id == f"tute:h:7:0:0:{CODES[card]}"
        assert button.item.emoji is None  # the name says it all, and keeps the hand short


def test_a_robot_standing_in_leaves_the_hand_without_a_button_to_click() -> None:
    table = playing_table(Variant.HABANERO)
    seat = table.seats[0]
    assert seat is not None
    seat.away = True
    seat.robot = Level.NORMAL
    hand = hand_view(table, 0)
    assert hand.playable == frozenset() and hand.declarations == ()
    assert t("hand.away", "en") in hand_text(table_view(table), hand, "en")


def test_the_hand_says_whose_turn_it_is_and_the_trick_on_the_table() -> None:
    table = playing_table(Variant.ARRASTRADO, seed=4)
    deal = table.deal
    assert deal is not None
    while deal.turn != 0:
        deal.apply(next(a for a in deal.legal_actions() if a.kind is Kind.PLAY))
    table.turn_deadline = 1_000.0
    hand = hand_view(table, 0)
    assert hand.your_turn
    text = hand_text(table_view(table), hand, "en")
    assert t("hand.your_turn", "en", clock="<t:1000:R>") in text
    # the trick is the picture of the table from the hand's seat; its alt text says it
    (picture,) = messages.hand_files(table_view(table), hand, "en")
    assert picture is not None and picture.description is not None
    for seat, card in deal.trick_seats():
        name = ui.seat_name(table.seats[seat], "en", plain=True)
        assert f"{name} {ui.card_name(card, 'en')}" in picture.description


def test_declarations_are_labelled_in_words() -> None:
    table = playing_table(Variant.HABANERO)
    hand = hand_view(table, 0)
    sing = Action.sing(0, hand.trump)
    assert ui.action_label(sing, hand, "en") == t(
        "hand.sing", "en", points=40, suit=ui.suit_text(hand.trump, "en")
    )
    trump = SUITS[hand.trump]
    swap = replace(
        hand, exchange_gives=parse_card(f"7{trump}"), exchange_card=parse_card(f"11{trump}")
    )
    exchange = Action.simple(0, Kind.EXCHANGE)
    suit = t(f"cards.suit.{SUITS[hand.trump]}", "en")
    assert (
        ui.action_label(exchange, swap, "en") == f"Swap your 7 of {suit} for the Knight of {suit}"
    )
    suit = t(f"cards.suit.{SUITS[hand.trump]}", "es")
    assert (
        ui.action_label(exchange, swap, "es") == f"Cambia tu 7 de {suit} por el Caballo de {suit}"
    )


def test_the_table_shows_trump_and_scores() -> None:
    table = playing_table(Variant.PAIRS, seed=9)
    play_on(table, 6, random.Random(1))
    table.language = "es"
    view = table_view(table)
    public = view.deal
    assert public is not None
    text = table_text(view, "es")
    assert ui.suit_text(public.trump, "es") in text
    assert t("tables.scores_line", "es", scores="")[:6] in text
    # the last trick: who played each card and who took it, in a line of its own
    last = public.last_trick
    assert last is not None
    (line,) = [line for line in text.splitlines() if line.startswith("Última baza")]
    for seat, card in last.cards:
        assert ui.seat_name(view.seats[seat], "es", short=True) in line
        assert ui.card_text(card, "es") in line
    assert ui.seat_name(view.seats[last.winner], "es", short=True) in line.split("→")[1]


def test_an_ended_table_shows_no_deal_and_its_hand_no_buttons() -> None:
    table = playing_table(Variant.INDIVIDUAL)
    table.status = Status.CANCELLED
    view = table_view(table)
    assert view.deal is None
    hand = hand_view(table, 0)
    assert not hand.playing and hand.cards == ()
    payload = messages.hand_payload(view, hand, "en", ephemeral=False)
    assert not buttons_of(payload["view"])
    assert t("tables.play.status.cancelled", "en") in table_text(view, "en")


def test_the_table_waits_for_a_robot_about_to_play_but_not_for_someone_going_away() -> None:
    table = playing_table(Variant.ARRASTRADO, seed=2)
    deal = table.deal
    assert deal is not None
    while deal.turn == 0:  # a robot on turn
        deal.apply(next(a for a in deal.legal_actions() if a.kind is Kind.PLAY))
    redraws = Redraws()
    assert redraws.show(table).public  # the game's first show goes up at once
    first = redraws.show(table)
    assert not first.public  # the robot's play shows this too, in one edit
    assert all(h.may_wait for h in first.hands if not h.usable)
    seat = table.seats[0]
    assert seat is not None
    seat.away = True
    assert redraws.show(table).public  # I'm back is shown at once
    # no member plays for themself now: nobody's play would come to show the robots'
    # with, so each run of theirs shows by itself
    assert redraws.show(table).public
    seat.away = False
    assert redraws.show(table).public  # back: shown at once
    assert not redraws.show(table).public  # and the robots' plays wait for theirs again


def test_lobby_buttons_follow_the_seats() -> None:
    table = playing_table(Variant.PAIRS)
    table.status = Status.LOBBY
    table.seats[1:] = [None, None, None]
    view = messages.lobby_buttons(table_view(table), Place(7, 2), "en")
    ids = [getattr(item, "custom_id", None) for item in view.children]
    assert "tute:l:7:team0" in ids and "tute:l:7:team1" in ids
    unrobot = next(i for i in view.children if getattr(i, "custom_id", "") == "tute:l:7:unrobot")
    assert isinstance(unrobot, LobbyButton) and unrobot.item.disabled


@pytest.mark.parametrize(
    "action",
    [
        Action.play(2, 17),
        Action.sing(2, 3),
        Action.bid(2, 110),
        Action.simple(2, Kind.EXCHANGE),
        Action.simple(2, Kind.PASS),
    ],
)
def test_an_action_survives_its_custom_id(action: Action) -> None:
    assert decode_action(2, encode_action(action)) == action


@pytest.mark.parametrize(
    ("code", "lang", "named", "with_article"),
    [
        ("12E", "en", "King of swords", "the King of swords"),
        ("12E", "es", "Rey de espadas", "el Rey de espadas"),
        ("10O", "es", "Sota de oros", "la Sota de oros"),
        ("10B", "en", "Jack of clubs", "the Jack of clubs"),
        ("1C", "en", "Ace of cups", "the Ace of cups"),
        ("4O", "es", "4 de oros", "el 4 de oros"),
    ],
)
def test_a_card_is_named_in_words(code: str, lang: str, named: str, with_article: str) -> None:
    card = parse_card(code)
    assert ui.card_name(card, lang) == named
    assert ui.card_name(card, lang, the=True) == with_article


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_hand_says_in_one_line_why_it_holds_cards_back(lang: str) -> None:
    """On a player's turn to follow, the hand says in one line, in the player's language,
    why it holds cards back: the reason of one beside the cards it may play (of their suit:
    "beat it with a higher one" says "follow suit" too)."""
    both = 0
    for seed in range(60):
        table = playing_table(Variant.ARRASTRADO, seed=seed)
        deal = table.deal
        assert deal is not None
        while deal.turn != 0:
            deal.apply(next(a for a in deal.legal_actions() if a.kind is Kind.PLAY))
        hand = hand_view(table, 0)
        if not hand.refusals:
            continue
        assert set(hand.cards) - hand.playable == {r.card for r in hand.refusals}
        text = hand_text(table_view(table), hand, lang)
        said = [
            r
            for r in hand.refusals
            if t("hand.refused", lang, why=ui.refusal_text(r.key, r.params, lang)) in text
        ]
        assert said, "a reason is given"
        assert text.count("🚫") == 1, "in one line"
        suits = {card // 10 for card in hand.playable}
        if any(r.card // 10 in suits for r in hand.refusals):
            both += 1
            assert any(r.card // 10 in suits for r in said), "the reason beside the cards"
    assert both, "a deal where a card of the suit led is held back too"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_result_shows_each_members_chips_and_experience(lang: str) -> None:
    table = playing_table(Variant.HABANERO, options=Options(bet=100))
    table.language = lang
    table.status = Status.FINISHED
    table.winner = 1
    table.tally = GameTally(chips={100: -100}, xp={100: 5}, places={100: (2, 3)})
    text = table_text(table_view(table), lang)
    line = t("summary.tally_line", lang, name="ana", chips="-100", xp=5)
    # an unrated game: the heading names no rating
    assert f"**{t('summary.tally_title.chips_xp', lang)}**" in text.splitlines()
    assert t("summary.tally", lang) not in text
    assert line + t("summary.tally_place", lang, before=2, after=3) in text.splitlines()
    assert "**-100**" in line and "+5" in line
    no_bet = playing_table(Variant.HABANERO)
    no_bet.language = lang
    no_bet.status = Status.FINISHED
    no_bet.winner = 0
    no_bet.tally = GameTally(chips={100: 0}, xp={100: 20})
    text = table_text(table_view(no_bet), lang)
    assert t("summary.tally_xp", lang, name="ana", xp=20) in text.splitlines()  # no stake
    assert f"**{t('summary.tally_title.xp', lang)}**" in text.splitlines()
    friendly = playing_table(Variant.HABANERO, options=Options(competitive=False))
    friendly.language = lang
    friendly.status = Status.FINISHED
    friendly.tally = GameTally(chips={100: 0}, xp={100: 0})
    text = table_text(table_view(friendly), lang)
    assert t("summary.tally", lang) not in text  # a friendly game gives nothing
    assert t("summary.tally_title.xp", lang) not in text


def test_a_finished_table_offers_a_rematch_and_nothing_else() -> None:
    table = playing_table(Variant.HABANERO)
    table.status = Status.FINISHED
    place = Place(7, 2)
    view = messages.table_payload(table_view(table), place)["view"]
    assert [getattr(b, "custom_id", None) for b in buttons_of(view)] == ["tute:t:7:rematch"]
    table.status = Status.CANCELLED
    assert not buttons_of(messages.table_payload(table_view(table), place)["view"])


def test_a_member_is_told_once_when_their_turn_comes_after_others_played() -> None:
    def to_seat_zero() -> Table:
        table = playing_table(Variant.ARRASTRADO, seed=2)
        deal = table.deal
        assert deal is not None
        while deal.turn != 0 or not deal.actions:
            deal.apply(next(a for a in deal.legal_actions() if a.kind is Kind.PLAY))
        return table

    table = to_seat_zero()
    redraws = Redraws()
    assert redraws.show(table).hand(0).notify  # the robots played: her turn has come
    assert not redraws.show(table).hand(0).notify  # told once, however often it is redrawn
    deal = table.deal
    assert deal is not None
    deal.apply(next(a for a in deal.legal_actions() if a.kind is Kind.PLAY and a.seat == 0))
    assert not redraws.show(table).hand(0).notify  # not her turn

    quiet = to_seat_zero()
    seat = quiet.seats[0]
    assert seat is not None
    seat.notify = False  # /tute notify on:False
    assert not Redraws().show(quiet).hand(0).notify

    restored = to_seat_zero()
    after_restart = Redraws()
    assert not after_restart.show(restored, tell=False).hand(0).notify  # told before it
    assert not after_restart.show(restored).hand(0).notify


def test_a_pairs_score_line_fits_a_phone() -> None:
    """Partners' names and their points on one short line: a robot without its level."""
    table = playing_table(Variant.PAIRS)
    text = table_text(table_view(table), "en")
    (scores,) = [line for line in text.splitlines() if "Robot 2" in line]
    for item in scores.split(" · "):
        assert len(item) <= 40, item
    assert "hard" not in scores
