"""The checker of Discord's documented limits (``tests/discord_limits.py``): for each limit,
a request just within passes and one just over is named."""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from typing import Any

import discord
import pytest

from tests.discord_limits import check_request

MESSAGE = ("POST", "/channels/1/messages")
Build = Callable[[int], tuple[str, str, Any]]


def message(body: Callable[[int], dict[str, Any]]) -> Build:
    return lambda n: (*MESSAGE, body(n))


def row(n: int) -> dict[str, Any]:
    return {"type": 1, "components": [{"type": 2, "custom_id": f"b{i}"} for i in range(n)]}


def text(size: int) -> dict[str, Any]:
    return {"type": 10, "content": "x" * size}


def v2(components: list[dict[str, Any]]) -> dict[str, Any]:
    return {"flags": 1 << 15, "components": components}


def command(**fields: Any) -> dict[str, Any]:
    return {"name": "tute", "description": "Play", "type": 1, **fields}


def option(**fields: Any) -> dict[str, Any]:
    return {"name": "variant", "description": "The variant", "type": 3, **fields}


def commands(body: Callable[[int], Any]) -> Build:
    return lambda n: ("PUT", "/applications/1/commands", body(n))


def emoji_image(size: int) -> str:
    return "data:image/png;base64," + base64.b64encode(b"x" * size).decode()


CASES: dict[str, tuple[Build, int, str]] = {
    "content": (message(lambda n: {"content": "x" * n}), 2000, "content"),
    "embeds": (message(lambda n: {"embeds": [{"title": "t"}] * n}), 10, "embeds is 11"),
    "title": (message(lambda n: {"embeds": [{"title": "x" * n}]}), 256, "title"),
    "description": (
        message(lambda n: {"embeds": [{"description": "x" * n}]}),
        4096,
        "description",
    ),
    "fields": (
        message(lambda n: {"embeds": [{"fields": [{"name": "a", "value": "b"}] * n}]}),
        25,
        "fields is 26",
    ),
    "field name": (
        message(lambda n: {"embeds": [{"fields": [{"name": "x" * n, "value": "v"}]}]}),
        256,
        "fields[0].name",
    ),
    "field value": (
        message(lambda n: {"embeds": [{"fields": [{"name": "n", "value": "x" * n}]}]}),
        1024,
        "fields[0].value has 1025 characters",
    ),
    "footer": (message(lambda n: {"embeds": [{"footer": {"text": "x" * n}}]}), 2048, "footer"),
    "author": (message(lambda n: {"embeds": [{"author": {"name": "x" * n}}]}), 256, "author"),
    "all embeds": (
        message(
            lambda n: {"embeds": [{"description": "x" * 3000}, {"description": "y" * (n - 3000)}]}
        ),
        6000,
        "characters of all embeds is 6001",
    ),
    "rows": (message(lambda n: {"components": [row(1)] * n}), 5, "action rows is 6"),
    "buttons": (message(lambda n: {"components": [row(n)]}), 5, "buttons is 6"),
    "label": (
        message(
            lambda n: {
                "components": [
                    {"type": 1, "components": [{"type": 2, "custom_id": "a", "label": "x" * n}]}
                ]
            }
        ),
        80,
        "label",
    ),
    "custom_id": (
        message(
            lambda n: {
                "components": [{"type": 1, "components": [{"type": 2, "custom_id": "x" * n}]}]
            }
        ),
        100,
        "custom_id",
    ),
    "options": (
        message(
            lambda n: {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": "a", "value": "a"}] * n,
                            }
                        ],
                    }
                ]
            }
        ),
        25,
        "options is 26",
    ),
    "placeholder": (
        message(
            lambda n: {
                "components": [
                    {
                        "type": 1,
                        "components": [{"type": 3, "custom_id": "s", "placeholder": "x" * n}],
                    }
                ]
            }
        ),
        150,
        "placeholder",
    ),
    "v2 components": (
        message(lambda n: v2([{"type": 17, "components": [text(1)] * (n - 1)}])),
        40,
        "components (v2, nested counted) is 41",
    ),
    "v2 text": (
        message(lambda n: v2([text(2000), text(n - 2000)])),
        4000,
        "text displays (v2) is 4001",
    ),
    "mentions": (
        message(lambda n: {"allowed_mentions": {"users": [str(i) for i in range(n)]}}),
        100,
        "allowed_mentions.users is 101",
    ),
    "thread name": (
        lambda n: ("POST", "/channels/1/threads", {"name": "x" * n}),
        100,
        "thread name",
    ),
    "followup": (
        lambda n: ("POST", "/webhooks/1/tok", {"content": "x" * n}),
        2000,
        "POST /webhooks/1/tok: content",
    ),
    "callback": (
        lambda n: (
            "POST",
            "/interactions/1/tok/callback",
            {"type": 4, "data": {"content": "x" * n}},
        ),
        2000,
        "content",
    ),
    "emoji bytes": (
        lambda n: ("POST", "/applications/1/emojis", {"name": "c_1o", "image": emoji_image(n)}),
        256 * 1024,
        "image bytes is 262145",
    ),
    "emoji name": (
        lambda n: ("POST", "/applications/1/emojis", {"name": "e" * n, "image": emoji_image(1)}),
        32,
        "emoji name",
    ),
    "commands": (commands(lambda n: [command(name=f"c{i}") for i in range(n)]), 100, "is 101"),
    "command name": (commands(lambda n: [command(name="x" * n)]), 32, "name"),
    "localized name": (
        commands(lambda n: [command(name_localizations={"es-ES": "x" * n})]),
        32,
        "name",
    ),
    "command description": (commands(lambda n: [command(description="x" * n)]), 100, "description"),
    "localized description": (
        commands(
            lambda n: [command(options=[option(description_localizations={"es-ES": "x" * n})])]
        ),
        100,
        "options[0].description",
    ),
    "command options": (
        commands(lambda n: [command(options=[option(name=f"o{i}") for i in range(n)])]),
        25,
        "options is 26",
    ),
    "choices": (
        commands(lambda n: [command(options=[option(choices=[{"name": "a", "value": "a"}] * n)])]),
        25,
        "choices is 26",
    ),
    "choice name": (
        commands(lambda n: [command(options=[option(choices=[{"name": "x" * n, "value": "a"}])])]),
        100,
        "choices[0].name",
    ),
    "choice value": (
        commands(lambda n: [command(options=[option(choices=[{"name": "a", "value": "x" * n}])])]),
        100,
        "choices[0].value",
    ),
}


