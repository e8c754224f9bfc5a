"""The replays' words in English: a finished deal stepped through (``/tute history`` and a
summary's Replay button)."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "commands.tute.history.deal.name": "deal",
    "commands.tute.history.deal.description": "An earlier deal of yours here (your last one if left out)",
    "replays.btn.open": "Replay",
    "replays.title": "Replay · deal {deal} of table #{id}",
    "replays.step": "Step {step} of {steps} · every hand shown",
    "replays.dealt": "{dealer} dealt. Trumps: **{suit}**.",
    "replays.turned": "Turned card: {card}.",
    "replays.trick": "**Trick {number}**: {leader} led — {cards}. **{winner}** took it ({points} points).",
    "replays.card": "{name}: {card}",
    "replays.exchange": "{name} took the turned card, {took}, for {gave}.",
    "replays.said.tute": "{name} sang tute!",
    "replays.said.capote": "{name} declared capote: their side will take every trick.",
    "replays.said.claim": "{name} claimed the remaining tricks.",
    "replays.said.resign": "{name} resigned.",
    "replays.said.bid": "{name} bid {points}.",
    "replays.said.pass": "{name} passed.",
    "replays.side_points": "{names} {points}",
    "replays.scores": "Points so far: {scores}",
    "replays.no_winner": "Nobody won this deal outright: the points carried over.",
    "replays.player": "Player {number}",
    "replays.record": "The game record of this deal (check it with tute-referee).",
    "replays.hand_alt": "{name} holds {cards}",
    "replays.alt": "Step {step} of {steps}: the trick on the table; {hands}",
    "replays.choice": "Table #{id}, deal {deal} · {variant} · {when}",
    "tables.errors.replay_none": "Table #{id} has no deal {deal}.",
    "tables.errors.replay_elsewhere": "That deal was played in another server: only this server's deals can be replayed here.",
    "tables.errors.replay_unfinished": "Deal {deal} of table #{id} was not played to its end: only finished deals can be replayed.",
    "tables.errors.replay_unreadable": "The record of deal {deal} of table #{id} cannot be replayed.",
    "tables.errors.replay_pick": "Pick one of your deals from the list.",
}
