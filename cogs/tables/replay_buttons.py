"""The buttons of a replay (:mod:`replays`), apart so that the summary's layout can offer
one without the replay's drawing: what their clicks do is registered there."""

from __future__ import annotations

from bot.i18n import t

from .buttons import TuteButton

GOES = {"f": "⏮", "b": "◀", "n": "▶", "l": "⏭"}
"""The buttons of a replay, in their row's order: first, back, forward, last."""


class ReplayButton(
    TuteButton,
    kind="r",
    parts={"deal": r"\d+", "step": r"\d+", "go": "[fbnl]", "file": "[01]"},
):
    """A step of a replay: ``tute:r:<table id>:<deal>:<step>:<go>:<file>``; ``go`` tells
    the four buttons apart (two may lead to the same step), ``file`` whether the message
    carries the deal's record."""

    @property
    def deal_no(self) -> int:
        return int(self.parts[0])

    @property
    def step(self) -> int:
        return int(self.parts[1])

    @property
    def with_record(self) -> bool:
        return self.parts[3] == "1"


class ReplayOpen(TuteButton, kind="rp", parts={"deal": r"\d+"}):
    """Replay on a deal's summary: ``tute:rp:<table id>:<deal>``."""

    @property
    def deal_no(self) -> int:
        return int(self.parts[0])


class ReviewOpen(TuteButton, kind="rv", parts={"deal": r"\d+"}):
    """Review beside Replay: ``tute:rv:<table id>:<deal>``; the review of the decisions of
    whoever presses (:mod:`reviews`)."""

    @property
    def deal_no(self) -> int:
        return int(self.parts[0])


REPLAY_ITEMS = (ReplayButton, ReplayOpen, ReviewOpen)


def replay_open_button(table_id: int, deal_no: int, lang: str) -> ReplayOpen:
    return ReplayOpen(table_id, deal_no, label=t("replays.btn.open", lang), emoji="⏯️")


def review_open_button(table_id: int, deal_no: int, lang: str) -> ReviewOpen:
    return ReviewOpen(table_id, deal_no, label=t("review.btn", lang), emoji="🔎")
