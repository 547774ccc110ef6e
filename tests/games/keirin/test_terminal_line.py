"""KEIRIN's play and watch line by line (piped / --plain, #33): the one vocabulary, the four
words of every prompt, the compact odds board, Japanese, and the wording fixes."""

from __future__ import annotations

import functools
import io
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from raceday.cli.main import run
from raceday.core.events import Event
from raceday.core.play import play_game
from raceday.core.protocol import State
from raceday.games.keirin.game import GAME
from raceday.games.keirin.interactive import show_race
from raceday.games.keirin.rules import KeirinOptions, KeirinState
from raceday.games.keirin.saved_night import BetSession
from raceday.store.sessions import SessionStore
from raceday.terminal.surface import LineSurface

PROMPT = "ticket (Enter = done, help)>"


def _play(tmp_path: Path, script: str, *args: str, name: str = "t"
          ) -> subprocess.CompletedProcess[str]:
    """`keirin play` through the real entry point, piped, 80 columns."""
    return subprocess.run(
        [sys.executable, "-m", "raceday", "keirin", "play", "--db", str(tmp_path / "k.sqlite"),
         "--delay", "0", "--seed", "31", *(["--save", name] if name else []), *args],
        input=script, text=True, capture_output=True, timeout=120,
        env={"COLUMNS": "80", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
             "PYTHONIOENCODING": "utf-8"})


def _session(tmp_path: Path, name: str = "t") -> BetSession:
    return BetSession.load(SessionStore(tmp_path / "k.sqlite"), name)


# --- the one vocabulary ------------------------------------------------------------------------
def test_the_new_names_play_a_night(tmp_path: Path) -> None:
    done = _play(tmp_path, "win 3 100\n\nn\n", "--players", "Ann,Bob", name="")
    assert done.returncode == 0, done.stderr
    assert "note:" not in done.stderr
    saved = SessionStore(tmp_path / "k.sqlite").names("keirin")
    assert len(saved) == 1 and saved[0].startswith("keirin-")
    assert list(_session(tmp_path, saved[0]).players) == ["Ann", "Bob"]


def test_simulate_takes_races(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["keirin", "simulate", "-n", "200", "--seed", "1", "--json"]) == 0
    new = capsys.readouterr()
    assert run(["keirin", "simulate", "--races", "200", "--seed", "1", "--json"]) == 0
    assert capsys.readouterr().out == new.out and '"n": 200' in new.out
    assert new.err == ""


def test_help_shows_the_new_names_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["keirin", "play", "--help"]) == 0
    text = capsys.readouterr().out
    for name in ("--players", "--save", "--resume", "--list", "--db", "--seed", "--delay",
                 "--lang", "--plain"):
        assert name in text, name
    assert "--session" not in text and "--player " not in text
    assert run(["keirin", "watch", "--help"]) == 0
    assert "--lang" in (watch := capsys.readouterr().out) and "--plain" in watch


