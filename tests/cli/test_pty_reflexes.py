"""A shell user's reflexes in a real terminal (#43), as a person meets them: the installed
command runs in an 80×24 pseudo-terminal (``TERM=xterm-256color``), keys are written to it
as a keyboard would send them, and what it draws is read back.

* ``keirin play`` (its ticket prompt needs no compiled engine), in the full-screen view and
  with ``--plain``: typing ``undo`` and Enter is one undo (no "ndo" is answered, the same
  prompt is asked again); ``?`` and Enter shows the help and leaves the prompt open (in
  full screen an Enter right after it answers nothing either); Ctrl-C ends the command
  with exit code 130 and one line that says what was kept and how to resume.
* ``replay --plain`` at a terminal prints every step straight through and asks nothing,
  as its help says (stepping is the full-screen view's).

The pilot tests (tests/terminal/test_reflexes.py) drive the same view headless. Waits are on
what the terminal shows; the limits only guard against a hang."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from raceday.cli.main import run
from raceday.store.sessions import ReadOnlyStore
from tests.pty_terminal import ESCAPES, LEAVE_ALTERNATE_SCREEN, RACEDAY, Terminal

PROMPT = "Ann [10,000.00 left] ticket (Enter = done, help)"
NOTHING_TO_UNDO = "you have no ticket to take back"
HELP_SHOWN = "At any prompt: help or ?"
KEPT = ("interrupted: 0 settled races saved; the open betting on race 1 was withdrawn "
        "(no money moved); resume with: raceday keirin play --resume night")


def _keirin(db: Path, *more: str) -> Terminal:
    return Terminal([str(RACEDAY), "keirin", "play", "-p", "Ann", "--save", "night",
                     "--seed", "1", "--db", str(db), *more])


def _saved_races(db: Path) -> int:
    """How many races the saved night has settled."""
    from raceday.games.keirin.saved_night import BetSession

    return BetSession.load(ReadOnlyStore(db), "night").races


def test_keirin_full_screen_undo_help_and_ctrl_c_at_a_real_terminal(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    term = _keirin(db)
    assert term.read_until("type a ticket"), term.text[-600:]  # the view's status bar
    assert b"\x1b[?1049h" in term.output  # the alternate screen: the full-screen view

    mark = term.type("undo\r")
    assert term.read_until(NOTHING_TO_UNDO, mark), term.text[-600:]
    assert term.read_until(PROMPT, mark)  # the same question, asked again
    shown = term.text[mark:]
    assert "› undo" in shown  # the word was typed whole: one undo
    assert "ndo'" not in shown and "› ndo" not in shown  # no "ndo" was ever answered

    mark = term.type("?\r")
    assert term.read_until(HELP_SHOWN, mark), term.text[-600:]
    assert term.read_until(PROMPT, mark)
    term.type("\r")  # Enter right after the help answers nothing: no race is run
    term.type("\x03")  # Ctrl-C
    assert term.wait() == 130, term.text[-600:]
    after = term.output.decode("utf-8", "replace").rsplit(LEAVE_ALTERNATE_SCREEN, 1)[-1]
    after = ESCAPES.sub("", after)
    assert after.count(KEPT) == 1, after  # the one resume line, left on the terminal
    assert after.count("raceday keirin play --resume") == 1, after
    assert _saved_races(db) == 0  # neither "ndo" nor an Enter ran a race


def test_keirin_plain_undo_help_and_ctrl_c_at_a_real_terminal(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    term = _keirin(db, "--plain")
    assert term.read_until(PROMPT), term.text[-600:]
    assert b"\x1b[?1049h" not in term.output  # line by line

    mark = term.type("undo\r")
    assert term.read_until(NOTHING_TO_UNDO, mark), term.text[-600:]
    assert term.read_until(PROMPT, mark)
    assert "ndo'" not in term.text[mark:]

    mark = term.type("?\r")
    assert term.read_until(HELP_SHOWN, mark), term.text[-600:]
    assert term.read_until(PROMPT, term.text.index(HELP_SHOWN, mark))  # asked again
    mark = term.type("\x03")
    assert term.wait() == 130, term.text[-600:]
    ended = term.text[mark:]
    assert ended.count(KEPT) == 1, ended
    assert ended.count("raceday keirin play --resume") == 1, ended
    assert "Traceback" not in term.text
    assert _saved_races(db) == 0


def test_replay_plain_at_a_terminal_prints_every_step_and_asks_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "h.sqlite"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\nq\n"))  # two moves, then save
    assert run(["hairpin", "play", "--players", "human,human", "--save", "duel", "--seed", "1",
                "--delay", "0", "--db", str(db)]) == 0
    term = Terminal([str(RACEDAY), "replay", "duel", "--db", str(db), "--plain",
                     "--delay", "0"])
    assert term.wait() == 0, term.text[-600:]  # it ended by itself: nothing was asked
    text = term.text
    assert "Step 1 of 2" in text and "Step 2 of 2" in text, text[-600:]
    assert "red plays a1 cruise b1" in text and "black plays b3 cruise a3" in text
    assert text.index("Step 1 of 2") < text.index("Step 2 of 2")
    assert "Enter = next" not in text and "\x1b[?1049h" not in term.output.decode()
