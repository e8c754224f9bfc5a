"""Where the hidden cards are likely to be, learned from robot games.

The sampled deals (``knowledge.sample_world``) place the cards the seat cannot see
uniformly among the places the rules leave open. Players do not play at random, though:
a seat that led a suit twice likely holds more of it, one that led a low card of a suit
likely lacks its ace and its 3, one that threw a suit away on another likely keeps little
of it. ``CardModel`` scores, for each hidden card, each place it may be in (a seat's
hand, or the face-down stock) from what that seat did in the public history: a
conditional logit over the places, trained on robot games by
``benchmarks/train_locations.py`` and stored in ``locations.json``.

``CardModel.for_view(view, know)`` turns the scores into ``Locations``, whose ``weight``
of a sampled deal is the product over the hidden cards of the evidence for the place the
deal gives them, tempered by the variant's exponent: the part of the score that the
sampler already knows (how many hidden cards each place holds, how many it may hold) is
left out. It reads the view and its knowledge only, never a card the seat cannot see.
A variant without a trained model weighs every deal the same.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from bot.engine.cards import KING, KNIGHT, POINTS, RANK_OF, SUIT_OF, beats
from bot.engine.deal import Deal
from bot.engine.view import SeatView

from .knowledge import Knowledge, all_tricks

VERSION: Final = 1
"""The layout of the features; a model of another version is not used."""

MODEL_PATH: Final = Path(__file__).with_name("locations.json")

STOCK: Final = -1
"""The place of a card in the face-down stock."""

BASE_FEATURES: Final = ("log_hidden", "log_room", "stock")
"""Features the sampler already accounts for: fitted with the others, left out of the
weight of a deal."""

EVIDENCE_FEATURES: Final = (
    "led",
    "led_trump",
    "led_high",
    "last_lead",
    "led_below",
    "led_above",
    "led_ace_or_3",
    "led_low_high",
    "followed",
    "followed_high",
    "beat_below",
    "beat_above",
    "under_below",
    "discarded",
    "discarded_high",
    "discarded_below",
    "discarded_other",
    "discarded_other_high",
    "ruffs_trump",
    "ruffs_plain",
    "won_high",
    "won_trump",
    "partner",
    "partner_high",
    "partner_trump",
    "left",
    "left_high",
    "left_trump",
    "pair_unsung",
)
"""Features of (place, card) read from the place's plays; all zero for the stock."""

FEATURES: Final = BASE_FEATURES + EVIDENCE_FEATURES
_N_BASE: Final = len(BASE_FEATURES)
_N_EVIDENCE: Final = len(EVIDENCE_FEATURES)


def _high(c: int) -> bool:
    """An ace or a 3: the cards worth 10 or more."""
    return POINTS[c] >= 10


@dataclass
class _Plays:
    """What one seat did in the tricks so far, as cards grouped by how it played them."""

    led: list[int] = field(default_factory=list[int])
    last_lead: int = -1
    beat: list[int] = field(default_factory=list[int])
    """Cards of the led suit that took the trick over when played."""
    under: list[int] = field(default_factory=list[int])
    """Cards of the led suit that did not."""
    discarded: list[int] = field(default_factory=list[int])
    """Cards of neither the led suit nor trumps."""
    ruffs: int = 0
    won: int = 0


def _plays(view: SeatView) -> list[_Plays]:
    """Every seat's plays, read from the public tricks."""
    out = [_Plays() for _ in range(view.players)]
    trump = view.trump
    tricks = all_tricks(view)
    for index, (leader, cards) in enumerate(tricks):
        if not cards:
            continue
        order = view.order(leader)
        led = SUIT_OF[cards[0]]
        best = cards[0]
        first = out[leader]
        first.led.append(cards[0])
        first.last_lead = led
        for k in range(1, len(cards)):
            seen = out[order[k]]
            c = cards[k]
            took = beats(c, best, trump)
            if SUIT_OF[c] == led:
                (seen.beat if took else seen.under).append(c)
            elif SUIT_OF[c] == trump:
                seen.ruffs += 1
            else:
                seen.discarded.append(c)
            if took:
                best = c
        if index < len(view.tricks):
            out[view.tricks[index].winner].won += 1
    return out


