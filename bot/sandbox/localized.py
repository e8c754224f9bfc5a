"""The slash commands in the page's language, as a Discord client in that language shows
them: the bot declares every name, description and choice in Spanish too (its app-command
translator), and a Spanish client lists ``/tute nueva`` where an English one lists
``/tute new``.

SimCord 3.2's page lists the commands' own names whatever its locale. This reaches into its
internals (each place says so): the page's list of commands is rewritten in the page's
locale, and a command run from the page has its options named back as the bot declared them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from simcord.preview import _commands as simcord_commands


def localized(spec: Mapping[str, Any], field: str, locale: str) -> str:
    """A command's, an option's or a choice's ``field`` (name, description) as a client in
    ``locale`` shows it: its localization, else the field itself."""
    found = (spec.get(f"{field}_localizations") or {}).get(locale)
    return str(found or spec.get(field, ""))


def _leaf_of(command: Mapping[str, Any], path: list[str]) -> list[Mapping[str, Any]]:
    """The command and each subcommand (group) down ``path``, its names as declared."""
    chain: list[Mapping[str, Any]] = [command]
    for part in path[1:]:
        chain.append(next(o for o in chain[-1].get("options") or [] if o.get("name") == part))
    return chain


def _localize_entry(entry: dict[str, Any], command: Mapping[str, Any], locale: str) -> None:
    chain = _leaf_of(command, entry["path"])
    leaf = chain[-1]
    # What the page shows; the path (what it sends back) stays as declared.
    entry["invocation"] = " ".join(localized(node, "name", locale) for node in chain)
    entry["description"] = localized(leaf, "description", locale)
    declared = {str(o.get("name")): o for o in leaf.get("options") or []}
    for wire in entry["options"]:
        option = declared.get(wire["name"])
        if option is None:
            continue
        wire["name"] = localized(option, "name", locale)
        wire["description"] = localized(option, "description", locale)
        for shown, choice in zip(wire["choices"], option.get("choices") or [], strict=False):
            shown["name"] = localized(choice, "name", locale)


def show_commands_in(locale: str) -> Callable[[], None]:
    """The page lists the commands, their options and choices in ``locale``. Returns what
    undoes it.

    SimCord internals: each publication of a page builds its list of commands with
    ``_commands.build_catalog`` (looked up at each publication), from the commands as the
    bot synced them, localizations included."""
    build = simcord_commands.build_catalog

    def build_localized(preview: Any, page: Any) -> dict[str, Any]:
        catalog = build(preview, page)
        visible = preview.env.backend.visible_commands(
            user_id=page.viewer.id, channel_id=page.channel_id
        )
        commands = {str(c.get("id")): c for c in visible}
        for entry in catalog.get("entries", []):
            command = commands.get(entry["commandId"])
            if command is not None:
                _localize_entry(entry, command, locale)
        return catalog

    simcord_commands.build_catalog = build_localized

    def undo() -> None:
        simcord_commands.build_catalog = build

    return undo


def options_as_declared(preview: Any, page: Any, body: Any, locale: str) -> Any:
    """A command run from the page, its options named as the bot declared them (the page
    names them as it lists them, in ``locale``).

    SimCord internals: the page sends a command as ``command_id``, ``path`` (as declared)
    and ``options`` keyed by the names it showed."""
    if not isinstance(body, dict) or body.get("kind") not in (
        "run_command",
        "autocomplete_command",
    ):
        return body
    options, path = body.get("options"), body.get("path")
    if page is None or not isinstance(options, dict) or not isinstance(path, list):
        return body
    try:
        visible = preview.env.backend.visible_commands(
            user_id=page.viewer.id, channel_id=page.channel_id
        )
        command = next(c for c in visible if str(c.get("id")) == body.get("command_id"))
        leaf = _leaf_of(command, [str(p) for p in path])[-1]
    except (StopIteration, LookupError, AttributeError):
        return body  # SimCord refuses it itself
    names = {localized(o, "name", locale): str(o.get("name")) for o in leaf.get("options") or []}
    renamed = {names.get(str(k), str(k)): v for k, v in options.items()}
    focused = body.get("focused")
    if isinstance(focused, str):
        return {**body, "options": renamed, "focused": names.get(focused, focused)}
    return {**body, "options": renamed}
