"""``/tute config``'s form: the server's settings in words with a select for each setting of
a few values and forms of numbers, each saved as the command's options are."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from simcord import MemberActor
from simcord.components import walk_components

from bot.i18n import t
from bot.storage.settings import DEFAULT_SETTINGS, GuildSettings, get_settings
from cogs.standings.config_form import NUMBERS, ConfigForm, NumbersForm, refusal
from tests.cogs.standings.conftest import db_of, embed_of, fields_of
from tests.conftest import World
from tests.discord_limits import (
    BUTTON_LABEL,
    CUSTOM_ID,
    MODAL_TITLE,
    SELECT_OPTION_TEXT,
    SELECT_PLACEHOLDER,
)

pytestmark = pytest.mark.e2e

LABEL_TEXT = 45
"""The most characters of a label's text in a form (Discord)."""
LABEL_DESCRIPTION = 100


def select_of(message: simcord.ResponseMessage, kind: int, value: str | None = None) -> str:
    """The custom_id of the select of ``kind`` (3: of strings, 6: of roles) under the answer;
    of strings, the one that offers ``value``."""
    found = [
        c["custom_id"]
        for c in walk_components(message.components)
        if c.get("type") == kind
        and (value is None or value in [o["value"] for o in c.get("options", [])])
    ]
    (custom_id,) = found
    return custom_id


async def shown(admin: MemberActor, world: World) -> simcord.ResponseMessage:
    result = await admin.slash(world.channel, "tute config")
    assert result.ephemeral and result.response is not None
    return result.response


async def test_a_select_changes_the_language_and_the_answer_shows_it(
    simcord_env: simcord.Env, world: World, admin: MemberActor
) -> None:
    answer = await shown(admin, world)
    result = await admin.select(answer, ["es"], custom_id=select_of(answer, 3, "es"))
    assert embed_of(result).title == "Settings saved"
    assert fields_of(embed_of(result))["Language of public messages"] == "Spanish"
    settings = await get_settings(db_of(simcord_env), world.guild.id)
    assert settings.language == "es"
    answer = await shown(admin, world)
    result = await admin.select(answer, ["default"], custom_id=select_of(answer, 3, "default"))
    assert (await get_settings(db_of(simcord_env), world.guild.id)).language is None
    answer = await shown(admin, world)
    result = await admin.select(answer, ["ephemeral"], custom_id=select_of(answer, 3, "dm"))
    assert (await get_settings(db_of(simcord_env), world.guild.id)).hand_delivery == "ephemeral"


async def test_a_role_may_open_tables_and_then_everybody_again(
    simcord_env: simcord.Env, world: World, admin: MemberActor
) -> None:
    role = world.guild.create_role("Croupiers")
    answer = await shown(admin, world)
    result = await admin.select(answer, [role], custom_id=select_of(answer, 6))
    assert fields_of(embed_of(result))["Who may open tables"] == f"<@&{role.id}>"
    assert (await get_settings(db_of(simcord_env), world.guild.id)).opener_role_id == role.id
    answer = await shown(admin, world)
    await admin.select(answer, [], custom_id=select_of(answer, 6))
    assert (await get_settings(db_of(simcord_env), world.guild.id)).opener_role_id is None