def _evidence(view: SeatView, seat: int, seen: _Plays, c: int, unsung: int) -> list[float]:
    """The evidence features of ``seat`` holding card ``c`` (``EVIDENCE_FEATURES``)."""
    suit = SUIT_OF[c]
    trump = view.trump
    is_trump = 1.0 if suit == trump else 0.0
    high = 1.0 if _high(c) else 0.0
    led = [x for x in seen.led if SUIT_OF[x] == suit]
    n_led = float(len(led))
    led_high = sum(1 for x in led if _high(x))
    led_low = sum(1 for x in led if POINTS[x] == 0)
    beat = [x for x in seen.beat if SUIT_OF[x] == suit]
    under = [x for x in seen.under if SUIT_OF[x] == suit]
    discarded = [x for x in seen.discarded if SUIT_OF[x] == suit]
    other = len(seen.discarded) - len(discarded)
    other_high = sum(1 for x in seen.discarded if SUIT_OF[x] != suit and POINTS[x] > 0)
    relation = (seat - view.seat) % view.players
    partner = 1.0 if view.side_of[seat] == view.side_of[view.seat] else 0.0
    left = 1.0 if relation == 1 and not partner else 0.0
    pair = RANK_OF[c] in (KING, KNIGHT) and unsung >> suit & 1
    return [
        n_led * (1.0 - is_trump),
        n_led * is_trump,
        n_led * high,
        1.0 if seen.last_lead == suit else 0.0,
        float(sum(1 for x in led if x < c)),
        float(sum(1 for x in led if x > c)),
        float(led_high),
        float(led_low) * high,
        float(len(beat) + len(under)),
        float(len(beat) + len(under)) * high,
        float(sum(1 for x in beat if x < c)),
        float(sum(1 for x in beat if x > c)),
        float(sum(1 for x in under if x < c)),
        float(len(discarded)),
        float(len(discarded)) * high,
        float(sum(1 for x in discarded if x < c)),
        float(other),
        float(other_high),
        seen.ruffs * is_trump,
        seen.ruffs * (1.0 - is_trump),
        seen.won * high,
        seen.won * is_trump,
        partner,
        partner * high,
        partner * is_trump,
        left,
        left * high,
        left * is_trump,
        1.0 if pair else 0.0,
    ]


def _unsung(view: SeatView) -> int:
    """The suits nobody has sung yet, as a 4-bit mask."""
    sung = 0
    for cante in view.cantes:
        sung |= 1 << cante.suit
    return 0xF & ~sung


def places(view: SeatView, know: Knowledge) -> list[int]:
    """The places a hidden card may be in: the other seats that hold hidden cards, and the
    stock (``STOCK``) while it has face-down cards."""
    out = [s for s in range(view.players) if s != view.seat and know.hidden[s] > 0]
    if know.stock_hidden > 0:
        out.append(STOCK)
    return out


def choices(view: SeatView, know: Knowledge) -> dict[int, list[tuple[int, list[float]]]]:
    """For each hidden card the viewer cannot place, every place that may hold it with the
    features (``FEATURES``) of that place holding it."""
    seen = _plays(view)
    unsung = _unsung(view)
    where = places(view, know)
    room: dict[int, int] = {}
    for p in where:
        mask = know.unseen if p == STOCK else know.unseen & ~know.void[p]
        room[p] = mask.bit_count()
    none = [0.0] * _N_EVIDENCE
    out: dict[int, list[tuple[int, list[float]]]] = {}
    unseen = know.unseen
    while unseen:
        low = unseen & -unseen
        unseen ^= low
        c = low.bit_length() - 1
        row: list[tuple[int, list[float]]] = []
        for p in where:
            if p == STOCK:
                base = [math.log(know.stock_hidden), math.log(room[p]), 1.0]
                row.append((p, base + none))
            elif not know.void[p] >> c & 1:
                base = [math.log(know.hidden[p]), math.log(room[p]), 0.0]
                row.append((p, base + _evidence(view, p, seen[p], c, unsung)))
        if len(row) >= 2:
            out[c] = row
    return out


@dataclass(frozen=True, slots=True)
class VariantModel:
    """The trained weights of one variant, in the order of ``FEATURES``."""

    weights: tuple[float, ...]
    exponent: float

    def score(self, features: list[float]) -> float:
        return sum(w * x for w, x in zip(self.weights, features, strict=True))


