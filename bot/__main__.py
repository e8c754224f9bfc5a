"""Start-up: ``tute-bot`` (or ``python -m bot``) reads the settings and runs the bot;
``tute-bot migrate-to-postgres`` copies its SQLite file into PostgreSQL; ``tute-bot backup
PATH`` copies that file while the bot runs, and ``tute-bot check [PATH]`` checks a
database."""

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.app import TuteApp
from bot.client import LoginFailure, setup_logging
from bot.config import ConfigError, load_config, mask_url, parse_database_url, parse_shards
from bot.i18n import LANGUAGES, Language

EXIT_CONFIG_ERROR = 2
EXIT_UNREACHABLE = 1
EXIT_COPY_FAILED = 1
EXIT_CHECK_FAILED = 1

MIGRATE = "migrate-to-postgres"
BACKUP = "backup"
CHECK = "check"

log = logging.getLogger("bot")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tute-bot",
        description=(
            "Run the Tute bot: it hosts games of Tute, the Spanish card game, on Discord. "
            "Settings come from the environment or a .env file (see .env.example). "
            f"'tute-bot {MIGRATE}' copies the SQLite database into PostgreSQL; "
            f"'tute-bot {BACKUP} PATH' backs it up while the bot runs; "
            f"'tute-bot {CHECK} [PATH]' checks a database or a backup."
        ),
    )
    parser.add_argument(
        "command",
        nargs="?",
        choices=(MIGRATE, BACKUP, CHECK),
        help=(
            f"{MIGRATE}: copy everything in the SQLite database (--from) into an empty "
            f"PostgreSQL database (--to), checked; stop the bot first. {BACKUP}: copy the "
            "SQLite database (--from) to PATH, consistent while the bot runs. "
            f"{CHECK}: check the database at PATH (a SQLite file or a postgresql:// URL; "
            "default: the bot's own): its pages, its schema and every server's chips"
        ),
    )
    parser.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help=f"with {BACKUP}: the backup file to write; with {CHECK}: the database to check",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help=f"with {BACKUP}: replace the file at PATH if there is one",
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
        "--width",
        type=int,
        default=0,
        metavar="PX",
        help="with --screenshot: how wide the page is (a phone: 360 or 390; the sandbox's 600)",
    )
    parser.add_argument(
        "--web",
        action="store_true",
        help="with --screenshot: pictures of the card table (the Activity's page) instead",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="with --sandbox: the language of the page, of your clicks and of the bot (en)",
    )
    parser.add_argument(
        "--shards",
        type=_shards,
        metavar="LIST",
        help=(
            "run only these shards of the bot in this process (such as 0-3 or 0,2,4-6); "
            "several processes share one PostgreSQL database (TUTE_DATABASE_URL)"
        ),
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        metavar="N",
        help="with --shards: how many shards the whole bot has, over all its processes",
    )
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="PATH",
        help=(
            f"with {MIGRATE} or {BACKUP}: the SQLite file to copy "
            "(default: TUTE_DB_PATH, data/tute.db)"
        ),
    )
    parser.add_argument(
        "--to",
        dest="target",
        metavar="URL",
        help=f"with {MIGRATE}: the empty PostgreSQL database (default: TUTE_DATABASE_URL)",
    )
    args = parser.parse_args(argv)
    if args.command in (BACKUP, CHECK):
        if (
            args.sandbox
            or args.screenshot is not None
            or args.shards
            or args.shard_count is not None
            or args.target is not None
            or (args.command == CHECK and (args.source is not None or args.force))
        ):
            parser.error(f"{BACKUP} takes PATH, --from and --force; {CHECK} takes PATH alone")
        if args.command == BACKUP:
            if args.path is None:
                parser.error(f"{BACKUP} needs PATH, the backup file to write")
            return backup(Path(args.path), args.source, force=args.force)
        return check(args.path)
    if args.path is not None or args.force:
        parser.error(f"PATH and --force go with {BACKUP} or {CHECK}")
    if args.command == MIGRATE:
        if (
            args.sandbox
            or args.screenshot is not None
            or args.shards
            or args.shard_count is not None
        ):
            parser.error(f"{MIGRATE} takes only --from and --to")
        return migrate(args.source, args.target)
    if args.source is not None or args.target is not None:
        parser.error(f"--from and --to go with {MIGRATE} (--from with {BACKUP} too)")
    if args.sandbox or args.screenshot is not None:
        return run_sandbox(args.screenshot, args.lang, args.width, web=args.web)

    try:
        config = load_config(shards=args.shards, shard_count=args.shard_count)
    except ConfigError as error:
        print(f"tute-bot: {error}", file=sys.stderr)
        return EXIT_CONFIG_ERROR

    setup_logging(config.log_level)
    log.debug("Settings: %r", config)
    bot = TuteApp(config)
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


