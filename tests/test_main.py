"""``tute-bot`` start-up: what a person sees when the token is missing or wrong."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main

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
