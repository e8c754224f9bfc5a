"""How one member's id and names are taken out of a record (the JSON of a table's state, a
tournament's, a rated game's, where a table's hands are), for :mod:`.privacy`: pure
functions of the parsed JSON, no SQL."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

FormerName = Callable[[str], str]
"""The name a former player goes by, in a record's language ("en", "es"): the catalog's."""


def parse(text: object) -> dict[str, Any]:
    try:
        data = json.loads(str(text))
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def mentions(value: object, user_id: int) -> bool:
    """Whether a JSON value holds the id (as a number, or as a key)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value == user_id
    if isinstance(value, list):
        return any(mentions(v, user_id) for v in value)  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, dict):
        return any(
            k == str(user_id) or mentions(v, user_id)
            for k, v in value.items()  # pyright: ignore[reportUnknownVariableType]
        )
    return False


def _names(text: object, user_id: int) -> set[str]:
    """The names a record gives the member (in seats, log lines, entrants)."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, list):
            items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
            if len(items) == 2 and items[0] == user_id and isinstance(items[1], str):
                found.add(items[1])
            for item in items:
                walk(item)
        elif isinstance(value, dict):
            data: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
            if _is_theirs(data, user_id) and isinstance(data.get("name"), str):
                found.add(data["name"])
            for item in data.values():
                walk(item)

    walk(parse(text))
    return found


def _is_theirs(data: dict[str, Any], user_id: int) -> bool:
    """A JSON object about the member: a seat, a log line's who, a hand's place, a rated
    game's player."""
    return any(
        data.get(key) == user_id and not isinstance(data.get(key), bool)
        for key in ("user_id", "user")
    )


_PERSONAL: Final = frozenset({"account_created", "joined_server", "channel", "message"})
"""What a seat or a hand's place says of the member beyond their name: when their Discord
account was made and they joined the server; where their hand was sent (their DMs)."""


@dataclass(frozen=True, slots=True)
class Scrub:
    """The member's id and names as one record holds them, made anonymous."""

    user_id: int
    pseudonym: int
    former_name: FormerName

    def record(self, data: Any, language: str | None) -> Any:
        """A record (parsed JSON) with the member as a former player: their id the
        pseudonym wherever it is (a number, a key, inside a text), their names the
        catalog's (in the record's ``language``; without one, in English) wherever no other
        player goes by the same name."""
        lang = language or (data.get("language") if isinstance(data, dict) else None)
        former = self.former_name(lang if isinstance(lang, str) else "en")
        theirs = self._names(data)
        others = self._others(data)
        if isinstance(data, dict):
            self._summary(data, former)  # pyright: ignore[reportUnknownArgumentType]
        return self._walk(data, former, theirs - others)

    def _names(self, data: Any) -> set[str]:
        return _names(json.dumps(data), self.user_id)

    def _others(self, data: Any) -> set[str]:
        """Names other members go by in the record (never taken for the member's)."""
        found: set[str] = set()

        def walk(value: object) -> None:
            if isinstance(value, list):
                items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
                if (
                    len(items) == 2
                    and isinstance(items[0], int)
                    and items[0] != self.user_id
                    and isinstance(items[1], str)
                ):
                    found.add(items[1])
                for item in items:
                    walk(item)
            elif isinstance(value, dict):
                obj: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
                who = obj.get("user_id", obj.get("user"))
                if who is not None and who != self.user_id and isinstance(obj.get("name"), str):
                    found.add(obj["name"])
                for item in obj.values():
                    walk(item)

        walk(data)
        return found

    def _summary(self, data: dict[str, Any], former: str) -> None:
        """A table's last deal summary names its seats in order: the member's seat's name."""
        seats, summary = data.get("seats"), data.get("summary")
        if not isinstance(seats, list) or not isinstance(summary, dict):
            return
        names = summary.get("names")  # pyright: ignore[reportUnknownMemberType]
        if not isinstance(names, list):
            return
        for i, seat in enumerate(seats):  # pyright: ignore[reportUnknownArgumentType]
            if isinstance(seat, dict) and seat.get("user_id") == self.user_id and i < len(names):  # pyright: ignore[reportUnknownMemberType]
                names[i] = former

    def _walk(self, value: Any, former: str, names: set[str]) -> Any:
        user, pseudonym = self.user_id, self.pseudonym
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return pseudonym if value == user else value
        if isinstance(value, str):
            if value in names:
                return former
            return value.replace(str(user), str(pseudonym))
        if isinstance(value, list):
            items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
            if len(items) == 2 and items[0] == user and isinstance(items[1], str):
                return [pseudonym, former]
            return [self._walk(item, former, names) for item in items]
        if isinstance(value, dict):
            data: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
            theirs = _is_theirs(data, user)
            out: dict[str, Any] = {}
            for key, item in data.items():
                if theirs and key == "name" and isinstance(item, str):
                    item = former
                elif theirs and key in _PERSONAL:
                    item = None
                out[str(pseudonym) if key == str(user) else key] = self._walk(item, former, names)
            return out
        return value

    def text(self, text: str, language: str | None) -> str:
        try:
            data = json.loads(text)
        except ValueError:
            return text.replace(str(self.user_id), str(self.pseudonym))
        return json.dumps(self.record(data, language), ensure_ascii=False, separators=(",", ":"))
