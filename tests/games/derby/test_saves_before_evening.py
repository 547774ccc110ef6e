"""Party sessions saved by ``raceday derby play`` before the evening became one protocol
state (tests/fixtures/saves/derby/sessions_before_evening.*: mid-auction, betting with a
loan and the first-out bonus, a host-dice race in progress, a finished evening) still
resume, and a resumed party saves what the code of that time saved for the same typed
input. The recorded transcripts are today's (#33 added the standings after each race, the
stake rule and 'multiples of 100' at the prompts, and '1 loan' for '1 loan(s)')."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.games.derby.evening import EVENING_FORMAT, EveningState
from raceday.games.derby.saved import saved_evening
from raceday.games.derby.session import Session
from raceday.store.sessions import SessionStore

FIXTURES = Path(__file__).parents[2] / "fixtures" / "saves" / "derby"
RECORDED: dict[str, Any] = json.loads(
    (FIXTURES / "sessions_before_evening.json").read_text(encoding="utf-8"))


def _without_path(text: str, db: Path) -> str:
    """The transcript with the temporary database's path (in the resume line) taken out."""
    return text.replace(str(db), "<db>")


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_an_old_session_resumes_with_the_same_transcript(name: str, tmp_path: Path) -> None:
    recorded = RECORDED[name]
    db = tmp_path / "s.db"
    shutil.copy(FIXTURES / "sessions_before_evening.sqlite", db)
    result = CliRunner().invoke(
        app, ["derby", "play", "--resume", name, "--db", str(db), "--delay", "0"],
        input=recorded["input"])
    assert result.exit_code == recorded["exit_code"], result.output
    assert _without_path(result.output, db) == recorded["output"]
    final = saved_evening(SessionStore(db), name).to_json()  # the record it saves now
    assert _books(final) == _books(recorded["final"])


def _books(document: dict[str, Any]) -> dict[str, Any]:
    """A saved party's house rules and books: the old session itself, or the ledger of an
    evening (whose rules also name the players)."""
    books = document["ledger"] if document["format"] == EVENING_FORMAT else document
    config = {k: v for k, v in books["config"].items() if k != "players"}
    kept = {k: v for k, v in books.items() if k != "live_race"}  # now the evening's race
    return {**kept, "config": config}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_an_old_session_becomes_an_evening_with_the_same_books(name: str) -> None:
    old = RECORDED[name]["saved"]
    state = EveningState.from_json(old)
    assert state.ledger.players == Session.from_json(old).players
    assert _books(state.to_json())["history"] == old["history"]
    assert state.phase == old["phase"] and state.ledger.race == old["race"]
    assert (state.race is not None) == (old["phase"] == "racing")
    if old["live_race"] is not None:  # a host's race in progress goes on where it stood
        assert state.race is not None and state.race.to_json() == old["live_race"]
    again = EveningState.from_json(json.loads(json.dumps(state.to_json())))
    assert again == state
