"""A game played again: Rematch on the finished table opens a lobby in the channel with the
same options and the robots back in their seats; the other player, pinged there, sits down
by clicking Rematch too, and the new game starts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.i18n import t
from bot.tables.model import Status
from tests.cogs.tables import _faults
from tests.cogs.tables._game import SEED, new_game
from tests.cogs.tables._world import buttons, placed
from tests.conftest import World
from tests.tables._play import tables_of

quick_games = _faults.quick_games
"""Tiny pictures, easy robots, a SimCord that checks a settling bot often."""


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_rematch_opens_the_same_game_and_the_others_sit_down_by_clicking(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world, humans=2)
    await game.start()
    await game.play()
    old = game.table
    assert old.status is Status.FINISHED
    alice, bob = (h.member for h in game.humans)
    final = game.table_message()
    rematch, _replay, _review = buttons(final)

    before = len(env.http_requests)
    result = await bob.click(final, custom_id=rematch.custom_id)
    assert result.ephemeral and result.response is not None
    # the click is answered ("thinking") before the lobby is posted, not after
    sent = [(r.method, r.path) for r in env.http_requests[before:]]
    answered_at = next(i for i, (_, path) in enumerate(sent) if path.endswith("/callback"))
    assert answered_at < sent.index(("POST", f"/channels/{world.channel.id}/messages"))
    link = f"https://discord.com/channels/{old.guild_id}/{old.channel_id}"
    assert result.response.content == t("tables.rematch.opened", "en", link=link)
    new = max(tables_of(env.bot.tables).values(), key=lambda t_: t_.id)  # type: ignore[attr-defined]
    assert new.id != old.id and new.status is Status.LOBBY and new.host_id == bob.id
    assert (new.variant, new.options) == (old.variant, old.options)
    # the lobby is in the channel, and pings alice alone
    lobby = next(m for m in world.channel.history() if m.id == placed(new).message_id)
    assert lobby.content == t("tables.rematch.invited", "en", mentions=f"<@{alice.id}>")
    assert (
        lobby.embeds and lobby.embeds[0].title is not None and f"#{new.id}" in lobby.embeds[0].title
    )

    joined = await alice.click(final, custom_id=rematch.custom_id)
    assert joined.ephemeral and joined.response is not None
    assert joined.response.content == t("tables.rematch.joined", "en", link=link)
    assert {s.user_id for s in new.seats if s is not None} == {alice.id, bob.id}
    start = next(b for b in buttons(lobby) if b.custom_id.endswith(":start"))
    lobby = next(m for m in world.channel.history() if m.id == placed(new).message_id)
    await bob.click(lobby, custom_id=start.custom_id)
    assert new.status is Status.PLAYING
