"""Replays in Discord: a finished deal stepped through, every hand shown, in a message only
the clicker sees; reached from ``/tute history`` (with the deal's record) and from the
Replay button under a deal's summary; its buttons step forward and back, stop at both ends,
keep working after a restart, and every step keeps Discord's limits."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import simcord
from simcord.components import COMPONENTS_V2_FLAG, validate_message_state

from bot.engine import record_of
from bot.engine.referee import judge
from bot.i18n import t
from bot.tables.replay import DealReplay, ReplaySeat, steps_of
from cogs.tables.replay_buttons import GOES
from cogs.tables.replays import RECORD_FILE, REPLAY_FILE, replay_files, replay_view
from tests.cogs._said import components
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import buttons, layout_texts, the_table
from tests.conftest import World, fast_bot
from tests.engine.test_properties import OPTION_SETS, play_random_game

Reply = simcord.ResponseMessage
FIRST, BACK, NEXT, LAST = GOES.values()
TEXT_LIMIT = 4000
COMPONENT_LIMIT = 40


def _checked(rows: list[dict[str, Any]]) -> None:
    validate_message_state(
        rows, flags=COMPONENTS_V2_FLAG, content=None, embeds=[], require_nonempty=True
    )
    found = components(rows)
    assert sum(len(c.get("content") or "") for c in found if c.get("type") == 10) <= TEXT_LIMIT
    assert len(found) <= COMPONENT_LIMIT
    assert all(len(c.get("custom_id") or "") <= 100 for c in found)
    assert sum(1 for c in found if c.get("type") == 2) <= 5


def _replay(index: int, seed: int) -> DealReplay:
    variant, options = OPTION_SETS[index]
    deal = play_random_game(variant, options, seed, False)
    record = json.loads(json.dumps(record_of(deal)))
    seats = tuple(
        ReplaySeat(100 + s, "x" * 32, None) if s == 0 else ReplaySeat(None, None, s)
        for s in range(deal.n)
    )
    return DealReplay(
        table_id=123456789,
        deal_no=8,
        variant=variant,
        trump=deal.trump,
        turned=deal.dealt.turned,
        dealer=deal.dealt.dealer,
        seats=seats,
        sides=tuple(tuple(s) for s in deal.sides),
        side_of=tuple(deal.side_of),
        steps=steps_of(record),
        record=json.dumps(record),
    )


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("index", [0, 4, 6, 7, 9])
def test_every_step_keeps_discords_limits(index: int, lang: str) -> None:
    replay = _replay(index, 3)
    for step in range(len(replay.steps)):
        view = replay_view(replay, step, lang, with_record=True)
        _checked(view.to_components())
    files = replay_files(replay, len(replay.steps) - 1, lang, with_record=True)
    assert [f.filename for f in files if f is not None] == [REPLAY_FILE, RECORD_FILE]
    assert all(len(f.description or "") <= 1024 for f in files if f is not None)


def _text(reply: Reply) -> str:
    return "\n".join(layout_texts(reply))


def _go(reply: Reply, symbol: str) -> tuple[str, bool]:
    (found,) = [(b.custom_id, b.disabled) for b in buttons(reply) if b.label == symbol]
    return found


async def _step(member: simcord.MemberActor, reply: Reply, symbol: str) -> Reply:
    custom_id, disabled = _go(reply, symbol)
    assert not disabled
    result = await member.click(reply, custom_id=custom_id)
    stepped = result.response
    assert result.acknowledged and stepped is not None and stepped.id == reply.id
    return stepped


def _at(reply: Reply) -> int:
    """The step shown (1 the first)."""
    found = next(line for line in _text(reply).splitlines() if line.startswith("-# "))
    return int(found.split()[2])


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_finished_deal_steps_back_and_forth_from_history_and_its_summary(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None], test_config: Any
) -> None:
    env = simcord_env
    table_seed(5)
    alice = world.member
    channel = world.channel
    lobby = (await alice.slash(channel, "tute new", variant="arrastrado")).response
    assert lobby is not None
    robot = next(b.custom_id for b in buttons(lobby) if b.custom_id.endswith(":robot"))
    for _ in range(2):
        await alice.click(lobby, custom_id=robot)
    start = next(b.custom_id for b in buttons(lobby) if b.custom_id.endswith(":start"))
    await alice.click(lobby, custom_id=start)
    table = the_table(env)
    driver = Driver(env, world, [Player(alice)])
    await driver.play()
    message = driver.table_message()

    # the deals to pick from: the member's own, newest first; a pick that is none refused
    (choice,) = await alice.autocomplete(channel, "tute history", "deal", "")
    assert choice["value"] == f"{table.id}:{table.deal_no}"
    assert choice["name"].startswith(f"Table #{table.id}, deal {table.deal_no + 1}")
    assert await alice.autocomplete(channel, "tute history", "deal", "#999") == []
    for typed, words in [
        ("nonsense", t("tables.errors.replay_pick", "en")),
        ("1:²", t("tables.errors.replay_pick", "en")),  # a digit to isdigit(), not to int()
        (f"{2**63}:0", t("tables.errors.replay_pick", "en")),  # past the database's integers
        ("999:0", t("tables.errors.replay_none", "en", id=999, deal=1)),
    ]:
        refused = (await alice.slash(channel, "tute history", deal=typed)).response
        assert refused is not None and refused.ephemeral and refused.content == words

    # /tute history: the last deal at once, at its start, with its record
    reply = (await alice.slash(channel, "tute history")).response
    assert reply is not None and reply.ephemeral
    assert [a.filename for a in reply.attachments] == [REPLAY_FILE, RECORD_FILE]
    record = json.loads(await reply.attachments[1].read())
    expected = judge(record)
    assert expected["finished"] and expected["error"] is None
    steps = len(steps_of(record))
    assert t("replays.title", "en", deal=table.deal_no + 1, id=table.id) in _text(reply)
    assert _at(reply) == 1 and _go(reply, FIRST)[1] and _go(reply, BACK)[1]
    _checked(reply.components)

    shown, tricks = reply, 0
    while not _go(shown, NEXT)[1]:
        shown = await _step(alice, shown, NEXT)
        tricks += _text(shown).count("**Trick ")
    assert _at(shown) == steps and _go(shown, LAST)[1], "it stops at the result"
    assert tricks == len(expected["tricks"])
    end = _text(shown)
    assert all(f"**{score}** points" in end for score in expected["result"]["scores"])
    assert [a.filename for a in shown.attachments] == [REPLAY_FILE, RECORD_FILE]

    # its buttons still step after a restart, back to the start
    await env.restart_bot(fast_bot(test_config))
    shown = await _step(alice, shown, BACK)
    assert _at(shown) == steps - 1
    shown = await _step(alice, shown, FIRST)
    assert _at(shown) == 1 and _go(shown, BACK)[1]

    # Replay under the last deal's summary: for whoever clicks, without the record
    (replay,) = [b.custom_id for b in buttons(message) if b.custom_id.startswith("tute:rp:")]
    opened = await alice.click(message, custom_id=replay)
    again = opened.response
    assert opened.ephemeral and again is not None and again.id != reply.id
    assert _at(again) == 1 and [a.filename for a in again.attachments] == [REPLAY_FILE]
    last = await _step(alice, again, LAST)
    assert _at(last) == steps
