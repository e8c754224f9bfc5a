"""A deal's review in Discord: the Review button beside Replay (a deal's summary, the game
over, ``/tute history``'s replay) answers whoever presses with the review of their own
decisions in that deal, for them alone. The judge may take a few seconds on a busy
machine: the click is answered at once (deferred), the review follows in the same message.
Its buttons step to the costliest decisions in the deal's replay."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.tables.review import Review
from bot.words.reviews import review_words

from . import embeds as ui
from .buttons import on_click
from .common import answered, locale_of, service_of
from .replay_buttons import ReplayButton, ReviewOpen


def review_view(review: Review, lang: str) -> Any:
    """The review's message: title, accuracy and marks, the costliest decisions with the
    better choice and why, how it was judged, and a button to each of those steps."""
    words = review_words(review, lang)
    title = t("review.title", lang, deal=review.deal_no + 1, id=review.table_id)
    items: list[discord.ui.Item[Any]] = [
        discord.ui.TextDisplay(f"### 🔎 {title}\n" + "\n".join(words.summary))
    ]
    items += [discord.ui.TextDisplay(item.text) for item in words.items]
    items.append(discord.ui.TextDisplay("-# " + words.how))
    steps = list(dict.fromkeys(item.step for item in words.items))
    if steps:
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for step in steps:
            row.add_item(
                ReplayButton(
                    review.table_id,
                    review.deal_no,
                    step,
                    "n",
                    0,
                    label=t("review.btn.step", lang, step=step + 1),
                )
            )
        items.append(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*items, accent_colour=ui.GOLD))
    return view


async def send_review(interaction: discord.Interaction[Any], table_id: int, deal_no: int) -> None:
    """Answer at once (deferred, for the presser alone), then with the review; a refusal
    in words in the same message."""
    if not await answered(interaction, interaction.response.defer(ephemeral=True, thinking=True)):
        return
    review = await service_of(interaction.client).review(
        interaction.guild_id, table_id, deal_no, user_id=interaction.user.id
    )
    view = review_view(review, locale_of(interaction))
    await answered(interaction, interaction.edit_original_response(view=view))


@on_click(ReviewOpen)
async def _open(button: ReviewOpen, interaction: discord.Interaction[Any]) -> None:
    await send_review(interaction, button.table_id, button.deal_no)
