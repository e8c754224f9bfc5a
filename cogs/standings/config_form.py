"""``/tute config``'s form: under the server's settings, a select for each setting of a few
values (the language, how hands are delivered, who may open tables), two buttons, each
opening a form of numbers (chips and tables; ratings and fair play), a button that turns
the daily deal's experience on or off, and one that exports the server's standings and game
records (:mod:`cogs.standings.export`). Every change is checked
and saved as the command's options are (:func:`bot.storage.settings.update_settings`), by a
member who may manage the server, and the answer shows the settings as they are now.

The form answers its own member only, for a quarter of an hour: ``/tute config`` shows it
again."""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.i18n import Language, number, t
from bot.storage.settings import GuildSettings, InvalidSetting, update_settings, whole_bounds
from bot.tables.numbers import parse_number

from .common import CMD, NO_PINGS, bot_language, database, managing_guild, reply, user_language
from .embeds import settings_embed
from .export import export

NUMBERS: Final[dict[str, tuple[str, ...]]] = {
    "chips": ("starting_chips", "daily_grant", "turn_time", "max_tables"),
    "rating": (
        "robot_rating_weight",
        "min_rated_games",
        "pair_daily_cap",
        "min_account_days",
        "min_member_days",
    ),
}
"""The forms of numbers, by the button that opens each (Discord allows five fields a form)."""
TIMEOUT: Final = 900.0
DEFAULT: Final = "default"
"""The language select's value for the bot's own default."""


def label(name: str, lang: str) -> str:
    """A setting's name in words: "Starting chips"."""
    return t(f"settings.config.{name}", lang)


def refusal(name: str, lang: str) -> str:
    """Why a value of a setting was refused, with the values it takes."""
    bounds = whole_bounds(name)
    if bounds is None:
        return t("standings.config.invalid", lang, setting=label(name, lang))
    low, high = (number(n, lang) for n in bounds)
    key = (
        "standings.config.invalid_seconds"
        if name == "turn_time"
        else "standings.config.invalid_range"
    )
    return t(key, lang, setting=label(name, lang), low=low, high=high)


def chosen_label(name: str, value: str, lang: str) -> str:
    """An option of a setting's menu, which names the setting too: a menu shows its chosen
    option in place of a label."""
    return t("settings.config.toggle", lang, setting=label(name, lang), state=value)


