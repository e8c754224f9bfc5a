"""``/tute config``'s Export button: the server's standings as a CSV sheet and its finished
deals' game records as JSON (:mod:`bot.tables.export`), attached to an answer for the admin
alone (Manage Server).

The members' names are those Discord shows now, asked of the gateway by id (no privileged
intent needed); a member no longer in the server has an empty name. Discord takes 25 MiB of
attachments a message: over that, the two files go zipped; still over, the standings alone;
still over, the admin is told so."""

from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Sequence
from typing import Any, Final

import discord

from bot.i18n import number, t
from bot.tables.export import csv_text, header_keys, server_export, standings_rows

from .common import NO_PINGS, database, managing_guild, think, user_language

log = logging.getLogger(__name__)

ATTACHMENT_LIMIT: Final = 25 * 1024 * 1024
"""Bytes of attachments Discord takes in one message from a bot (its default limit)."""
STANDINGS_FILE: Final = "tute-standings.csv"
RECORDS_FILE: Final = "tute-records.json"
ZIP_FILE: Final = "tute-export.zip"
QUERY_SIZE: Final = 100
"""Members the gateway looks up by id at once (Discord's most)."""

Attachment = tuple[str, bytes, str]
"""A file to attach: its name, its bytes, its description."""


def packed(
    files: Sequence[Attachment], limit: int = ATTACHMENT_LIMIT
) -> tuple[list[Attachment], str | None]:
    """What fits in one message, and why not everything as it is (None: it all fits): the
    files as they are; zipped together ("zipped"); the first alone ("first_only"); nothing
    ("too_large")."""
    if sum(len(data) for _, data, _ in files) <= limit:
        return list(files), None
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data, _ in files:
            archive.writestr(name, data)
    zipped = buffer.getvalue()
    if len(zipped) <= limit:
        return [(ZIP_FILE, zipped, files[0][2])], "zipped"
    if files and len(files[0][1]) <= limit:
        return [files[0]], "first_only"
    return [], "too_large"


async def names_of(guild: discord.Guild, user_ids: Sequence[int]) -> dict[int, str]:
    """The names the members go by in the server now (those still in it)."""
    names: dict[int, str] = {}
    wanted: list[int] = []
    for user_id in user_ids:
        member = guild.get_member(user_id)
        if member is not None:
            names[user_id] = member.display_name
        else:
            wanted.append(user_id)
    for start in range(0, len(wanted), QUERY_SIZE):
        chunk = wanted[start : start + QUERY_SIZE]
        try:
            found = await guild.query_members(user_ids=chunk, limit=QUERY_SIZE, cache=False)
        except (TimeoutError, discord.ClientException):
            log.warning("Could not look up the names of %d members of %s", len(chunk), guild.id)
            continue
        names.update((member.id, member.display_name) for member in found)
    return names


def header(lang: str) -> list[str]:
    return [
        t(f"settings.export.column.{what}", lang)
        if family is None
        else t(
            f"settings.export.column.{what}",
            lang,
            family=t(f"standings.family.{family.value}", lang),
        )
        for what, family in header_keys()
    ]


async def export(interaction: discord.Interaction[Any]) -> None:
    """Answer the admin with the server's export (Manage Server only), privately."""
    lang = user_language(interaction)
    guild = await managing_guild(interaction, lang, "standings.config.forbidden")
    if guild is None:
        return
    # a server's whole history and its members' names may outlast the 3 seconds of an answer
    await think(interaction, ephemeral=True)
    now = interaction.created_at.timestamp()
    made = await server_export(
        database(interaction), guild.id, user_id=interaction.user.id, now=now
    )
    names = await names_of(guild, [member.user_id for member in made.standings])
    sheet = csv_text(header(lang), standings_rows(made.standings, names))
    files, why = packed(
        [
            (STANDINGS_FILE, sheet, t("settings.export.standings_file", lang)),
            (RECORDS_FILE, made.records_json(), t("settings.export.records_file", lang)),
        ]
    )
    lines = [
        t(
            "settings.export.done",
            lang,
            members=number(len(made.standings), lang),
            deals=number(len(made.records), lang),
        )
    ]
    if made.kept == 1:
        lines.append(t("settings.export.kept_one", lang))
    elif made.kept:
        lines.append(t("settings.export.kept", lang, count=number(made.kept, lang)))
    if why is not None:
        limit = f"{ATTACHMENT_LIMIT // (1024 * 1024)} MiB"
        key = {"first_only": "records_too_large"}.get(why, why)
        said = t(f"settings.export.{key}", lang, limit=limit)
        lines = [said] if why == "too_large" else [*lines, said]
    await interaction.edit_original_response(
        content="\n".join(lines),
        attachments=[
            discord.File(io.BytesIO(data), filename=name, description=described)
            for name, data, described in files
        ],
        allowed_mentions=NO_PINGS,
    )
