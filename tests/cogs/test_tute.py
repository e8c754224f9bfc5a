"""/tute end to end: the real bot in SimCord, driven by a member."""

from collections.abc import Callable

import pytest
import simcord

from bot.i18n import t
from tests.conftest import World

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("locale", "language"), [("es-ES", "es"), ("es-419", "es"), ("en-US", "en"), ("fr", "en")]
)
async def test_about_answers_privately_in_the_users_language(
    world: World, set_locale: Callable[[str], None], locale: str, language: str
) -> None:
    set_locale(locale)

    result = await world.member.slash(world.channel, "tute about")

    assert result.ephemeral
    assert result.response is not None
    [embed] = result.response.embeds
    assert embed.title == t("about.title", language)
    assert embed.description == t("about.description", language)
    commands, *more = embed.fields  # the list goes on in more fields when it outgrows one
    assert commands.name == t("about.commands", language)
    about_line = t(
        "about.command_line",
        language,
        command=f"{t('commands.tute.name', language)} {t('commands.tute.about.name', language)}",
        description=t("commands.tute.about.description", language),
    )
    listed = [line for f in (commands, *more) for line in (f.value or "").splitlines()]
    assert about_line in listed
    assert all(len(f.value or "") <= 1024 for f in embed.fields)


async def test_spanish_and_english_read_differently(
    world: World, set_locale: Callable[[str], None]
) -> None:
    set_locale("es-ES")
    spanish = await world.member.slash(world.channel, "tute about")
    set_locale("en-GB")
    english = await world.member.slash(world.channel, "tute about")

    assert spanish.response is not None
    assert english.response is not None
    assert spanish.response.embeds[0].description == "Traigo a este servidor el tute, " + (
        "el juego de bazas con la baraja española de 40 cartas."
    )
    assert english.response.embeds[0].description != spanish.response.embeds[0].description


async def test_about_is_offered_to_members(world: World) -> None:
    assert "tute about" in world.member.available_commands(world.channel)


async def test_the_group_is_synced_with_spanish_names_and_descriptions(
    simcord_env: simcord.Env,
) -> None:
    registered = simcord_env.backend.find_command("tute", None, type=1)

    assert registered is not None
    assert registered["description_localizations"]["es-ES"] == t("commands.tute.description", "es")
    about = next(o for o in registered["options"] if o["name"] == "about")
    for spanish in ("es-ES", "es-419"):
        assert about["name_localizations"][spanish] == "acerca-de"
        assert about["description_localizations"][spanish] == t(
            "commands.tute.about.description", "es"
        )
    assert "en-US" not in about.get("name_localizations", {})


async def test_the_group_is_offered_in_servers_dms_and_group_dms(simcord_env: simcord.Env) -> None:
    """/tute play opens the web table anywhere, so the group is offered in servers, DMs with
    the bot and group DMs, installed to a server or to a user; the commands that need a
    server say so there (tests/cogs/test_anywhere.py): a subcommand's ``guild_only`` would
    not hide it."""
    registered = simcord_env.backend.find_command("tute", None, type=1)

    assert registered is not None
    assert registered["contexts"] == [0, 1, 2], "servers, the bot's DMs and group DMs"
    assert registered["integration_types"] == [0, 1], "installed to a server or to a user"
