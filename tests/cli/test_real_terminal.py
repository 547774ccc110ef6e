"""`play` at a real terminal opens the full-screen view (the pilot tests drive the same view
headless; this drives the installed command in a pseudo-terminal, as a person would):
the alternate screen opens, Ctrl-Q quits, the game is saved and the resume line is left on
the terminal. Waits are on what the terminal shows; the limits only guard against a hang."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.pty_terminal import ESCAPES, LEAVE_ALTERNATE_SCREEN, RACEDAY, Terminal


def test_hairpin_play_at_a_terminal_is_full_screen_and_ctrl_q_saves(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    term = Terminal([str(RACEDAY), "hairpin", "play", "--players", "human,easy", "--seed", "1",
                     "--db", str(db), "--save", "g1"])
    assert term.read_until("to move"), term.text[-400:]  # the status bar of the view
    assert b"\x1b[?1049h" in term.output  # the alternate screen: a full-screen view
    assert term.press_until_exit("\x11") == 0  # Ctrl-Q
    after = term.output.decode("utf-8", "replace").rsplit(LEAVE_ALTERNATE_SCREEN, 1)[-1]
    assert "raceday hairpin play --resume g1" in ESCAPES.sub("", after)
    with sqlite3.connect(db) as connection:
        names = [row[0] for row in connection.execute("SELECT name FROM sessions")]
    assert "g1" in names
