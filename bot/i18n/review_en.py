"""A deal's review in English: the hard robot's judge of a member's own decisions, with
their marks, the deal's accuracy and the costliest decisions (the Review button beside
Replay, and the card table's replays)."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "review.btn": "Review",
    "review.title": "Review · deal {deal} of table #{id}",
    "review.accuracy": "Accuracy **{accuracy}%** over {decisions} decisions · {lost} points"
    " lost in all",
    "review.counts": "✅ {good} good · 🟡 {inaccuracy} inaccuracies · 🟠 {mistake} mistakes"
    " · 🔴 {blunder} blunders",
    "review.costliest": "**Your costliest decisions**",
    "review.mark.good": "Good",
    "review.mark.inaccuracy": "Inaccuracy",
    "review.mark.mistake": "Mistake",
    "review.mark.blunder": "Blunder",
    "review.item": "{icon} **{mark}** at step {step}, {cost} points lost\nYou: {made}."
    " Better: {better}: {why}{keeps}.",
    "review.none": "No costly decision: every choice was the best the robot found, or close to it.",
    "review.nothing": "You had no real choice to make in this deal: nothing to review.",
    "review.how": "Judged by the hard robot from what your seat could see at each"
    " decision, never the hidden cards, playing the deal out {worlds} times from there."
    " Marks by points lost: good under 3, inaccuracy under 8, mistake under 15, blunder"
    " from 15.",
    "review.turned": "the turned card",
    "review.btn.step": "Step {step}",
    "web.replay.review": "🔎 Review",
    "web.replay.reviewing": "The robot is judging your decisions…",
    "web.replay.review_step": "Step {step}",
    "tables.errors.review_not_played": "A review judges your own decisions: only the"
    " players of a deal can review it.",
}
