"""English messages, keyed by message id."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    # Slash commands: names follow Discord's rules (lower case, no spaces, at most 32
    # characters); descriptions are at most 100 characters.
    "commands.tute.name": "tute",
    "commands.tute.description": "Play Tute, the Spanish card game",
    "commands.tute.about.name": "about",
    "commands.tute.about.description": "What this bot is and the commands it offers",
    # /tute about
    "about.title": "Tute bot",
    "about.description": (
        "I bring Tute, the Spanish trick-taking card game with the 40-card deck, to this server."
    ),
    "about.commands": "Commands",
    "about.command_line": "**/{command}**: {description}",
    # The one error path: a command or a button failed.
    "errors.generic": (
        "Sorry, something went wrong on my side while handling that. Please try again in a moment."
    ),
}
