"""Dice Derby's play and watch line by line (scripted input, #33): help / ? / quit / undo at
every kind of prompt, the stake rule shown before an error, a bid refusal that never repeats
the bid, Japanese, the new option names (and the old one with a note), --list, and the wait
for Enter after a race only at a terminal."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.games.derby.evening import EveningState
from raceday.games.derby.saved import saved_evening
from raceday.store.sessions import SessionStore
from raceday.terminal import lineinput
from raceday.terminal.surface import Prompt

runner = CliRunner()
SOLO = ["--computers", "5", "--seed", "4", "--delay", "0", "--races", "4"]


def play(db: Path, lines: list[str], *extra: str, name: str = "t") -> str:
    result = runner.invoke(app, ["derby", "play", "-p", "Aki", *SOLO, "--save", name,
                                 "--db", str(db), *extra], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    return flat(result.output)


def flat(text: str) -> str:
    """``text`` with its lines joined (the console wraps long lines at 80 columns)."""
    return " ".join(text.split())


def saved(db: Path, name: str = "t") -> EveningState:
    return saved_evening(SessionStore(db), name)  # the saved record's evening


def test_help_and_question_mark_at_a_bid_and_a_ticket_show_the_rules(tmp_path: Path) -> None:
    out = play(tmp_path / "h.sqlite", ["help", "1000", "?", "win d20 550", ""])
    assert "A sealed bid: a whole amount in multiples of 100" in out
    # the ticket prompt's help says the stake rule, and so does the status before it
    assert out.count("Stakes are multiples of 100; per race at most 1 win and 3 quinella") >= 1
    help_at = out.index("undo takes back your last ticket")
    assert "stakes in multiples of 100" in out[:help_at].lower()  # the status, before any error
    assert out.index("multiples of 100") < out.index("Refused: a stake is a positive multiple")


def test_a_bid_refusal_never_repeats_the_bid(tmp_path: Path) -> None:
    out = play(tmp_path / "b.sqlite", ["12x34", "99999999", "1050", "1000"])
    before_reveal = out.split("Bids:")[0]
    for typed in ("12x34", "99999999", "1050"):
        assert typed not in before_reveal
    assert "a bid is a whole amount such as 3500" in before_reveal
    assert "Aki holds 10000; a bid cannot be more than that" in before_reveal
    assert "bids are in multiples of 100" in before_reveal
    assert saved(tmp_path / "b.sqlite").ledger.lots[0].bids[0] == 1000


def test_undo_at_a_ticket_takes_back_the_last_ticket_then_refuses(tmp_path: Path) -> None:
    db = tmp_path / "u.sqlite"
    out = play(db, ["1000", "win d20 500", "q d10-d12 300", "undo", "undo", "undo", "done"])
    assert "Taken back: quinella d10-d12 300" in out and "Taken back: win d20 500" in out
    assert "Aki has no ticket or loan of this round to take back" in out
    race = saved(db).ledger.history[0]
    assert [t for t in race.tickets if t.player == 0] == []  # nothing of Aki's was kept
    assert saved(db).ledger.players[0].money == 10_000 - 1000 + sum(
        p.amount for r in saved(db).ledger.history for p in r.payouts if p.player == 0)


def test_undo_takes_back_a_loan_too(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite"
    out = play(db, ["0", "0", "0", "0", "0", "0", "borrow", "undo", "done"], "--borrowing")
    assert "Aki borrows 10000" in out and "Taken back: the loan. Aki holds 10000 again." in out
    assert saved(db).ledger.players[0].debt == 0


def test_undo_at_a_sealed_bid_lets_the_bidder_before_seal_again(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    result = runner.invoke(app, ["derby", "play", "-p", "Aki,Ben", "--seed", "4", "--delay",
                                 "0", "--races", "4", "--save", "t", "--db", str(db)],
                           input="\n".join(["undo", "700", "undo", "undo", "900",
                                            "800"]) + "\n")
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    # Aki has nobody before: refused; at Ben's prompt undo gives Aki the bid again, and at
    # Aki's second bid undo is refused (nothing before it)
    assert out.count("nobody has sealed a bid for this die before you") == 2
    assert "Aki, seal your bid for the d4 again" in out
    assert "700" not in out.split("Bids:")[0] and "900" not in out.split("Bids:")[0]
    assert saved(db).ledger.lots[0].bids == {0: 900, 1: 800}


def test_undo_at_the_host_dice_and_at_the_names_is_refused_in_words(tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    result = runner.invoke(app, ["derby", "play", "--computers", "5", "--real-dice", "--seed", "4",
                                 "--races", "4", "--delay", "0", "--save", "t", "--db",
                                 str(db)],
                           input="\n".join(["undo", "Aki", "1000", "", "undo", "help"]) + "\n")
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "nothing to take back yet: type the players' names" in out
    assert "dice the table rolled stand: nothing to take back" in out
    assert "Type 6 numbers, one for each of d4 d6 d8 d10 d12 d20" in out  # the host's help


@pytest.mark.parametrize("where", [["quit"], ["1000", "quit"], ["1000", "win d20 500", "quit"]])
def test_quit_stops_at_the_last_save_and_says_how_to_resume(tmp_path: Path,
                                                            where: list[str]) -> None:
    db = tmp_path / "q.sqlite"
    out = play(db, where)
    assert "Saved as 't'; continue with: " in out
    assert f"raceday derby play --resume t --db {db}" in out
    state = saved(db)
    assert state.ledger.tickets == []  # an unsaved ticket is not kept
    resumed = runner.invoke(app, ["derby", "play", "--resume", "t", "--db", str(db),
                                  "--delay", "0"], input="quit\n")
    assert resumed.exit_code == 0 and "Resuming 't'" in resumed.output


def test_japanese_lines_come_from_the_message_tables(tmp_path: Path) -> None:
    out = play(tmp_path / "j.sqlite", ["?", "1000", "win d20 500", "done"], "--lang", "ja")
    assert "新しいダイスダービー" in out and "封印入札" in out
    assert "賭け金は 100 単位" in out and "第1レース後の順位" in out
    assert "undo でこのラウンドの最後の馬券" not in out  # no '?' at the ticket: no help
    assert "どの入力でも" in out  # the universal words of the help, in Japanese
    for english in ("sealed bid", "Standings after", "betting is open", "Saved after"):
        assert english not in out


def test_watch_speaks_japanese_too() -> None:
    result = runner.invoke(app, ["derby", "watch", "--seed", "3", "--delay", "0", "--lang",
                                 "ja"])
    assert result.exit_code == 0
    assert "ダイスダービー — 6頭、5ハロン" in flat(result.output) and "第1ハロン" in result.output
    assert "Furlong" not in result.output


def test_one_player_is_not_called_players(tmp_path: Path) -> None:
    result = runner.invoke(app, ["derby", "play", "-p", "Aki", "--seed", "1", "--delay", "0",
                                 "--db", str(tmp_path / "o.sqlite")], input="")
    assert "1 player, 5 races" in flat(result.output) and "1 players" not in result.output


def test_resume_without_a_name_is_refused(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["derby", "play", "--resume"]) == 2
    assert run(["derby", "play", "--resume", "--db", str(tmp_path / "x.sqlite")]) == 2
    err = capsys.readouterr().err
    assert "--resume" in err and "Traceback" not in err


def test_list_shows_the_saved_parties(tmp_path: Path) -> None:
    db = tmp_path / "list.sqlite"
    empty = runner.invoke(app, ["derby", "play", "--list", "--db", str(db)])
    assert empty.exit_code == 0 and "No saved Dice Derby parties" in empty.output
    play(db, ["1000"], name="friday")
    listed = runner.invoke(app, ["derby", "play", "--list", "--db", str(db)])
    assert listed.exit_code == 0
    assert "friday: race 1 of 4, betting — Aki, Computer 1" in flat(listed.output)


def test_simulate_counts_races_with_races_or_n(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["derby", "simulate", "--races", "500", "--seed", "2", "--json"]) == 0
    long = capsys.readouterr()
    assert long.err == ""
    assert run(["derby", "simulate", "-n", "500", "--seed", "2", "--json"]) == 0
    assert capsys.readouterr().out == long.out
    help_text = runner.invoke(app, ["derby", "simulate", "--help"], env={"COLUMNS": "200"})
    assert "--simulations" not in help_text.output and "--races" in help_text.output


class Keyboard(io.StringIO):
    """Standard input that says it is a terminal (the answers come from a script)."""

    def isatty(self) -> bool:
        return True


def _answers(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> list[Prompt]:
    asked: list[Prompt] = []
    queue = iter(answers)

    def ask(prompt: Prompt, console: object = None) -> str:
        asked.append(prompt)
        try:
            return next(queue)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(lineinput, "ask", ask)
    return asked


def test_after_a_race_a_terminal_waits_for_enter(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _answers(monkeypatch, ["1000", "done", ""])
    monkeypatch.setattr(sys, "stdin", Keyboard(""))
    assert run(["derby", "play", "-p", "Aki", *SOLO, "--db", str(tmp_path / "w.sqlite")]) == 0
    texts = [p.text for p in asked]
    assert texts[2].startswith("Enter for race 2")  # after race 1: the result stays
    assert len(texts) == 4  # then race 2's ticket prompt (input ended there)


def test_a_script_does_not_wait_after_a_race(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _answers(monkeypatch, ["1000", "done"])
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert run(["derby", "play", "-p", "Aki", *SOLO, "--db", str(tmp_path / "n.sqlite")]) == 0
    assert not any(p.text.startswith("Enter for") for p in asked)
    assert asked[-1].text.startswith("Aki (holds")  # straight on to race 2's tickets


def test_resume_refuses_new_players_or_a_new_name(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "r.sqlite"
    play(db, ["quit"], name="fri")
    assert run(["derby", "play", "--resume", "fri", "-p", "Zed", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "--players cannot change a saved party" in err and "Traceback" not in err
    assert run(["derby", "play", "--resume", "fri", "--save", "x", "--computers", "2",
                "--db", str(db)]) == 2
    assert "--save, --computers cannot change a saved party" in capsys.readouterr().err
    assert [p.name for p in saved(db, "fri").ledger.players][:1] == ["Aki"]  # unchanged
