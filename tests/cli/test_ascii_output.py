"""An output that cannot encode the boards (``LC_ALL=C PYTHONIOENCODING=ascii``, a latin-1
locale) gets the boards drawn in ASCII stand-ins, never a UnicodeEncodeError."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from raceday.terminal import common

ASCII_ENV = {"LC_ALL": "C", "PYTHONIOENCODING": "ascii"}


def _run(args: list[str], tmp_path: Path, env: dict[str, str] = ASCII_ENV,
         stdin: str = "") -> subprocess.CompletedProcess[bytes]:
    environ = {**os.environ, **env, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path),
               "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "raceday", *args], env=environ,
                          input=stdin.encode("ascii"), capture_output=True, timeout=300,
                          check=False)


COMMANDS = [
    ["keirin", "watch", "--seed", "2012", "--delay", "0"],
    ["derby", "watch", "--seed", "2016", "--delay", "0"],
    ["pistard", "watch", "--seed", "1", "--delay", "0", "--db", "{db}"],
    ["wielersim", "watch", "flanders", "classics", "--seed", "3", "--delay", "0"],
    ["hairpin", "show"],
    ["pistard", "track"],
    ["keirin", "odds"],  # the fast start leaves an ASCII output to the full command
    ["--help"],
    ["pistard", "--help"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_boards_draw_in_ascii_where_the_output_cannot_encode_them(
    tmp_path: Path, args: list[str]
) -> None:
    args = [a.replace("{db}", str(tmp_path / "s.sqlite")) for a in args]
    done = _run(args, tmp_path)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-2000:]
    assert done.stdout.strip(), "nothing was drawn"
    assert done.stdout.isascii()
    assert done.stderr.isascii()
    assert b"Traceback" not in done.stderr


def test_hairpin_board_at_a_prompt_is_ascii_and_keeps_its_columns(tmp_path: Path) -> None:
    done = _run(["hairpin", "play", "--black", "easy", "--seed", "1", "--delay", "0",
                 "--db", str(tmp_path / "s.sqlite")], tmp_path, stdin="1\nq\n")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-2000:]
    assert done.stdout.isascii() and done.stderr.isascii()
    out = done.stdout.decode("ascii")
    assert " < 3   .  " in out and " > 2   .  " in out  # arrows and dots, one column each
    rows = [line for line in out.splitlines() if line[:5] in (" < 3 ", " > 2 ", " < 1 ")]
    assert rows and {len(r.rstrip()) for r in rows} == {len(rows[0].rstrip())}


def test_a_latin_1_output_keeps_its_accents_and_replaces_only_the_glyphs(
    tmp_path: Path,
) -> None:
    done = _run(["keirin", "watch", "--seed", "2012", "--delay", "0"], tmp_path,
                env={"PYTHONIOENCODING": "latin-1"})
    assert done.returncode == 0, done.stderr.decode("latin-1")[-2000:]
    text = done.stdout.decode("latin-1")
    assert "KEIRIN - 9 riders" in text  # the em dash became a hyphen


def test_a_utf8_output_is_left_alone(tmp_path: Path) -> None:
    done = _run(["keirin", "watch", "--seed", "2012", "--delay", "0"], tmp_path,
                env={"PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0
    assert "KEIRIN — 9 riders" in done.stdout.decode("utf-8")


def test_stand_ins_are_ascii_and_board_glyphs_keep_their_width() -> None:
    for glyph in "┃╌·→←▀█●▶✗⚠─━│╭╮╰╯┼":
        stand_in = common.ascii_stand_in(glyph)
        assert stand_in.isascii() and len(stand_in) == 1, glyph
    assert common.ascii_stand_in("é") == "e"
    assert common.ascii_stand_in("\U0001f3c1") == "?"  # no ASCII reading: a question mark


def test_use_ascii_stand_ins_changes_only_streams_that_cannot_encode() -> None:
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    utf8_out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    common.use_ascii_stand_ins(ascii_out, utf8_out)
    assert ascii_out.errors == common.ASCII_ERRORS
    assert utf8_out.errors == "strict"
    ascii_out.write("R1 ┃ 6→+6 — é\n")
    ascii_out.flush()
    assert ascii_out.buffer.getvalue() == b"R1 | 6>+6 - e\n"  # type: ignore[attr-defined]
