"""KEIRIN hardening: options checked before anything is saved, one strict ticket grammar,
caps on counts, flat-memory simulation, yes/no prompts, Ctrl-C, and the display."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from raceday.cli.main import run
from raceday.core.events import Event
from raceday.core.play import play_game
from raceday.games.keirin.betting import BetError, parse_money, parse_ticket
from raceday.games.keirin.fast import sample_races
from raceday.games.keirin.render import commentary, describe, render_track, throw_line
from raceday.games.keirin.rules import KeirinOptions, KeirinState
from raceday.games.keirin.saved_night import GAME, BetSession
from raceday.games.keirin.simulate import simulate
from raceday.store.sessions import SessionStore
from raceday.terminal import lineinput
from raceday.terminal.surface import Prompt


def _one_line_error(code: int, capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert code == 2, captured
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


# --- 1, 2, 5: options ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["watch", "--seed", "-1"],
        ["simulate", "--seed", "-1", "-n", "10"],
        ["play", "--seed", "-1", "-p", "A"],
        ["watch", "--seed", str(2**63)],
        ["watch", "--delay", "inf"],
        ["watch", "--delay", "nan"],
        ["watch", "--delay", "-0.5"],
        ["play", "-p", "A", "--delay", "inf"],
        ["simulate", "--races", "-1"],
        ["simulate", "-n", "0"],
        ["simulate", "-n", "1000000001"],
        ["simulate", "-n", "1000001", "--engine", "reference"],
        ["odds", "--top", "0"],
        ["odds", "--top", "1001"],
        ["odds", "--riders", "10"],
        ["odds", "--length", "1001"],
        ["odds", "--length", "18"],
        ["watch", "--derny", "19"],
        ["play", "-p", "A", "--top", "0"],
        ["play", "-p", "A", "--margin", "nan"],
        ["play", "-p", "A", "--margin", "-0.1"],
        ["play", "-p", "A", "--bankroll", "1_000"],
        ["play", "-p", "A", "--bankroll", "³"],
        ["play", "-p", "A", "--riders", "5"],
    ],
)
def test_bad_options_are_one_line_exit_2_and_touch_no_database(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "night.sqlite"
    store = SessionStore(db)
    before = BetSession.new("kept", ["Ann"], KeirinOptions(), seed=5)
    before.save(store)
    doc_before = store.load(GAME, "kept")
    extra = ["--db", str(db), "--save", "new"] if args[0] == "play" else []
    _one_line_error(run(["keirin", *args, *extra]), capsys)
    assert store.names(GAME) == ["kept"]  # no new session
    assert store.load(GAME, "kept") == doc_before  # and the old one unchanged


def test_rejected_play_options_create_no_database_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "fresh.sqlite"
    _one_line_error(run(["keirin", "play", "-p", "A", "--seed", "-1", "--db", str(db)]), capsys)
    assert not db.exists()


def test_session_refuses_a_negative_seed_from_library_code() -> None:
    with pytest.raises(Exception, match="seed"):
        BetSession.new("x", ["A"], KeirinOptions(), seed=-1)


# --- 3: one strict ticket grammar ---------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("win ³ 5", "'³'"),  # a superscript is a digit to str.isdigit, not to us
        ("win ٣ 5", "'٣'"),  # Arabic-Indic three
        ("win -1 5", "'-1'"),  # was read as 'win 1'
        ("exacta 3--4 5", "'3--4'"),
        ("exacta 3-4- 5", "'3-4-'"),
        ("win 1 1_000", "'1_000'"),  # underscores are not an amount
        ("win 1 1e3", "'1e3'"),
        ("win 1 NaN", "'NaN'"),
        ("win 1 ５", "'５'"),  # full-width digit
        ("win 1 1,00", "'1,00'"),  # bad grouping
    ],
)
def test_strict_ticket_grammar_names_the_bad_token(text: str, bad: str) -> None:
    with pytest.raises(BetError) as info:
        parse_ticket(text, 9)
    message = str(info.value)
    assert bad in message
    assert "digits 0-9" in message  # says what is allowed


def test_grammar_still_accepts_the_documented_forms() -> None:
    assert parse_ticket("win 3 1,000", 9) == ("win", (3,), 100_000)
    assert parse_ticket("trio 2 = 5 = 7 10", 9) == ("trio", (2, 5, 7), 1000)
    assert parse_ticket("ex 3,4 0.5", 9) == ("exacta", (3, 4), 50)
    assert parse_money("12.50") == 1250
    with pytest.raises(BetError, match="more than 0"):
        parse_money("0")


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=40))
def test_random_text_raises_only_the_bet_error(text: str) -> None:
    try:
        _, selection, stake = parse_ticket(text, 9)
    except BetError:
        return
    assert 1 <= len(selection) <= 3 and stake > 0 and all(1 <= r <= 9 for r in selection)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["win", "ex", "trio", "3", "4", "-", "=", "1_0", "²", "5.5",
                                 " ", "-2", ",", "7/8", "0", "１"]), max_size=8))
def test_ticket_like_text_raises_only_the_bet_error(words: list[str]) -> None:
    with contextlib.suppress(BetError):  # any other exception fails the test
        parse_ticket(" ".join(words), 9)


# --- 4: the real reason first --------------------------------------------------------------
def test_a_huge_stake_is_refused_for_the_purse_not_for_its_size() -> None:
    session = BetSession.new("s", ["Ann"], KeirinOptions(), seed=1)
    for stake in ("99999999", "999999999999999"):
        with pytest.raises(BetError, match=r"more than the 10,000\.00 left"):
            session.ticket_from_text("Ann", f"win 1 {stake}")
    debt = BetSession.new("d", ["Ann"], KeirinOptions(), seed=1, allow_debt=True)
    with pytest.raises(BetError, match="house accepts"):
        debt.ticket_from_text("Ann", "win 1 999999999999999")


# --- 6: simulation in chunks --------------------------------------------------------------
def test_streamed_simulation_counts_equal_the_races_sampled_in_memory() -> None:
    options = KeirinOptions(riders=7)
    n = 150_000  # three batches, the last one partial
    summary = simulate(options, n, np.random.default_rng(11), engine="fast")
    races = sample_races(options, n, np.random.default_rng(11), places=3)
    for place in range(3):
        counts = np.bincount(races.ranking[:, place], minlength=8)[1:]
        assert summary.places[:, place].tolist() == counts.tolist()
    assert summary.mean_turns() == pytest.approx(float(races.turns.mean()), rel=1e-12)
    assert summary.turns_std() == pytest.approx(float(races.turns.std(ddof=1)), rel=1e-9)
    again = simulate(options, n, np.random.default_rng(11), engine="fast")
    assert np.array_equal(again.places, summary.places)


# --- 7, 8: prompts and Ctrl-C --------------------------------------------------------------
def _scripted(monkeypatch: pytest.MonkeyPatch, answers: list[str | type[BaseException]]
              ) -> list[str]:
    prompts: list[str] = []

    def reader(prompt: Prompt, console: object = None) -> str:
        prompts.append(prompt.text)
        if not answers:
            raise EOFError
        answer = answers.pop(0)
        if isinstance(answer, type):
            raise answer()
        return answer

    monkeypatch.setattr(lineinput, "ask", reader)  # every prompt reads through it
    return prompts


def test_another_race_accepts_only_yes_or_no(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = _scripted(monkeypatch, ["", "maybe", "sure", "no"])
    db = tmp_path / "yn.sqlite"
    code = run(["keirin", "play", "-p", "Ann", "--save", "yn", "--db", str(db),
                "--seed", "3", "--delay", "0"])
    out = capsys.readouterr().out
    assert code == 0
    assert sum("Another race?" in p for p in prompts) == 3  # asked again twice
    assert out.count("Refused: answer y (yes) or n (no).") == 2
    assert BetSession.load(SessionStore(db), "yn").races == 1  # 'maybe' was not a yes


def test_ctrl_c_at_a_ticket_prompt_prints_one_line_with_the_exact_resume_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / ("a folder with a long name to pass eighty columns " * 2).strip()
    folder.mkdir()
    db = folder / "night.sqlite"
    _scripted(monkeypatch, ["win 1 100", "", "y", "win 2 100", KeyboardInterrupt])
    monkeypatch.setenv("COLUMNS", "80")
    code = run(["keirin", "play", "-p", "Ann", "--save", "friday night", "--db", str(db),
                "--seed", "3", "--delay", "0"])
    err = capsys.readouterr().err
    assert code == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one line, not broken at 80 columns
    line = lines[0]
    assert "1 settled race saved" in line and "race 2 was withdrawn" in line
    assert line.endswith(f"resume with: raceday keirin play --resume 'friday night' "
                         f"--db '{db}'")
    saved = BetSession.load(SessionStore(db), "friday night")
    assert saved.races == 1 and saved.pending is None


def test_ctrl_c_while_a_race_runs_keeps_the_locked_tickets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.sqlite"
    _scripted(monkeypatch, ["win 1 100", ""])

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(BetSession, "settle", interrupted)
    code = run(["keirin", "play", "-p", "Ann", "--save", "sat", "--db", str(db),
                "--seed", "3", "--delay", "0"])
    err = capsys.readouterr().err.strip()
    assert code == 130 and len(err.splitlines()) == 1
    assert "race 1's 1 ticket is locked" in err
    assert err.endswith(f"raceday keirin play --resume sat --db {db}")


# --- 9: board and display -----------------------------------------------------------------
def test_bet_board_shows_quinella_and_trio_prices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _scripted(monkeypatch, ["odds"])
    run(["keirin", "play", "-p", "Ann", "--save", "b", "--db", str(tmp_path / "b.sqlite"),
         "--margin", "0.1"])
    out = capsys.readouterr().out
    # the compact board, then what 'odds' printed, each under the board's heading
    _, board, full = out.split("Race 1 — odds board")
    assert board.splitlines()[1].split()[:5] == ["win", "%", "odds", "quinella", "odds"]
    assert "│ 3=4 " in board and "│ 3=4=5 " in board  # the favourites of every bet type
    for kind in ("win", "quinella", "exacta", "trio", "trifecta"):
        assert f"\n{kind}" in full, kind
    assert len(re.findall(r"│ \d=\d +│", full)) == 8  # quinella rows (top 8)
    assert len(re.findall(r"│ \d=\d=\d +│", full)) == 8  # trio rows


def _advance(state: KeirinState, steps: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        draw = state.sample_chance(rng)
        state.apply_action(draw.outcome, draw.detail)


def _render(state: KeirinState, width: int = 80) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(render_track(state))
    return console.export_text()


def test_a_long_race_shows_the_whole_field_within_80_columns() -> None:
    state = KeirinState(KeirinOptions(length=100))
    _advance(state, 4, seed=1)  # the derny and three throws: the field is strung out
    text = _render(state)
    lanes = [line for line in text.splitlines() if line.lstrip().startswith("R")]
    assert len(lanes) == 9
    for rider, lane in enumerate(lanes, start=1):
        assert str(rider) in lane.split(f"R{rider}", 1)[1][:-6], lane  # marker in view
        assert "◀" not in lane
    assert all(len(line) <= 80 for line in text.splitlines())


def test_the_gap_column_never_shows_two_leads() -> None:
    state = KeirinState(KeirinOptions())
    _advance(state, 1, seed=0)  # the derny only
    state.positions[0] = state.positions[1] = 20  # R1 and R2 level in front
    text = _render(state)
    assert text.count("lead") == 0
    assert text.count("level") == 2
    state.positions[1] = 19
    assert _render(state).count("lead") == 1


def test_the_dice_line_breaks_between_riders_before_80_columns() -> None:
    events = [Event("throw", {"turn": 1, "rider": r, "dice": [6] * r, "advance": 6 + r - 1,
                              "from": 0, "to": 0}) for r in range(1, 10)]
    line = throw_line(events)
    rows = line.plain.split("\n")
    assert len(rows) >= 2 and all(len(row) <= 78 for row in rows)
    assert all(row.startswith("R") for row in rows)  # never broken inside a rider's throw


def _race_events(seed: int, **options: int) -> list[Event]:
    state = KeirinState(KeirinOptions(**options))
    opts = state.options
    return play_game(state, [], np.random.default_rng(seed), max_steps=opts.max_steps()).events


def test_commentary_words_one_rider_or_several_as_the_facts_say() -> None:
    start = KeirinState(KeirinOptions(length=97, derny=3)).apply_action(3)
    assert commentary(start) == [
        "The derny throws 3 and pulls the riders to square 3.",
        "Rider 1 lines up 97 squares from the finish.",
        "The derny pulls off; rider 1 takes its slipstream: 0 → 3."]
    photo = Event("photo_finish", {"turn": 9, "riders": [1, 4, 7], "for_place": 2})
    assert describe(photo) == "Photo-finish for place 2: riders 1, 4, 7 are level and throw again!"
    level = Event("turn", {"turn": 1, "leaders": [2, 3], "for_place": 1, "chasing": False,
                           "level": True})
    assert describe(level) == "After turn 1, riders 2, 3 lead side by side."
    assert describe(Event("place", {"place": 1, "rider": 5, "turn": 1})) == \
        "Place 1: R5 (in turn 1)."
    text = " ".join(commentary(_race_events(2)))
    assert "Place 1:" in text and "{" not in text
    for wrong in (" 1 squares", " 1 turns", ", and ", "riders 1.", "R1, "):
        assert wrong not in text
    seen = set()
    for seed in range(20):
        for e in _race_events(seed):
            line = str(describe(e))
            if e.kind in ("overtake", "cross"):  # "riders 1, 2" for several, else "R1"
                assert ("riders " in line) == e["several"], line
                seen.add((e.kind, e["several"]))
            elif e.kind == "turn":
                wording = ("chase for place" if e["chasing"] else
                           "side by side" if e["level"] else "leads.")
                assert wording in line, line
                seen.add((e.kind, wording))
    assert len(seen) == 7  # every wording was met


def test_a_turn_after_a_rider_has_won_names_the_place_still_raced_for() -> None:
    """After R4 has won, the next turn's front rider does not "lead": he leads the chase
    for the places left, as the turn's facts say."""
    chases = []
    for seed in range(10):
        placed = 0
        for e in _race_events(seed):
            if e.kind == "place":
                placed = e["place"]
            if e.kind == "turn" and placed:
                chases.append((placed, e, describe(e, "en"), describe(e, "ja")))
    assert chases
    for placed, e, en, ja in chases:
        assert e["chasing"] and e["for_place"] == placed + 1
        assert f"the chase for place {placed + 1} is led by no. " in en and "leads" not in en
        assert f"{placed + 1}着争いの先頭は" in ja


