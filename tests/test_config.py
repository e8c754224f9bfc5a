"""Settings: defaults, parsing, and errors that say what to do."""

import dataclasses
import logging
import os
from pathlib import Path

import pytest

from bot.config import DEFAULT_DB_PATH, Config, ConfigError, MissingTokenError, load_config

TOKEN = "MTIz.secret-token-for-tests"


def config_from(**settings: str) -> Config:
    return load_config({"DISCORD_TOKEN": TOKEN, **settings})


def test_defaults() -> None:
    config = config_from()

    assert config.token == TOKEN
    assert config.db_path == DEFAULT_DB_PATH == Path("data/tute.db")
    assert config.log_level == logging.INFO
    assert config.dev_guild_id is None
    assert config.language == "en"
    assert config.robot_processes is None  # one per core


def test_every_setting_is_read() -> None:
    config = config_from(
        TUTE_DB_PATH="/srv/tute/tables.db",
        TUTE_LOG_LEVEL="debug",
        TUTE_DEV_GUILD_ID=" 123456789012345678 ",
        TUTE_LANGUAGE="ES",
        TUTE_ROBOT_PROCESSES="3",
    )

    assert config.db_path == Path("/srv/tute/tables.db")
    assert config.log_level == logging.DEBUG
    assert config.dev_guild_id == 123456789012345678
    assert config.language == "es"
    assert config.robot_processes == 3


def test_empty_settings_mean_the_defaults() -> None:
    config = config_from(
        TUTE_DB_PATH="", TUTE_LOG_LEVEL="", TUTE_DEV_GUILD_ID="  ", TUTE_LANGUAGE=""
    )

    assert config == Config(token=TOKEN)


@pytest.mark.parametrize("token", [None, "", "   "])
def test_a_missing_token_says_what_to_do_in_one_sentence(token: str | None) -> None:
    environ = {} if token is None else {"DISCORD_TOKEN": token}

    with pytest.raises(MissingTokenError) as raised:
        load_config(environ)

    sentence = str(raised.value)
    assert "DISCORD_TOKEN" in sentence
    assert ".env" in sentence
    assert ".env.example" in sentence
    assert "tute-bot --sandbox" in sentence
    assert "\n" not in sentence
    assert sentence.endswith(".")
    assert sentence.count(". ") == 0


@pytest.mark.parametrize("value", ["abc", "-5", "0", "1.5", "12e3", "١٢٣"])
def test_a_bad_dev_guild_id_is_refused(value: str) -> None:
    with pytest.raises(ConfigError, match="TUTE_DEV_GUILD_ID"):
        config_from(TUTE_DEV_GUILD_ID=value)


@pytest.mark.parametrize("value", ["-1", "two", "1.5", "1000"])
def test_a_bad_number_of_robot_processes_is_refused(value: str) -> None:
    with pytest.raises(ConfigError, match="TUTE_ROBOT_PROCESSES"):
        config_from(TUTE_ROBOT_PROCESSES=value)


def test_robot_processes_zero_means_threads() -> None:
    assert config_from(TUTE_ROBOT_PROCESSES="0").robot_processes == 0


@pytest.mark.parametrize("value", ["fr", "english", "es-ES"])
def test_an_unknown_language_is_refused(value: str) -> None:
    with pytest.raises(ConfigError, match=r"TUTE_LANGUAGE .* must be one of en, es\."):
        config_from(TUTE_LANGUAGE=value)


@pytest.mark.parametrize("value", ["LOUD", "10", "warn"])
def test_a_bad_log_level_is_refused(value: str) -> None:
    with pytest.raises(
        ConfigError, match=r"TUTE_LOG_LEVEL .* DEBUG, INFO, WARNING, ERROR, CRITICAL"
    ):
        config_from(TUTE_LOG_LEVEL=value)


def test_the_token_never_shows_in_the_repr() -> None:
    config = config_from(TUTE_DEV_GUILD_ID="42")

    assert TOKEN not in repr(config)
    assert TOKEN not in str(config)
    assert "dev_guild_id=42" in repr(config)


def test_the_config_is_frozen() -> None:
    config = config_from()

    with pytest.raises(dataclasses.FrozenInstanceError):
        config.token = "other"  # type: ignore[misc]


def test_the_database_folder_is_created_on_demand(tmp_path: Path) -> None:
    config = config_from(TUTE_DB_PATH=str(tmp_path / "a" / "b" / "tute.db"))
    assert not (tmp_path / "a").exists()

    path = config.prepare_db_path()

    assert path == tmp_path / "a" / "b" / "tute.db"
    assert path.parent.is_dir()
    assert not path.exists()


def test_the_dotenv_file_is_read_and_real_variables_win(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TUTE_"))}
    monkeypatch.setattr(os, "environ", environ)
    monkeypatch.setenv("TUTE_LANGUAGE", "en")
    dotenv = tmp_path / ".env"
    dotenv.write_text(f"DISCORD_TOKEN={TOKEN}\nTUTE_LANGUAGE=es\nTUTE_LOG_LEVEL=WARNING\n")

    config = load_config(dotenv_path=dotenv)

    assert config.token == TOKEN
    assert config.language == "en"
    assert config.log_level == logging.WARNING


def test_no_dotenv_file_is_fine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "environ", {"DISCORD_TOKEN": TOKEN})

    assert load_config(dotenv_path=tmp_path / ".env") == Config(token=TOKEN)
