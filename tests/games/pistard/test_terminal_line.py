"""PISTARD in the terminal, line by line (piped or --plain): the one vocabulary, the
universal prompt words (help, ?, quit, undo), boards whose squares keep their colour letter
under a rider, a decision screen that fits 24 lines, clean `track` output, and Japanese."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.games.pistard.game import GAME
from raceday.games.pistard.moves import place_action
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.render import board_text_view
from raceday.games.pistard.saves import load_race
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import LETTERS
from raceday.store.sessions import SessionStore

runner = CliRunner()
HUMAN = ["pistard", "play", "-p", "human,medium", "-k", "1", "--seed", "9", "--delay", "0"]
MOVE_PROMPT = "player 1, rider 11: move number, or a die like green 5 >"
PLACE_PROMPT = "player 1: place rider 11 (columns behind the line 1-6, lane 1-4, e.g. 1 4) >"


def _play(tmp_path: Path, script: str, *extra: str) -> str:
    result = runner.invoke(app, [*HUMAN, "--db", str(tmp_path / "s.sqlite"), *extra],
                           input=script)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def _saved(tmp_path: Path, name: str) -> PistardState:
    state = load_race(SessionStore(tmp_path / "s.sqlite"), name).state()
    assert isinstance(state, PistardState)
    return state


# --- the universal words ----------------------------------------------------------------
@pytest.mark.parametrize("word", ["help", "?"])
def test_help_and_question_mark_explain_the_prompt_and_ask_again(tmp_path: Path,
                                                                 word: str) -> None:
    out = _play(tmp_path, f"{word}\n2 4\n{word}\n1\n")
    assert "Place your rider behind the start line" in out  # the placement's own help
    assert "Choose a die: type the move's number from the list" in out  # the move's
    assert out.count("At any prompt: help or ?") == 2
    assert out.count(PLACE_PROMPT) == 2  # asked again after the help
    assert "Refused:" not in out
    assert "rider 11 lines up 2 behind the line in lane 4" in out


def test_quit_saves_and_says_how_to_go_on(tmp_path: Path) -> None:
    out = _play(tmp_path, "2 4\n1\nquit\n", "--save", "q1")
    db = tmp_path / "s.sqlite"
    assert f"Saved as 'q1'; continue with: raceday pistard play --resume q1 --db {db}" in (
        " ".join(out.split()))
    state = _saved(tmp_path, "q1")
    assert state.round >= 1 and not state.is_terminal()
    assert state.mover is not None and state.riders[state.mover].ident == 11  # at his prompt
    again = runner.invoke(app, [*HUMAN, "--db", str(db), "--resume", "q1"], input="1\n" * 300)
    assert again.exit_code == 0, again.output
    assert "resuming 'q1'" in again.output and "wins" in again.output


def test_undo_takes_back_the_last_decision_with_the_same_dice(tmp_path: Path) -> None:
    out = _play(tmp_path, "undo\n2 4\n1\nundo\nundo\n2 3\nquit\n")
    assert "nothing to take back here" in out  # before any decision of a person
    assert "took back: rider 11's move" in out
    assert "took back: the placement of rider 11" in out
    dice = re.findall(r"rider 11 threw: (.*)", out)
    # the first move, then the same throw again after its undo (no new dice for undoing)
    assert len(dice) >= 3 and dice[0] == dice[2]
    assert "rider 11 lines up 2 behind the line in lane 3" in out  # placed again, elsewhere
    assert _saved(tmp_path, "pistard").riders[0].lane in (1, 2, 3, 4)


def test_unknown_words_are_refused_and_asked_again(tmp_path: Path) -> None:
    out = _play(tmp_path, "2 4\npurple 3\n1\nquit\n")
    assert "Refused: 'purple' is not a die: use yellow, green, blue or red" in out


# --- boards -----------------------------------------------------------------------------
def _known_state() -> PistardState:
    """Two players with two riders each, placed by hand, then a few rounds of fixed dice:
    riders side by side and one behind the other."""
    state = GAME.new_state(PistardOptions(players=2, riders_per_player=2))
    for back, lane in ((1, 4), (1, 3), (2, 4), (1, 2)):
        state.apply_action(place_action(back, lane))
    rng = np.random.default_rng(5)
    for _ in range(12):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng).outcome)
        else:
            state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("size", [(80, 24), (80, 13), (120, 40), (200, 50)])
def test_every_rider_stands_beside_the_colour_letter_of_his_square(size: tuple[int, int]
                                                                   ) -> None:
    state = _known_state()
    frame = state.frame()
    text = board_text_view(state, *size)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= size[0]
    racing = [r for r in frame["riders"] if r["status"] == "race"]
    assert len(racing) == 4
    for r in racing:
        letter = LETTERS[frame["grid"][r["lane"] - 1][r["col"]]]
        rows = [line for line in lines if line.startswith(f"lane {r['lane']} ")]
        assert any(f"{letter}{r['rider']}" in row for row in rows), (r, text)
    assert "YGBR = yellow green blue red" in text  # the legend says what the letters are


def test_a_highlighted_move_marks_its_square_and_keeps_the_mover_in_view() -> None:
    state = _known_state()
    while state.mover is None or state.is_chance_node():
        rng = np.random.default_rng(2)
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng).outcome)
        else:
            state.apply_action(state.legal_actions()[0])
    mover = state.riders[state.mover].ident
    facts = state.action_message(state.legal_actions()[0]).params
    text = board_text_view(state, 80, 12, highlight=mover, target=(facts["col"], facts["lane"]))
    assert text.count("**") == 2  # the target square (its letter kept) and the legend
    assert f"{mover}" in text and "** = move ends here" in text


def test_the_move_decision_fits_24_lines_at_80_columns(tmp_path: Path) -> None:
    out = _play(tmp_path, "2 4\n1\nquit\n")
    lines = out.splitlines()
    ask = next(i for i, line in enumerate(lines) if line.startswith(MOVE_PROMPT))
    said = max(i for i in range(ask) if " lines up " in lines[i])  # the last placement
    top = min(i for i in range(said, ask) if lines[i].startswith("ride →"))
    screen = lines[top:ask + 1]
    assert len(screen) <= 24, "\n".join(screen)
    assert all(len(line) <= 80 for line in screen[:-1])  # the prompt's line runs on: no echo
    # the whole decision is on it: the track, the dice, the order and the moves
    assert sum(line.startswith("lane ") for line in screen) == 4  # one strip of the track
    assert any(line.startswith("rider 11 threw:") for line in screen)
    assert any(line.startswith("order (rider:squares to go):") for line in screen)
    assert any(re.match(r"\s*1\. ", line) for line in screen)


def test_track_shows_the_lap_and_nothing_else(tmp_path: Path) -> None:
    result = runner.invoke(app, ["pistard", "track"])
    assert result.exit_code == 0
    out = result.output
    assert '{"line"' not in out and "{" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert out.count("lane 4 ") == 2 and "infield" in out
    assert "YGBR = yellow green blue red" in out and "G21" not in out  # no riders: no rider legend


# --- the vocabulary ---------------------------------------------------------------------
def test_resume_name_and_list(tmp_path: Path) -> None:
    _play(tmp_path, "2 4\n", "--save", "first")
    _play(tmp_path, "", "--save", "second")
    listed = runner.invoke(app, ["pistard", "play", "--list", "--db",
                                 str(tmp_path / "s.sqlite")])
    assert listed.exit_code == 0
    assert re.search(r"^  first\n      Scratch, round 1, players: you, medium$", listed.output,
                     re.M), listed.output
    assert re.search(r"^  second\n      Scratch, round 0, players: you, medium$", listed.output,
                     re.M), listed.output
    out = _play(tmp_path, "1\nquit\n", "--resume", "first")
    assert "resuming 'first': Scratch, round 1" in out


class _Lines:
    """A scripted standard input (not a terminal)."""

    def __init__(self, text: str) -> None:
        self._lines = text.splitlines(keepends=True)

    def readline(self) -> str:
        return self._lines.pop(0) if self._lines else ""

    def isatty(self) -> bool:
        return False

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = self.readline()
        if not line:
            raise StopIteration
        return line


def test_players_repeated_or_in_one_list(tmp_path: Path) -> None:
    one = runner.invoke(app, ["pistard", "watch", "-p", "easy,medium", "--seed", "3",
                              "--track", "short", "--delay", "0", "--db",
                              str(tmp_path / "a.sqlite")])
    two = runner.invoke(app, ["pistard", "watch", "-p", "easy", "-p", "medium", "--seed", "3",
                              "--track", "short", "--delay", "0", "--db",
                              str(tmp_path / "b.sqlite")])
    assert one.exit_code == two.exit_code == 0, (one.output, two.output)
    assert one.output == two.output and "wins" in one.output


def test_one_player_is_not_players(tmp_path: Path) -> None:
    out = runner.invoke(app, ["pistard", "watch", "--variant", "ttt", "-p", "medium",
                              "--seed", "2", "--delay", "0", "--db",
                              str(tmp_path / "t.sqlite")]).output
    assert "PISTARD — Team time trial, 1 player, 4 riders" in out
    assert "1 players" not in out and "(s)" not in out


def test_japanese_play_words(tmp_path: Path) -> None:
    out = _play(tmp_path, "?\n2 4\n1\nquit\n", "--lang", "ja")
    assert "プレイヤー1：選手11を並べる" in out
    assert "スタートラインの後ろに選手を並べます" in out  # the placement's help in Japanese
    assert "レーン4" in out and "YGBR = 黄 緑 青 赤のマス" in out
    assert "選手11の出目：" in out
    assert "「pistard」として保存しました。続きは：" in out
    assert "player 1" not in out and "Refused:" not in out


def test_japanese_from_the_locale_and_a_whole_race(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    result = runner.invoke(app, ["pistard", "watch", "-p", "easy,easy", "--seed", "2",
                                 "--track", "short", "--delay", "0", "--db",
                                 str(tmp_path / "w.sqlite")])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "ラウンド1" in out and "結果" in out and "順位" in out
    assert "round 1" not in out
