"""The way out of a table and how the bot is assembled, read from the source (nothing is
imported but the layers' own parser): the figures of "one door out, one root".

- the places that decide to show a change: functions that call a presenter's ``refresh``
  or ``table_lost`` with what to show (a presenter showing itself again is its own
  business), or the helper that did (``show_everywhere``);
- assignments to a ``presenter`` or ``presenters`` attribute outside the table service's
  constructor;
- the bot's collaborators typed ``... | None`` or ``object``;
- reads of the table service's ``sleep``, ``db``, ``redraw`` or ``clock`` by the cogs;
- the tests that patch ``secrets`` or a module of the table service (they build a runtime);
- the longest chain of imports among the modules of ``bot/tables`` itself.

Run: ``python benchmarks/doors.py``.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_layers import (  # noqa: E402
    Module,
    longest_chain,
    modules,
    package_graph,
    table_modules,
)

SHOW_CALLS = {"refresh", "table_lost"}
SHOW_HELPERS = {"show_everywhere"}
SERVICE_NAMES = {"service", "tables", "front_service"}
BORROWED = {"sleep", "db", "redraw", "clock"}
PRESENTERS = {"DiscordPresenter", "Sockets", "TableHub", "Presenters"}
"""Classes that present (their own ``self.refresh`` is a presenter showing itself again)."""


def _functions(tree: ast.AST) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function with the class it is defined in ("" outside a class)."""

    def walk(
        node: ast.AST, owner: str
    ) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                yield from walk(child, child.name)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield owner, child
                yield from walk(child, owner)
            else:
                yield from walk(child, owner)

    yield from walk(tree, "")


def deciders(found: tuple[Module, ...]) -> list[str]:
    sites: list[str] = []
    for module in found:
        for owner, function in _functions(module.tree):
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                shows = (
                    isinstance(func, ast.Attribute)
                    and func.attr in SHOW_CALLS
                    and bool(node.args)  # a change or a lost table to show
                    and not (
                        owner in PRESENTERS
                        and isinstance(func.value, ast.Name)
                        and func.value.id == "self"
                    )
                )
                helper = (isinstance(func, ast.Name) and func.id in SHOW_HELPERS) or (
                    isinstance(func, ast.Attribute) and func.attr in SHOW_HELPERS
                )
                if shows or helper:
                    sites.append(f"{module.path}:{function.lineno} {owner}.{function.name}")
                    break
    return sorted(set(sites))


def presenter_assignments(found: tuple[Module, ...]) -> list[str]:
    sites = []
    for module in found:
        for owner, function in _functions(module.tree):
            if owner == "TableService" and function.name == "__init__":
                continue
            for node in ast.walk(function):
                if not isinstance(node, ast.Assign):
                    continue
                for target in node.targets:
                    if isinstance(target, ast.Attribute) and target.attr in {
                        "presenter",
                        "presenters",
                    }:
                        sites.append(f"{module.path}:{node.lineno}")
    return sites


def loose_collaborators(found: tuple[Module, ...]) -> list[str]:
    """Annotated attributes of the bot's classes (``TuteBot``, ``TuteApp``) that may be None
    or are typed ``object``."""
    sites = []
    for module in found:
        for node in ast.walk(module.tree):
            if not (isinstance(node, ast.ClassDef) and node.name in {"TuteBot", "TuteApp"}):
                continue
            for inner in ast.walk(node):
                if not isinstance(inner, ast.AnnAssign):
                    continue
                target = inner.target
                named = (isinstance(target, ast.Name)) or (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                )
                text = ast.unparse(inner.annotation)
                if named and ("None" in text or text == "object"):
                    sites.append(f"{module.path}:{inner.lineno} {ast.unparse(target)}: {text}")
    return sites


def _is_service(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in SERVICE_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in {"tables", "service"}
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in {"service_of", "_service_of"}
    return False


def borrowed(found: tuple[Module, ...]) -> list[str]:
    return [
        f"{module.path}:{node.lineno} .{node.attr}"
        for module in found
        if module.path.startswith("cogs/")
        for node in ast.walk(module.tree)
        if isinstance(node, ast.Attribute) and node.attr in BORROWED and _is_service(node.value)
    ]


def patching_tests() -> list[str]:
    sites = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            patched = "setattr(" in line or " = " in line
            if patched and (
                ("secrets" in line and ("randbits" in line or "token_hex" in line))
                or "service_module" in line
                or "daily_module" in line
            ):
                sites.append(f"{path.relative_to(ROOT)}:{number}")
    return sites


def report(title: str, sites: list[str]) -> None:
    print(f"{title}: {len(sites)}")
    for site in sites:
        print(f"    {site}")


def main() -> None:
    found = modules()
    report("places that decide to show a change, in bot/ and cogs/", deciders(found))
    report(
        "assignments to a presenter outside the service's constructor", presenter_assignments(found)
    )
    report("collaborators of the bot typed '| None' or 'object'", loose_collaborators(found))
    report("cogs reading the service's sleep, db, redraw or clock", borrowed(found))
    report("tests patching secrets or a module of the service", patching_tests())
    graph = package_graph()
    chain = longest_chain(graph, table_modules(graph))
    print(f"longest import chain inside bot/tables: {len(chain)} modules")
    print("    " + " -> ".join(name.rsplit(".", 1)[1] for name in chain))


if __name__ == "__main__":
    main()
