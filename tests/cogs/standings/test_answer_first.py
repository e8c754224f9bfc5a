"""What replays a season's games answers first, in SimCord: ``/tute stats``, ``season show``,
a season's rating board and its page buttons answer (deferred) before the replay runs, the
replay runs off the event loop, and the pages reuse it until a game of the season ends."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
import simcord
from simcord import MemberActor

from bot.tables.competition import seasons
from bot.tables.ratings import RatingRules
from tests.cogs.standings.conftest import embed_of
from tests.cogs.standings.test_seasons import Games, lines_of, set_min_games
from tests.conftest import World

pytestmark = pytest.mark.e2e


class Replays:
    """Stands in for the season's replay: notes, each time it runs, how many interactions
    had been answered by then and whether it ran on the event loop, then replays."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.answered_then: list[int] = []
        self.on_the_loop: list[bool] = []

    def answered(self) -> int:
        return sum(1 for r in self.env.http_requests if r.path.endswith("/callback"))

    def __call__(
        self, rows: Sequence[tuple[str, str, float]], rules: RatingRules
    ) -> seasons.SeasonRatings:
        self.answered_then.append(self.answered())
        try:
            asyncio.get_running_loop()
            self.on_the_loop.append(True)
        except RuntimeError:
            self.on_the_loop.append(False)
        return REPLAY(rows, rules)


REPLAY = seasons.replay_rows


@pytest.fixture
async def replays(simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> Replays:
    fake = Replays(simcord_env)
    monkeypatch.setattr(seasons, "replay_rows", fake)
    return fake


async def test_a_seasons_answers_come_before_its_replay_and_pages_reuse_it(
    simcord_env: simcord.Env, world: World, admin: MemberActor, replays: Replays
) -> None:
    env = simcord_env
    games = Games(env, world.guild.id)
    await set_min_games(env, world.guild.id, 1)
    await admin.slash(world.channel, "tute season start")
    await games.play(*((n, n + 1) for n in range(1, 23, 2)))  # 22 members, 11 games

    asked = [
        ("tute season show", {}),
        ("tute stats", {}),
        ("tute leaderboard", {"by": "rating", "season": 0}),
    ]
    board = None
    for command, options in asked:
        answered_before = replays.answered()
        board = await world.member.slash(world.channel, command, **options)
        assert embed_of(board).title  # the answer came, edited in
        # answered ("thinking") before the replay ran, and the replay ran in a thread
        assert replays.answered_then[-1] == answered_before + 1, command
        assert replays.on_the_loop[-1] is False
        await games.play((50 + len(replays.answered_then), 90))  # each time a new game ends

    assert board is not None and board.response is not None
    runs = len(replays.answered_then)
    await world.member.click(board.response, custom_id="tute:lb:rating:two:s1:1")
    page_two = board.response.message.embeds[0]
    assert page_two.footer.text is not None and page_two.footer.text.startswith("Page 2 of 3")
    assert len(replays.answered_then) == runs + 1  # a game ended since: replayed once
    await world.member.click(board.response, custom_id="tute:lb:rating:two:s1:0")
    await world.member.click(board.response, custom_id="tute:lb:rating:two:s1:1")
    assert len(replays.answered_then) == runs + 1  # nothing new: the replay is reused

    await games.play((700, 701))  # one more game of the season: the pages count it
    await world.member.click(board.response, custom_id="tute:lb:rating:two:s1:2")
    assert len(replays.answered_then) == runs + 2
    # 26 members on the board before it, 28 after: the last page lists 8, not 6
    assert len(lines_of(board.response.message.embeds[0])) == 8
