"""Pieces every cog shares: the base view and the error path for buttons."""

import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.client import answer_error

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])

if TYPE_CHECKING:
    from discord.ext.commands import Cog as CommandsMixin
else:
    # A plain class at run time: the Tute GroupCog it is mixed into is the Cog. The type
    # checker sees a Cog, as the app_commands decorators expect of a method's owner.
    CommandsMixin = object


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
