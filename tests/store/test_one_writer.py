"""One writer of saved games (issue #47): every saved game is a record written by
:func:`raceday.store.records.save_game`, so the source is read (with :mod:`ast`, not run)
for every other way to write one.

* ``SessionStore.save`` (a call of ``.save(...)`` on anything named a store, or on the
  ``SessionStore`` class) is called only in src/raceday/store/records.py;
* a session's document is written (``INSERT INTO sessions`` ...) only by
  src/raceday/store/sessions.py, the store itself;
* ``atomic_write_text`` (a file written whole) is used only where the list below says why:
  files of records a person asked for, never a game's save behind the store's back.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "raceday"

THE_WRITER = "raceday/store/records.py"
THE_STORE = "raceday/store/sessions.py"

ATOMIC_WRITERS = {
    "raceday/core/serialize.py": "where atomic_write_text is defined",
    "raceday/interop/arena.py": "raceday arena --save FILE: every match's record, one file",
    "raceday/cli/record.py": "raceday record export -o FILE: a record file asked for",
}

# SQL that writes a session's document (forgetting one, DELETE, writes none)
SESSIONS_SQL = re.compile(r"\b(INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE|REPLACE\s+INTO)"
                          r"\s+(sessions|session_log)\b", re.IGNORECASE)


def sources() -> Iterator[tuple[str, ast.Module, str]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        yield path.relative_to(SRC).as_posix(), ast.parse(text, str(path)), text


def _is_store(receiver: ast.expr) -> bool:
    """Whether a call's receiver is a session store: ``store``, ``self.store``,
    ``self._store``, ``writable_store(db)``, ``SessionStore`` (a room's store is not)."""
    if isinstance(receiver, ast.Call):
        receiver = receiver.func
    if isinstance(receiver, ast.Attribute):
        last = receiver.attr
    elif isinstance(receiver, ast.Name):
        last = receiver.id
    else:
        return False
    return "store" in last.lower() and "room" not in last.lower()


def store_saves(tree: ast.Module) -> list[int]:
    """The lines of ``tree`` that call ``.save(...)`` on a session store."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "save" and _is_store(node.func.value)]


def atomic_writes(tree: ast.Module) -> list[int]:
    """The lines of ``tree`` that name ``atomic_write_text`` (a call, an import, a def)."""
    name = "atomic_write_text"

    def names_it(node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id == name
        if isinstance(node, ast.Attribute):
            return node.attr == name
        if isinstance(node, ast.FunctionDef):
            return node.name == name
        if isinstance(node, ast.ImportFrom):
            return any(alias.name == name for alias in node.names)
        return False

    return [node.lineno for node in ast.walk(tree) if names_it(node)]  # type: ignore[attr-defined]


def test_the_scan_finds_what_it_looks_for() -> None:
    """The scan itself: a store's save is found however the store is reached, a room's
    and a picture's are not."""
    tree = ast.parse("store.save(g, n, d)\nself.store.save(g, n, d)\nself._store.save(1)\n"
                     "writable_store(db).save(g, n, d)\nSessionStore.save(s, g, n, d)\n"
                     "pdf.save()\nself.rooms_store.save(r)\nqr.save(out)\nself.save()\n")
    assert store_saves(tree) == [1, 2, 3, 4, 5]
    assert atomic_writes(ast.parse("from x import atomic_write_text\n"
                                   "atomic_write_text(p, t)\nserialize.atomic_write_text(p, t)\n"
                                   "write_text(p)\n")) == [1, 2, 3]
    assert SESSIONS_SQL.search("INSERT INTO sessions (game) VALUES (?)")
    assert not SESSIONS_SQL.search("INSERT INTO rooms (code) VALUES (?)")


def test_only_store_records_calls_session_store_save() -> None:
    found = {name: lines for name, tree, _ in sources() if name != THE_WRITER
             for lines in [store_saves(tree)] if lines}
    assert not found, ("a saved game is written only by raceday.store.records.save_game; "
                       f"these call SessionStore.save themselves: {found}")
    writer = {name: store_saves(tree) for name, tree, _ in sources() if name == THE_WRITER}
    assert writer[THE_WRITER], "store/records.py no longer writes through SessionStore.save"


def test_only_the_store_writes_the_sessions_table() -> None:
    found = [name for name, _, text in sources()
             if name != THE_STORE and SESSIONS_SQL.search(text)]
    assert not found, f"only the store writes the sessions table: {found}"


def test_atomic_write_text_is_used_only_where_the_list_says_why() -> None:
    found = {name: lines for name, tree, _ in sources()
             for lines in [atomic_writes(tree)] if lines}
    unlisted = {name: lines for name, lines in found.items() if name not in ATOMIC_WRITERS}
    assert not unlisted, ("atomic_write_text used outside the list (a game's save goes "
                          f"through store.records.save_game; a record file is listed): "
                          f"{unlisted}")
    stale = sorted(set(ATOMIC_WRITERS) - set(found))
    assert not stale, f"listed but no longer using atomic_write_text: {stale}"
