"""Each folder imports only what DESIGN.md's "Rooms" table allows, read from the source.

Every module under bot/ and cogs/ is parsed with ``ast`` (nothing is imported), so a rule
holds for every import: at the top, inside a function, or under ``TYPE_CHECKING``. Besides
the table, four rules hold across the tree: discord is imported only by the Discord side,
nothing under bot/ imports cogs, there is no SQL outside bot/storage, and nothing calls the
global ``random`` (DESIGN.md, principle 2: randomness is an input).
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = "the standard library"

# ------------------------------------------------------------------------ the source


@dataclass(frozen=True)
class Import:
    path: str  # relative to the repository root, with forward slashes
    line: int
    module: str  # absolute: relative imports resolved, ``from p import m`` read as p.m


@dataclass(frozen=True)
class Module:
    path: str
    name: str  # the dotted name: bot.tables.service, cogs, bot.__main__
    tree: ast.Module


def _name_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def modules() -> tuple[Module, ...]:
    found = []
    for top in ("bot", "cogs"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            found.append(Module(path.relative_to(ROOT).as_posix(), _name_of(path), tree))
    return tuple(found)


@functools.cache
def _known_module_names() -> frozenset[str]:
    return frozenset(m.name for m in modules())


def _package_of(module: Module) -> str:
    is_package = module.path.endswith("/__init__.py")
    return module.name if is_package else module.name.rpartition(".")[0]


def imports_of(module: Module) -> list[Import]:
    found = []
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            found += [Import(module.path, node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package_of(module).split(".")
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, base] if base else package)
            for alias in node.names:
                # ``from bot import sandbox`` imports the module bot.sandbox
                candidate = f"{base}.{alias.name}"
                name = candidate if candidate in _known_module_names() else base
                found.append(Import(module.path, node.lineno, name))
    return found


@functools.cache
def all_imports() -> tuple[Import, ...]:
    return tuple(i for m in modules() for i in imports_of(m))


# ------------------------------------------------------------------------- the rooms

ROOMS = {
    "bot/engine": "bot.engine",
    "bot/ai": "bot.ai",
    "bot/tables": "bot.tables",
    "bot/storage": "bot.storage",
    "bot/render": "bot.render",
    "bot/i18n": "bot.i18n",
    "bot/sandbox": "bot.sandbox",
    "bot/web": "bot.web",
    "bot/words": "bot.words",
    "bot/metrics": "bot.metrics",
    "cogs": "cogs",
}


def room_of(module: str) -> str:
    """Where an imported module lives: a room of this project, the standard library, or a
    third-party distribution's top-level name (discord, aiosqlite, PIL, dotenv, ...)."""
    for room, package in ROOMS.items():
        if module == package or module.startswith(package + "."):
            return room
    top = module.partition(".")[0]
    if top == "bot":
        return module.replace(".", "/") + ".py" if module != "bot" else "bot/__init__.py"
    if top in sys.stdlib_module_names:
        return STDLIB
    return top


BOT_ROOMS = (
    "bot/engine",
    "bot/ai",
    "bot/tables",
    "bot/storage",
    "bot/render",
    "bot/i18n",
    "bot/words",
    "bot/metrics",
)
TOP_FILES = ("bot/__init__.py", "bot/config.py", "bot/client.py", "bot/__main__.py", "bot/app.py")


@dataclass(frozen=True)
class Room:
    where: str  # a folder, or one file
    may_import: tuple[str, ...]  # rooms, files of bot/, third-party top-level names

    def holds(self, path: str) -> bool:
        return path == self.where or path.startswith(self.where + "/")


