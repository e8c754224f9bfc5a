"""compose.yaml and the Dockerfile, checked without Docker: every shard runs in exactly one
bot process, every process reaches the one PostgreSQL, and the image runs ``tute-bot``.

PyYAML is not a dependency, so the few things checked are read from the text: compose.yaml
keeps each of them on one line (a command is a flow list of double-quoted strings, which is
JSON too)."""

import asyncio
import json
import os
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from bot.config import parse_shards
from bot.metrics import Metrics, MetricsServer

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "compose.yaml"
DOCKERFILE = ROOT / "Dockerfile"
README = ROOT / "README.md"
DOCKERIGNORE = ROOT / ".dockerignore"


def top_level_blocks(text: str) -> dict[str, str]:
    """Each top-level key of a YAML file (``services:``, ``x-bot: &bot``...) and its lines."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key = re.match(r"([A-Za-z][\w.-]*):", line)
        if key:
            current = blocks.setdefault(key.group(1), [])
        if current is not None:
            current.append(line)
    return {key: "\n".join(lines) for key, lines in blocks.items()}


def children(block: str) -> dict[str, str]:
    """The entries two spaces in under a top-level key (the services), with their lines."""
    entries: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in block.splitlines()[1:]:
        key = re.match(r" {2}([A-Za-z][\w.-]*):\s*$", line)
        if key:
            current = entries.setdefault(key.group(1), [])
        elif current is not None:
            current.append(line)
    return {key: "\n".join(lines) for key, lines in entries.items()}


def value(block: str, key: str) -> str | None:
    """The value of ``key: value`` anywhere in a block, without quotes; None when absent."""
    found = re.search(rf"^\s*{re.escape(key)}:[ \t]*(\S.*?)\s*$", block, re.MULTILINE)
    return found.group(1).strip("\"'") if found else None


@dataclass(frozen=True)
class BotService:
    name: str
    shards: tuple[int, ...]
    shard_count: int
    database_url: str | None


def option(command: list[str], name: str) -> str:
    assert command.count(name) == 1, f"{command}: {name} must be given once"
    return command[command.index(name) + 1]


def compose() -> tuple[dict[str, str], dict[str, str]]:
    """compose.yaml's top-level blocks and its services."""
    blocks = top_level_blocks(COMPOSE.read_text(encoding="utf-8"))
    assert "services" in blocks, "compose.yaml has no services"
    return blocks, children(blocks["services"])


def bot_services() -> list[BotService]:
    blocks, services = compose()
    anchors = {
        found.group(1): block
        for block in blocks.values()
        if (found := re.match(r"[\w.-]+:\s*&([\w-]+)\s*$", block.splitlines()[0]))
    }
    bots: list[BotService] = []
    for name, block in services.items():
        if not name.startswith("bot"):
            continue
        found = re.search(r"^\s*command:\s*(\[.*\])\s*$", block, re.MULTILINE)
        assert found, f"{name} has no one-line command: [...]"
        command = json.loads(found.group(1))
        url = value(block, "TUTE_DATABASE_URL")
        merged = re.search(r"<<:\s*\*([\w-]+)", block)
        if url is None and merged:
            url = value(anchors[merged.group(1)], "TUTE_DATABASE_URL")
        bots.append(
            BotService(
                name=name,
                shards=parse_shards(option(command, "--shards")),
                shard_count=int(option(command, "--shard-count")),
                database_url=url,
            )
        )
    return bots


def test_every_shard_runs_in_exactly_one_bot_service() -> None:
    bots = bot_services()

    assert len(bots) >= 2, "compose.yaml is meant to run several bot processes"
    counts = {bot.shard_count for bot in bots}
    assert len(counts) == 1, f"every service must give the same --shard-count: {counts}"
    (shard_count,) = counts
    shards = sorted(shard for bot in bots for shard in bot.shards)
    assert shards == list(range(shard_count)), (
        f"shards 0..{shard_count - 1} must each run in one service: "
        + ", ".join(f"{bot.name} {list(bot.shards)}" for bot in bots)
    )


def test_every_bot_service_uses_the_postgres_service() -> None:
    _, services = compose()
    postgres = services["postgres"]
    assert value(postgres, "image") == "postgres:15"
    assert "pg_isready" in postgres
    user, database = value(postgres, "POSTGRES_USER"), value(postgres, "POSTGRES_DB")
    password = value(postgres, "POSTGRES_PASSWORD")
    assert password and password.startswith("${POSTGRES_PASSWORD:?"), (
        "the password must come from .env, and compose must refuse to start without it"
    )

    for bot in bot_services():
        assert bot.database_url, f"{bot.name} does not set TUTE_DATABASE_URL"
        url = urlsplit(bot.database_url)
        assert url.scheme == "postgresql"
        assert url.hostname == "postgres", f"{bot.name} must reach the postgres service"
        assert url.port == 5432
        assert url.username == user
        assert url.path == f"/{database}"
        assert "${POSTGRES_PASSWORD}" in bot.database_url


