"""What a table says of its stakes and its result, the same in the chat and on the card
table: who sits in a seat, who won, what each member won or lost (chips, experience, their
place on the board, their rating), what a game costs before it starts (a bet, arrastrado's
chips every deal, the plato) and the questions before a leave or a vote to cancel.

A name a member typed goes in through ``escape`` (the chat escapes it; the page inserts
text as text and passes none). ``say`` is how a catalog line is filled: :func:`t` for the
chat, :func:`plain` for the page (the catalog's bold marks left out)."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.engine import Result, Variant
from bot.i18n import CATALOGS, DEFAULT_LANGUAGE, language_of, number, signed, t
from bot.tables.announcement import Said
from bot.tables.model import DEFAULT_ROBOT, Seat
from bot.tables.summary import DealSummary
from bot.tables.views import Outcome, TableView

Say = Callable[..., str]
Escape = Callable[[str], str]

_EMOJI = re.compile("^[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f]+ ")
"""The emoji a catalog line opens with ("🏆 ", "👑 "): the page draws none."""


def _as_typed(name: str) -> str:
    return name


def plain(key: str, lang: str, /, **params: object) -> str:
    """A catalog line as :func:`t` fills it, without its markdown's bold marks (``**``) and
    its emoji (the page draws none: it has pictures of its own), for a page that draws text
    as text: a name in ``params`` keeps every character."""
    template = CATALOGS[language_of(lang)].get(key) or CATALOGS[DEFAULT_LANGUAGE][key]
    return _EMOJI.sub("", template.replace("**", "")).format(**params)


def seat_text(
    seat: Seat | None,
    lang: str,
    *,
    escape: Escape = _as_typed,
    short: bool = False,
    bare: bool = False,
) -> str:
    """Who sits in a seat: a member's name (through ``escape``), marked when they left or
    are away, or a robot with its number (``short``: without its level). ``bare``: the
    name alone, a robot's without its emoji (the page, which draws none)."""
    if seat is None:
        return t("tables.empty_seat", lang)
    if bare:
        return t("tables.robot_short", lang, number=seat.robot_no) if seat.is_robot else seat.name
    if seat.is_robot:
        robot = seat.robot_no
        if short:
            return "🤖 " + t("tables.robot_short", lang, number=robot)
        level = (seat.robot or DEFAULT_ROBOT).value
        return t("tables.robot_name", lang, number=robot, level=t(f"robots.{level}", lang))
    name = escape(seat.name)
    if seat.left:
        return t("tables.left_name", lang, name=name)
    if seat.away:
        return t("tables.away_name", lang, name=name)
    return name


def names_joined(names: list[str], lang: str) -> str:
    """Names in a list as each language writes one: "Ana & Luis", "Ana y Luis"."""
    if len(names) < 2:
        return "".join(names)
    return t("tables.names_and", lang, first=", ".join(names[:-1]), last=names[-1])


def side_names(
    table: TableView, seats: tuple[int, ...], lang: str, escape: Escape, *, bare: bool = False
) -> str:
    """The names of a side's players, "Ana & Luis" (``bare``: :func:`seat_text`'s)."""
    names = [seat_text(table.seats[s], lang, escape=escape, bare=bare) for s in seats]
    return names_joined(names, lang)


def winner_line(
    table: TableView, side: int, lang: str, *, escape: Escape = _as_typed, say: Say = t
) -> str:
    """ "🏆 Winners: Ana & Luis": the members of the winning side who stayed. A member who
    left has forfeited the game, whatever the robot that played on for them did: never
    shown as a winner (a side whose members all left won nobody the game)."""
    seats = table.sides[side]
    stayed = tuple(s for s in seats if not _left(table, s))
    bare = say is plain
    if not stayed:  # their bare names: the line says that they left
        names = [escape(occupant.name) for s in seats if (occupant := table.seats[s])]
        return say("tables.winner_forfeit", lang, names=names_joined(names, lang))
    key = "tables.winner" if len(stayed) == 1 else "tables.winners"
    return say(key, lang, names=side_names(table, stayed, lang, escape, bare=bare))