# DESIGN.md, "Rooms": who may import what. A room may always import itself and the
# standard library.
TABLE = [
    Room("bot/engine", ()),
    Room("bot/ai", ("bot/engine", "numpy")),  # the policy network's inference
    # ratings (openskill); the figures a table records (a save, a robot's thinking)
    Room("bot/tables", ("bot/engine", "bot/ai", "bot/storage", "bot/metrics", "openskill")),
    Room("bot/storage", ("aiosqlite", "asyncpg")),  # "the database drivers"
    Room("bot/render", ("bot/engine", "PIL")),
    Room("bot/i18n", ()),
    # the bot's figures and health: Prometheus's registry, served with aiohttp; no discord,
    # no database (what they read at a scrape they are handed)
    Room("bot/metrics", ("prometheus_client", "aiohttp")),
    # the words every presenter says the same (a card, a suit, a declaration's button, a
    # refusal, a hint): the catalog's sentences over the service's views
    Room("bot/words", ("bot/engine", "bot/tables", "bot/i18n", "bot/render")),
    # the web table's way in (its sessions, Discord's proof of who a player is) and, on
    # it, its app and sockets: the service's views over HTTP (aiohttp, discord.py's own),
    # and the page's card pictures, the bot's own
    Room("bot/web", ("bot/engine", "bot/tables", "bot/i18n", "bot/render", "bot/words", "aiohttp")),
    # "everything above but cogs": settings (python-dotenv), the commands.Bot subclass,
    # start-up (discord.py is the Discord side's; its own rule below says where).
    Room("bot/config.py", (*BOT_ROOMS, *TOP_FILES, "dotenv")),
    Room("bot/client.py", (*BOT_ROOMS, *TOP_FILES, "bot/web", "discord")),
    # the composition root: the one module of bot/ that knows the cogs (it builds their
    # presenter beside the service, once, before they load), and the bot's figures (aiohttp:
    # the trace that counts each answer Discord gives)
    Room("bot/app.py", (*BOT_ROOMS, *TOP_FILES, "bot/web", "cogs", "discord", "aiohttp")),
    # the entry point starts the sandbox too: `tute-bot --sandbox`
    Room("bot/__main__.py", (*BOT_ROOMS, *TOP_FILES, "bot/sandbox", "discord")),
    # `tute-bot --sandbox`: the real bot (not its cogs, which it loads by name) in SimCord,
    # and its card table in the browser; the newcomer's walk drives SimCord's page over
    # HTTP (aiohttp, discord.py's own), as the browser does
    Room(
        "bot/sandbox",
        (*BOT_ROOMS, *TOP_FILES, "bot/web", "discord", "simcord", "playwright", "aiohttp"),
    ),
    Room("cogs", (*BOT_ROOMS, *TOP_FILES, "bot/web", "discord")),  # "bot.*"
]

DISCORD_SIDE = ("cogs", "bot/client.py", "bot/app.py", "bot/sandbox")
"""Where ``discord`` may be imported: the adapter, the client, and the sandbox."""


def describe(room: Room) -> str:
    return ", ".join([STDLIB, *room.may_import]) if room.may_import else f"{STDLIB} only"


def room_breaks(room: Room) -> list[tuple[Import, str]]:
    allowed = {STDLIB, room.where, *room.may_import}
    return [
        (imp, target)
        for imp in all_imports()
        if room.holds(imp.path) and (target := room_of(imp.module)) not in allowed
    ]


def discord_breaks() -> list[Import]:
    return [
        imp
        for imp in all_imports()
        if imp.module.partition(".")[0] == "discord"
        and not any(imp.path == w or imp.path.startswith(w + "/") for w in DISCORD_SIDE)
    ]


def _report(title: str, lines: list[str]) -> str:
    return f"{title}:\n  " + "\n  ".join(lines)


@pytest.mark.parametrize("room", TABLE, ids=[r.where for r in TABLE])
def test_a_room_imports_only_what_design_allows(room: Room) -> None:
    breaks = [
        f"{imp.path}:{imp.line}: imports {imp.module}"
        + (f" ({target})" if target != imp.module else "")
        for imp, target in room_breaks(room)
    ]
    assert breaks == [], _report(f"{room.where} may import {describe(room)}, but", breaks)


def test_every_room_of_the_table_has_modules() -> None:
    paths = [m.path for m in modules()]
    for room in TABLE:
        assert any(room.holds(p) for p in paths), f"no module under {room.where}"


def test_discord_is_imported_only_by_the_discord_side() -> None:
    breaks = [f"{imp.path}:{imp.line}: imports {imp.module}" for imp in discord_breaks()]
    assert breaks == [], _report(f"discord is for {', '.join(DISCORD_SIDE)} only, but", breaks)


COMPOSITION_ROOT = "bot/app.py"
"""Where everything is built once, in order, at the start: it builds the cogs' presenter."""


def test_nothing_under_bot_imports_the_cogs() -> None:
    # The client finds the cogs' extension names on disk and loads them by name
    # (bot.client.cog_module_names); only the composition root knows them otherwise.
    breaks = [
        f"{imp.path}:{imp.line}: imports {imp.module}"
        for imp in all_imports()
        if imp.path.startswith("bot/")
        and imp.path != COMPOSITION_ROOT
        and room_of(imp.module) == "cogs"
    ]
    assert breaks == [], _report("the cogs import bot, not the reverse, but", breaks)