def test_bot_services_restart_and_wait_for_the_database() -> None:
    blocks, services = compose()
    for name, block in services.items():
        if not name.startswith("bot"):
            continue
        merged = re.search(r"<<:\s*\*([\w-]+)", block)
        if merged:
            block += "\n" + next(
                text for text in blocks.values() if f"&{merged.group(1)}" in text.splitlines()[0]
            )
        assert value(block, "restart") == "unless-stopped", name
        assert value(block, "condition") == "service_healthy", name
        assert value(block, "env_file") == ".env", name


def test_the_image_runs_tute_bot_as_a_user() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    entrypoint = re.search(r"^ENTRYPOINT\s+(\[.*\])\s*$", text, re.MULTILINE)

    assert entrypoint and json.loads(entrypoint.group(1)) == ["tute-bot"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "tute-bot" in scripts["scripts"]
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.MULTILINE)
    user = re.findall(r"^USER\s+(\S+)", text, re.MULTILINE)
    assert user and user[-1] not in {"root", "0"}


def test_the_token_stays_out_of_the_image() -> None:
    ignored = DOCKERIGNORE.read_text(encoding="utf-8").split()
    assert ".env" in ignored
    assert ".venv" in ignored


def test_the_readme_says_how_to_run_many_processes() -> None:
    text = README.read_text(encoding="utf-8")
    for needed in ("--shards", "migrate-to-postgres", "docker compose up"):
        assert needed in text, f"README.md does not mention {needed}"


def merged_bot_blocks() -> dict[str, str]:
    """Each bot service's lines, with those of the anchor it merges (``<<: *bot``)."""
    blocks, services = compose()
    merged: dict[str, str] = {}
    for name, block in services.items():
        if not name.startswith("bot"):
            continue
        anchor = re.search(r"<<:\s*\*([\w-]+)", block)
        if anchor:
            block += "\n" + next(
                text for text in blocks.values() if f"&{anchor.group(1)}" in text.splitlines()[0]
            )
        merged[name] = block
    return merged


def healthcheck_of(block: str) -> list[str]:
    found = re.search(r"^\s*test:\s*(\[.*\])\s*$", block, re.MULTILINE)
    assert found, "no one-line healthcheck test: [...]"
    return json.loads(found.group(1))


def test_every_bot_service_is_checked_on_readyz_without_curl() -> None:
    """The image (python:3.11-slim) has no curl: the check is Python's own, on the port the
    bot serves its health on."""
    bots = merged_bot_blocks()
    assert bots
    for name, block in bots.items():
        assert "healthcheck:" in block, name
        test = healthcheck_of(block)
        assert test[:3] == ["CMD", "python", "-c"], (name, test)
        assert "/readyz" in test[3] and "TUTE_METRICS_PORT" in test[3], name
        port = value(block, "TUTE_METRICS_PORT")
        assert port and port.isdecimal(), f"{name} does not set TUTE_METRICS_PORT"
        assert value(block, "TUTE_METRICS_HOST") == "0.0.0.0", f"{name}: Prometheus reaches it"


async def run_check(code: str, port: int) -> int:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code,
        env={**os.environ, "TUTE_METRICS_PORT": str(port)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return await process.wait()


async def test_the_healthcheck_passes_only_while_the_bot_is_ready() -> None:
    """compose.yaml's own check, run against the bot's health server: it fails (non-zero)
    while /readyz answers 503 and passes once it answers 200."""
    (code,) = {healthcheck_of(block)[3] for block in merged_bot_blocks().values()}
    ready = {"gateway": False, "database": True, "shards": True}

    async def readiness() -> dict[str, bool]:
        return dict(ready)

    server = MetricsServer(Metrics(), readiness)
    await server.start("127.0.0.1", 0)
    try:
        assert server.port
        assert await run_check(code, server.port) != 0
        ready["gateway"] = True
        assert await run_check(code, server.port) == 0
    finally:
        await server.stop()


def test_the_readme_shows_how_to_watch_the_bot() -> None:
    text = README.read_text(encoding="utf-8")
    for needed in ("TUTE_METRICS_PORT", "TUTE_REFUSED_LIMIT", "/readyz", "scrape_configs"):
        assert needed in text, f"README.md does not mention {needed}"
