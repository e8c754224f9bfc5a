"""Settings: defaults, parsing, and errors that say what to do."""

import dataclasses
import logging
import os
from pathlib import Path

import pytest

from bot.config import (
    DEFAULT_DB_PATH,
    Config,
    ConfigError,
    MissingTokenError,
    load_config,
    mask_url,
    parse_shards,
)

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
    assert config.database_url is None
    assert config.shards is None
    assert config.shard_count is None


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


def test_a_servers_data_is_kept_30_days_after_the_bot_leaves_unless_set() -> None:
    assert config_from().retention_days == 30
    assert config_from(TUTE_RETENTION_DAYS="0").retention_days == 0
    assert config_from(TUTE_RETENTION_DAYS="90").retention_days == 90


@pytest.mark.parametrize("value", ["-1", "a month", "1.5", "3651"])
def test_a_bad_retention_is_refused(value: str) -> None:
    with pytest.raises(ConfigError, match="TUTE_RETENTION_DAYS"):
        config_from(TUTE_RETENTION_DAYS=value)


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


# ---------------------------------------------------------------------------- the database

PG_URL = "postgresql://tute:hunter2-secret@db.example:5432/tute"


def test_without_a_database_url_the_target_is_the_sqlite_file(tmp_path: Path) -> None:
    config = config_from(TUTE_DB_PATH=str(tmp_path / "data" / "tute.db"))

    assert config.database_target() == tmp_path / "data" / "tute.db"
    assert (tmp_path / "data").is_dir()


@pytest.mark.parametrize("url", [PG_URL, "postgres://localhost/tute"])
def test_a_database_url_is_the_target(url: str, tmp_path: Path) -> None:
    config = config_from(TUTE_DATABASE_URL=f" {url} ", TUTE_DB_PATH=str(tmp_path / "x" / "t.db"))

    assert config.database_url == url
    assert config.database_target() == url
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    "value", ["mysql://db/tute", "sqlite:///data/tute.db", "data/tute.db", "postgresql://"]
)
def test_a_database_url_that_is_not_postgresql_is_refused(value: str) -> None:
    with pytest.raises(ConfigError, match=r"TUTE_DATABASE_URL .* postgresql://") as raised:
        config_from(TUTE_DATABASE_URL=value)

    assert str(raised.value).count(". ") == 0


def test_the_database_password_never_shows_in_the_repr() -> None:
    config = config_from(TUTE_DATABASE_URL=PG_URL)

    assert "hunter2-secret" not in repr(config)
    assert "postgresql://tute:***@db.example:5432/tute" in repr(config)
    assert TOKEN not in repr(config)


def test_a_refused_database_url_never_shows_its_password() -> None:
    with pytest.raises(ConfigError) as raised:
        config_from(TUTE_DATABASE_URL="mysql://tute:hunter2-secret@db/tute")

    assert "hunter2-secret" not in str(raised.value)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (PG_URL, "postgresql://tute:***@db.example:5432/tute"),
        ("postgresql://tute@db/tute", "postgresql://tute@db/tute"),
        (
            "postgresql://db/tute?password=pw&host=/tmp/s",
            "postgresql://db/tute?password=***&host=/tmp/s",
        ),
    ],
)
def test_mask_url(url: str, shown: str) -> None:
    assert mask_url(url) == shown


# ---------------------------------------------------------------------------- shards


@pytest.mark.parametrize(
    ("text", "shards"),
    [
        ("5", (5,)),
        ("0-3", (0, 1, 2, 3)),
        ("0,2,4-6", (0, 2, 4, 5, 6)),
        ("6,0-2,1", (0, 1, 2, 6)),
        (" 3 - 3 ".replace(" - ", "-"), (3,)),
    ],
)
def test_parse_shards(text: str, shards: tuple[int, ...]) -> None:
    assert parse_shards(text) == shards


@pytest.mark.parametrize("text", ["", ",", "a", "1,", "-1", "1-", "3-1", "1-2-3", "1.5", "\u0661"])
def test_parse_shards_refuses_anything_else(text: str) -> None:
    with pytest.raises(ConfigError, match="--shards"):
        parse_shards(text)


def test_a_backwards_range_says_how_to_write_it() -> None:
    with pytest.raises(ConfigError, match="write it 1-3"):
        parse_shards("3-1")


def test_shards_are_read_with_the_settings() -> None:
    config = load_config(
        {"DISCORD_TOKEN": TOKEN, "TUTE_DATABASE_URL": PG_URL}, shards=(0, 1), shard_count=4
    )

    assert config.shards == (0, 1)
    assert config.shard_count == 4
    assert not config.runs_every_shard


