"""A member's own data in English: ``/tute privacy show`` (what the bot keeps about them) and
``/tute privacy erase`` (erasing it, once confirmed), and the name a former player goes by
in the records that stay."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "commands.tute.privacy.name": "privacy",
    "commands.tute.privacy.description": "What the bot keeps about you, and erasing it",
    "commands.tute.privacy.show.name": "show",
    "commands.tute.privacy.show.description": "What the bot keeps about you, in every server (only you see it)",
    "commands.tute.privacy.erase.name": "erase",
    "commands.tute.privacy.erase.description": "Erase everything the bot keeps about you, in every server (it asks first)",
    "privacy.former_player": "a former player",
    "privacy.title": "**What the bot keeps about you**",
    "privacy.nothing": "The bot keeps nothing about you.",
    "privacy.server": "**{server}**",
    "privacy.unknown_server": "A server the bot is not in, or a conversation (id {id})",
    "privacy.more_servers": "…and {count} more servers",
    "privacy.standing": "- Your standing (experience, rounds, games, cantes, tutes): games played: {games}",
    "privacy.chips": "- Your chips: {chips} · entries in the chips ledger: {rows}",
    "privacy.ratings": "- Your skill ratings (families of variants): {count}",
    "privacy.daily": "- Your daily deal results: {count}",
    "privacy.preferences": "- Your turn notice setting",
    "privacy.reviews": "- Reviews of your deals: {count}",
    "privacy.records": "**In the records of games and tournaments**",
    "privacy.records_line": (
        "- Tables: {tables} · deals: {deals} · tournaments: {tournaments} · rated games:"
        " {rated}, with your id and the name you showed when you sat down or signed up"
    ),
    "privacy.how_long": (
        "All of it is kept until you erase it with {command}: your standings, chips,"
        " ratings, daily results, deal reviews and settings go, in every server; finished"
        " games and tournaments keep their scores, with you as “a former player”."
    ),
    "privacy.server_left": (
        "A server's share of it is also erased {days} days after the bot leaves that server"
        " (unless the bot comes back before)."
    ),
    "privacy.confirm": (
        "**Erase everything the bot keeps about you, in every server?**\n"
        "Your standings, chips, ratings, daily results, deal reviews and settings are"
        " deleted. In finished games and tournaments you become “a former player”: they"
        " keep their scores. This cannot be undone. These buttons work for 5 minutes."
    ),
    "privacy.erase_button": "Erase it all",
    "privacy.keep_button": "Keep it",
    "privacy.kept": "Nothing was erased.",
    "privacy.nothing_to_erase": "The bot keeps nothing about you: there is nothing to erase.",
    "privacy.erased": (
        "**Erased.** In {servers} servers: standings: {standings} · skill ratings:"
        " {ratings} · daily deal results: {daily} · deal reviews: {reviews} · settings:"
        " {preferences} deleted; your {chips} chips left the boards with you. Tables:"
        " {tables} · tournaments: {tournaments} · rated games: {rated} now name you “a"
        " former player”."
    ),
    "tables.errors.privacy_expired": (
        "This confirmation has run out: nothing was erased. Ask again with /tute privacy erase."
    ),
    "tables.errors.privacy_forged": (
        "This confirmation is not yours, or no longer holds (the bot restarted): nothing was"
        " erased. Ask again with /tute privacy erase."
    ),
    "tables.errors.privacy_at_table": (
        "Table #{table} is not over and still has your seat: leave it, and wait for its game"
        " to end, then ask again. Nothing was erased."
    ),
    "tables.errors.privacy_in_tournament": (
        "Tournament #{tournament} is not over and you are in it (or host it): withdraw, or wait"
        " for it to end, then ask again. Nothing was erased."
    ),
}
