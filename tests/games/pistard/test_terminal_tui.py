"""PISTARD in full screen (Textual pilot and snapshot tests) at 80x24 and 120x40: a move
typed and a move chosen with its preview, undo and quit by key, a race against computers
to its end, and pictures of the decision screen."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.pilot import Pilot

from raceday.games.pistard.cli import new_race
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.saves import load_race
from raceday.games.pistard.state import PistardState
from raceday.store.sessions import SessionStore
from raceday.terminal.tui.app import GameApp
from raceday.terminal.tui.testing import (
    answer,
    wait_for,
    wait_for_prompt,
    wait_until_finished,
)

SIZES = [(80, 24), (120, 40)]


def _app(db: Path, *, riders: int = 1, kinds: tuple[str, ...] = ("human", "medium"),
         lang: str = "en") -> GameApp:
    race = new_race(PistardOptions(players=len(kinds), riders_per_player=riders), list(kinds),
                    seed=9, db=db, save="tui", lang=lang)
    return GameApp(race.main, title=race.title(), lang=lang)


def _run(app: GameApp, size: tuple[int, int],
         scenario: Callable[[Pilot[int]], Awaitable[None]]) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot)

    asyncio.run(go())


def _saved(db: Path) -> PistardState:
    state = load_race(SessionStore(db), "tui").state()
    assert isinstance(state, PistardState)
    return state


def _board_fits(app: GameApp) -> bool:
    view = app.board_view
    return view.max_scroll_y == 0 and view.max_scroll_x == 0


@pytest.mark.parametrize("size", SIZES)
def test_a_move_typed_in_full_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    app = _app(tmp_path / "s.sqlite")

    async def scenario(pilot: Pilot[int]) -> None:
        prompt = await wait_for_prompt(pilot, app)
        assert prompt is not None and "place rider 11" in prompt.text
        assert len(prompt.choices) == 24  # every start square: 6 columns behind, 4 lanes
        await answer(pilot, app, "2 4")
        assert "rider 11 lines up 2 behind the line in lane 4" in app.log_text()
        assert "Round 1 · tokens 3" in app.status_text()
        assert "player 1, rider 11: move number" in app.status_text()
        assert _board_fits(app), app.board_text()  # the whole decision, no scrolling
        board = app.board_text()
        assert "rider 11 threw:" in board and "order (rider:squares to go):" in board
        await answer(pilot, app, "1")
        assert "rider 11 plays" in app.log_text()
        assert any(line.startswith("11: ") and "lane" in line for line in app.moves_text())
        assert all(len(line) <= 20 for line in app.moves_text())  # its panel is narrow

    _run(app, size, scenario)
    assert _saved(tmp_path / "s.sqlite").round >= 2


@pytest.mark.parametrize("size", SIZES)
def test_a_move_chosen_from_the_list_is_previewed_on_the_board(tmp_path: Path,
                                                               size: tuple[int, int]) -> None:
    app = _app(tmp_path / "s.sqlite")

    async def scenario(pilot: Pilot[int]) -> None:
        await answer(pilot, app, "2 4")
        prompt = app.waiting
        assert prompt is not None and len(prompt.choices) >= 2
        assert "**" not in app.board_text().replace("** = move ends here", "")
        await pilot.press("down", "down")
        await pilot.pause()
        second = prompt.choices[1]
        assert app.answer_input.value == second.text == "2"
        board = app.board_text()
        assert "** = move ends here" in board and board.count("**") == 2  # square + legend
        assert _board_fits(app), board
        colour, value = second.shown.split()[1:3]
        await pilot.press("enter")
        await wait_for_prompt(pilot, app)
        assert f"rider 11 plays {colour} {value}" in app.log_text()

    _run(app, size, scenario)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_status_line_says_it_all_in_80_columns_in_both_languages(tmp_path: Path,
                                                                     lang: str) -> None:
    """The status bar is one line: whose turn and what to type must fit it at 80 columns
    (two cells a Japanese character), at the placement and at a move."""
    app = _app(tmp_path / "s.sqlite", lang=lang)

    async def scenario(pilot: Pilot[int]) -> None:
        await wait_for_prompt(pilot, app)
        placing = app.status_text()
        await answer(pilot, app, "2 4")
        moving = app.status_text()
        for status in (placing, moving):
            assert 0 < cell_len(status) <= 78, status
        if lang == "ja":
            assert "選手11を並べる" in placing and "トークン3" in moving
            assert "レーン4" in app.board_text() and "選手11の出目：" in app.board_text()
            assert "11番が" in app.log_text()  # the commentary is Japanese too
            assert app.waiting is not None
            assert all("レーン" in c.shown for c in app.waiting.choices if "+" in c.shown)
        else:
            assert "place rider 11" in placing and "tokens 3" in moving

    _run(app, (80, 24), scenario)


def test_undo_and_help_by_key(tmp_path: Path) -> None:
    app = _app(tmp_path / "s.sqlite")

    async def scenario(pilot: Pilot[int]) -> None:
        await answer(pilot, app, "2 4")
        opened = app.prompts_opened
        await pilot.press("ctrl+z")
        await wait_for_prompt(pilot, app)
        assert app.prompts_opened > opened
        assert "took back: the placement of rider 11" in app.log_text()
        assert app.waiting is not None and "place rider 11" in app.waiting.text
        opened = app.prompts_opened
        await pilot.press("question_mark", "enter")
        await wait_for_prompt(pilot, app)
        assert "Place your rider behind the start line" in app.log_text()

    _run(app, (80, 24), scenario)


def test_quit_by_key_saves_and_says_how_to_go_on(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    app = _app(db)
    codes: list[int] = []

    async def scenario(pilot: Pilot[int]) -> None:
        await answer(pilot, app, "2 4")
        await pilot.press("q", "enter")
        codes.append(await wait_until_finished(pilot, app))
        log = " ".join(app.log_text().split())
        assert ("Saved as 'tui'; continue with: raceday pistard play --resume tui "
                f"--db {db}") in log

    _run(app, (80, 24), scenario)
    assert codes == [0]
    state = _saved(db)
    assert not state.is_terminal() and state.mover is not None


def test_a_race_against_a_computer_to_the_end(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    app = _app(db, kinds=("human", "easy"))

    async def scenario(pilot: Pilot[int]) -> None:
        prompt: Any = await wait_for_prompt(pilot, app)
        for _ in range(400):
            if prompt is None:
                break
            prompt = await answer(pilot, app, "1 4" if "place" in prompt.text else "1")
        assert await wait_until_finished(pilot, app) == 0
        assert "wins" in app.log_text() and "result" in app.board_text()
        board = app.board_text()  # the result's table stands under the track
        assert "1st" in board and "2nd" in board and "lane 4" in board
        assert _board_fits(app), board

    _run(app, (120, 40), scenario)
    assert _saved(db).is_terminal()
    assert SessionStore(db).log("pistard", "tui")[-1]["result"]


def test_watching_in_full_screen_pauses_and_quits(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    race = new_race(PistardOptions(players=2, riders_per_player=2), ["easy", "medium"],
                    seed=4, db=db, save="tui", command="watch", wait=0.01)
    app = GameApp(race.main, title=race.title())

    async def scenario(pilot: Pilot[int]) -> None:
        await wait_for(pilot, lambda: "Round 3" in app.status_text(), "round 3")
        await pilot.press("space")
        await wait_for(pilot, lambda: app.held_slices > 3, "the race to hold")
        ridden = len(app.moves_text())
        await wait_for(pilot, lambda: app.held_slices > 10, "the race to hold on")
        assert len(app.moves_text()) == ridden  # nothing rode on while it was paused
        await pilot.press("q")
        assert await wait_until_finished(pilot, app) == 0
        assert len(app.moves_text()) == ridden
        log = " ".join(app.log_text().split())
        assert "continue with: raceday pistard watch --resume tui" in log
        assert "G21 = rider 1 of player 2" in app.board_text()

    _run(app, (80, 24), scenario)
    assert not _saved(db).is_terminal()


# --- pictures ---------------------------------------------------------------------------
def _decision(app: GameApp) -> Callable[[Pilot[int]], Awaitable[None]]:
    """Three riders each placed, then the first move's choices with the second previewed."""

    async def run_before(pilot: Pilot[int]) -> None:
        app.answer_input.cursor_blink = False  # a blinking cursor is half the pictures
        for square in ("2 4", "1 3", "3 2"):
            await answer(pilot, app, square)
        await pilot.press("down", "down")
        # A RichLog wraps a line at the width it had when the line was written, and the
        # log's width changes while the choice list opens and closes: rewrite the log's
        # lines at its settled width, so that the picture is the same on every run.
        log = app.log_widget
        lines = app.log_text().splitlines()
        log.clear()
        for line in lines:
            log.write(Text(line, style="dim" if line.startswith("›") else ""))
        scrolled = [log, app.moves_widget]
        await wait_for(pilot, lambda: all(w.scroll_y == w.max_scroll_y for w in scrolled),
                       "the log and the move list to show their last lines")
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_decision_screen_snapshot(tmp_path: Path, size: tuple[int, int],
                                  snap_compare: Any) -> None:
    app = _app(tmp_path / "s.sqlite", riders=3)
    assert snap_compare(app, terminal_size=size, run_before=_decision(app))
