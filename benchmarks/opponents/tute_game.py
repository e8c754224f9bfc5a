"""One deal of Tute as an OpenSpiel game (``python_tute``), for OpenSpiel's own searches.

The game is one fixed deal: there are no chance nodes. ``TuteGame.of_deal(dealt, seed)``
builds it from our engine's ``DealtCards``; ``pyspiel.load_game("python_tute", {...})``
builds it from its parameters: ``variant``, ``options`` (JSON), ``dealer`` and ``seed``
(the deal is shuffled with ``random.Random(f"deal-{seed}")``), or ``record`` (a game
record's JSON, REFEREE.md: that deal, its actions already played); ``seed`` also seeds
the resampling (``TuteGame.rng``). ``TuteGame.state_at(deal)`` is a state where a deal of
those cards stands now, for a search from the middle of a deal. Every variant plays:
pairs (4 seats, two sides of two), habanero (2 seats, with a stock; a deal of a longer game
carries the scores in its dealt cards), individual (4) and arrastrado (3, or 4 seats with the
dealer sitting out: that seat never moves and its return is 0).

Players are seats. The current player is the seat on turn (in the plato auction, the seat
to bid); its legal actions are its plays and its own declarations, whichever it may make
now. Our engine also lets seats off turn declare (sing, tute, exchange, capote, claim,
resign): here they do so by our robots' rule (``bot.ai.declarations.playout_declaration``:
tute, a claim that holds, the exchange, then a cante, the 40 first; never capote nor
resigning), applied after every action in seat order, as ``benchmarks/robots.py``'s
``play_deal`` asks them. Both sides of a match get that same rule.

Actions: ``0..39`` play that card (``bot.engine.cards``); ``40..43`` sing that suit; 44
tute, 45 exchange, 46 capote, 47 claim, 48 resign, 49 pass; ``50 + points - 101`` bid
``points`` (101 to 230). The seat is always the current player's. OpenSpiel's random
rollouts pick among all of the current player's actions, its declarations too (a capote
announced at random is mostly lost).

Returns, per seat, for its side: +1 when the side won the deal, ``-1 / (sides - 1)`` when
another side did (0 to everyone when a habanero deal ends with nobody at the target), plus
the side's score (our engine's ``Result.scores``, the habanero carry included) minus the
mean score of the sides, divided by 500: a small margin term (at most about 0.35) that
orders wins and losses by points and gives a habanero deal that decides nothing its worth.
The returns add up to zero.

The information state of a seat is its own hand and the public history (every action,
the turned card, the carry): two deals that differ only in cards the seat cannot see give
it the same string. ``resample_from_infostate(seat, sampler)`` deals the cards that seat
cannot see at random, consistent with the voids the rules reveal
(``bot.ai.knowledge.infer`` then ``sample_world``; not the robots' reading of silences).
The sampler OpenSpiel passes is ignored: ISMCTS makes a new one for each call, seeded from
the clock; the game's own ``random.Random`` (from its seed) draws instead, so that a search
with a fixed budget of simulations repeats.

Needs the ``bench`` extra: ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any, Final

import pyspiel  # pyright: ignore[reportMissingImports]

from bot.ai.declarations import playout_declaration
from bot.ai.knowledge import infer, sample_world
from bot.engine import (
    CODES,
    Action,
    Deal,
    DealtCards,
    Kind,
    Variant,
    parse_options,
    parse_record,
    record_of,
    seat_view,
    shuffle_deal,
)
from bot.engine.actions import MAX_BID, MIN_BID
from bot.engine.cards import N_CARDS, cards_of

SHORT_NAME: Final = "python_tute"

SING_BASE: Final = N_CARDS
_SIMPLE_IDS: Final = {
    Kind.TUTE: 44,
    Kind.EXCHANGE: 45,
    Kind.CAPOTE: 46,
    Kind.CLAIM: 47,
    Kind.RESIGN: 48,
    Kind.PASS: 49,
}
_SIMPLE_KINDS: Final = {i: kind for kind, i in _SIMPLE_IDS.items()}
BID_BASE: Final = 50
NUM_ACTIONS: Final = BID_BASE + MAX_BID - MIN_BID + 1
POINT_SCALE: Final = 500.0
"""Points of margin worth 1 in the returns."""
MAX_RETURN: Final = 1.5
"""Above any return: a win (1) plus the largest margin term (about 0.35)."""
MAX_GAME_LENGTH: Final = 400
"""Above the actions of any deal: 40 plays, its declarations, an auction's bids."""