class ConfigForm(discord.ui.View):
    """The selects and buttons under ``/tute config``'s answer, each showing the setting as
    it is now."""

    def __init__(self, settings: GuildSettings, lang: str) -> None:
        super().__init__(timeout=TIMEOUT)
        self.lang = lang
        current = settings.language or DEFAULT
        language: discord.ui.Select[ConfigForm] = discord.ui.Select(
            options=[
                discord.SelectOption(
                    label=chosen_label(
                        "language", t(f"settings.config.language.{value}", lang), lang
                    ),
                    value=value,
                    default=value == current,
                )
                for value in (DEFAULT, "en", "es")
            ],
            placeholder=label("language", lang),
            row=0,
        )
        language.callback = lambda interaction: self._chosen(
            interaction, "language", language.values[0]
        )
        hands: discord.ui.Select[ConfigForm] = discord.ui.Select(
            options=[
                discord.SelectOption(
                    label=chosen_label(
                        "hand_delivery", t(f"{CMD}.config.hand_delivery.{value}", lang), lang
                    ),
                    value=value,
                    default=value == settings.hand_delivery,
                )
                for value in ("dm", "ephemeral")
            ],
            placeholder=label("hand_delivery", lang),
            row=1,
        )
        hands.callback = lambda interaction: self._chosen(
            interaction, "hand_delivery", hands.values[0]
        )
        role = settings.opener_role_id
        opener: discord.ui.RoleSelect[ConfigForm] = discord.ui.RoleSelect(
            placeholder=t("settings.config.opener_role.placeholder", lang),
            default_values=[discord.Object(role, type=discord.Role)] if role else [],
            min_values=0,
            row=2,
        )
        opener.callback = lambda interaction: self._role(interaction, opener.values)
        self.add_item(language).add_item(hands).add_item(opener)
        for form in NUMBERS:
            button: discord.ui.Button[ConfigForm] = discord.ui.Button(
                label=t(f"settings.config.form.{form}", lang), row=3
            )
            button.callback = self._opener(form, settings)
            self.add_item(button)
        on = settings.daily_experience
        state = t("daily.on" if on else "daily.off", lang)
        toggle: discord.ui.Button[ConfigForm] = discord.ui.Button(
            label=t(
                "settings.config.toggle", lang, setting=label("daily_experience", lang), state=state
            ),
            style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
            row=3,
        )
        toggle.callback = lambda interaction: apply(interaction, {"daily_experience": not on})
        self.add_item(toggle)
        # the server's standings and finished deals' records, as files for the admin alone
        exporting: discord.ui.Button[ConfigForm] = discord.ui.Button(
            label=t("settings.config.export", lang), emoji="📤", row=4
        )
        exporting.callback = export
        self.add_item(exporting)

    def _opener(self, form: str, settings: GuildSettings) -> Any:
        async def open_form(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_modal(NumbersForm(form, settings, self.lang))

        return open_form

    async def _chosen(self, interaction: discord.Interaction[Any], name: str, value: str) -> None:
        chosen = None if name == "language" and value == DEFAULT else value
        await apply(interaction, {name: chosen})

    async def _role(self, interaction: discord.Interaction[Any], roles: list[Any]) -> None:
        # no role, or @everyone: every member may open tables again
        role = roles[0] if roles else None
        if role is None or (isinstance(role, discord.Role) and role.is_default()):
            await apply(interaction, {"opener_role_id": None})
            return
        await apply(interaction, {"opener_role_id": role.id})


class NumbersForm(discord.ui.Modal):
    """A form of numbers, each field with its setting's name and its value now (a field
    left empty leaves its setting as it is)."""

    def __init__(self, form: str, settings: GuildSettings, lang: str) -> None:
        super().__init__(title=t(f"settings.config.form.{form}", lang), timeout=TIMEOUT)
        self.fields: dict[str, discord.ui.TextInput[NumbersForm]] = {}
        for name in NUMBERS[form]:
            field: discord.ui.TextInput[NumbersForm] = discord.ui.TextInput(
                custom_id=f"tute:config:{name}",
                default=str(getattr(settings, name)),
                required=False,
                max_length=7,
            )
            self.fields[name] = field
            hint = t(f"{CMD}.config.{name}.description", lang)
            self.add_item(
                discord.ui.Label(text=label(name, lang), description=hint, component=field)
            )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        lang = user_language(interaction)
        changes: dict[str, object] = {}
        for name, field in self.fields.items():
            typed = field.value.strip()
            if not typed:
                continue  # emptied: left as it is
            number = parse_number(typed)
            if number is None:
                await reply(interaction, refusal(name, lang))
                return
            changes[name] = number
        await apply(interaction, changes)


async def apply(interaction: discord.Interaction[Any], changes: dict[str, object]) -> None:
    """Save ``changes`` (a member who may manage the server only) and show the settings as
    they are now, with the form, in place of the answer the form was under."""
    lang = user_language(interaction)
    guild = await managing_guild(interaction, lang, "standings.config.forbidden")
    if guild is None:
        return
    try:
        async with database(interaction).transaction() as conn:
            settings = await update_settings(conn, guild.id, **changes)
    except InvalidSetting as error:
        await reply(interaction, refusal(error.name, lang))
        return
    said = None
    if {"robot_rating_weight", "pair_daily_cap"} & set(changes):
        # the settlement rates each game as it ends: past games keep the old rules
        option = t(f"{CMD}.config.rebuild_ratings.name", lang)
        said = t("standings.config.weight_from_now", lang, option=option)
    await answer(interaction, settings, said, edit=True)


async def answer(
    interaction: discord.Interaction[Any],
    settings: GuildSettings,
    said: str | None,
    *,
    edit: bool = False,
    title: str = "standings.config.updated",
) -> None:
    """The settings in words with their form: a new answer, or (``edit``) in place of the
    message the form was under."""
    lang = user_language(interaction)
    default: Language = bot_language(interaction)
    embed = settings_embed(settings, t(title, lang), lang, default)
    form = ConfigForm(settings, lang)
    if edit and interaction.message is not None:
        await interaction.response.edit_message(
            content=said, embed=embed, view=form, allowed_mentions=NO_PINGS
        )
    elif interaction.response.is_done():
        await interaction.edit_original_response(
            content=said, embed=embed, view=form, allowed_mentions=NO_PINGS
        )
    else:
        await interaction.response.send_message(
            said, embed=embed, view=form, ephemeral=True, allowed_mentions=NO_PINGS
        )
