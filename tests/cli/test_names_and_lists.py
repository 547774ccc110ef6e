"""Inputs that used to be taken too leniently: repeated -p (Dice Derby kept only the last),
endless player and session names (a 300-character session was listed cut short and could
not be resumed), and Hairpin variants with repeated or empty words. Each is either
accepted as meant or refused in one line with exit code 2, before anything is saved."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.core.errors import OptionsError
from raceday.core.record import parse_record
from raceday.games.derby.saved import saved_evening
from raceday.games.hairpin.rules import Rules
from raceday.store.names import MAX_SESSION_NAME, check_session_name
from raceday.store.sessions import SessionStore
from raceday.terminal.common import MAX_PLAYER_NAME, player_names

runner = CliRunner()

LONG_NAME = "A" * 5_000
LONG_SESSION = "s" * 300


def _one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = run(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# --- repeated -p -----------------------------------------------------------------------
def test_derby_takes_repeated_p_and_comma_lists_alike(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite"
    result = runner.invoke(app, ["derby", "play", "-p", "Ann", "-p", "Bob,Chie", "--save",
                                 "s", "--seed", "1", "--delay", "0", "--db", str(db)],
                           input="")
    assert result.exit_code == 0, result.output
    assert "New Dice Derby party 's': 3 players" in result.output
    players = saved_evening(SessionStore(db), "s").ledger.players  # from its record
    assert [p.name for p in players] == ["Ann", "Bob", "Chie"]


def test_keirin_takes_comma_lists_as_well_as_repeated_p(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    result = runner.invoke(app, ["keirin", "play", "-p", "Ann,Bob", "-p", "Carl", "--save",
                                 "s", "--seed", "1", "--db", str(db)], input="")
    assert result.exit_code == 0, result.output
    doc, _ = SessionStore(db).load("keirin", "s")  # saved as the night's record (#47)
    assert parse_record(doc["record"]).options["players"] == ["Ann", "Bob", "Carl"]


def test_player_names_split_and_bound() -> None:
    assert player_names(None) is None
    assert player_names(["Ann", " Bob , Chie"]) == ["Ann", "Bob", "Chie"]
    for empty in ([""], ["Ann", " "], ["Ann,,Bob"], ["Ann,"]):  # no name is empty
        with pytest.raises(OptionsError, match="cannot be empty"):
            player_names(empty)
    assert player_names(["x" * MAX_PLAYER_NAME]) == ["x" * MAX_PLAYER_NAME]
    with pytest.raises(OptionsError, match=f"at most {MAX_PLAYER_NAME} characters"):
        player_names(["x" * (MAX_PLAYER_NAME + 1)])
    with pytest.raises(OptionsError, match="printable"):
        player_names(["Ann\x1b[2J"])


# --- long player names -----------------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["keirin", "play", "-p", LONG_NAME],
        ["keirin", "play", "-p", "Ann", "-p", LONG_NAME],
        ["derby", "play", "-p", LONG_NAME, "--delay", "0"],
        ["derby", "play", "-p", f"Ann,{LONG_NAME}", "--delay", "0"],
    ],
    ids=["keirin", "keirin-second", "derby", "derby-comma"],
)
def test_long_player_names_are_refused_before_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    db = tmp_path / "n.sqlite"
    err = _one_line_exit_2(capsys, [*argv, "--db", str(db)])
    assert f"at most {MAX_PLAYER_NAME} characters" in err
    assert LONG_NAME not in err  # the message quotes the start of the name, not all of it
    assert not db.exists()


def test_a_long_name_typed_at_the_derby_prompt_is_refused_and_asked_again(
    tmp_path: Path,
) -> None:
    result = runner.invoke(app, ["derby", "play", "--save", "s", "--seed", "1", "--delay", "0",
                                 "--db", str(tmp_path / "d.sqlite")],
                           input=f"{LONG_NAME},Bob\nAnn,Bob\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Player names, separated by commas:") == 2
    assert f"at most {MAX_PLAYER_NAME} characters" in result.output
    assert "New Dice Derby party 's': 2 players" in result.output


# --- session names ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["keirin", "play", "-p", "Ann", "--save", LONG_SESSION],
        ["derby", "play", "-p", "Ann", "--save", LONG_SESSION, "--delay", "0"],
        ["hairpin", "play", "--save", LONG_SESSION],
        ["pistard", "play", "--players", "easy,easy", "--save", LONG_SESSION],
        ["keirin", "play", "-p", "Ann", "--save", "tab\there"],
    ],
    ids=["keirin", "derby", "hairpin", "pistard", "keirin-tab"],
)
def test_long_session_names_are_refused_before_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    db = tmp_path / "s.sqlite"
    err = _one_line_exit_2(capsys, [*argv, "--db", str(db)])
    assert "session name" in err
    assert not db.exists()


def test_wielersim_tour_refuses_a_long_name_before_the_first_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.sqlite"
    err = _one_line_exit_2(capsys, ["wielersim", "tour", "ronde-van-belgie", "small",
                                    "--save", LONG_SESSION, "--auto", "--delay", "0",
                                    "--db", str(db)])
    assert f"at most {MAX_SESSION_NAME} characters" in err
    assert SessionStore(db).names("wielersim") == []


def test_the_store_bounds_new_names_and_its_numbered_names(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "s.sqlite")
    longest = "n" * MAX_SESSION_NAME
    assert check_session_name(longest) == longest
    with pytest.raises(OptionsError, match="at most 64"):
        store.save("keirin", longest + "x", {})
    with pytest.raises(OptionsError, match="empty"):
        store.save("keirin", "  ", {})
    store.save("keirin", longest, {})
    second = store.fresh_name("keirin", longest)
    assert len(second) == MAX_SESSION_NAME and second.endswith("-2")
    store.save("keirin", second, {})
    assert store.fresh_name("keirin", longest).endswith("-3")


def test_list_shows_the_longest_session_name_whole_and_it_resumes(tmp_path: Path) -> None:
    db = str(tmp_path / "k.sqlite")
    name = "friday night at the velodrome with the whole family and friends!"[:64]
    assert len(name) == MAX_SESSION_NAME
    made = runner.invoke(app, ["keirin", "play", "-p", "Ann", "-p", "Bob", "--save", name,
                               "--seed", "1", "--db", db], input="")
    assert made.exit_code == 0, made.output
    listing = runner.invoke(app, ["keirin", "play", "--list", "--db", db])
    assert listing.exit_code == 0
    assert f"  {name}\n" in listing.output  # on its own line, whole, at 80 columns
    assert "Ann 10,000.00, Bob 10,000.00" in listing.output
    resumed = runner.invoke(app, ["keirin", "play", "--resume", name, "--db", db], input="")
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming session" in resumed.output


# --- Hairpin variant words -------------------------------------------------------------
@pytest.mark.parametrize("variant", ["short+short", "short+", "+short", "short++nobump",
                                     "nobump,short+nobump"])
def test_hairpin_variants_with_repeated_or_empty_words_are_refused(
    capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    with pytest.raises(OptionsError):
        Rules.from_variant(variant)
    err = _one_line_exit_2(capsys, ["hairpin", "show", "--variant", variant])
    assert "twice" in err or "empty word" in err


def test_hairpin_variants_that_are_well_formed_still_work() -> None:
    assert Rules.from_variant("short+nobump").variant_name() == "short+nobump"
    assert Rules.from_variant("Short, NoBump").variant_name() == "short+nobump"
    assert Rules.from_variant("standard").variant_name() == "standard"
    assert Rules.from_variant("").variant_name() == "standard"
