"""Pieces every cog shares: the base view, the error path for buttons, how a name a member
chose is shown in Discord's text, and how numbers read in each language."""

import functools
import re
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.client import answer_error
from bot.i18n import t
from bot.storage.privacy import is_pseudonym
from bot.words.result import number as number
from bot.words.result import signed as signed

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])
CommandT = TypeVar("CommandT", bound=app_commands.Command[Any, ..., Any])

if TYPE_CHECKING:
    from discord.ext.commands import Cog as CommandsMixin
else:
    # A plain class at run time: the Tute GroupCog it is mixed into is the Cog. The type
    # checker sees a Cog, as the app_commands decorators expect of a method's owner.
    CommandsMixin = object


_LINE_BREAKS = re.compile(r"[\r\n\v\f\x85\u2028\u2029]+")
_ORDERED_LIST = re.compile(r"^(\s*\d+)\.(?=\s)")
_STILL_LIVE = re.compile(r"\\.|([\[\]<]|:(?=//))", re.DOTALL)
"""After ``escape_markdown``: an escape pair (kept as it is), or a character that still
means something: a bracket of a masked link, the ``<`` of ``<@id>``, ``<#id>``, ``<t:..>``,
or the colon of a bare link's ``://``."""


def shown_name(name: str) -> str:
    """A name a member chose (a display name; any text a user typed), as Discord text
    (content, embed titles, descriptions, field values) shows it: exactly as written, with
    nothing in it taking effect. The markdown (``**``, ``_``, ``~~``, `` ` ``, ``||``, a
    heading, quote, list or ``-#`` at its start), masked and bare links, and mentions
    (``<@id>``, ``@everyone``, ``@here``) are escaped; line breaks become spaces. Names
    without any of these (``alice``, ``José``, ``Jean-Luc (away)``) come back unchanged.

    Store names raw and escape them when they are put into Discord text, once. Texts that
    show no markdown (footers, button and select labels, thread names, a picture's alt text,
    Pillow pictures) take the raw name."""
    text = _LINE_BREAKS.sub(" ", name)
    text = discord.utils.escape_mentions(text)
    text = discord.utils.escape_markdown(text, as_needed=False, ignore_links=False)
    text = _ORDERED_LIST.sub(r"\1\\.", text)
    return _STILL_LIVE.sub(lambda m: "\\" + m[1] if m[1] else m[0], text)


def mention(user_id: int, lang: str) -> str:
    """A member as Discord text shows them (``<@id>``), or, for a former player (a member
    whose data was erased: ``/tute privacy erase``), the catalog's name for one."""
    if is_pseudonym(user_id):
        return t("privacy.former_player", lang)
    return f"<@{user_id}>"


MAX_PINGS = 100
"""The most members one message may ping (``allowed_mentions.users``)."""


def pings(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Mentions of these members only, each once: Discord refuses a list with repeats (a
    member invited twice) or of more than 100."""
    unique = list(dict.fromkeys(user_ids))[:MAX_PINGS]
    users = [discord.Object(u) for u in unique]
    return discord.AllowedMentions(users=users, roles=False, everyone=False)


def channel_url(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A link to a channel, or to a message in it: in its server, or in DMs where it has
    none (``None``, or a table's ``NO_SERVER``, 0)."""
    where = f"{guild_id}/{channel_id}" if guild_id else f"@me/{channel_id}"
    tail = f"/{message_id}" if message_id is not None else ""
    return f"https://discord.com/channels/{where}{tail}"


def command_path(lang: str, *names: str) -> str:
    """How a member types a command in their language: ``command_path(lang, "tute",
    "challenge", "board")`` is ``/tute challenge board`` (``/tute reto clasificacion``)."""
    keys = (".".join(names[: i + 1]) for i in range(len(names)))
    return "/" + " ".join(t(f"commands.{key}.name", lang) for key in keys)


class BaseView(discord.ui.View):
    """The base of every view: an error in one of its items goes through the one error path."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await answer_error(interaction, error)


def answers_errors(
    callback: Callable[[ItemT, discord.Interaction[Any]], Awaitable[None]],
) -> Callable[[ItemT, discord.Interaction[Any]], Coroutine[Any, Any, None]]:
    """Decorate the ``callback`` of a ``discord.ui.DynamicItem`` with this.

    discord.py runs a dynamic item's callback outside any view, so an error there never reaches
    a view's ``on_error``: it would only be logged and the user would get no answer.
    """

    @functools.wraps(callback)
    async def callback_answering_errors(item: ItemT, interaction: discord.Interaction[Any]) -> None:
        try:
            await callback(item, interaction)
        except Exception as error:
            await answer_error(interaction, error)

    return callback_answering_errors


ANYWHERE = "anywhere"
"""The key of a command's ``extras`` that says it works outside a server too."""


def anywhere(command: CommandT) -> CommandT:
    """Put this over ``@app_commands.command``: the command works in DMs, group DMs and
    servers without the bot too (the others need a server the bot is in, and say so)."""
    command.extras[ANYWHERE] = True
    return command


def works_anywhere(command: object) -> bool:
    return isinstance(command, app_commands.Command) and bool(command.extras.get(ANYWHERE))


def in_server_with_bot(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction comes from a server the bot is installed in: not a DM or a
    group DM, and not a server where only the user installed the app (Discord's
    ``authorizing_integration_owners`` naming the user's install and not the server's; a
    client that names neither is taken as the server's)."""
    if interaction.guild_id is None:
        return False
    return interaction.is_guild_integration() or not interaction.is_user_integration()
