"""Which games exist, found without importing them (so the CLI starts fast)."""

from __future__ import annotations

import dis
import importlib
import importlib.machinery
import importlib.util
import os
import pkgutil
import re
from functools import cache
from inspect import cleandoc
from pathlib import Path
from types import CodeType, ModuleType

ENTRY_POINT_GROUP = "raceday.games"
"""Games outside raceday register here: ``name = "package.module"`` (the game's package)."""

GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")

FACES = ("cli", "room", "watch", "adapter", "printing", "numbers", "replay", "warm",
         "picture", "record_convert")
"""The modules a game package may carry beside its engine, found by these names: ``cli``
(its ``raceday <game>`` commands), ``room`` (its browser room declaration), ``watch`` (its
own browser pages and their API: a FastAPI ``router`` the app mounts), ``adapter``
(its research adapter), ``printing`` (its print parts), ``numbers`` (its browser
simulation jobs), ``replay`` (reading its saved sessions and old room events for
replays, :mod:`raceday.present.replay`), ``warm`` (its compiled engines for ``raceday
warm-up``, ``ENGINES``) and ``picture`` (a state drawn as plain text, ``text_picture``,
:func:`raceday.present.pictures.text_picture`) and ``record_convert`` (``convert``: its
saves from before records read as records, :mod:`raceday.store.converters`). Its browser
assets live in the folder ``static/`` and its words in ``messages/<lang>.json``."""


@cache
def _built_in_folders() -> dict[str, Path]:
    """The import name of each package under ``raceday.games`` → its folder."""
    games_spec = importlib.util.find_spec("raceday.games")  # found, not imported: the core
    folders = list(games_spec.submodule_search_locations or []) if games_spec else []
    found: dict[str, Path] = {}
    for folder in folders:
        for info in pkgutil.iter_modules([folder]):
            if info.ispkg and (Path(folder) / info.name / "__init__.py").is_file():
                found.setdefault(f"raceday.games.{info.name}", Path(folder) / info.name)
    return found


@cache
def game_packages() -> dict[str, str]:
    """Game name → the import name of its package: every package under ``raceday.games``,
    then every entry point of the group :data:`ENTRY_POINT_GROUP` (found without
    importing any game). A name already taken by a built-in game is ignored."""
    found = {module.rpartition(".")[2]: module for module in _built_in_folders()}
    if _may_declare_games():
        from importlib.metadata import entry_points

        for point in entry_points(group=ENTRY_POINT_GROUP):
            if GAME_NAME.fullmatch(point.name) and point.name not in found:
                found[point.name] = point.value.split(":")[0].strip()
    return dict(sorted(found.items()))


def _may_declare_games() -> bool:
    """False only when no installed distribution can declare an entry point of the group
    :data:`ENTRY_POINT_GROUP`: no ``entry_points.txt`` in a ``*.dist-info`` or
    ``*.egg-info`` folder on ``sys.path`` names it, no entry of ``sys.path`` is a file (a
    zip), no import hook finds distributions its own way. Then importlib.metadata, a
    fifth of the start-up of ``raceday --help``, is not imported at all."""
    import sys
    from importlib.machinery import PathFinder

    if any(hasattr(finder, "find_distributions") and finder is not PathFinder
           for finder in sys.meta_path):
        return True
    marker = f"[{ENTRY_POINT_GROUP}]".encode()
    for entry in sys.path:
        folder = Path(entry or ".")
        if not folder.is_dir():
            if folder.exists():
                return True
            continue
        for name in os.listdir(folder):
            if name.endswith((".dist-info", ".egg-info")):
                points = folder / name / "entry_points.txt"
                if points.is_file() and marker in points.read_bytes():
                    return True
    return False