def _left(table: TableView, seat: int) -> bool:
    occupant = table.seats[seat]
    return occupant is not None and occupant.left


def rounds_lines(
    table: TableView, lang: str, *, escape: Escape = _as_typed, say: Say = t
) -> list[str]:
    """The rounds each side won: "Ana & Luis: 2"."""
    return [
        say(
            "summary.rounds_line",
            lang,
            names=side_names(table, seats, lang, escape, bare=say is plain),
            rounds=won,
        )
        for seats, won in zip(table.sides, table.rounds_won or (), strict=False)
    ]


def tally_title(table: TableView, lang: str) -> str:
    """The heading over the tally's lines, naming only what they show: "Chips, experience
    and rating", "Chips and experience" when the game was not rated, "Experience…" when no
    chips were at stake."""
    tally = table.tally
    chips = table.options.bet or (tally is not None and any(tally.chips.values()))
    rated = tally is not None and bool(tally.ratings)
    if chips:
        return t("summary.tally" if rated else "summary.tally_title.chips_xp", lang)
    return t("summary.tally_title.xp_rating" if rated else "summary.tally_title.xp", lang)


def tally_line(
    table: TableView,
    seat: Seat | None,
    lang: str,
    *,
    escape: Escape = _as_typed,
    say: Say = t,
) -> str:
    """What the game gave the member in a seat (nothing for a robot, or a friendly game):
    chips won or lost, experience, their place on the chips board and their rating when
    they moved."""
    tally = table.tally
    if tally is None or not table.options.competitive or seat is None or seat.user_id is None:
        return ""
    chips, xp = tally.chips.get(seat.user_id, 0), tally.xp.get(seat.user_id, 0)
    name = seat_text(seat, lang, escape=escape, bare=say is plain)
    if chips or table.options.bet:
        line = say("summary.tally_line", lang, name=name, chips=signed(chips, lang), xp=xp)
    else:  # no chips were at stake
        line = say("summary.tally_xp", lang, name=name, xp=xp)
    before, after = tally.places.get(seat.user_id, (0, 0))
    if before != after:
        line += say("summary.tally_place", lang, before=before, after=after)
    rated = tally.ratings.get(seat.user_id)
    if rated is not None:  # a rated game
        rating = number(rated.after.shown, lang)
        if rated.before is None:
            line += say("summary.tally_rating_new", lang, rating=rating)
        else:
            change = signed(rated.after.shown - rated.before.shown, lang)
            line += say("summary.tally_rating", lang, rating=rating, change=change)
    return line


def tally_lines(
    table: TableView, lang: str, *, escape: Escape = _as_typed, say: Say = t
) -> list[str]:
    """:func:`tally_line` of each seat, in seat order, leaving out those with none."""
    return [
        line
        for seat in table.seats
        if (line := tally_line(table, seat, lang, escape=escape, say=say))
    ]


def stakes_lines(table: TableView, lang: str) -> list[str]:
    """What moves chips at the table, before it starts: the bet, and at arrastrado the
    chips every deal pays whatever the bet (and the plato); a practice table says none do."""
    o = table.options
    lines: list[str] = []
    if o.bet:
        lines.append(t("tables.opt.bet", lang, bet=number(o.bet, lang)))
    if o.competitive and table.variant is Variant.ARRASTRADO:  # it pays whatever the bet
        lines.append(t("tables.opt.arrastrado_pays" + ("_plato" if o.plato else ""), lang))
    if not o.competitive:
        lines.append(t("tables.opt.practice", lang))
    return lines


def leave_question(case: str, stake: int, lang: str) -> str:
    """The question before leaving a game, saying what it costs (``service.leave_terms``)."""
    key = f"tables.confirm.leave.{case}" + ("_stake" if stake else "")
    return t(key, lang, stake=number(stake, lang))