# --- 10: start-up ------------------------------------------------------------------------
def test_odds_json_does_not_import_numba() -> None:
    code = ("import sys, io, contextlib\n"
            "from raceday.cli.main import run\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "    assert run(['keirin', 'odds', '--json']) == 0\n"
            "import json; json.loads(out.getvalue())\n"
            "print('numba' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert proc.stdout.strip() == "False"


def test_simulate_json_still_works_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["keirin", "simulate", "--races", "1000", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n"] == 1000 and abs(sum(data["top3"].values()) - 3) < 1e-12


def test_the_shipped_photo_finish_table_equals_a_fresh_solution(tmp_path: Path) -> None:
    from raceday.games.keirin import odds

    shipped = odds._load_photo_file(odds.PHOTO_FILE)
    assert shipped is not None, "run: python -m raceday.games.keirin.odds"
    fresh = odds.solve_photo_finish_table()
    for name in ("first", "two", "three"):
        np.testing.assert_allclose(getattr(shipped, name), getattr(fresh, name),
                                   rtol=1e-12, atol=1e-15)
    # a file made for other throw rules is not used
    stale = tmp_path / "stale.npz"
    throws = odds._throw_table()[0].copy()
    throws[0, 0] += 0.5
    np.savez(stale, throws=throws, first=fresh.first, two=fresh.two,
             three_index=np.flatnonzero(fresh.three), three_value=fresh.three[fresh.three != 0])
    assert odds._load_photo_file(stale) is None
    assert odds._load_photo_file(tmp_path / "missing.npz") is None