def package_folder(game: str) -> Path | None:
    """The folder of ``game``'s package (found without importing it), or None."""
    module = game_packages().get(game)
    if module is None:
        return None
    built_in = _built_in_folders().get(module)
    if built_in is not None:  # no find_spec: it would import raceday.games, and its words
        return built_in
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def has_face(game: str, face: str) -> bool:
    """True if ``game``'s package has the module ``face`` (see :data:`FACES`)."""
    folder = package_folder(game)
    return folder is not None and (
        (folder / f"{face}.py").is_file() or (folder / face / "__init__.py").is_file())


def face(game: str, face_name: str) -> ModuleType | None:
    """Import and return ``game``'s module ``face_name`` (e.g. ``"room"``), or None when the
    game has no such face. The caller decides what a missing face means."""
    if not has_face(game, face_name):
        return None
    return importlib.import_module(f"{game_packages()[game]}.{face_name}")


def games_with(face_name: str) -> list[str]:
    """The names of the games whose package carries ``face_name``, sorted."""
    return [game for game in game_packages() if has_face(game, face_name)]


def asset_folder(game: str, kind: str) -> Path | None:
    """``game``'s folder ``static`` (browser assets) or ``messages`` (message tables)."""
    folder = package_folder(game)
    if folder is None or not (folder / kind).is_dir():
        return None
    return folder / kind


def discover(with_module: str | None = None) -> dict[str, str]:
    """Game name → one-line summary from each game package's docstring, without imports;
    with ``with_module``, only games that have that module (e.g. ``"cli"``)."""
    found: dict[str, str] = {}
    for name in game_packages():
        package = package_folder(name)
        if package is None or not (package / "__init__.py").is_file():
            continue
        if with_module and not has_face(name, with_module):
            continue
        found[name] = package_summary(name) or name
    return found


def package_summary(game: str) -> str | None:
    """The first paragraph of ``game``'s package docstring on one line (read, not
    imported); None for a name that is no game package or a package without one."""
    package = package_folder(game)
    if package is None or not (package / "__init__.py").is_file():
        return None
    doc = (module_docstring(package / "__init__.py") or "").strip()
    return " ".join(doc.split("\n\n")[0].split()) or None


# Sources are compiled to bytecode and read, never run, and never turned into ``ast``
# objects: CPython 3.11 keeps ``ast.parse``'s depth counter per interpreter, so a parse on
# another thread at the same moment fails ours with "AST constructor recursion depth
# mismatch" (gh-106905).
def _module_constants(source: str | Path) -> dict[str, object]:
    """Names bound at module level to a constant (``NAME = "literal"``) in ``source``:
    source text, or a module's file (its cached bytecode read where it is up to date, as
    an import would, so listing the commands compiles nothing twice)."""
    code: CodeType | None
    if isinstance(source, Path):
        loader = importlib.machinery.SourceFileLoader("<discovery>", str(source))
        code = loader.get_code("<discovery>")
    else:
        code = compile(source, "<discovery>", "exec", dont_inherit=True)
    if code is None:
        return {}
    found: dict[str, object] = {}
    loaded: object = None
    have_constant = False
    for instruction in dis.get_instructions(code):
        if instruction.opname == "LOAD_CONST":
            loaded, have_constant = instruction.argval, True
            continue
        if instruction.opname == "STORE_NAME" and have_constant:
            found.setdefault(str(instruction.argval), loaded)
        have_constant = False
    return found


def module_docstring(source: str | Path) -> str | None:
    """The docstring of the module ``source`` (its text or its file), cleaned like
    :func:`inspect.getdoc`."""
    doc = _module_constants(source).get("__doc__")
    return cleandoc(doc) if isinstance(doc, str) else None


def constant_text(source: str | Path, name: str) -> str | None:
    """The string assigned to ``name`` at module level in ``source`` (its text or its
    file; compiled, not run)."""
    value = _module_constants(source).get(name)
    return value if isinstance(value, str) else None


def agents_module(game: str) -> ModuleType | None:
    """``game``'s module ``agents`` (its ``make_agent``, ``LEVELS``), or None."""
    package = game_packages().get(game)
    try:
        return importlib.import_module(f"{package}.agents") if package else None
    except ImportError:
        return None