def test_resume_without_a_name_is_refused_before_anything_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "k.sqlite"
    assert run(["keirin", "play", "--resume", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "needs a session's name" in err and "'--db'" in err
    assert len(err.strip().splitlines()) == 1 and not db.exists()


# --- the compact board ---------------------------------------------------------------------
def test_the_board_and_the_ticket_prompt_fit_24_lines_at_80_columns(tmp_path: Path) -> None:
    done = _play(tmp_path, "", "-p", "Ann")
    before = done.stdout.split(PROMPT)[0].splitlines()
    assert before[-1] == "Ann [10,000.00 left] "  # the prompt's line begins
    board = before[before.index(next(x for x in before if "odds board" in x)):-1]
    assert len(board) + 1 <= 24  # the board, then the prompt's line
    assert all(len(line) <= 80 for line in board)
    assert board[1].split()[:3] == ["win", "%", "odds"]  # the win block first…
    assert all(kind in board[1] for kind in ("quinella", "exacta", "trio", "trifecta"))
    riders = [line.split()[0] for line in board[2:11]]
    assert sorted(riders) == [str(r) for r in range(1, 10)]  # …with every rider
    assert "odds" in board[-1]  # and where the rest is


def test_odds_prints_every_board_in_full(tmp_path: Path) -> None:
    done = _play(tmp_path, "odds\n", "-p", "Ann", "--top", "5")
    after = done.stdout.split(PROMPT)[1]
    for kind in ("win", "quinella (5 of 36)", "exacta (5 of 72)", "trio (5 of 84)",
                 "trifecta (5 of 504)"):
        assert f"\n{kind}" in after, kind
    assert len(re.findall(r"│ \d-\d-\d +│", after)) == 5


# --- help, ?, quit and undo at every prompt ---------------------------------------------------
@pytest.mark.parametrize("word", ["help", "?"])
def test_help_at_the_ticket_prompt_explains_tickets_and_the_four_words(
    tmp_path: Path, word: str
) -> None:
    done = _play(tmp_path, f"{word}\n", "-p", "Ann")
    after = done.stdout.split(PROMPT)[1]
    assert "TYPE RIDERS STAKE" in after and "win 3 100" in after
    assert "At any prompt: help or ?" in after
    assert done.stdout.count(PROMPT) == 2  # asked again after the help


def test_undo_at_the_ticket_prompt_takes_back_the_last_ticket_or_says_there_is_none(
    tmp_path: Path,
) -> None:
    done = _play(tmp_path, "undo\nwin 3 100\nexacta 3-4 50\nundo\n\nn\n", "-p", "Ann")
    text = " ".join(done.stdout.split())
    assert "you have no ticket to take back" in text
    assert "taken back: exacta 3-4 for 50.00" in text
    settled = SessionStore(tmp_path / "k.sqlite").log("keirin", "t")[0]
    assert [(t["kind"], t["stake"]) for t in settled["tickets"]] == [("win", 10_000)]


def test_quit_at_the_ticket_prompt_ends_the_night_saved_and_says_how_to_resume(
    tmp_path: Path,
) -> None:
    done = _play(tmp_path, "win 3 100\nquit\n", "-p", "Ann")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "its 1 ticket is withdrawn, no money moved" in text
    assert "Standings after 0 races" in text
    assert ("Saved as 't'; continue with: raceday keirin play --resume t --db "
            f"{tmp_path / 'k.sqlite'}") in done.stdout  # one unbroken line
    saved = _session(tmp_path)
    assert saved.races == 0 and saved.players["Ann"].bankroll == 1_000_000


@pytest.mark.parametrize("word", ["help", "?"])
def test_help_at_another_race(tmp_path: Path, word: str) -> None:
    done = _play(tmp_path, f"\n{word}\nn\n", "-p", "Ann")
    after = done.stdout.split("Another race? (Y/n)")[1]
    assert "run another race" in after and "At any prompt" in after
    assert done.stdout.count("Another race? (Y/n)") == 2


def test_undo_and_quit_at_another_race(tmp_path: Path) -> None:
    done = _play(tmp_path, "win 3 100\n\nundo\nquit\n", "-p", "Ann")
    assert done.returncode == 0
    assert "Nothing to take back here: race 1 is settled and paid." in done.stdout
    assert "Standings after 1 race " in done.stdout
    assert "Saved as 't'; continue with" in done.stdout
    assert _session(tmp_path).races == 1


def test_a_night_goes_on_after_resume(tmp_path: Path) -> None:
    _play(tmp_path, "\nn\n", "-p", "Ann")
    again = _play(tmp_path, "win 1 10\n\nn\n", "--resume", "t", name="")
    assert again.returncode == 0, again.stderr
    assert "Resuming session 't': 1 race settled." in " ".join(again.stdout.split())
    assert _session(tmp_path).races == 2


# --- wording ---------------------------------------------------------------------------------
def test_counts_are_worded_one_and_many(tmp_path: Path) -> None:
    one = _play(tmp_path, "\nn\n", "-p", "Ann", name="one")
    assert "Standings after 1 race " in one.stdout and "race(s)" not in one.stdout
    two = _play(tmp_path, "\ny\n\nn\n", "-p", "Ann", name="two")
    assert "Standings after 2 races " in two.stdout


def test_the_race_never_says_someone_leads_after_the_winner_is_across() -> None:
    """A turn after the first place is given names the place still raced for ("the chase
    for place 2 is led by no. 5"), never "R5 leads."; the end says who won."""
    options = KeirinOptions.parse({})
    for seed in range(12):
        out = io.StringIO()
        surface = LineSurface(Console(file=out, width=80), "en")
        race = functools.partial(_race, options, seed)
        state = show_race(surface, race, 0)
        lines = out.getvalue().splitlines()
        first = next(i for i, line in enumerate(lines) if "Place 1:" in line)
        assert not any(line.rstrip().endswith("leads.") for line in lines[first:]), seed
        assert lines[-1] == f"Rider {state.ranked[0]} wins!"


def _race(options: KeirinOptions, seed: int,
          on_events: Callable[[State, list[Event]], None]) -> KeirinState:
    state = KeirinState(options)
    play_game(state, [], np.random.default_rng(seed), max_steps=GAME.max_steps(options),
              on_events=on_events)
    return state


# --- Japanese ------------------------------------------------------------------------------
def test_play_speaks_japanese_and_takes_japanese_bet_names(tmp_path: Path) -> None:
    done = _play(tmp_path, "単勝 3 100\nhelp\nundo\nexacta 3-4 50\n\nn\n", "-p", "太郎",
                 "--lang", "ja")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "第1レース — オッズ表" in out and "単勝" in out and "2車単" in out
    assert "太郎［残り 10,000.00］車券" in out
    assert "受付：単勝 3 100.00（オッズ 5.27）" in out
    assert "取り消し：単勝 3 100.00" in out and "車券のプロンプトで" in out
    assert "6番の勝ち！" in out or "番の勝ち！" in out
    assert "もう1レース？" in out and "として保存しました。続きは：" in out
    assert "Race " not in out and "Standings" not in out  # no English left over
    settled = SessionStore(tmp_path / "k.sqlite").log("keirin", "t")[0]
    assert [t["kind"] for t in settled["tickets"]] == ["exacta"]


def test_the_locale_chooses_japanese_and_lang_overrides_it(tmp_path: Path) -> None:
    base = [sys.executable, "-m", "raceday", "keirin", "watch", "--seed", "3", "--delay",
            "0", "-r", "6"]
    env = {"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "COLUMNS": "80"}
    ja = subprocess.run(base, env={**env, "LANG": "ja_JP.UTF-8"}, capture_output=True,
                        text=True, timeout=120)
    en = subprocess.run([*base, "--lang", "en"], env={**env, "LANG": "ja_JP.UTF-8"},
                        capture_output=True, text=True, timeout=120)
    assert ja.returncode == en.returncode == 0, ja.stderr + en.stderr
    assert "スタート" in ja.stdout and "の勝ち！" in ja.stdout and "選手" in ja.stdout
    assert "Start" in en.stdout and "wins!" in en.stdout and "スタート" not in en.stdout
    # the same race either way
    assert re.findall(r"R\d \d+→\+\d", ja.stdout) == re.findall(r"R\d \d+→\+\d", en.stdout)


# --- the names prompt (a person at a terminal gave no -p) ---------------------------------
def _scripted_night(tmp_path: Path, answers: list[str], monkeypatch: pytest.MonkeyPatch
                    ) -> tuple[str, list[str]]:
    """A night asked for its players' names on a line surface, answered by ``answers``;
    what it printed and the prompts it asked."""
    from raceday.games.keirin.interactive import play_night, prepare_night
    from raceday.terminal import lineinput
    from raceday.terminal.surface import Prompt

    asked: list[str] = []

    def reader(prompt: Prompt, console: object = None) -> str:
        asked.append(prompt.text)
        if not answers:
            raise EOFError
        return answers.pop(0)

    monkeypatch.setattr(lineinput, "ask", reader)
    night = prepare_night(players=None, bankroll="10000", margin=0.0, pool=False,
                          allow_debt=False, save="named", resume=None,
                          db=tmp_path / "k.sqlite", seed=31, riders=6, length=50, derny=None,
                          top=8, delay=0, lang="en", ask_names=True)
    out = io.StringIO()
    assert play_night(LineSurface(Console(file=out, width=80), "en"), night) == 0
    return out.getvalue(), asked


def test_without_players_a_terminal_asks_their_names_with_help_and_undo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text, asked = _scripted_night(
        tmp_path, ["", "?", "undo", "Ann, Bob", "win 1 10", "", "", "n"], monkeypatch)
    assert asked[:5] == ["Players' names, separated by commas> "] * 4 + [
        "Ann [10,000.00 left] ticket (Enter = done, help)> "]
    assert "Refused: name at least one player" in text
    assert "Type the players' names separated by commas" in text and "At any prompt" in text
    assert "Nothing to take back yet: no player is named." in text
    assert list(_session(tmp_path, "named").players) == ["Ann", "Bob"]
    assert _session(tmp_path, "named").races == 1


def test_quit_at_the_names_prompt_saves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text, _ = _scripted_night(tmp_path, ["quit"], monkeypatch)
    assert "Nothing was saved: the night had no players yet." in text
    assert SessionStore(tmp_path / "k.sqlite").names("keirin") == []


def test_without_players_a_pipe_is_refused_naming_the_option(tmp_path: Path) -> None:
    done = _play(tmp_path, "")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "name at least one player (--players NAMES" in done.stderr
