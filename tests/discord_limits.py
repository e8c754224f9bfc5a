"""Discord's documented limits on what a bot sends, checked request by request.

SimCord accepts payloads Discord would refuse with a 400 (a field value over 1,024
characters, a 41st component...). :func:`check_request` holds one outgoing request (its
method, route, JSON body and files) to the limits of Discord's documentation, not the
simulator's, and returns what breaks them, each naming the route, the limit and the value.
``tests/conftest.py`` runs it over every request of every SimCord test.

The 8,000 characters of a command: the docs count "the combined sum of characters for
name, description, and value properties of a command, its options (including subcommands
and groups), and choices", and when localizations are present "only the longest
localization for each field (including the default value) is counted". So each field counts
once, at the longest of its default and its translations; the locales are not added up.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Iterator
from typing import Any

MESSAGE_CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
EMBEDS_TOTAL = 6000
ACTION_ROWS = 5
ROW_BUTTONS = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
SELECT_PLACEHOLDER = 150
SELECT_OPTION_TEXT = 100
IS_COMPONENTS_V2 = 1 << 15
V2_COMPONENTS = 40
V2_TEXT = 4000
MENTIONED_USERS = 100
FILES = 10
FILE_BYTES = 10 * 1024 * 1024
ALT_TEXT = 1024
FILENAME = 1024
EMOJI_BYTES = 256 * 1024
THREAD_NAME = 100
ARCHIVE_DURATIONS = frozenset({60, 1440, 4320, 10080})
GLOBAL_COMMANDS = 100
COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
COMMAND_CHOICES = 25
CHOICE_NAME = 100
CHOICE_VALUE = 100
COMMAND_TOTAL = 8000
MODAL_TITLE = 45

# \w: letters, digits and _ (no spaces, no punctuation); the length is checked on its own
_COMMAND_NAME = re.compile(r"^[-_\w]+$")
_EMOJI_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
_FILENAME = re.compile(r"^[^/\\\x00-\x1f]+$")
_MESSAGE_CALLBACKS = {4, 7}  # CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE
_BUTTON, _ROW, _TEXT_DISPLAY = 2, 1, 10
_SELECTS = {3, 5, 6, 7, 8}


def _over(where: str, limit: int, value: int) -> Iterator[str]:
    if value > limit:
        yield f"{where} is {value}, over the limit of {limit}"


def _length(where: str, text: Any, limit: int, *, least: int = 0) -> Iterator[str]:
    if text is None:
        return
    size = len(str(text))
    if size > limit or size < least:
        low = f"{least}-" if least else "at most "
        yield f"{where} has {size} characters, the limit is {low}{limit}"


def _embeds(embeds: list[dict[str, Any]]) -> Iterator[str]:
    yield from _over("embeds", EMBEDS, len(embeds))
    total = 0
    for i, embed in enumerate(embeds):
        at = f"embeds[{i}]"
        fields = embed.get("fields") or []
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        yield from _length(f"{at}.title", embed.get("title"), EMBED_TITLE)
        yield from _length(f"{at}.description", embed.get("description"), EMBED_DESCRIPTION)
        yield from _length(f"{at}.footer.text", footer, FOOTER_TEXT)
        yield from _length(f"{at}.author.name", author, AUTHOR_NAME)
        yield from _over(f"{at}.fields", EMBED_FIELDS, len(fields))
        texts = [embed.get("title"), embed.get("description"), footer, author]
        for j, field in enumerate(fields):
            yield from _length(f"{at}.fields[{j}].name", field.get("name"), FIELD_NAME)
            yield from _length(f"{at}.fields[{j}].value", field.get("value"), FIELD_VALUE)
            texts += [field.get("name"), field.get("value")]
        total += sum(len(str(t)) for t in texts if t is not None)
    yield from _over("characters of all embeds", EMBEDS_TOTAL, total)


def _component(at: str, component: dict[str, Any]) -> Iterator[str]:
    kind = component.get("type")
    if "custom_id" in component:
        yield from _length(f"{at}.custom_id", component["custom_id"], CUSTOM_ID, least=1)
    if kind == _BUTTON:
        yield from _length(f"{at}.label", component.get("label"), BUTTON_LABEL)
    if kind in _SELECTS:
        options = component.get("options") or []
        yield from _length(f"{at}.placeholder", component.get("placeholder"), SELECT_PLACEHOLDER)
        yield from _over(f"{at}.options", SELECT_OPTIONS, len(options))
        for j, option in enumerate(options):
            for key in ("label", "value", "description"):
                yield from _length(f"{at}.options[{j}].{key}", option.get(key), SELECT_OPTION_TEXT)
    if kind == _ROW:
        children = component.get("components") or []
        buttons = sum(1 for c in children if c.get("type") == _BUTTON)
        yield from _over(f"{at} buttons", ROW_BUTTONS, buttons)


def _walk(components: list[dict[str, Any]], at: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for i, component in enumerate(components):
        here = f"{at}[{i}]"
        yield here, component
        yield from _walk(component.get("components") or [], f"{here}.components")
        accessory = component.get("accessory")
        if accessory:
            yield f"{here}.accessory", accessory


def _components(body: dict[str, Any]) -> Iterator[str]:
    components = body.get("components") or []
    walked = list(_walk(components, "components"))
    for at, component in walked:
        yield from _component(at, component)
    if int(body.get("flags") or 0) & IS_COMPONENTS_V2:
        yield from _over("components (v2, nested counted)", V2_COMPONENTS, len(walked))
        text = sum(len(c.get("content") or "") for _, c in walked if c.get("type") == _TEXT_DISPLAY)
        yield from _over("characters of text displays (v2)", V2_TEXT, text)
        for key in ("content", "embeds"):
            if body.get(key):
                yield f"{key} is sent with the IS_COMPONENTS_V2 flag, which forbids it"
    elif components:
        yield from _over("action rows", ACTION_ROWS, len(components))


def _mentions(mentions: dict[str, Any]) -> Iterator[str]:
    users = mentions.get("users")
    if users is None:
        return
    yield from _over("allowed_mentions.users", MENTIONED_USERS, len(users))
    if len(set(map(str, users))) != len(users):
        yield f"allowed_mentions.users repeats an id ({len(users)} ids, {len(set(users))} unique)"
    if "users" in (mentions.get("parse") or []):
        yield 'allowed_mentions has both users and parse "users"'


def check_message(body: dict[str, Any]) -> Iterator[str]:
    """What breaks the limits in a message's body (a new one, an edit, a reply)."""
    yield from _length("content", body.get("content"), MESSAGE_CONTENT)
    yield from _embeds(body.get("embeds") or [])
    yield from _components(body)
    yield from _mentions(body.get("allowed_mentions") or {})
    for i, attachment in enumerate(body.get("attachments") or []):
        yield from _length(f"attachments[{i}].description", attachment.get("description"), ALT_TEXT)


