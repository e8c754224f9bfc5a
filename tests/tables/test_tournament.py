"""A tournament's draw: knockout brackets seeded by rating with byes for the best seeds,
Swiss rounds without rematches or second byes, standings and the winner."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from bot.tables.competition.tournament import BYE, Draw, Format, Match, prizes, seeded

EIGHT = tuple(range(1, 9))  # entrants named by their seed


def play_round(draw: Draw, pick: str = "seed", rng: random.Random | None = None) -> None:
    """Decide every match of the round drawn: the best seed wins, or a random player."""
    for match in [m for m in draw.matches if m.winner is None]:
        players = match.players
        winner = min(players) if pick == "seed" else (rng or random.Random(0)).choice(players)
        draw.decide(match, winner)


def test_a_knockout_of_eight_is_seeded_one_against_eight() -> None:
    draw = Draw(EIGHT, 2, Format.KNOCKOUT)
    assert draw.rounds == 3
    first = draw.next_round()
    assert [m.entrants for m in first] == [(1, 8), (2, 7), (3, 6), (4, 5)]
    play_round(draw)
    semis = draw.next_round()
    assert [m.entrants for m in semis] == [(1, 4), (2, 3)]  # the best seeds meet last
    play_round(draw)
    (final,) = draw.next_round()
    assert final.entrants == (1, 2)
    play_round(draw)
    assert draw.finished and draw.winner == 1
    assert [row[0] for row in draw.standings()[:2]] == [1, 2]


def test_knockout_byes_go_to_the_best_seeds_and_are_decided_at_once() -> None:
    draw = Draw(tuple(range(1, 7)), 2, Format.KNOCKOUT)
    to_play = draw.next_round()
    byes = [m for m in draw.matches if m.is_bye]
    assert sorted(m.players[0] for m in byes) == [1, 2]
    assert all(m.winner == m.players[0] for m in byes)
    assert sorted(m.entrants for m in to_play) == [(3, 6), (4, 5)]
    assert all(BYE in m.entrants for m in byes)


def test_a_knockout_of_three_player_tables() -> None:
    draw = Draw(tuple(range(1, 10)), 3, Format.KNOCKOUT)
    assert draw.rounds == 2
    first = draw.next_round()
    assert [m.entrants for m in first] == [(1, 6, 7), (2, 5, 8), (3, 4, 9)]
    play_round(draw)
    (final,) = draw.next_round()
    assert sorted(final.players) == [1, 2, 3]
    play_round(draw)
    assert draw.winner == 1


@pytest.mark.parametrize("seed", range(20))
def test_a_swiss_of_eight_has_no_rematch_and_a_clear_winner(seed: int) -> None:
    rng = random.Random(seed)
    draw = Draw(EIGHT, 2, Format.SWISS, swiss_rounds=3)
    for _ in range(3):
        matches = draw.next_round()
        assert sorted(e for m in matches for e in m.players) == list(EIGHT)  # all play
        play_round(draw, "random", rng)
    pairs = [frozenset(m.players) for m in draw.matches]
    assert len(pairs) == len(set(pairs)), "nobody meets the same opponent twice"
    assert draw.finished
    table = draw.standings()
    wins = [row[1] for row in table]
    assert wins == sorted(wins, reverse=True) and wins[0] == 3
    assert draw.winner == table[0][0]
    # after round 1 the winners met winners: exactly one entrant wins all three rounds
    assert wins.count(3) == 1


def test_a_swiss_of_seven_gives_each_bye_to_the_lowest_placed_without_one() -> None:
    draw = Draw(tuple(range(1, 8)), 2, Format.SWISS, swiss_rounds=3)
    had: set[int] = set()
    for _ in range(3):
        wins = draw.wins()
        placed = sorted(draw.entrants, key=lambda e: (-wins[e], e))
        expected = next(e for e in reversed(placed) if e not in had)
        draw.next_round()
        (bye,) = [m for m in draw.round_matches(draw.current_round) if m.is_bye]
        assert bye.players == (expected,) and bye.winner == expected
        had.add(expected)
        play_round(draw)
    assert len(had) == 3


def test_the_next_round_waits_for_the_last_result() -> None:
    draw = Draw(EIGHT, 2, Format.KNOCKOUT)
    first = draw.next_round()
    draw.decide(first[0], 1)
    with pytest.raises(ValueError, match="no round"):
        draw.next_round()
    with pytest.raises(ValueError, match="did not play"):
        draw.decide(first[1], 1)


def test_a_draw_reads_back_the_same() -> None:
    draw = Draw(EIGHT, 2, Format.SWISS, swiss_rounds=2)
    draw.next_round()
    play_round(draw)
    draw.next_round()
    back = Draw.from_json(json.loads(json.dumps(draw.to_json())))
    assert back == draw
    assert back.matches[0] == Match(1, draw.matches[0].entrants, draw.matches[0].winner)


def test_seeding_puts_the_best_rated_first_and_the_unrated_last() -> None:
    assert seeded([10, 11, 12, 13], {11: 5.0, 12: 9.0}) == (12, 11, 10, 13)


@pytest.mark.parametrize(("entrants", "table"), list(itertools.product(range(2, 14), (2, 3, 4))))
def test_every_knockout_ends_with_one_winner(entrants: int, table: int) -> None:
    rng = random.Random(entrants * 10 + table)
    draw = Draw(tuple(range(1, entrants + 1)), table, Format.KNOCKOUT)
    while not draw.finished:
        draw.next_round()
        play_round(draw, "random", rng)
    assert draw.winner in draw.entrants
    assert len(draw.round_matches(draw.rounds)) == 1


@pytest.mark.parametrize(("entrants", "table"), [(9, 3), (12, 3), (16, 4), (24, 3)])
def test_a_swiss_of_free_for_all_tables_seats_nobody_twice_together(
    entrants: int, table: int
) -> None:
    rng = random.Random(entrants)
    draw = Draw(tuple(range(1, entrants + 1)), table, Format.SWISS, swiss_rounds=3)
    for _ in range(3):
        draw.next_round()
        play_round(draw, "random", rng)
    together = [
        frozenset(pair) for m in draw.matches for pair in itertools.combinations(m.players, 2)
    ]
    assert len(together) == len(set(together))
    assert draw.winner is not None


def test_knockout_places_put_who_went_out_together_side_by_side() -> None:
    draw = Draw(EIGHT, 2, Format.KNOCKOUT)
    while not draw.finished:
        draw.next_round()
        play_round(draw)
    places = draw.places()
    assert places[0] == (1,) and places[1] == (2,)
    assert sorted(places[2]) == [3, 4] and sorted(places[3]) == [5, 6, 7, 8]


def test_swiss_places_share_a_place_only_on_wins_and_tie_break() -> None:
    draw = Draw(EIGHT, 2, Format.SWISS, swiss_rounds=3)
    for _ in range(3):
        draw.next_round()
        play_round(draw)
    standings = draw.standings()
    places = draw.places()
    assert [e for group in places for e in group] == [row[0] for row in standings]
    for group in places:
        assert len({(w, tb) for e, w, tb in standings if e in group}) == 1


@pytest.mark.parametrize(
    ("pot", "places", "expected"),
    [
        (800, [(1,), (2,), (3, 4), (5, 6, 7, 8)], {1: 400, 2: 240, 3: 80, 4: 80}),
        (400, [(1,), (2,), (3,), (4,)], {1: 280, 2: 120}),  # 4 to 7 entrants: two places
        (300, [(1,), (2,), (3,)], {1: 300}),  # fewer: the winner alone
        (101, [(1,), (2,), (3,), (4,)], {1: 71, 2: 30}),  # rounding goes to the winner
        (100, [(1, 2, 3), (4,)], {1: 34, 2: 33, 3: 33}),  # a tie shares, odd chip first
        (0, [(1,), (2,)], {}),
    ],
)
def test_prizes_pay_out_the_whole_pot_by_place(
    pot: int, places: list[tuple[int, ...]], expected: dict[int, int]
) -> None:
    assert prizes(pot, places) == expected


@pytest.mark.parametrize("entrants", range(2, 20))
def test_prizes_always_add_up_to_the_pot(entrants: int) -> None:
    rng = random.Random(entrants)
    for _ in range(20):
        pot = rng.randrange(0, 10_000)
        ids = list(range(1, entrants + 1))
        places: list[tuple[int, ...]] = []
        while ids:
            n = rng.randint(1, len(ids))
            places.append(tuple(ids[:n]))
            ids = ids[n:]
        paid = prizes(pot, places)
        assert sum(paid.values()) == pot
        assert all(amount > 0 for amount in paid.values())


def test_who_left_is_placed_nowhere_and_a_swiss_draws_them_no_more() -> None:
    knockout = Draw((1, 2, 3, 4), 2, Format.KNOCKOUT)
    knockout.next_round()
    play_round(knockout)
    (final,) = knockout.next_round()
    knockout.decide(final, None, out=(1, 2))  # both finalists left
    assert knockout.finished and knockout.winner is None
    assert knockout.places() == [(3, 4)]  # the semi-final losers move up, together
    assert prizes(100, knockout.places(), 4) == {3: 50, 4: 50}
    assert Draw.from_json(json.loads(json.dumps(knockout.to_json()))) == knockout

    swiss = Draw((1, 2, 3, 4), 2, Format.SWISS, swiss_rounds=2)
    first = swiss.next_round()
    (with_one,) = [m for m in first if 1 in m.players]
    (other,) = [m for m in first if 1 not in m.players]
    swiss.decide(with_one, max(with_one.players), out=(1,))  # seed 1 left their first match
    swiss.decide(other, min(other.players))
    second = swiss.next_round()
    assert all(1 not in m.players for m in second)
    play_round(swiss)
    assert swiss.finished and 1 not in [e for group in swiss.places() for e in group]
