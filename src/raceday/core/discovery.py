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


def constant_text(source: str, name: str) -> str | None:
    """The string assigned to ``name`` at module level in ``source`` (parsed, not run)."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                return None
            return value if isinstance(value, str) else None
    return None


def discover_tools() -> dict[str, str]:
    """Top-level commands that are not games (``raceday serve``, ...): every module of
    ``raceday.cli`` except the shared ones, named after the module, with its ``HELP``."""
    import raceday.cli as cli_pkg

    found: dict[str, str] = {}
    for folder in cli_pkg.__path__:
        for info in pkgutil.iter_modules([folder]):
            if info.ispkg or info.name in ("common", "main") or info.name.startswith("_"):
                continue
            source = (Path(folder) / f"{info.name}.py").read_text(encoding="utf-8")
            text = constant_text(source, "HELP") or ast.get_docstring(ast.parse(source)) or ""
            found[info.name.replace("_", "-")] = " ".join(text.split("\n\n")[0].split())
    return found
