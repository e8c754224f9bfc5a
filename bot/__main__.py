"""Start-up: ``tute-bot`` (or ``python -m bot``) reads the settings and runs the bot."""

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.client import LoginFailure, TuteBot, setup_logging
from bot.config import ConfigError, load_config
from bot.i18n import LANGUAGES, Language

EXIT_CONFIG_ERROR = 2
EXIT_UNREACHABLE = 1

log = logging.getLogger("bot")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tute-bot",
        description=(
            "Run the Tute bot: it hosts games of Tute, the Spanish card game, on Discord. "
            "Settings come from the environment or a .env file (see .env.example)."
        ),
    )
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help=(
            "try the bot without Discord and without a token: it plays in a simulated Discord "
            "server shown in your browser (needs the sandbox extra: pip install -e '.[sandbox]')"
        ),
    )
    parser.add_argument(
        "--screenshot",
        metavar="DIR",
        type=Path,
        help="with --sandbox: play a short game against a robot and save pictures of it in DIR",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="with --sandbox: the language of the page, of your clicks and of the bot (en)",
    )
    args = parser.parse_args(argv)
    if args.sandbox or args.screenshot is not None:
        return run_sandbox(args.screenshot, args.lang)

    try:
        config = load_config()
    except ConfigError as error:
        print(f"tute-bot: {error}", file=sys.stderr)
        return EXIT_CONFIG_ERROR

    setup_logging(config.log_level)
    log.debug("Settings: %r", config)
    bot = TuteBot(config)
    try:
        # Logging is set up above, so discord.py must not install a handler of its own.
        bot.run(config.token, log_handler=None)
    except LoginFailure:
        print(
            "tute-bot: Discord refused the token in DISCORD_TOKEN: copy it again from the Bot "
            "page of your application in the Discord Developer Portal (reset it if needed).",
            file=sys.stderr,
        )
        return EXIT_CONFIG_ERROR
    except OSError as error:
        # Only the first connection gets here: once logged in, discord.py reconnects by itself.
        print(
            f"tute-bot: could not reach Discord ({error}): check the network and try again.",
            file=sys.stderr,
        )
        return EXIT_UNREACHABLE
    return 0


def run_sandbox(screenshot_dir: Path | None, language: Language = "en") -> int:
    """``--sandbox``: SimCord stands in for Discord, so no token is read."""
    try:
        from bot import sandbox
    except ModuleNotFoundError as error:
        print(
            f"tute-bot: the sandbox needs {error.name}, which is not installed: "
            'pip install -e ".[sandbox]"',
            file=sys.stderr,
        )
        return EXIT_CONFIG_ERROR
    return sandbox.main(screenshot_dir=screenshot_dir, language=language)


if __name__ == "__main__":
    sys.exit(main())
