"""The top-level commands that are not games, found without importing them."""

from __future__ import annotations

import pkgutil
from pathlib import Path

from raceday.core.discovery import constant_text, module_docstring


def discover_tools() -> dict[str, str]:
    """Top-level commands that are not games (``raceday serve``, ...): every module of
    ``raceday.cli`` except the shared ones, named after the module, with its ``HELP``."""
    import raceday.cli as cli_pkg

    found: dict[str, str] = {}
    for folder in cli_pkg.__path__:
        for info in pkgutil.iter_modules([folder]):
            if info.ispkg or info.name in ("main",) or info.name.startswith("_"):
                continue
            source = Path(folder) / f"{info.name}.py"
            text = constant_text(source, "HELP") or module_docstring(source) or ""
            found[info.name.replace("_", "-")] = " ".join(text.split("\n\n")[0].split())
    return found
