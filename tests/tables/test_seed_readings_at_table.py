"""A table's start and its first plays under the readings of the seeds: the first dealer
drawn from the seed (seeds/000), a cante open until the trick ends (seeds/004)."""

from __future__ import annotations

from bot.engine import Action, Options, Variant, parse_options
from bot.engine.game import first_dealer
from bot.tables.model import Seat, Table
from bot.tables.play import member_action, start
from bot.tables.views import hand_view
from tests.engine.helpers import build, play


def _table(seed: int) -> Table:
    return Table(
        id=1,
        guild_id=1,
        channel_id=2,
        host_id=10,
        variant=Variant.INDIVIDUAL,
        options=Options(),
        language="en",
        created_at=0.0,
        seats=[Seat(name="Ana", user_id=10), None, None, None],
        seed=seed,
    )


def test_a_table_starts_with_the_dealer_its_seed_draws() -> None:
    leaders: set[int] = set()
    for seed in range(40):
        table = _table(seed)
        start(table, lambda: 0.0)
        assert table.deal is not None and table.game is not None
        assert table.deal.dealt.dealer == first_dealer(seed, 4)
        leaders.add(table.deal.leader)
    assert leaders == {0, 1, 2, 3}, "every seat leads some table"


def test_a_hand_offers_the_cante_until_the_trick_ends_at_a_havanian_table() -> None:
    """seeds/004: "Canticles may be made at any moment, provided that the player has the
    required cards and has won the last trick": after leading, the member's hand still
    offers the cante, and the click is taken."""
    table = _table(7)
    table.variant = Variant.HABANERO
    table.options = parse_options(Variant.HABANERO, {"rules": "havanian"})
    table.seats = [Seat(name="Ana", user_id=10), None]
    start(table, lambda: 0.0)
    hands = {0: "1E 12C 11C 2B", 1: "2E 4E 5E 6E 7E 1B 4B 5B"}
    table.deal = build(Variant.HABANERO, hands, "4O", dealer=1, options=table.options)
    play(table.deal, "1E", "2E", "2B")  # Ana wins the first trick, then leads the 2B
    hand = hand_view(table, 0)
    assert not hand.your_turn and hand.may_declare
    assert Action.sing(0, 1) in hand.declarations
    member_action(table, 10, Action.sing(0, 1), deal_no=table.deal_no, trick_no=1)
    assert table.deal.cante_points == [20, 0]
