"""The commitment to a table's shuffle, in Discord: in the lobby before anyone starts it,
and on the table's message while it plays; the shuffle mixes in the Start click's id."""

from __future__ import annotations

import pytest
import simcord

from bot.i18n import t
from bot.storage.settings import update_settings
from bot.tables.model import Status
from tests.cogs.tables._world import layout_texts, op_button, placed, the_table, thread_of
from tests.conftest import World

pytestmark = pytest.mark.e2e


@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_lobby_shows_the_commitment_and_the_start_click_seeds_the_shuffle(
    simcord_env: simcord.Env, world: World, lang: str
) -> None:
    async with simcord_env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, world.guild.id, language=lang)
    alice = world.member
    lobby = (await alice.slash(world.channel, "tute new", variant="habanero")).response
    assert lobby is not None
    table = the_table(simcord_env)
    code = table.short_commitment
    assert code is not None and len(code) == 12
    shown = t("tables.shuffle", lang, code=code)
    message = next(m for m in world.channel.history() if m.id == lobby.id)
    (embed,) = message.embeds
    assert embed.footer.text is not None and embed.footer.text.startswith(shown)

    start = await alice.click(lobby, custom_id=op_button(lobby, "start"))
    assert table.status is Status.PLAYING
    click = start._interaction.id  # pyright: ignore[reportPrivateUsage]
    assert table.public_input == f"discord:{click}"
    played = next(
        m for m in thread_of(world, table).history() if m.id == placed(table).play_message_id
    )
    assert layout_texts(played)[-1].endswith(" · " + shown)
