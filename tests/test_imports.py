"""Every module imports, and the pure layers import nothing but the standard library."""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def module_names(package: str) -> list[str]:
    """The modules of a package, found from its files without importing any of them."""
    folder = ROOT.joinpath(*package.split("."))
    names = []
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if "__pycache__" in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def test_the_packages_have_modules() -> None:
    assert "bot.config" in module_names("bot")
    assert "cogs.tute" in module_names("cogs")


@pytest.mark.parametrize("name", module_names("bot") + module_names("cogs"))
def test_module_imports(name: str) -> None:
    importlib.import_module(name)


# Run in a fresh interpreter: this test process has imported discord long ago.
PURITY_CHECK = """
import importlib, sys
before = set(sys.modules)
for name in sys.argv[1:]:
    importlib.import_module(name)
allowed = set(sys.stdlib_module_names) | {"bot"}
loaded = {name.split(".")[0] for name in set(sys.modules) - before}
print(" ".join(sorted(loaded - allowed)))
"""


@pytest.mark.parametrize("package", ["bot.engine", "bot.i18n"])
def test_pure_package_imports_only_the_standard_library(package: str) -> None:
    modules = module_names(package)
    result = subprocess.run(
        [sys.executable, "-c", PURITY_CHECK, *modules],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    outside = result.stdout.split()
    assert "discord" not in outside
    assert "aiosqlite" not in outside
    assert outside == [], f"{package} imports {outside}, which are not in the standard library"