@cache
def _load(path: Path) -> dict[str, VariantModel]:
    try:
        data: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if data.get("version") != VERSION or data.get("features") != list(FEATURES):
        return {}
    out: dict[str, VariantModel] = {}
    for name, entry in data.get("variants", {}).items():
        weights = tuple(float(w) for w in entry["weights"])
        if len(weights) == len(FEATURES):
            out[name] = VariantModel(weights, float(entry["exponent"]))
    return out


def models(path: Path = MODEL_PATH) -> dict[str, VariantModel]:
    """The trained models by variant name, read once."""
    return _load(path)


class Locations:
    """The weight of sampled deals for one decision: per place and card the log of the
    evidence, summed per byte of the hand masks so a deal costs a few table look-ups."""

    __slots__ = ("_seats", "_stock", "_tables", "_unseen", "active", "scores")

    def __init__(self, scores: dict[tuple[int, int], float], unseen: int) -> None:
        self.scores = scores
        """(place, card): the tempered log evidence of the card in that place."""
        self._unseen = unseen
        self.active = bool(scores)
        self._stock = any(p == STOCK for p, _ in scores)
        seats = sorted({p for p, _ in scores if p != STOCK})
        self._seats = tuple(seats)
        # with a stock, a card out of the seats' hands is in it: count each card's
        # evidence for a hand against its evidence for the stock
        per_seat: dict[int, list[float]] = {s: [0.0] * 40 for s in seats}
        for (p, c), v in scores.items():
            if p != STOCK:
                per_seat[p][c] += v - scores.get((STOCK, c), 0.0)
        self._tables = tuple(_byte_tables(per_seat[s]) for s in seats)

    def log_weight(self, world: Deal) -> float:
        """The log of ``weight``."""
        total = 0.0
        unseen = self._unseen
        hands = world.hands
        for s, tables in zip(self._seats, self._tables, strict=True):
            m = hands[s] & unseen
            total += (
                tables[0][m & 255]
                + tables[1][m >> 8 & 255]
                + tables[2][m >> 16 & 255]
                + tables[3][m >> 24 & 255]
                + tables[4][m >> 32 & 255]
            )
        return total

    def weight(self, world: Deal) -> float:
        """How much more likely the plays make ``world``'s placing of the hidden cards
        than another: 1.0 for every deal when the variant has no model."""
        if not self.active:
            return 1.0
        return math.exp(self.log_weight(world))


def _byte_tables(per_card: list[float]) -> tuple[tuple[float, ...], ...]:
    out: list[tuple[float, ...]] = []
    for k in range(5):
        row = [0.0] * 256
        for b in range(1, 256):
            low = b & -b
            row[b] = row[b ^ low] + per_card[8 * k + low.bit_length() - 1]
        out.append(tuple(row))
    return tuple(out)


class CardModel:
    """The learned card-location model (``locations.json``)."""

    @staticmethod
    def for_view(view: SeatView, know: Knowledge, path: Path = MODEL_PATH) -> Locations:
        """The weights of sampled deals for ``view``'s seat; ``know`` is its knowledge
        (``silences(view, infer(view))``)."""
        model = models(path).get(view.variant.value)
        if model is None or view.contract is not None or view.options.plato:
            return Locations({}, 0)
        return Locations(evidence_scores(model, view, know), know.unseen)

    @staticmethod
    def probabilities(
        view: SeatView, know: Knowledge, path: Path = MODEL_PATH
    ) -> dict[int, dict[int, float]]:
        """For each hidden card, the model's chance of each place (base and evidence
        together); empty when the variant has no model."""
        model = models(path).get(view.variant.value)
        if model is None:
            return {}
        out: dict[int, dict[int, float]] = {}
        for c, row in choices(view, know).items():
            z = [model.score(f) for _, f in row]
            top = max(z)
            e = [math.exp(v - top) for v in z]
            total = sum(e)
            out[c] = {p: x / total for (p, _), x in zip(row, e, strict=True)}
        return out


def evidence_scores(
    model: VariantModel, view: SeatView, know: Knowledge
) -> dict[tuple[int, int], float]:
    """(place, card): the evidence part of the model's score, times its exponent."""
    weights = model.weights[_N_BASE:]
    scale = model.exponent
    out: dict[tuple[int, int], float] = {}
    for c, row in choices(view, know).items():
        for p, f in row:
            out[p, c] = scale * sum(w * x for w, x in zip(weights, f[_N_BASE:], strict=True))
    return out
