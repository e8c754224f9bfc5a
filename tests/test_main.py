"""``tute-bot`` start-up: what a person sees when the token is missing or wrong."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import Config

ROOT = Path(__file__).resolve().parents[1]


def run_bot(code: str, cwd: Path, *args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    """Run Python ``code`` with ``args`` in a fresh interpreter in ``cwd``, with none of the
    bot's settings in the environment but ``environ``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TUTE_"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(environ)
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.e2e
def test_without_a_token_it_says_what_to_do_and_exits_2(tmp_path: Path) -> None:
    result = run_bot("import runpy; runpy.run_module('bot', run_name='__main__')", tmp_path)

    assert result.returncode == 2
    assert result.stdout == ""
    assert "DISCORD_TOKEN" in result.stderr
    assert ".env.example" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_without_a_token_main_returns_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "environ", {"PATH": os.environ.get("PATH", "")})

    assert main([]) == 2

    out, err = capsys.readouterr()
    assert out == ""
    assert "DISCORD_TOKEN is not set" in err


@pytest.mark.e2e
def test_a_bad_setting_is_reported_in_one_line(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nTUTE_DEV_GUILD_ID=my-server\n")

    result = run_bot("from bot.__main__ import main; raise SystemExit(main([]))", tmp_path)

    assert result.returncode == 2
    assert "TUTE_DEV_GUILD_ID" in result.stderr
    assert "Traceback" not in result.stderr


FAILED_LOGIN = """
import sys
import discord
from bot.client import TuteBot

async def start(self, token, *, reconnect=True):
    raise {"refused": discord.LoginFailure("Improper token has been passed."),
            "offline": OSError("Cannot connect to host discord.com:443")}[sys.argv[1]]

TuteBot.start = start
from bot.__main__ import main
from bot.config import Config
raise SystemExit(main([]))
"""


@pytest.mark.e2e
def test_a_refused_token_is_reported_without_showing_it(tmp_path: Path) -> None:
    token = "MTIzNDU2.refused-token-text"

    result = run_bot(FAILED_LOGIN, tmp_path, "refused", DISCORD_TOKEN=token, TUTE_LOG_LEVEL="DEBUG")

    assert result.returncode == 2
    assert "Discord refused the token in DISCORD_TOKEN" in result.stderr
    assert token not in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.e2e
def test_no_network_is_reported_in_one_line(tmp_path: Path) -> None:
    result = run_bot(FAILED_LOGIN, tmp_path, "offline", DISCORD_TOKEN="MTIz.abc")

    assert result.returncode == 1
    assert "could not reach Discord (Cannot connect to host discord.com:443)" in result.stderr
    assert "Traceback" not in result.stderr


def test_shards_without_a_database_url_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "environ", {"DISCORD_TOKEN": "MTIz.abc"})

    assert main(["--shards", "0-3", "--shard-count", "16"]) == 2

    out, err = capsys.readouterr()
    assert out == ""
    assert "TUTE_DATABASE_URL" in err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_shard_list_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--shards", "3-1", "--shard-count", "4"])

    assert exited.value.code == 2
    assert "write it 1-3" in capsys.readouterr().err


def test_the_shards_reach_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Config] = []

    class FakeBot:
        def __init__(self, config: Config) -> None:
            seen.append(config)

        def run(self, token: str, *, log_handler: object) -> None:
            pass

    url = "postgresql://tute:pw@db/tute"
    monkeypatch.setattr(os, "environ", {"DISCORD_TOKEN": "MTIz.abc", "TUTE_DATABASE_URL": url})
    monkeypatch.setattr("bot.__main__.TuteApp", FakeBot)
    monkeypatch.setattr("bot.__main__.setup_logging", lambda level: None)

    assert main(["--shards", "0,2", "--shard-count", "4"]) == 0

    (config,) = seen
    assert config.shards == (0, 2)
    assert config.shard_count == 4
    assert config.database_target() == url


@pytest.mark.parametrize(
    "argv",
    [
        ["--from", "tute.db"],
        ["--to", "postgresql://db/tute"],
        ["migrate-to-postgres", "--shards", "0", "--shard-count", "1"],
        ["migrate-to-postgres", "--sandbox"],
        ["migrate-to-everywhere"],
        ["backup"],
        ["backup", "b.db", "--to", "postgresql://db/tute"],
        ["check", "--from", "tute.db"],
        ["check", "b.db", "--force"],
        ["--force"],
        ["migrate-to-postgres", "b.db"],
    ],
)
def test_mixed_up_arguments_are_usage_errors(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)

    assert exited.value.code == 2


def test_the_migration_needs_no_token_but_a_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "environ", {"TUTE_DATABASE_URL": "postgresql://u:pw@db/tute"})

    assert main(["migrate-to-postgres"]) == 2

    out, err = capsys.readouterr()
    assert "DISCORD_TOKEN" not in err
    assert "no SQLite database at data/tute.db" in err
    assert "pw@" not in out + err


def test_the_migration_refuses_a_target_that_is_not_postgresql(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "environ", {})
    (tmp_path / "tute.db").touch()

    assert main(["migrate-to-postgres", "--from", "tute.db", "--to", "sqlite:///x.db"]) == 2

    assert "--to is 'sqlite:///x.db'" in capsys.readouterr().err