# ------------------------------------------------------------------- SQL and random

SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE)\b.*\b(FROM|INTO|SET)\b", re.DOTALL)


def sql_literals(module: Module) -> list[tuple[int, str]]:
    return [
        (node.lineno, node.value)
        for node in ast.walk(module.tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value)
    ]


def test_there_is_no_sql_outside_storage() -> None:
    breaks = [
        f"{m.path}:{line}: {text[:60]!r}"
        for m in modules()
        if not m.path.startswith("bot/storage/")
        for line, text in sql_literals(m)
    ]
    assert breaks == [], _report("SQL belongs in bot/storage's repository functions", breaks)


def test_the_sql_check_finds_the_sql_in_storage() -> None:
    """The pattern is not dead: it matches the repository functions' own queries."""
    in_storage = [m for m in modules() if m.path.startswith("bot/storage/") and sql_literals(m)]
    assert len(in_storage) >= 2


RANDOM_INSTANCES = {"Random", "SystemRandom"}
"""What may be taken from the random module: a generator of one's own, seeded or not."""


def global_random_uses(tree: ast.Module) -> list[tuple[int, str]]:
    """Calls to (or imports of) the global random module's functions: random.choice(...),
    ``from random import shuffle``, ``import random as r; r.random()``."""
    names = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "random"
    }
    uses = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random" and not node.level:
            uses += [
                (node.lineno, f"from random import {alias.name}")
                for alias in node.names
                if alias.name not in RANDOM_INSTANCES
            ]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in names
            and node.attr not in RANDOM_INSTANCES
        ):
            uses.append((node.lineno, f"{node.value.id}.{node.attr}"))
    return uses


@pytest.mark.parametrize(
    ("source", "uses"),
    [
        ("import random\nrng = random.Random(7)\nrng.choice([1])", []),
        ("import random\ndef f(rng: random.Random) -> None: ...", []),
        ("from random import Random\nRandom(1).shuffle([])", []),
        ("import random\nrandom.choice([1])", ["random.choice"]),
        ("import random as r\nr.shuffle([])", ["r.shuffle"]),
        ("import random\nrandom.seed(1)", ["random.seed"]),
        ("from random import randint", ["from random import randint"]),
    ],
)
def test_the_random_check_tells_the_global_module_from_an_instance(
    source: str, uses: list[str]
) -> None:
    assert [use for _, use in global_random_uses(ast.parse(source))] == uses


def test_nothing_calls_the_global_random() -> None:
    breaks = [
        f"{m.path}:{line}: {use}" for m in modules() for line, use in global_random_uses(m.tree)
    ]
    assert breaks == [], _report(
        "randomness is an input (a seed or a random.Random passed in), but", breaks
    )


# ------------------------------------------------------------- the cogs see views only

HIDDEN_NAMES = frozenset({"Deal", "DealtCards", "Table", "SeatView", "seat_view", "determinize"})
"""What holds every hand: the deal's full state, the service's table, a seat's view (for the
robots). The cogs render ``bot.tables.views`` instead (DESIGN.md, principle 5)."""
HIDDEN_ATTRIBUTES = frozenset({"round", "legal_actions", "game", "deal_rng"})


def hidden_reaches(module: Module) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot"):
            found += [
                (node.lineno, f"imports {alias.name}")
                for alias in node.names
                if alias.name in HIDDEN_NAMES
            ]
        elif isinstance(node, ast.Attribute) and node.attr in HIDDEN_ATTRIBUTES:
            found.append((node.lineno, f".{node.attr}"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "service"
        ):
            found.append((node.lineno, "service.get(...) (the table itself)"))
    return found


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from bot.tables.views import TableView", []),
        ("from bot.engine import Deal", ["imports Deal"]),
        ("from bot.tables.model import Status, Table", ["imports Table"]),
        ("x = table.round.hands", [".round"]),
        ("table = service.get(1)", ["service.get(...) (the table itself)"]),
        ("settings = {}.get(1)", []),
    ],
)
def test_the_hand_check_finds_what_holds_every_hand(source: str, found: list[str]) -> None:
    module = Module("cogs/x.py", "cogs.x", ast.parse(source))
    assert [what for _, what in hidden_reaches(module)] == found


def test_the_cogs_reach_no_hand_but_through_the_views() -> None:
    breaks = [
        f"{m.path}:{line}: {what}"
        for m in modules()
        if m.path.startswith("cogs/")
        for line, what in hidden_reaches(m)
    ]
    assert breaks == [], _report("the cogs render bot.tables.views only, but", breaks)


