"""Hairpin in full screen (Textual pilot tests at 80x24 and 120x40): a move by typing, by
arrows and Enter with its preview on the board, undo with ctrl+z, help with ?, quit with q,
a game against the easy computer to its end, and the board's highlights."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest
from rich.cells import cell_len
from textual.pilot import Pilot

from raceday.games.hairpin.cli import HairpinPlay
from raceday.games.hairpin.game import GAME
from raceday.games.hairpin.render import ORIGIN_STYLE, TARGET_STYLE, draw_board
from raceday.games.hairpin.rules import HairpinState
from raceday.games.hairpin.saves import final_state, load
from raceday.store.sessions import SessionStore
from raceday.terminal.tui.app import GameApp, plain_text
from raceday.terminal.tui.testing import (
    answer,
    wait_for,
    wait_for_prompt,
    wait_until_finished,
)

SIZES = [(80, 24), (120, 40)]
BUMP_FIFTH = "..bbb./..bb.r2/rrr... r 0-0 4-0 0-0"  # choice 8 is "f2 charge d2 bump"
NEAR_THE_END = "bbbbr./....b./r.rrr. r 4-4 0-0 0-0"  # both sides one lap from winning


def game(tmp_path: Path, *, position: str | None = None, red: str = "human",
         black: str = "greedy", lang: str = "en") -> tuple[GameApp, HairpinPlay, Path]:
    db = tmp_path / "s.sqlite"
    state = HairpinState.from_text(position) if position else GAME.new_state({})
    loop = HairpinPlay(state, red, black, np.random.default_rng(7), store=SessionStore(db),
                       save="g")
    return GameApp(loop, title="Hairpin Racers", lang=lang), loop, db


def saved(db: Path) -> HairpinState:
    return final_state(load(SessionStore(db), "g"))


@pytest.mark.parametrize("size", SIZES)
def test_a_move_by_typing(tmp_path: Path, size: tuple[int, int]) -> None:
    app, _, db = game(tmp_path)

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            prompt = await wait_for_prompt(pilot, app)
            assert prompt is not None and len(prompt.choices) == 10
            assert "Red (human) to move" in app.status_text()
            assert app.moves_text() == ["no moves yet"]
            await answer(pilot, app, "a1 cruise b1")
            assert "Red (human) plays a1 cruise b1" in app.log_text()
            assert "Black (greedy) plays" in app.log_text()
            assert app.moves_text()[0] == "1. R a1 cruise b1"
            assert len(app.moves_text()) == 2
            assert "R2" in app.board_text()  # two racers on b1 now

    asyncio.run(scenario())
    assert saved(db).position.ply == 2


@pytest.mark.parametrize("size", SIZES)
def test_a_move_by_arrows_and_enter_with_its_preview(tmp_path: Path,
                                                     size: tuple[int, int]) -> None:
    app, _, _ = game(tmp_path, position=BUMP_FIFTH, black="human")

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await wait_for_prompt(pilot, app)
            for _ in range(7):
                await pilot.press("down")
            await pilot.pause()
            board = app.board_text()
            assert "▶ 7  f2 cruise e2" in board
            for _ in range(1):
                await pilot.press("down")
            await pilot.pause()
            board = app.board_text()
            assert "▶ 8  f2 charge d2 bump" in board
            assert "⚠ your 5th bump: you would be disqualified and lose" in board
            assert app.answer_input.value == "f2 charge d2 bump"
            opened = app.prompts_opened
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.prompts_opened > opened, "the question")
            assert app.waiting is not None and "Careful" in app.waiting.text
            await answer(pilot, app, "n")  # back to the list; the game is unchanged
            assert app.waiting is not None and len(app.waiting.choices) == 9
            await pilot.press("up")  # from nothing highlighted: the last choice
            await pilot.press("enter")
            await wait_for(pilot, lambda: "plays f2 charge b2 pass" in app.log_text(),
                           "the move")

    asyncio.run(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_a_mouse_click_on_a_choice_plays_it(tmp_path: Path, size: tuple[int, int]) -> None:
    app, _, _ = game(tmp_path, black="human")

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await wait_for_prompt(pilot, app)
            choices = app.choice_list
            await pilot.click(choices, offset=(4, 1))  # the first option's line
            await wait_for(pilot, lambda: "plays a1 cruise b1" in app.log_text(), "the move")

    asyncio.run(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_undo_with_ctrl_z_takes_back_the_pair(tmp_path: Path, size: tuple[int, int]) -> None:
    app, _, db = game(tmp_path)

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await wait_for_prompt(pilot, app)
            start = app.board_text()
            await pilot.press("ctrl+z")  # nothing yet: refused, asked again
            await wait_for(pilot, lambda: "nothing to take back yet" in app.log_text(),
                           "the refusal")
            await answer(pilot, app, "1")
            assert len(app.moves_text()) == 2
            opened = app.prompts_opened
            await pilot.press("ctrl+z")
            await wait_for(pilot, lambda: app.prompts_opened > opened, "the next prompt")
            assert "Undone: back to your previous move." in app.log_text()
            assert app.moves_text() == ["no moves yet"]
            assert app.board_text() == start

    asyncio.run(scenario())
    assert saved(db).position.ply == 0


@pytest.mark.parametrize("size", SIZES)
def test_help_with_the_question_mark_key(tmp_path: Path, size: tuple[int, int]) -> None:
    app, _, _ = game(tmp_path)

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await wait_for_prompt(pilot, app)
            await pilot.press("question_mark", "enter")
            await wait_for(pilot, lambda: "Type the number of a move" in app.log_text(),
                           "the help")
            assert "At any prompt: help or ?" in app.log_text()
            assert app.waiting is not None  # asked again

    asyncio.run(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_quit_with_q_saves_and_closes(tmp_path: Path, size: tuple[int, int]) -> None:
    app, _, db = game(tmp_path)

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await answer(pilot, app, "a1 cruise b1")
            await pilot.press("q", "enter")
            await wait_until_finished(pilot, app)

    asyncio.run(scenario())
    assert app.return_code == 0
    assert saved(db).position.ply == 2
    # what stays on the terminal once the view has closed: how to resume
    ending = [plain_text(entry, 200) for entry in app.ending()]
    assert ending == ["Saved as 'g'; continue with: raceday hairpin play --resume g"]


def test_a_game_against_the_easy_computer_to_its_end(tmp_path: Path) -> None:
    app, _, db = game(tmp_path, position=NEAR_THE_END, black="easy")

    async def play_on(pilot: Pilot[int]) -> None:
        while True:
            prompt = await wait_for_prompt(pilot, app)
            if prompt is None:
                break
            if "Careful" in prompt.text:
                await answer(pilot, app, "n")
                continue
            await answer(pilot, app, "1")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await play_on(pilot)
            await wait_until_finished(pilot, app)
            assert "Game over:" in app.board_text()
            assert " wins — " in app.log_text() or "Draw:" in app.log_text()
            await pilot.press("q")  # the finished view closes

    asyncio.run(scenario())
    assert saved(db).is_terminal()
    ending = [plain_text(entry, 80) for entry in app.ending()]
    assert "Game over:" in ending[0]  # the last board, then the moves and the result
    assert " wins — " in ending[-1] or "Draw:" in ending[-1]


def test_a_watch_in_full_screen_shows_the_computer_thinking(tmp_path: Path) -> None:
    state = GAME.new_state({})
    loop = HairpinPlay(state, "greedy", "random", np.random.default_rng(3), wait=0.0)
    app = GameApp(loop, title="Hairpin Racers")
    statuses: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: bool(statuses.append(app.status_text()))
                           or app.finished, "the end of the watch")
            assert "Game over:" in app.board_text()

    asyncio.run(scenario())
    assert any("is thinking…" in s for s in statuses)


def test_the_preview_marks_the_moving_racer_and_its_target() -> None:
    state = HairpinState.from_text(BUMP_FIFTH)
    move = state.move_of(state.legal_actions()[7])  # f2 charge d2 bump
    for width, height in ((50, 12), (60, 16), (80, 34)):
        text = draw_board(state.frame(), width, height, "en", move)
        marked = {str(span.style): text.plain[span.start:span.end] for span in text.spans
                  if str(span.style) in (ORIGIN_STYLE, TARGET_STYLE) and
                  text.plain[span.start:span.end].strip() not in ("", "f2", "d2")}
        assert marked[ORIGIN_STYLE].strip() == "R2"  # the racers on f2
        assert marked[TARGET_STYLE].strip() == "B"  # the black racer bumped on d2
        assert max(cell_len(line) for line in text.plain.splitlines()) <= width
        ja = draw_board(state.frame(), width, height, "ja", move)
        assert max(cell_len(line) for line in ja.plain.splitlines()) <= width


def test_the_board_grows_with_its_space() -> None:
    frame = GAME.new_state({}).frame()
    small = draw_board(frame, 56, 12).plain
    big = draw_board(frame, 80, 34).plain
    assert "a3" not in small and " a3 " in big  # big squares carry their names
    assert len(big.splitlines()) > len(small.splitlines())
    assert "━" in small  # the barriers of the double hairpin


@pytest.mark.parametrize("size", SIZES)
def test_japanese_in_full_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    app, _, _ = game(tmp_path, lang="ja")

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            prompt = await wait_for_prompt(pilot, app)
            assert prompt is not None and prompt.text.startswith("番号か手の名前")
            assert app.status_text().startswith("赤（人）の番")
            assert "赤の番" in app.board_text() and "周回 0/5" in app.board_text()
            await answer(pilot, app, "a1 cruise b1")
            assert "赤（人）：a1 cruise b1" in app.log_text()
            assert app.moves_text()[0] == "1. 赤 a1 cruise b1"
            await pilot.press("ctrl+z")
            await wait_for(pilot, lambda: "一手戻しました" in app.log_text(), "the undo")

    asyncio.run(scenario())


def test_the_board_is_drawn_again_on_a_resize(tmp_path: Path) -> None:
    app, _, _ = game(tmp_path)

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for_prompt(pilot, app)
            assert " a3 " in app.board_text()  # big squares with their names
            await pilot.resize_terminal(80, 24)
            await wait_for(pilot, lambda: " a3 " not in app.board_text(), "the redraw")
            board = app.board_text()
            assert "━" in board and "Red to move" in board
            assert max(cell_len(line) for line in board.splitlines()) <= 80

    asyncio.run(scenario())


def test_the_status_bar_names_the_side_the_board_shows_to_move_in_the_same_frame(
        tmp_path: Path) -> None:
    """After every move, read at the moment the board is drawn (in the same callback, no
    sleeps): the status bar's whose-turn names the side of the board's "to move" line.
    With the bar set by a call of its own after the board, it named the side that had
    just moved while the board already showed the next (#43)."""
    from raceday.games.hairpin.picture import side_name
    from raceday.games.hairpin.render import words

    app, _, _ = game(tmp_path, red="human", black="greedy")
    sides = {side_name(p, "en"): p for p in (0, 1)}
    to_move = {words("term.to_move", "en", side=name): p for name, p in sides.items()}
    frames: list[tuple[int, str]] = []  # (the side the board says moves, the status bar)
    drawn = app.show_board

    def show_board(board: object, status: str | None = None) -> None:
        drawn(board, status)  # type: ignore[arg-type]
        lines = [line.strip() for line in app.board_text().splitlines()]
        side = next((p for line, p in to_move.items() if line in lines), None)
        if side is not None:
            frames.append((side, app.status_text()))

    app.show_board = show_board  # type: ignore[method-assign]

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            prompt = await wait_for_prompt(pilot, app)
            while prompt is not None and len(frames) < 16:
                prompt = await answer(pilot, app, prompt.choices[-1].text)

    asyncio.run(scenario())
    assert {side for side, _ in frames} == {0, 1}, frames  # both sides moved, many times
    assert len(frames) >= 10, frames
    for side, status in frames:
        named = [p for name, p in sides.items() if status.startswith(name)]
        assert named == [side], (side, status, frames)