def test_every_shard_in_one_process_may_keep_the_sqlite_file() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN}, shards=(0, 1, 2), shard_count=3)
    counted = load_config({"DISCORD_TOKEN": TOKEN}, shard_count=8)

    assert config.runs_every_shard
    assert counted.runs_every_shard
    assert config_from().runs_every_shard


@pytest.mark.parametrize(
    ("shards", "shard_count", "message"),
    [
        (None, 0, "--shard-count is 0, but it must be 1 or more"),
        ((0, 1), None, "--shards needs --shard-count"),
        ((0, 4), 4, "--shards names shard 4, but with --shard-count 4 the shards are 0 to 3"),
        ((), 4, "--shards names no shard"),
    ],
)
def test_bad_shards_are_refused(
    shards: tuple[int, ...] | None, shard_count: int | None, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(
            {"DISCORD_TOKEN": TOKEN, "TUTE_DATABASE_URL": PG_URL},
            shards=shards,
            shard_count=shard_count,
        )


def test_some_shards_need_a_postgresql_database() -> None:
    with pytest.raises(ConfigError, match="cannot share a SQLite file: set TUTE_DATABASE_URL"):
        load_config({"DISCORD_TOKEN": TOKEN}, shards=(0, 1), shard_count=4)


def test_replacing_the_shards_checks_them_too() -> None:
    config = config_from()

    with pytest.raises(ConfigError, match="TUTE_DATABASE_URL"):
        dataclasses.replace(config, shards=(1,), shard_count=2)


def test_the_migration_needs_no_token() -> None:
    config = load_config({"TUTE_DATABASE_URL": PG_URL}, require_token=False)

    assert config.token == ""
    assert config.database_url == PG_URL


def test_the_web_table_is_off_until_a_port_and_the_client_secret_are_set() -> None:
    assert config_from().web_port is None
    config = config_from(
        TUTE_WEB_PORT="8080", TUTE_WEB_HOST="0.0.0.0", DISCORD_CLIENT_SECRET="oauth-secret"
    )
    assert (config.web_port, config.web_host) == (8080, "0.0.0.0")
    assert "oauth-secret" not in repr(config), "the secret never shows"
    key = config.web_secret()
    assert len(key) == 32 and key == config_from(DISCORD_CLIENT_SECRET="oauth-secret").web_secret()
    assert key != config_from(DISCORD_CLIENT_SECRET="another").web_secret()


@pytest.mark.parametrize("port", ["0", "65536", "http", "-1"])
def test_a_bad_web_port_is_refused(port: str) -> None:
    with pytest.raises(ConfigError, match="TUTE_WEB_PORT"):
        config_from(TUTE_WEB_PORT=port, DISCORD_CLIENT_SECRET="s")


def test_a_web_table_without_the_client_secret_is_refused() -> None:
    """Without it nobody could log in, and its sessions would have no secret to sign."""
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_SECRET"):
        config_from(TUTE_WEB_PORT="8080")
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_SECRET"):
        config_from().web_secret()


def test_a_process_says_where_the_others_reach_its_web_table() -> None:
    assert config_from().web_peer_url is None
    config = config_from(TUTE_WEB_PEER_URL="http://10.0.0.5:8080/")
    assert config.web_peer_url == "http://10.0.0.5:8080"


@pytest.mark.parametrize(
    "url", ["10.0.0.5:8080", "http://10.0.0.5", "ftp://h:1", "http://h:1/x", "http://h:99999"]
)
def test_a_peer_address_that_reaches_nothing_is_refused(url: str) -> None:
    with pytest.raises(ConfigError, match="TUTE_WEB_PEER_URL"):
        config_from(TUTE_WEB_PEER_URL=url)


def test_the_metrics_are_served_only_where_a_port_is_set() -> None:
    config = config_from()
    assert (config.metrics_port, config.metrics_host, config.refused_limit) == (
        None,
        "127.0.0.1",
        2_000,
    )
    config = config_from(
        TUTE_METRICS_PORT="9100", TUTE_METRICS_HOST="0.0.0.0", TUTE_REFUSED_LIMIT="500"
    )
    assert (config.metrics_port, config.metrics_host, config.refused_limit) == (
        9100,
        "0.0.0.0",
        500,
    )


@pytest.mark.parametrize("port", ["0", "65536", "metrics", "-1"])
def test_a_bad_metrics_port_is_refused(port: str) -> None:
    with pytest.raises(ConfigError, match="TUTE_METRICS_PORT"):
        config_from(TUTE_METRICS_PORT=port)


@pytest.mark.parametrize("limit", ["0", "10000", "many", "-5"])
def test_a_refused_limit_at_or_past_the_ban_is_refused(limit: str) -> None:
    """Discord bans the IP at 10,000 refused requests in 10 minutes: the limit stays under."""
    with pytest.raises(ConfigError, match="TUTE_REFUSED_LIMIT"):
        config_from(TUTE_REFUSED_LIMIT=limit)