def _file_size(file: Any) -> int:
    fp = file.fp
    here = fp.tell()
    fp.seek(0, 2)
    end = fp.tell()
    fp.seek(here)
    return end - here


def check_files(files: list[Any]) -> Iterator[str]:
    """What breaks the limits in the files of one request (``discord.File`` objects)."""
    yield from _over("files", FILES, len(files))
    for i, file in enumerate(files):
        name = str(getattr(file, "filename", "") or "")
        yield from _over(f"files[{i}] ({name}) bytes", FILE_BYTES, _file_size(file))
        description = getattr(file, "description", None)
        yield from _length(f"files[{i}].description", description, ALT_TEXT)
        if not (description or "").strip():
            # the alt text a screen reader reads: every picture (and record) says what it is
            yield f"files[{i}] ({name}) has no description (alt text)"
        if not _FILENAME.match(name) or len(name) > FILENAME:
            yield f"files[{i}] has the filename {name!r}, not a plain file name"


def _localized(field: str, entry: dict[str, Any]) -> list[str]:
    return [str(entry.get(field) or ""), *(entry.get(f"{field}_localizations") or {}).values()]


def _named(at: str, entry: dict[str, Any], *, chat_input: bool) -> Iterator[str]:
    for name in _localized("name", entry):
        yield from _length(f"{at}.name {name!r}", name, COMMAND_NAME, least=1)
        if chat_input and (not _COMMAND_NAME.match(name) or name != name.lower()):
            yield f"{at}.name {name!r} is not lowercase letters, digits, - and _"
    for text in _localized("description", entry):
        least = 1 if chat_input else 0
        yield from _length(f"{at}.description", text, COMMAND_DESCRIPTION, least=least)


def _longest(field: str, entry: dict[str, Any]) -> int:
    return max(len(text) for text in _localized(field, entry))