async def test_a_form_of_numbers_saves_them_and_refuses_what_is_out_of_bounds(
    simcord_env: simcord.Env, world: World, admin: MemberActor, set_locale: Callable[[str], None]
) -> None:
    answer = await shown(admin, world)
    opened = await admin.click(answer, label=t("settings.config.form.chips", "en"))
    modal = opened.modal
    assert modal is not None and modal["title"] == "Chips and tables"
    values = {"tute:config:starting_chips": "500", "tute:config:max_tables": "3"}
    result = await admin.submit_modal(opened, values)
    settings = await get_settings(db_of(simcord_env), world.guild.id)
    assert (settings.starting_chips, settings.max_tables) == (500, 3)
    assert settings.daily_grant == DEFAULT_SETTINGS.daily_grant  # left as it was
    assert fields_of(embed_of(result))["Starting chips"] == "500"

    set_locale("es-ES")
    answer = await shown(admin, world)
    opened = await admin.click(answer, label=t("settings.config.form.rating", "es"))
    refused = await admin.submit_modal(opened, {"tute:config:min_rated_games": "0"})
    assert refused.response is not None
    assert refused.response.content == refusal("min_rated_games", "es")  # with its bounds
    opened = await admin.click(answer, label=t("settings.config.form.rating", "es"))
    refused = await admin.submit_modal(opened, {"tute:config:pair_daily_cap": "diez"})
    assert refused.response is not None
    assert refused.response.content == refusal("pair_daily_cap", "es")
    opened = await admin.click(answer, label=t("settings.config.form.rating", "es"))
    refused = await admin.submit_modal(opened, {"tute:config:pair_daily_cap": "1²"})
    assert refused.response is not None  # a digit to isdigit(), not to int()
    assert refused.response.content == refusal("pair_daily_cap", "es")
    settings = await get_settings(db_of(simcord_env), world.guild.id)
    assert (settings.min_rated_games, settings.pair_daily_cap) == (5, 10)


async def test_a_button_turns_the_daily_deals_experience_on_and_off(
    simcord_env: simcord.Env, world: World, admin: MemberActor, set_locale: Callable[[str], None]
) -> None:
    def toggle(lang: str, on: bool) -> str:
        state = t("daily.on" if on else "daily.off", lang)
        return t(
            "settings.config.toggle",
            lang,
            setting=t("settings.config.daily_experience", lang),
            state=state,
        )

    answer = await shown(admin, world)
    result = await admin.click(answer, label=toggle("en", False))
    assert (await get_settings(db_of(simcord_env), world.guild.id)).daily_experience
    assert fields_of(embed_of(result))["Experience from the daily deal"] == "On"
    assert result.response is not None
    assert toggle("en", True) in [
        c.get("label") for c in walk_components(result.response.components)
    ]
    set_locale("es-ES")
    answer = await shown(admin, world)
    await admin.click(answer, label=toggle("es", True))
    assert not (await get_settings(db_of(simcord_env), world.guild.id)).daily_experience


async def test_only_a_member_who_may_manage_the_server_changes_them(
    simcord_env: simcord.Env, world: World
) -> None:
    result = await world.member.slash(world.channel, "tute config")
    assert result.response is not None and not result.response.components
    assert result.response.content == t("standings.config.forbidden", "en")


def _components(view: discord.ui.View | discord.ui.Modal) -> list[dict[str, Any]]:
    return list(walk_components(view.to_components()))


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(
    "settings",
    [
        DEFAULT_SETTINGS,
        GuildSettings(language="es", opener_role_id=10**18, daily_experience=True),
    ],
)
def test_the_forms_keep_within_discords_limits(settings: GuildSettings, lang: str) -> None:
    for component in _components(ConfigForm(settings, lang)):
        assert len(component.get("custom_id", "")) <= CUSTOM_ID
        assert len(component.get("placeholder", "")) <= SELECT_PLACEHOLDER
        assert len(component.get("label", "")) <= BUTTON_LABEL
        for option in component.get("options", []):
            assert len(option["label"]) <= SELECT_OPTION_TEXT and "_" not in option["label"]
    for form in NUMBERS:
        modal = NumbersForm(form, settings, lang)
        assert len(modal.title) <= MODAL_TITLE
        labels = [c for c in _components(modal) if c.get("type") == 18]
        assert len(labels) == len(NUMBERS[form]) <= 5
        for label in labels:
            assert len(label["label"]) <= LABEL_TEXT and "_" not in label["label"]
            assert len(label.get("description", "")) <= LABEL_DESCRIPTION