_PARAMS: Final[dict[str, Any]] = {
    "variant": "pairs",
    "options": "{}",
    "dealer": 0,
    "seed": 0,
    "record": "",
}

GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Tute (one deal)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=_PARAMS,
)


def action_id(action: Action) -> int:
    """OpenSpiel's number for one of our actions (its seat is the current player)."""
    kind = action.kind
    if kind is Kind.PLAY:
        return action.arg
    if kind is Kind.SING:
        return SING_BASE + action.arg
    if kind is Kind.BID:
        return BID_BASE + action.arg - MIN_BID
    return _SIMPLE_IDS[kind]


def action_of(seat: int, number: int) -> Action:
    """Our action for OpenSpiel's ``number``, taken by ``seat``."""
    if 0 <= number < N_CARDS:
        return Action.play(seat, number)
    if number < SING_BASE + 4:
        return Action.sing(seat, number - SING_BASE)
    if number >= BID_BASE:
        return Action.bid(seat, number - BID_BASE + MIN_BID)
    return Action.simple(seat, _SIMPLE_KINDS[number])


_TOKENS: dict[Action, str] = {}


def _token(action: Action) -> str:
    found = _TOKENS.get(action)
    if found is None:
        found = _TOKENS[action] = f"{action.seat}:{action_id(action)}"
    return found


def settle(r: Deal) -> None:
    """Let the seats off turn declare, by the robots' rule, until none wants to (or the
    deal ends): the seats in order, again from the first after each declaration."""
    while not r.finished:
        acts = r.legal_actions()
        turn = r.turn
        declared = False
        for seat in sorted({a.seat for a in acts if a.seat != turn}):
            choice = playout_declaration(r, [a for a in acts if a.seat == seat])
            if choice is not None:
                r.apply(choice)
                declared = True
                break
        if not declared:
            return


def deal_returns(r: Deal) -> list[float]:
    """Each seat's return for a finished deal (the module says how): zeros before."""
    out = [0.0] * r.n
    result = r.result
    if result is None:
        return out
    n_sides = len(result.sides)
    mean = sum(result.scores) / n_sides
    for side, seats in enumerate(result.sides):
        if result.winner is None:
            win = 0.0
        elif side == result.winner:
            win = 1.0
        else:
            win = -1.0 / (n_sides - 1)
        value = win + (result.scores[side] - mean) / POINT_SCALE
        for seat in seats:
            out[seat] = value
    return out


def information_state(r: Deal, seat: int) -> str:
    """What ``seat`` knows: its hand and the public history, as one string."""
    hand = " ".join(CODES[c] for c in cards_of(r.hands[seat]))
    history = " ".join([_token(a) for a in r.actions])
    carry = r.dealt.carry
    return f"p{seat} turned {CODES[r.turned_card]} carry {carry} hand {hand} | {history}"


class _Held:
    """The deal of a state, copied by ``Deal.copy`` where OpenSpiel deep-copies a state
    (``State.clone`` in C++ copies every attribute with ``copy.deepcopy``)."""

    __slots__ = ("deal", "game")

    def __init__(self, deal: Deal, game: TuteGame) -> None:
        self.deal = deal
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.deal.copy(), self.game)