# ---------------------------------------------------------------- cycles and sizes

LONGEST = 500
"""Lines a module may have at most: past that, it holds more than one concern."""


def package_graph() -> dict[str, set[str]]:
    """Each module -> the modules of its own package it imports (TYPE_CHECKING ones too)."""
    known = _known_module_names()
    graph: dict[str, set[str]] = {m.name: set() for m in modules()}
    packages = {m.name: _package_of(m) for m in modules()}
    by_path = {m.path: m.name for m in modules()}
    for found in all_imports():
        source = by_path[found.path]
        target = found.module
        while target not in known and "." in target:
            target = target.rpartition(".")[0]  # ``from p.m import name``: the module p.m
        if target in known and target != source and packages[target] == packages[source]:
            graph[source].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another, round (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert cycles(graph) == [["p.a", "p.b", "p.c"]]
    assert cycles({"p.a": {"p.b"}, "p.b": set()}) == []


def test_no_package_has_an_import_cycle() -> None:
    """Inside each package, its modules import one another one way only: a module can be
    read (and tested) knowing only those below it."""
    assert cycles(package_graph()) == []


LONGEST_CHAIN = 10
"""Modules in the longest chain of imports among bot/tables' own modules (issue #42): past
that, a change near the bottom reaches too far up, and a module is read knowing too much."""


def table_modules(graph: dict[str, set[str]]) -> set[str]:
    """The modules of bot/tables itself (its subpackages count as one module each)."""
    return {n for n in graph if n.startswith("bot.tables.") and n.count(".") == 2}


def longest_chain(graph: dict[str, set[str]], among: set[str]) -> list[str]:
    """The longest chain of imports (a imports b imports c ...) through the modules
    ``among``; the first of the longest in name order. An import that closes a cycle is not
    followed (``test_no_package_has_an_import_cycle`` tells of it)."""
    found: dict[str, tuple[str, ...]] = {}
    visiting: set[str] = set()

    def longest(node: str) -> tuple[str, ...]:
        if node not in found:
            visiting.add(node)
            best: tuple[str, ...] = (node,)
            for nxt in sorted(graph[node] & among - visiting):
                below = longest(nxt)
                if len(below) + 1 > len(best):
                    best = (node, *below)
            visiting.discard(node)
            found[node] = best
        return found[node]

    return list(max((longest(n) for n in sorted(among)), key=len, default=()))


def test_the_chain_check_finds_the_longest_chain() -> None:
    graph = {"p.a": {"p.b", "p.c"}, "p.b": {"p.c"}, "p.c": {"p.d"}, "p.d": set(), "p.e": set()}
    assert longest_chain(graph, set(graph)) == ["p.a", "p.b", "p.c", "p.d"]
    assert longest_chain(graph, {"p.a", "p.c", "p.e"}) == ["p.a", "p.c"]
    assert longest_chain({"p.a": {"p.b"}, "p.b": {"p.a"}}, {"p.a", "p.b"}) == ["p.a", "p.b"]


def test_the_table_concern_chains_at_most_10_modules() -> None:
    """A chain of imports inside bot/tables (daily -> service -> opening -> core -> ...)
    is at most ``LONGEST_CHAIN`` modules long: what a module stands on is few layers deep."""
    graph = package_graph()
    chain = longest_chain(graph, table_modules(graph))
    assert len(chain) <= LONGEST_CHAIN, (
        f"the longest chain of imports inside bot/tables is {len(chain)} modules, more than "
        f"{LONGEST_CHAIN}:\n  " + " -> ".join(name.rsplit(".", 1)[1] for name in chain)
    )


def test_no_room_is_over_500_lines() -> None:
    long = sorted(
        f"{m.path}: {n} lines"
        for m in modules()
        if (n := len((ROOT / m.path).read_text(encoding="utf-8").splitlines())) > LONGEST
    )
    assert not long, _report(f"modules over {LONGEST} lines", long)


def test_the_table_concern_knows_nothing_of_what_stands_on_it() -> None:
    """bot/tables itself (a table's life) imports neither ``competition`` nor ``cluster``,
    which stand on it: each can be read, tested and changed above it."""
    above = ("bot.tables.competition", "bot.tables.cluster")
    breaks = sorted(
        f"{i.path}:{i.line} imports {i.module}"
        for i in all_imports()
        if i.path.startswith("bot/tables/")
        and i.path.count("/") == 2
        and i.module.startswith(above)
    )
    assert not breaks, _report("the table concern reaches above itself", breaks)