def command_of_size(total: int) -> dict[str, Any]:
    """A command of ``total`` counted characters: "tute" and "Play" (8), then options whose
    localized descriptions (the longest of each field counts) make up the rest."""
    options: list[dict[str, Any]] = []
    left = total - 8
    i = 0
    while left > 0:
        name = f"o{i:02d}"
        described = min(100, left - len(name))
        options.append(
            option(name=name, description="d", description_localizations={"es-ES": "x" * described})
        )
        left -= len(name) + described
        i += 1
    subcommands = [
        {"name": f"s{k}", "description": "S", "type": 1, "options": options[k * 25 : (k + 1) * 25]}
        for k in range(len(options) // 25 + 1)
    ]
    used = sum(len(s["name"]) + 1 for s in subcommands)
    subcommands[0]["options"][0]["description_localizations"]["es-ES"] = "x" * (
        len(subcommands[0]["options"][0]["description_localizations"]["es-ES"]) - used
    )
    return command(options=subcommands)


@pytest.mark.parametrize("case", list(CASES))
def test_each_limit_passes_at_it_and_fails_one_over(case: str) -> None:
    build, limit, named = CASES[case]
    assert check_request(*build(limit)) == []
    broken = check_request(*build(limit + 1))
    assert len(broken) == 1, broken
    assert named in broken[0], broken
    assert str(limit) in broken[0] or case in {"embeds", "fields"} or str(limit + 1) in broken[0]


def test_a_command_of_8000_characters_passes_and_one_more_fails() -> None:
    assert check_request("PUT", "/applications/1/commands", [command_of_size(8000)]) == []
    broken = check_request("PUT", "/applications/1/commands", [command_of_size(8001)])
    assert broken == [
        "PUT /applications/1/commands: command 'tute' characters is 8001, over the limit of 8000"
    ]


def test_localizations_count_their_longest_not_their_sum() -> None:
    many = dict.fromkeys(("es-ES", "fr", "de", "it", "pt-BR"), "x" * 90)
    options = [option(name=f"o{i}", description_localizations=many) for i in range(25)]
    assert check_request("PUT", "/applications/1/commands", [command(options=options)]) == []


@pytest.mark.parametrize(
    ("name", "ok"), [("tute", True), ("nueva-mesa_2", True), ("Tute", False), ("a b", False)]
)
def test_chat_input_names_are_lowercase_words(name: str, ok: bool) -> None:
    broken = check_request("PUT", "/applications/1/commands", [command(name=name)])
    assert (broken == []) == ok, broken


def test_user_commands_may_be_mixed_case_without_description() -> None:
    user = {"name": "Tute Stats", "description": "", "type": 2}
    assert check_request("PUT", "/applications/1/commands", [user]) == []


def test_v2_messages_carry_no_content_nor_embeds() -> None:
    assert check_request(*MESSAGE, v2([text(10)])) == []
    broken = check_request(*MESSAGE, {**v2([text(10)]), "content": "hi"})
    assert broken == [
        "POST /channels/1/messages: content is sent with the IS_COMPONENTS_V2 flag, which forbids it"
    ]


def test_mentioned_users_neither_repeat_nor_come_with_parse_users() -> None:
    assert check_request(*MESSAGE, {"allowed_mentions": {"users": ["1", "1"]}})
    assert check_request(*MESSAGE, {"allowed_mentions": {"users": ["1"], "parse": ["users"]}})
    assert check_request(*MESSAGE, {"allowed_mentions": {"users": ["1", "2"], "parse": []}}) == []


@pytest.mark.parametrize("duration", [60, 1440, 4320, 10080])
def test_threads_archive_after_a_documented_duration(duration: int) -> None:
    thread = {"name": "Table 1", "auto_archive_duration": duration}
    assert check_request("POST", "/channels/1/threads", thread) == []
    broken = check_request(
        "POST", "/channels/1/threads", {**thread, "auto_archive_duration": duration + 1}
    )
    assert "auto_archive_duration" in broken[0]


def file(size: int, *, name: str = "table.png", description: str | None = None) -> discord.File:
    return discord.File(io.BytesIO(b"x" * size), filename=name, description=description)


def test_files_are_10_mib_at_most_with_alt_text_of_1024() -> None:
    mib = 1024 * 1024
    assert check_request(*MESSAGE, {}, [file(10 * mib, description="x" * 1024)]) == []
    assert check_request(*MESSAGE, {}, [file(10 * mib + 1, description="x")])[0].endswith(
        "files[0] (table.png) bytes is 10485761, over the limit of 10485760"
    )
    assert "description" in check_request(*MESSAGE, {}, [file(1, description="x" * 1025)])[0]
    assert len(check_request(*MESSAGE, {}, [file(1, description="x")] * 11)) == 1
    named = file(1, name="../etc/passwd", description="x")
    assert "filename" in check_request(*MESSAGE, {}, [named])[0]


@pytest.mark.parametrize("description", [None, "", "  "])
def test_every_file_sent_has_alt_text(description: str | None) -> None:
    (broken,) = check_request(*MESSAGE, {}, [file(1, description=description)])
    assert broken.endswith("files[0] (table.png) has no description (alt text)")


def test_alt_text_in_the_attachments_list_is_1024_at_most() -> None:
    edit = ("PATCH", "/channels/1/messages/2")
    assert check_request(*edit, {"attachments": [{"id": 0, "description": "x" * 1024}]}) == []
    assert check_request(*edit, {"attachments": [{"id": 0, "description": "x" * 1025}]})


def test_other_routes_and_reads_are_not_message_bodies() -> None:
    assert check_request("GET", "/channels/1/messages", None) == []
    assert check_request("PUT", "/channels/1/messages/2/reactions/x/@me", None) == []
