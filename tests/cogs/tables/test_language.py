"""The language of a table: the server's, the players' own for their replies and DMs, and
``TUTE_LANGUAGE`` for the servers that did not choose.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

import pytest
import simcord

from bot.config import Config
from bot.i18n import CATALOGS, t
from bot.storage.settings import update_settings
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from tests.cogs._said import all_texts
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import (
    add_member,
    buttons,
    close_lobby,
    crafted_click,
    hand_buttons,
    layout_texts,
    op_button,
    open_table,
    placed,
    refusal,
    service_of,
    the_table,
)
from tests.conftest import World, fast_bot
from tests.tables._play import tables_of


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_spanish_server_and_players(
    simcord_env: simcord.Env, world: World, set_locale: Callable[[str], None]
) -> None:
    """A server whose language is Spanish gets its public messages in Spanish; players whose
    Discord is in Spanish get their replies and DMs in Spanish."""
    env = simcord_env
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, world.guild.id, language="es")
    set_locale("es-ES")
    alice = world.member
    bob = await add_member(env, world, "bob")
    carol = await add_member(env, world, "carol")
    lobby = (await alice.slash(world.channel, "tute new", variant="individual")).response
    assert lobby is not None
    table = the_table(env)
    (embed,) = lobby.embeds
    assert embed.title == t(
        "tables.title", "es", variant=t("variants.individual", "es"), id=table.id
    )
    labels = [b.label for b in buttons(lobby)]
    assert t("tables.btn.join", "es") in labels and t("tables.btn.start", "es") in labels
    assert "Join" not in labels

    await bob.click(lobby, custom_id=op_button(lobby, "join"))
    said = refusal(await bob.click(lobby, custom_id=op_button(lobby, "join")))
    assert (
        said == t("tables.errors.already_seated", "es") != t("tables.errors.already_seated", "en")
    )
    said = refusal(await carol.click(lobby, custom_id=op_button(lobby, "start")))
    assert said == t("tables.errors.host_only", "es")

    await alice.click(lobby, custom_id=op_button(lobby, "start"))
    driver = Driver(env, world, [Player(alice), Player(bob)])
    assert "Turno:" in "\n".join(layout_texts(driver.table_message()))
    assert buttons(driver.table_message())[0].label == t("tables.btn.hand", "es")
    for member in (alice, bob):
        (dm,) = member.user.dm_channel.history()
        title = t("hand.title", "es", id=table.id, deal=1)
        assert layout_texts(dm)[0] == title
    deal = table.deal
    assert deal is not None
    idle = next(p for p in driver.players if driver.audit.seat_of(p.member) != deal.turn)
    seat = driver.audit.seat_of(idle.member)
    (dm,) = idle.member.user.dm_channel.history()
    custom_id = next(b.custom_id for b in hand_buttons(dm))
    said = refusal(await crafted_click(env, idle.member.user, dm, custom_id))
    assert said == t("tables.errors.illegal.not_your_turn", "es") == "No es tu turno."
    assert seat == table.seat_of(idle.member.id)

    rules = (await alice.slash(world.channel, "tute rules")).response
    assert rules is not None and rules.ephemeral
    assert layout_texts(rules)[0].startswith(f"### {t('guide.title', 'es')}")
    listed = (await bob.slash(world.channel, "tute tables")).response
    assert listed is not None and listed.ephemeral
    assert listed.embeds[0].title == t("tables.list.title", "es")
    assert listed.embeds[0].fields[0].value.startswith("En juego")  # type: ignore[union-attr]
    driver.audit.check()


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_tute_language_sets_the_servers_that_did_not_choose(
    simcord_env: simcord.Env, world: World, test_config: Config
) -> None:
    """TUTE_LANGUAGE=es: a server that never chose a language (or changed something else)
    gets its tables in Spanish; one that chose English keeps English."""
    env = simcord_env
    await env.restart_bot(fast_bot(dataclasses.replace(test_config, language="es")))
    alice = world.member
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, starting_chips=300)
    lobby = (await alice.slash(world.channel, "tute new", variant="habanero")).response
    assert lobby is not None
    table = the_table(env)
    assert table.language == "es"
    view = table_view(table)
    assert lobby.embeds[0].title == ui.lobby_embed(view, placed(view), "es").title
    await close_lobby(alice, lobby)
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, language="en")
    await alice.slash(world.channel, "tute new", variant="habanero")
    tables = tables_of(service_of(env))
    assert tables[max(tables)].language == "en"


def english_only() -> set[str]:
    """Runs of words of the English catalog (outside its placeholders, three letters or
    more) that no Spanish text contains."""
    spanish = list(CATALOGS["es"].values())
    found: set[str] = set()
    for key, text in CATALOGS["en"].items():
        if CATALOGS["es"].get(key) == text:
            continue
        for piece in re.split(r"\{[^}]*\}", text):
            for words in re.findall(r"[A-Za-z][A-Za-z' ]*[A-Za-z]", piece):
                if len(words) >= 3 and not any(words in es for es in spanish):
                    found.add(words)
    return found


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_whole_spanish_game_says_nothing_in_english(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    table_seed: Callable[[int], None],
) -> None:
    """A Spanish server, players in Spanish: every text of every message of a whole game
    (the table, the hands, the summaries, the result, their buttons and alt texts) is in
    Spanish."""
    env = simcord_env
    table_seed(4)
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, world.guild.id, language="es")
    set_locale("es-ES")
    bob = await add_member(env, world, "bob")
    await open_table(env, world, "habanero", [world.member, bob])
    driver = Driver(env, world, [Player(world.member), Player(bob)])
    await driver.play()
    driver.check_end()
    english = english_only()
    assert "Your turn" in english and "Trumps" in english  # what it looks for
    # one pattern for every piece, each text once (a game sends the same text many times)
    pieces = sorted(english, key=len, reverse=True)
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, pieces)) + r")\b")
    for text in set(all_texts(env)):
        found = pattern.findall(text)
        assert not found, (found, text)
