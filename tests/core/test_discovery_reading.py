"""Reading a module's docstring and ``HELP`` without running it, and without the
per-interpreter ``ast`` state that made a CI run fail when another thread parsed at the
same moment."""

from __future__ import annotations

import ast
import threading
import time

from raceday.cli._tools import discover_tools
from raceday.core.discovery import constant_text, discover, module_docstring

SOURCE = '''"""First line.

    Second paragraph, indented like a real docstring.
"""

from __future__ import annotations

HELP = ("Play a game " "in two parts.")
NUMBER = 3
BUILT = "x".join(["a", "b"])
HELP = "a second assignment is ignored"


def f() -> None:
    HIDDEN = "inside a function"
'''


def test_the_docstring_is_cleaned_like_ast_reads_it() -> None:
    assert module_docstring(SOURCE) == ast.get_docstring(ast.parse(SOURCE))
    cleaned = "First line.\n\nSecond paragraph, indented like a real docstring."
    assert module_docstring(SOURCE) == cleaned


def test_a_module_without_a_docstring_has_none() -> None:
    assert module_docstring("X = 1\n") is None
    assert module_docstring('X = "not a docstring"\n') is None


def test_constant_text_reads_only_module_level_string_literals() -> None:
    assert constant_text(SOURCE, "HELP") == "Play a game in two parts."
    assert constant_text(SOURCE, "NUMBER") is None
    assert constant_text(SOURCE, "BUILT") is None
    assert constant_text(SOURCE, "HIDDEN") is None
    assert constant_text(SOURCE, "MISSING") is None


def test_reading_never_runs_the_module() -> None:
    source = 'import sys\nsys.exit("ran")\nHELP = "still read"\n'
    assert constant_text(source, "HELP") == "still read"


class _Litter:
    """Cyclic garbage whose finaliser yields the GIL, so the collector hands the thread
    over in the middle of a parse, as a server's garbage did in the failing CI run."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        time.sleep(0)


def test_discovery_holds_while_another_thread_parses() -> None:
    """Another thread runs ``ast.parse`` without pause (bounded to 400 rounds) while this
    one makes litter and discovers tools and games 30 times; each answer must equal the
    quiet one. (With ``ast.parse`` in place of the bytecode reading, this failed 7 times
    in 300 rounds here.)"""
    quiet_tools, quiet_games = discover_tools(), discover()
    big = SOURCE * 40
    stop = threading.Event()

    def parse_forever() -> None:
        for _ in range(400):
            if stop.is_set():
                return
            ast.parse(big)

    other = threading.Thread(target=parse_forever, daemon=True)
    other.start()
    try:
        for _ in range(30):
            for _ in range(50):
                _Litter()
            assert discover_tools() == quiet_tools
            assert discover() == quiet_games
    finally:
        stop.set()
        other.join(timeout=120)