def cancel_question(missing: int, stake: int, leave: bool, lang: str) -> str:
    """The question before a vote to cancel, saying what it does and costs
    (``service.vote_terms``)."""
    if leave and stake:
        return t("tables.confirm.cancel_leave", lang, stake=number(stake, lang))
    key = "tables.confirm.cancel" if missing else "tables.confirm.cancel_last"
    text = t(key, lang, missing=missing)
    if stake:
        text += t("tables.confirm.cancel_stake", lang, stake=number(stake, lang))
    return text


def done_key(what: str, outcome: Outcome) -> str:
    """What the answer to I'm back (``back``), a vote to cancel (``cancel``) or a leave
    (``leave``) says was done: its catalog key."""
    ended = not outcome.show.table.status.is_open
    if what == "back":
        return "tables.done.back"
    if what == "leave":
        return "tables.done.leave_end" if ended else "tables.done.leave"
    if any(a.what is Said.ABANDONED for a in outcome.show.announce):
        return "tables.done.leave_end"  # alone with robots: the vote was a leave
    return "tables.done.cancelled" if ended else "tables.done.cancel"


def ending_lines(
    result: Result,
    named: Callable[[int], str],
    seat: Callable[[int], str],
    no_winner: str,
    lang: str,
    *,
    say: Say = t,
) -> list[str]:
    """How a deal ended: who won and how (``no_winner`` where nobody did), and a contract
    made or failed; ``named(side)`` says a side's names, ``seat(n)`` a seat's."""
    winner = result.winner
    if winner is None:
        lines = [no_winner]
    else:
        number = "one" if len(result.sides[winner]) == 1 else "many"
        lines = [say(f"summary.end.{number}.{result.end.value}", lang, names=named(winner))]
        if result.double:
            lines.append(say("summary.double", lang))
    contract = result.contract
    if contract is not None:
        key = "summary.contract_made" if result.contract_made else "summary.contract_failed"
        lines.append(say(key, lang, name=seat(contract.seat), points=contract.points))
    return lines


def side_lines(
    result: Result,
    named: Callable[[int], str],
    lang: str,
    carried: tuple[int, ...] = (),
    *,
    say: Say = t,
) -> list[str]:
    """Each side's points at the end of a deal, with the part of them ``carried`` over from
    the game's earlier deals (habanero) said apart."""
    return [
        say("summary.side_carried", lang, names=named(side), total=total, carried=carried[side])
        if carried
        else say("summary.side", lang, names=named(side), total=total)
        for side, total in enumerate(result.scores)
    ]


def hints_line(table: TableView, lang: str, *, escape: Escape = _as_typed, say: Say = t) -> str:
    """The hints each member asked for in the game, for its result ("" when none did)."""
    bare = say is plain
    items = [
        say(
            "hints.result_item",
            lang,
            name=seat_text(seat, lang, escape=escape, short=True, bare=bare),
            count=seat.hints,
        )
        for seat in table.seats
        if seat is not None and seat.user_id is not None and seat.hints
    ]
    return say("hints.result", lang, items=" · ".join(items)) if items else ""


def deal_lines(table: TableView, summary: DealSummary, lang: str) -> tuple[list[str], list[str]]:
    """The game's last deal, for the page's game over as the chat's result ends: how it
    ended (the cards, a tute, capote, a claim, a resignation; a contract made or failed),
    then each side's points. Names as typed, no bold marks, no emoji."""
    result = summary.result

    def seat(n: int) -> str:
        occupant = table.seats[n]
        return summary.names[n] if occupant is None else seat_text(occupant, lang, bare=True)

    def named(side: int) -> str:
        return names_joined([seat(s) for s in result.sides[side]], lang)

    no_winner = plain("summary.no_winner", lang, target=table.options.target)
    ending = ending_lines(result, named, seat, no_winner, lang, say=plain)
    return ending, side_lines(result, named, lang, summary.carried, say=plain)
