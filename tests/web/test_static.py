"""The web table's page as the package ships it (``bot/web/static``, built from ``web/`` by
``npm run build``): built from the source as it is now, its files named by their digests,
and in the package's data, so running the bot needs no Node."""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

from bot.web.app import INDEX, STATIC, STATIC_TYPES, digest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
SOURCE_FILES = ("build.mjs", "package.json", "package-lock.json", "tsconfig.json")
"""Besides everything under web/src: what the build reads (build.mjs says the same)."""
REBUILD = "the page's source changed without a rebuild: run `npm ci && npm run build` in web/"


def source_digest() -> str:
    """As build.mjs computes it: sha256 over each source file, by its path in web/ (sorted,
    with "/"): the path, a NUL, its bytes, a NUL."""
    paths = sorted(
        [p.relative_to(WEB).as_posix() for p in (WEB / "src").rglob("*") if p.is_file()]
        + list(SOURCE_FILES)
    )
    found = hashlib.sha256()
    for path in paths:
        found.update(path.encode("utf-8") + b"\0")
        found.update((WEB / path).read_bytes() + b"\0")
    return found.hexdigest()


def test_the_built_page_is_built_from_the_source_as_it_is() -> None:
    built = (STATIC / "SOURCE_SHA256").read_text(encoding="ascii").strip()
    assert built == source_digest(), REBUILD


def test_the_page_names_its_files_by_their_digests() -> None:
    page = (STATIC / INDEX).read_text(encoding="utf-8")
    named = dict(re.findall(r'/static/([\w.]+)\?v=([0-9a-f]{16})"', page))
    assert set(named) == set(STATIC_TYPES)
    for name, version in named.items():
        assert version == digest((STATIC / name).read_bytes()), REBUILD


def test_the_built_files_are_the_sources_own() -> None:
    assert (STATIC / "table.css").read_bytes() == (WEB / "src" / "table.css").read_bytes()
    script = (STATIC / "table.js").read_text(encoding="utf-8")
    assert script.count("\n") < len(script) / 2000, "minified"
    assert "import " not in script[:200], "bundled: nothing left to import"


def test_the_package_ships_the_page() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = pyproject["tool"]["setuptools"]["package-data"]["bot.web"]
    for name in (INDEX, *STATIC_TYPES):
        assert any(Path("static", name).match(pattern) for pattern in shipped), name
        assert (STATIC / name).is_file()


def test_the_lock_pins_what_the_page_is_built_with() -> None:
    lock = (WEB / "package-lock.json").read_text(encoding="utf-8")
    assert '"node_modules/@discord/embedded-app-sdk"' in lock
    assert '"node_modules/esbuild"' in lock