class TuteGame(pyspiel.Game):
    """One fixed deal of Tute (the module says how it plays)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMS, **(params or {})}
        record = str(params["record"])
        actions: Sequence[Action] = ()
        if record:
            parsed = parse_record(json.loads(record))
            dealt = parsed.dealt
            actions = parsed.actions
        else:
            variant = Variant(str(params["variant"]))
            options = parse_options(variant, json.loads(str(params["options"])))
            seed = int(params["seed"])
            dealt = shuffle_deal(
                variant, options, int(params["dealer"]), random.Random(f"deal-{seed}")
            )
        self.dealt = dealt
        seats = dealt.options.seats_at(dealt.variant)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=seats,
            min_utility=-MAX_RETURN,
            max_utility=MAX_RETURN,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, params)
        self.rng = random.Random(f"resample-{params['seed']}")
        """Draws the hidden cards of ``resample_from_infostate``."""
        start = Deal(dealt)
        for action in actions:
            start.apply(action)
        settle(start)
        self._start = start

    @classmethod
    def of_deal(cls, dealt: DealtCards, seed: int = 0) -> TuteGame:
        """The game of these dealt cards; ``seed`` seeds the resampling."""
        record = record_of(Deal(dealt, check=False))
        return cls({"record": json.dumps(record), "seed": seed})

    def new_initial_state(self) -> TuteState:
        return TuteState(self, self._start.copy())

    def state_at(self, r: Deal) -> TuteState:
        """A state of this game where ``r`` (a deal of the same cards) stands now, as it is:
        the seats off turn are not asked to declare (their chance was given outside)."""
        return TuteState(self, r.copy())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TuteObserver:
        if params:
            raise ValueError(f"no observation parameters: {params}")
        return TuteObserver()


class TuteState(pyspiel.State):
    """A deal being played (``deal``: our engine's, to read, not to change)."""

    def __init__(self, game: TuteGame, deal: Deal) -> None:
        super().__init__(game)
        self._held = _Held(deal, game)

    @property
    def deal(self) -> Deal:
        return self._held.deal

    def current_player(self) -> int:
        r = self._held.deal
        return pyspiel.PlayerId.TERMINAL if r.finished else r.turn

    def _legal_actions(self, player: int) -> list[int]:
        r = self._held.deal
        return sorted(action_id(a) for a in r.legal_actions() if a.seat == player)

    def _apply_action(self, action: int) -> None:
        r = self._held.deal
        r.apply(action_of(r.turn, action))
        settle(r)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action_of(player, action))

    def is_terminal(self) -> bool:
        return self._held.deal.finished

    def returns(self) -> list[float]:
        return deal_returns(self._held.deal)

    def information_state_string(self, player: int | None = None) -> str:
        r = self._held.deal
        return information_state(r, r.turn if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TuteState:
        """A state with the cards ``player_id`` cannot see dealt again at random,
        consistent with what it saw (the sampler is not used: the module says why)."""
        del probability_sampler
        game = self._held.game
        view = seat_view(self._held.deal, player_id)
        return TuteState(game, sample_world(view, infer(view), game.rng))

    def __str__(self) -> str:
        r = self._held.deal
        hands = " / ".join(" ".join(CODES[c] for c in cards_of(h)) for h in r.hands)
        return f"{r.variant.value} hands {hands} | " + " ".join(str(a) for a in r.actions)


class TuteObserver:
    """OpenSpiel's observer for C++ callers: the information state string, no tensor."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: TuteState, player: int) -> None:
        del state, player

    def string_from(self, state: TuteState, player: int) -> str:
        return information_state(state.deal, player)


pyspiel.register_game(GAME_TYPE, TuteGame)

__all__ = [
    "GAME_TYPE",
    "NUM_ACTIONS",
    "SHORT_NAME",
    "TuteGame",
    "TuteState",
    "action_id",
    "action_of",
    "deal_returns",
    "information_state",
    "settle",
]