def _option(at: str, option: dict[str, Any], *, chat_input: bool = True) -> Iterator[str | int]:
    """The violations of an option (and those below it), then its count toward 8,000."""
    yield from _named(at, option, chat_input=chat_input)
    counted = _longest("name", option) + _longest("description", option)
    choices = option.get("choices") or []
    yield from _over(f"{at}.choices", COMMAND_CHOICES, len(choices))
    for j, choice in enumerate(choices):
        for name in _localized("name", choice):
            yield from _length(f"{at}.choices[{j}].name", name, CHOICE_NAME, least=1)
        value = choice.get("value")
        if isinstance(value, str):
            yield from _length(f"{at}.choices[{j}].value", value, CHOICE_VALUE)
        counted += _longest("name", choice) + len(str(value))
    options = option.get("options") or []
    yield from _over(f"{at}.options", COMMAND_OPTIONS, len(options))
    for k, sub in enumerate(options):
        for found in _option(f"{at}.options[{k}]", sub):
            if isinstance(found, int):
                counted += found
            else:
                yield found
    yield counted


def check_command(command: dict[str, Any]) -> Iterator[str]:
    """What breaks the limits in one application command (with its options and choices)."""
    chat_input = command.get("type", 1) == 1
    name = command.get("name")
    for found in _option(f"command {name!r}", command, chat_input=chat_input):
        if isinstance(found, int):
            yield from _over(f"command {name!r} characters", COMMAND_TOTAL, found)
        else:
            yield found


def check_commands(commands: list[dict[str, Any]]) -> Iterator[str]:
    chat_input = sum(1 for c in commands if c.get("type", 1) == 1)
    yield from _over("chat-input commands", GLOBAL_COMMANDS, chat_input)
    for command in commands:
        yield from check_command(command)


def check_emoji(body: dict[str, Any]) -> Iterator[str]:
    name = str(body.get("name") or "")
    if not _EMOJI_NAME.match(name):
        yield f"emoji name {name!r} is not 2-32 characters of A-Z, a-z, 0-9 and _"
    image = body.get("image")
    if isinstance(image, str) and "," in image:
        size = len(base64.b64decode(image.split(",", 1)[1]))
        yield from _over(f"emoji {name!r} image bytes", EMOJI_BYTES, size)


def check_thread(body: dict[str, Any]) -> Iterator[str]:
    if "name" in body:
        yield from _length("thread name", body["name"], THREAD_NAME, least=1)
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_DURATIONS:
        yield f"auto_archive_duration is {duration}, not one of {sorted(ARCHIVE_DURATIONS)}"
    if isinstance(body.get("message"), dict):
        yield from check_message(body["message"])


def _callback(body: dict[str, Any]) -> Iterator[str]:
    data = body.get("data") or {}
    kind = body.get("type")
    if kind in _MESSAGE_CALLBACKS:
        yield from check_message(data)
    elif kind == 8:  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
        choices = data.get("choices") or []
        yield from _over("autocomplete choices", COMMAND_CHOICES, len(choices))
        for j, choice in enumerate(choices):
            yield from _length(f"choices[{j}].name", choice.get("name"), CHOICE_NAME, least=1)
            yield from _length(f"choices[{j}].value", choice.get("value"), CHOICE_VALUE)
    elif kind == 9:  # MODAL
        yield from _length("modal title", data.get("title"), MODAL_TITLE, least=1)
        yield from _length("modal custom_id", data.get("custom_id"), CUSTOM_ID, least=1)


def _body(method: str, segments: list[str], json: Any) -> Iterable[str]:
    last = segments[-1] if segments else ""
    if segments[:1] == ["applications"] and "commands" in segments:
        if isinstance(json, list):
            return check_commands(json)
        return check_command(json) if isinstance(json, dict) else ()
    if not isinstance(json, dict) or method not in {"POST", "PATCH", "PUT"}:
        return ()
    if segments[:1] == ["applications"] and "emojis" in segments:
        return check_emoji(json)
    if last == "callback":
        return _callback(json)
    if last == "threads" or (segments[:1] == ["channels"] and len(segments) == 2):
        return check_thread(json)
    if "messages" in segments or segments[:1] == ["webhooks"]:
        return check_message(json)
    return ()


def check_request(method: str, path: str, json: Any, files: list[Any] | None = None) -> list[str]:
    """What in this request breaks Discord's documented limits, each line naming the route."""
    segments = path.strip("/").split("/")
    found = [*_body(method, segments, json), *check_files(files or [])]
    return [f"{method} {path}: {line}" for line in found]
