"""Which games exist, found without importing them (so the CLI starts fast)."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path


def discover(with_module: str | None = None) -> dict[str, str]:
    """Game name → one-line summary from each game package's docstring, without imports;
    with ``with_module``, only games that have that module (e.g. ``"cli"``)."""
    import raceday.games as games_pkg

    found: dict[str, str] = {}
    for folder in games_pkg.__path__:
        for info in pkgutil.iter_modules([folder]):
            package = Path(folder) / info.name
            if not info.ispkg or not (package / "__init__.py").is_file():
                continue
            if with_module and not (package / f"{with_module}.py").is_file():
                continue
            source = (package / "__init__.py").read_text(encoding="utf-8")
            doc = (ast.get_docstring(ast.parse(source)) or info.name).strip()
            found[info.name] = " ".join(doc.split("\n\n")[0].split())
    return found
