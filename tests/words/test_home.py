"""The words the chat, the card table and the lessons share have one home, ``bot.words``:
the Discord side imports the card table's server (``bot.web``) only to start it."""

from __future__ import annotations

from tests.test_layers import Import, all_imports

STARTING_THE_SERVER = ("bot.web.server", "bot.web.relay")
"""What the Discord side may take from the card table: its server and the relay between
processes, which it starts beside the bot."""


def cogs_web_imports() -> list[Import]:
    """The import statements of ``bot.web`` under ``cogs/`` for anything but starting the
    server (one per statement, however many names it takes)."""
    found = {
        (i.path, i.line): i
        for i in all_imports()
        if i.path.startswith("cogs/")
        and (i.module == "bot.web" or i.module.startswith("bot.web."))
        and not i.module.startswith(STARTING_THE_SERVER)
    }
    return list(found.values())


def test_the_cogs_import_the_card_table_only_to_start_it() -> None:
    found = [f"{i.path}:{i.line}: imports {i.module}" for i in cogs_web_imports()]
    assert found == [], "the cogs take their words from bot.words, but:\n  " + "\n  ".join(found)
