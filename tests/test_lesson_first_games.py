"""The first game at the end of the Dice Derby, KEIRIN and WielerSIM lessons (#48): at the
terminal ``raceday learn GAME`` plays the game's own table (a party, a betting night, a
watched race) with the step's computer and options, hints worded from the rules' exact
numbers; the lesson data names the game each is played as."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from raceday.core.lesson import LessonError, load_lesson, read_lesson

ROOT = Path(__file__).resolve().parents[1]


def learn(data: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``raceday learn ARGS --plain`` in a fresh process, everything saved under ``data``."""
    env = dict(os.environ, XDG_DATA_HOME=str(data), PYTHONIOENCODING="utf-8",
               TERMINAL_WIDTH="200")
    env.pop("RACEDAY_PLAIN", None)
    return subprocess.run([sys.executable, "-m", "raceday", "learn", *args, "--plain"],
                          input=stdin, env=env, capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


def last_step(game: str) -> str:
    return str(len(load_lesson(game).steps))


def test_the_play_step_names_the_game_it_is_played_as() -> None:
    assert load_lesson("derby").steps[-1].play.game == "derby_evening"  # type: ignore[union-attr]
    assert load_lesson("keirin").steps[-1].play.game == "keirin_night"  # type: ignore[union-attr]
    assert load_lesson("wielersim").steps[-1].play.game is None  # type: ignore[union-attr]
    with pytest.raises(LessonError, match="names its game as text"):
        read_lesson("derby", {"format": 1, "steps": [
            {"id": "x", "play": {"level": "cautious", "game": 7}}]})


def test_derby_first_evening_hints_at_the_bid_and_the_tickets(tmp_path: Path) -> None:
    from raceday.games.derby.agents import expected_prizes
    from raceday.games.derby.session import EveningOptions, Session

    # a bid for the d4, then no tickets: the input ends during the first race's betting
    done = learn(tmp_path, "derby", "--step", last_step("derby"), "--lang", "en",
                 stdin="1000\ndone\n")
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    session = Session.new(EveningOptions.parse({"races": 4}),
                          [("You", "human"), ("Computer 1", "cautious")])
    worth = round(expected_prizes(session, 1))
    assert "Hint: The d4 comes 1st in 2.4% of races" in out
    assert f"{worth} over 4 races" in out
    assert "Computer 1" in out and "The d4 goes to You for 1000." in out
    # the board's margin: the best ticket still gives back less than it takes (10%)
    assert "Hint: The best value on this board is" in out
    assert "comes back as 91 on average" in out
    assert "raceday derby play --resume party-1" in out
    ja = learn(tmp_path / "ja", "derby", "--step", last_step("derby"), "--lang", "ja",
               stdin="0\n")
    assert ja.returncode == 0, ja.stderr
    assert "ヒント：d4 が1着になる確率は 2.4%" in "".join(ja.stdout.split("\n"))


def test_keirin_first_night_seats_the_cautious_computer_and_hints(tmp_path: Path) -> None:
    done = learn(tmp_path, "keirin", "--step", last_step("keirin"), "--lang", "en",
                 stdin="win 1 100\ndone\n")
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert "Hint: fair odds are 1 ÷ the chance. The favourite, win" in out
    assert "accepted: win 1 for 100.00" in out
    # the easiest computer bettor buys its own ticket: a win on the favourite
    assert "a cautious computer bettor that buys its own tickets" in out
    assert re.search(r"Computer buys: win \d [\d,]+\.00\.", out), out
    assert "keirin play --resume keirin-lesson-" in out
    ja = learn(tmp_path / "ja", "keirin", "--step", last_step("keirin"), "--lang", "ja",
               stdin="done\n")
    assert ja.returncode == 0, ja.stderr
    assert "「慎重」のコンピューター" in "".join(ja.stdout.split())
    assert re.search(r"コンピューター の車券：単勝 \d", ja.stdout), ja.stdout


def test_keirin_night_ends_after_the_lessons_races(tmp_path: Path) -> None:
    # three races, each with no ticket (yes to another race between them): the night
    # stops by itself after the third, though more input follows
    done = learn(tmp_path, "keirin", "--step", last_step("keirin"), "--lang", "en",
                 stdin="done\ny\n" * 4)
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert "The night is over (3 races run)." in out
    assert out.count("Another race?") == 2


def test_wielersim_first_race_rides_the_lessons_route(tmp_path: Path) -> None:
    done = learn(tmp_path, "wielersim", "--step", last_step("wielersim"), "--lang", "en")
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert "this race rides itself" in out
    assert "Eerste koers" in out
    assert "Kapelmuur (cat. 3):" in out
    assert "Lesson finished." in out


def test_derby_hint_numbers_are_the_exact_odds() -> None:
    from raceday.games.derby.hints import place_chances
    from raceday.games.derby.odds import exact_odds

    odds = exact_odds(0)
    first, second = place_chances(odds, 6)
    assert first == odds.win[6]
    assert 0 < second < 1 and sum(place_chances(odds, h)[1] for h in range(1, 7)) == Fraction(1)
