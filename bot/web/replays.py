"""The web table's replays: a member's recent finished deals in the server of their
Activity (in an Activity opened from DMs, their own deals of any server), and one of those
deals stepped through (every hand shown: it is over), as JSON for the page. The session
(``Authorization: Bearer <token>``) says who asks and from which server; the service
decides what may be replayed (and reviewed) and refuses the rest in words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from aiohttp import web

from bot.i18n import language_of, t
from bot.tables.errors import TableError
from bot.tables.numbers import parse_number
from bot.tables.replay import deal_replay, recent_deals, replay_json
from bot.tables.review import Review
from bot.tables.service import TableService
from bot.words.reviews import review_words

from .sessions import Session, WebAuthError, verify

RECENT: Final = 25
"""The most deals the page lists."""
BEARER: Final = "Bearer "
SHOWN_DIGITS: Final = 20
"""The most digits of a number from the address a refusal repeats."""


def _session(request: web.Request, secret: bytes, clock: Callable[[], float]) -> Session:
    header = request.headers.get("Authorization", "")
    if not header.startswith(BEARER):
        raise WebAuthError("malformed")
    return verify(header[len(BEARER) :], secret, clock())


def _shown(digits: str, plus: int = 0) -> str:
    """A number of the address as the refusal shows it (a deal counted from 1), cut short."""
    if len(digits) > SHOWN_DIGITS:
        return digits[: SHOWN_DIGITS - 1] + "…"
    return str(int(digits) + plus)


def _refused(request: web.Request, key: str, status: int, **params: object) -> web.Response:
    lang = language_of(request.query.get("lang"))
    text = t(f"tables.errors.{key}", lang, **params)
    return web.json_response({"error": key, "text": text}, status=status)


async def replays_answer(
    request: web.Request,
    service: TableService,
    secret: bytes,
    clock: Callable[[], float],
) -> web.Response:
    """``GET /api/replays``: the member's recent finished deals here (from DMs, theirs of
    any server), newest first;
    ``GET /api/replays/{table}/{deal}``: that deal's steps (``deal`` 0 the first)."""
    try:
        session = _session(request, secret, clock)
    except WebAuthError as error:
        return web.json_response({"error": error.reason}, status=401)
    table, deal = request.match_info.get("table"), request.match_info.get("deal")
    if table is None or deal is None:
        deals = await recent_deals(service.db, session.guild_id, session.user_id, RECENT)
        listed = [
            {
                "table_id": d.table_id,
                "deal_no": d.deal_no,
                "variant": d.variant,
                "finished_at": d.finished_at,
            }
            for d in deals
        ]
        return web.json_response({"deals": listed}, headers={"Cache-Control": "no-cache"})
    table_id, deal_no = parse_number(table), parse_number(deal)
    if table_id is None or deal_no is None:  # past what the database holds: no such deal
        return _refused(request, "replay_none", 404, id=_shown(table), deal=_shown(deal, 1))
    try:
        replay = await deal_replay(
            service.db,
            session.guild_id,
            table_id,
            deal_no,
            user_id=session.user_id,
            now=clock(),
        )
    except TableError as error:
        status = 404 if error.key == "replay_none" else 403
        return _refused(request, error.key, status, **error.params)
    return web.json_response(replay_json(replay), headers={"Cache-Control": "no-cache"})


def _review_answer(review: Review, lang: str) -> dict[str, object]:
    """The review as the page shows it: its figures, and its words in the page's language
    (the same sentences as the chat's, without its bold), each costliest decision with the
    replay step that shows it."""
    words = review_words(review, lang, plain=True)
    return {
        "table_id": review.table_id,
        "deal_no": review.deal_no,
        "accuracy": round(review.accuracy, 1),
        "lost": round(review.lost, 1),
        "decisions": [
            {"step": d.step, "mark": d.mark.value, "cost": d.cost} for d in review.decisions
        ],
        "summary": list(words.summary),
        "items": [
            {"step": item.step, "mark": item.mark.value, "text": item.text} for item in words.items
        ],
        "how": words.how,
    }


async def review_answer(
    request: web.Request,
    service: TableService,
    secret: bytes,
    clock: Callable[[], float],
) -> web.Response:
    """``GET /api/replays/{table}/{deal}/review``: the review of the member's own decisions
    in that deal (computed once, on the robots' workers, then kept)."""
    try:
        session = _session(request, secret, clock)
    except WebAuthError as error:
        return web.json_response({"error": error.reason}, status=401)
    table, deal = request.match_info["table"], request.match_info["deal"]
    table_id, deal_no = parse_number(table), parse_number(deal)
    if table_id is None or deal_no is None:
        return _refused(request, "replay_none", 404, id=_shown(table), deal=_shown(deal, 1))
    try:
        review = await service.review(session.guild_id, table_id, deal_no, user_id=session.user_id)
    except TableError as error:
        status = 404 if error.key == "replay_none" else 403
        return _refused(request, error.key, status, **error.params)
    lang = language_of(request.query.get("lang"))
    return web.json_response(_review_answer(review, lang), headers={"Cache-Control": "no-cache"})
