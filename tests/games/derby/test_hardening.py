"""Dice Derby hardening: shared options checked before anything is written, caps, a fast
`derby odds`, computer bettors that read the board, unsold dice, sealed bids, Ctrl-C."""

from __future__ import annotations

import io
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.games.derby.agents import choose_bets, computer_bets, ticket_values
from raceday.games.derby.evening import EveningState
from raceday.games.derby.odds import OddsBoard, exact_odds, make_board
from raceday.games.derby.party import GAME, Party, parse_amount, parse_ticket
from raceday.games.derby.rules import POSTS, DerbyState
from raceday.games.derby.saved import saved_evening
from raceday.games.derby.session import PHASE_FINISHED, BetError, EveningOptions, Session
from raceday.store.sessions import SessionStore
from raceday.terminal import lineinput
from raceday.terminal.surface import LineSurface, Prompt


def _one_line_error(code: int, capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert code == 2, captured
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


# --- 11: options -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["watch", "--seed", "-1"],
        ["simulate", "--seed", "-1", "-n", "10"],
        ["watch", "--delay", "inf"],
        ["watch", "--delay", "nan"],
        ["watch", "--delay", "-1"],
        ["simulate", "-n", "0"],
        ["simulate", "--races", "-5"],
        ["simulate", "-n", "100000001"],
        ["odds", "--margin", "0.9"],
        ["odds", "--fall-rate", "nan"],
        ["play", "-p", "Aki", "--seed", "-1"],
        ["play", "-p", "Aki", "--delay", "inf"],
        ["play", "-p", "Aki", "--computers", "-1"],
        ["play", "-p", "Aki", "--computers", "21"],
        ["play", "-p", "Aki", "--races", "0"],
        ["play", "-p", "Aki", "--races", "7"],
        ["play", "-p", "Aki", "--start-money", "0"],
        ["play", "-p", "Aki", "--start-money", "150"],  # not a multiple of the stake unit
        ["play", "-p", "Aki", "--loan", "-100"],
        ["play", "-p", "Aki", "--max-loans", "-1"],
        ["play", "-p", "Aki", "--win-limit", "101"],
        ["play", "-p", "Aki", "--owner-award", "both"],
        ["play", "-p", "Aki", "--margin", "2"],
        ["play", "-p", "Aki,aki"],
        ["play", "-p", "Aki", "--save", " "],
    ],
)
def test_bad_options_are_one_line_exit_2_and_write_nothing(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "party.sqlite"
    extra = ["--db", str(db)] if args[0] == "play" else []
    _one_line_error(run(["derby", *args, *extra]), capsys)
    assert not db.exists()  # not even an empty database


def test_a_rejected_option_leaves_an_existing_party_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "p.sqlite"
    store = SessionStore(db)
    store.save(GAME, "night", Session.new(EveningOptions(seed=1), [("A", "bold")]).to_json())
    before = store.load(GAME, "night")
    _one_line_error(run(["derby", "play", "-p", "B", "--save", "other", "--seed", "-1",
                         "--db", str(db)]), capsys)
    assert store.names(GAME) == ["night"] and store.load(GAME, "night") == before


# --- item 4 for Dice Derby: the real reason first ---------------------------------------
def test_a_huge_bid_or_stake_says_what_the_player_holds() -> None:
    s = Session.new(EveningOptions(), [("Aki", "human"), ("Ben", "human")])
    with pytest.raises(BetError, match="Aki holds 10000"):
        s.check_bid(0, 99_999_999)
    with pytest.raises(BetError, match="multiples of 100"):
        s.check_bid(0, 150)
    for _ in POSTS:
        s.auction_lot({}, np.random.default_rng(0))
    with pytest.raises(BetError, match="Aki holds 10000"):
        s.place_ticket(0, "win", [6], 99_999_999)


@pytest.mark.parametrize("text", ["win ³ 500", "win 6 ³", "win 6 5_00", "q ٣ 6 100",
                                  "win 6 1e3"])
def test_ticket_and_amount_parsing_refuses_non_ascii_digits(text: str) -> None:
    with pytest.raises(BetError):
        parse_ticket(text)


def test_amounts_are_ascii_digits_with_optional_thousands_commas() -> None:
    assert parse_amount("3,500") == 3500 and parse_amount("0") == 0
    for bad in ("3_500", "³", "35,00", "1e3"):
        with pytest.raises(BetError, match="digits 0-9"):
            parse_amount(bad)


# --- 12: a fast `derby odds` --------------------------------------------------------------
def test_derby_odds_imports_no_numba_matplotlib_party_or_store() -> None:
    code = ("import sys, io, contextlib\n"
            "from raceday.cli.main import run\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    assert run(['derby', 'odds']) == 0\n"
            "heavy = ['numba', 'matplotlib', 'raceday.games.derby.party',\n"
            "         'raceday.store.sessions', 'raceday.games.derby.fast']\n"
            "print([m for m in heavy if m in sys.modules])\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert proc.stdout.strip() == "[]"


# --- 13: computer bettors ----------------------------------------------------------------
def _bought_session(seed: int = 5) -> Session:
    s = Session.new(EveningOptions(seed=seed), [("C", "cautious"), ("B", "bold")])
    for _ in POSTS:
        s.auction_lot({}, np.random.default_rng(0))
    return s


def test_computer_bettors_vary_their_tickets_from_race_to_race() -> None:
    s = _bought_session()
    for player in (0, 1):
        seen = set()
        for race in range(1, 7):
            s.race = race
            seen.add(tuple(computer_bets(s, player)))
        assert len(seen) >= 3, (player, seen)  # not the same tickets every race
        s.race = 1
        assert computer_bets(s, player) == computer_bets(s, player)  # but replayable


@pytest.mark.parametrize("money", [0, 99, 100, 150, 300, 1_000, 10_000, 1_234_500])
@pytest.mark.parametrize("style", ["cautious", "bold"])
def test_computer_bettors_never_stake_beyond_their_purse(style: str, money: int) -> None:
    odds = exact_odds(0)
    board = make_board(odds, Fraction(1, 10))
    for seed in range(25):
        bets = choose_bets(style, money, 100, odds, board, np.random.default_rng(seed))
        assert sum(b.stake for b in bets) <= money
        assert all(b.stake >= 100 and b.stake % 100 == 0 for b in bets)
        assert sum(b.kind == "win" for b in bets) <= 1
        assert sum(b.kind == "quinella" for b in bets) <= 3


@pytest.mark.parametrize("style", ["cautious", "bold"])
def test_computer_bettors_back_a_positive_expectation_price(style: str) -> None:
    odds = exact_odds(0)
    fair = make_board(odds, Fraction(1, 10))
    win = dict(fair.win)
    win[3] = 200  # 20.0 on the d8, whose exact chance is about 10.45%: +109% expectation
    board = OddsBoard(win, fair.quinella)
    edges = {(k, h): e for k, h, _, e, _ in ticket_values(odds, board)}
    assert edges["win", (3,)] > 1 and all(e < 0.1 for key, e in edges.items()
                                           if key != ("win", (3,)))
    for seed in range(20):
        bets = choose_bets(style, 10_000, 100, odds, board, np.random.default_rng(seed))
        wins = [b for b in bets if b.kind == "win"]
        assert [b.horses for b in wins] == [(3,)]
        others = [b.stake for b in bets if b.kind != "win"]
        assert all(wins[0].stake > stake for stake in others)  # the lion's share


# --- 14: unsold dice ---------------------------------------------------------------------
def test_unsold_dice_still_race_and_their_prizes_go_to_nobody(tmp_path: Path) -> None:
    config = EveningOptions(seed=11, races=4)
    session = Session.new(config, [("Solo", "bold")])  # one owner at most: five dice unsold
    out = Console(file=io.StringIO(), width=100)
    store = SessionStore(tmp_path / "u.sqlite")
    Party(EveningState.from_session(session), store, "u", LineSurface(out)).run()
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert session.phase == PHASE_FINISHED
    owned = [p.horse for p in session.players if p.horse is not None]
    assert len(owned) <= 1
    for race in range(1, 5):
        block = text.split(f"Race {race}: they're off!")[1].split("Furlong 2")[0]
        for post in POSTS:  # every die, sold or not, rolls in the first furlong
            assert f"The d{(4, 6, 8, 10, 12, 20)[post - 1]} " in block
    prizes = sum(p.amount for r in session.history for p in r.payouts
                 if p.what.startswith("prize"))
    owner_places = sum((r.first in owned) * 2000 + (r.second in owned) * 1000
                       for r in session.history)
    assert prizes == owner_places  # only an owned horse earns prize money


def test_an_unsold_horse_can_win_and_its_tickets_pay() -> None:
    s = Session.new(EveningOptions(), [("Aki", "human")])
    for _ in POSTS:
        s.auction_lot({}, np.random.default_rng(0))  # nobody bids: the house runs them all
    ticket = s.place_ticket(0, "win", [1], 500)
    s.close_betting()
    record = s.settle(1, 2, [6])
    assert [(p.what, p.amount) for p in record.payouts] == [("win d4", 500 * ticket.odds // 10)]
    # the race itself never looks at ownership: an unowned d4 runs like any other die
    assert DerbyState().to_roll == list(POSTS)


# --- 15: sealed bids ---------------------------------------------------------------------
def test_sealed_bids_are_read_without_echo_and_not_shown_before_the_reveal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts: list[Prompt] = []

    def secret(prompt: Prompt, console: object = None) -> str:
        prompts.append(prompt)
        if len(prompts) == 1:
            return "1,700"
        raise EOFError  # the ticket prompt: end of input

    monkeypatch.setattr(lineinput, "ask", secret)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    db = tmp_path / "s.sqlite"
    code = run(["derby", "play", "-p", "Aki", "--computers", "5", "--seed", "4",
                "--save", "sealed", "--db", str(db), "--delay", "0"])
    out = capsys.readouterr().out
    assert code == 0
    assert prompts and "sealed bid for the d4" in prompts[0].text
    assert prompts[0].secret and not prompts[1].secret  # the bid is read hidden, a ticket not
    before_reveal = out.split("Bids:")[0]
    assert "1,700" not in before_reveal and "1700" not in before_reveal
    # the bid itself was taken
    assert saved_evening(SessionStore(db), "sealed").ledger.lots[0].bids[0] == 1700


def test_a_scripted_transcript_does_not_echo_the_sealed_bid(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["derby", "play", "-p", "Aki", "--computers", "5",
                                      "--seed", "4", "--delay", "0",
                                      "--db", str(tmp_path / "p.sqlite")], input="4321\n")
    assert result.exit_code == 0, result.output
    assert "4321" not in result.output.split("Bids:")[0]
    assert "(sealed)" in result.output


# --- 16: Ctrl-C --------------------------------------------------------------------------
def test_ctrl_c_prints_one_line_with_what_was_kept_and_the_resume_command_with_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["0", "0"])

    def secret(prompt: Prompt, console: object = None) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(lineinput, "ask", secret)
    monkeypatch.setenv("COLUMNS", "80")
    folder = tmp_path / "a long folder name that pushes the command past eighty columns"
    folder.mkdir()
    db = folder / "night.sqlite"
    code = run(["derby", "play", "-p", "Aki", "--seed", "4", "--save", "fri night",
                "--db", str(db), "--delay", "0"])
    err = capsys.readouterr().err
    assert code == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "the auction, 2 of 6 dice sold or passed" in lines[0]
    assert lines[0].endswith(f"resume with: raceday derby play --resume 'fri night' "
                             f"--db '{db}'")


def test_end_of_input_hint_includes_the_database(tmp_path: Path) -> None:
    db = tmp_path / "e.sqlite"
    result = CliRunner().invoke(app, ["derby", "play", "-p", "Aki", "--seed", "1", "--save",
                                      "eof", "--db", str(db), "--delay", "0"], input="")
    assert result.exit_code == 0, result.output
    assert f"raceday derby play --resume eof --db {db}" in " ".join(result.output.split())
