"""Spanish (Spain) messages, keyed by message id."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    # Slash commands: names follow Discord's rules (lower case, no spaces, at most 32
    # characters); descriptions are at most 100 characters.
    "commands.tute.name": "tute",
    "commands.tute.description": "Juega al tute, el juego de cartas español",
    "commands.tute.about.name": "acerca-de",
    "commands.tute.about.description": "Qué es este bot y qué comandos ofrece",
    # /tute about
    "about.title": "Tute bot",
    "about.description": (
        "Traigo a este servidor el tute, el juego de bazas con la baraja española de 40 cartas."
    ),
    "about.commands": "Comandos",
    "about.command_line": "**/{command}**: {description}",
    # The one error path: a command or a button failed.
    "errors.generic": (
        "Lo siento, algo ha fallado por mi parte al atender eso. "
        "Vuelve a intentarlo dentro de un momento."
    ),
}