def _shards(text: str) -> tuple[int, ...]:
    try:
        return parse_shards(text)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def migrate(source: Path | None, target: str | None) -> int:
    """``migrate-to-postgres``: copy the SQLite file into PostgreSQL, print what was copied.
    No token is needed: the bot does not log in."""
    from bot.storage.copy import CopyError, migrate_to_postgres

    try:
        config = load_config(require_token=False)
        url = parse_database_url(target, "--to") if target is not None else config.database_url
    except ConfigError as error:
        print(f"tute-bot: {error}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    if url is None:
        print(
            f"tute-bot: {MIGRATE} needs a PostgreSQL database: give --to "
            "postgresql://user:password@host/tute, or set TUTE_DATABASE_URL.",
            file=sys.stderr,
        )
        return EXIT_CONFIG_ERROR
    path = source if source is not None else config.db_path
    if not path.is_file():
        print(
            f"tute-bot: there is no SQLite database at {path}: give its path with --from.",
            file=sys.stderr,
        )
        return EXIT_CONFIG_ERROR
    print(f"Copying {path} into {mask_url(url)}...")
    try:
        report = asyncio.run(migrate_to_postgres(path, url))
    except CopyError as error:
        print(f"tute-bot: {mask_url(url)}: {error}", file=sys.stderr)
        return EXIT_COPY_FAILED
    for line in report.summary():
        print(f"  {line}")
    print(f"Done: {report.total_rows} rows copied. Set TUTE_DATABASE_URL to start the bot on it.")
    return 0


def backup(path: Path, source: Path | None, *, force: bool = False) -> int:
    """``backup PATH``: copy the SQLite file to ``path`` while the bot runs, print what was
    copied. No token is needed."""
    from bot.storage.backup import BackupError, backup_sqlite

    try:
        config = load_config(require_token=False)
    except ConfigError as error:
        print(f"tute-bot: {error}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    database = source if source is not None else config.db_path
    if source is None and config.database_url is not None:
        print(
            f"tute-bot: {BACKUP} copies a SQLite database, and this bot keeps its data in "
            f"PostgreSQL ({mask_url(config.database_url)}): back that up with pg_dump.",
            file=sys.stderr,
        )
        return EXIT_CONFIG_ERROR
    print(f"Backing up {database} to {path}...")
    try:
        report = backup_sqlite(database, path, force=force)
    except BackupError as error:
        print(f"tute-bot: {error}", file=sys.stderr)
        return EXIT_COPY_FAILED
    for line in report.summary():
        print(f"  {line}")
    print(f"Done: {report.total_rows} rows, {report.size:,} bytes in {path}.")
    return 0


def check(target: str | None) -> int:
    """``check [PATH]``: check a database (by default the bot's own), print a short report;
    1 when anything is wrong."""
    from bot.storage import is_postgres
    from bot.storage.backup import check_database

    try:
        config = load_config(require_token=False)
    except ConfigError as error:
        print(f"tute-bot: {error}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    where: str | Path
    if target is None:
        where = config.database_url or config.db_path
    elif is_postgres(target):
        where = target
    else:
        where = Path(target)
    shown = mask_url(where) if isinstance(where, str) else str(where)
    print(f"Checking {shown}...")
    report = asyncio.run(check_database(where))
    for line in report.lines:
        print(f"  {line}")
    for problem in report.problems:
        print(f"tute-bot: {shown}: {problem}", file=sys.stderr)
    if not report.ok:
        return EXIT_CHECK_FAILED
    print("Done: no problem found.")
    return 0


def run_sandbox(
    screenshot_dir: Path | None, language: Language = "en", width: int = 0, *, web: bool = False
) -> int:
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
    return sandbox.main(screenshot_dir=screenshot_dir, language=language, width=width, web=web)


if __name__ == "__main__":
    sys.exit(main())
