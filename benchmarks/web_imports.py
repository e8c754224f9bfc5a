"""How often the Discord side (``cogs/``) imports the card table's server (``bot.web``) for
anything but starting it: the words they share live in ``bot.words``.

Every module under ``cogs/`` is parsed (nothing is imported) and each import of ``bot.web``
or a module under it is counted, but for ``bot.web.server`` and ``bot.web.relay``, which
``cogs/tables/commands.py`` starts beside the bot. Run: ``python benchmarks/web_imports.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.words.test_home import cogs_web_imports  # noqa: E402


def main() -> None:
    found = cogs_web_imports()
    for i in found:
        print(f"  {i.path}:{i.line}: imports {i.module}")
    print(f"cogs importing bot.web for anything but starting the server: {len(found)}")


if __name__ == "__main__":
    main()
