"""Dice Derby's party in the full-screen kit, driven by Textual's pilot at 80x24 and 120x40
(#33): a sealed bid never on screen, a ticket typed with completion and one chosen from the
list, undo, quit at the last save; and snapshots of the auction, betting and race screens.
Waits are on conditions (the loop blocked in ask), never on time."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from raceday.games.derby.evening import EveningState
from raceday.games.derby.saved import saved_evening
from raceday.store.sessions import SessionStore
from raceday.terminal.tui import GameApp
from raceday.terminal.tui.testing import answer, wait_for, wait_for_prompt

from .terminal_party import party_app

SIZES = [(80, 24), (120, 40)]


def saved(db: Path) -> EveningState:
    return saved_evening(SessionStore(db), "fs")  # the saved record's evening


async def to_betting(pilot: Pilot[int], app: GameApp) -> None:
    """Aki bids 1200 for the d4 and Ben 800; then no bids until betting opens."""
    await answer(pilot, app, "1200")
    await answer(pilot, app, "800")
    for _ in range(12):
        prompt = await wait_for_prompt(pilot, app)
        if prompt is None or not prompt.secret:
            return
        await answer(pilot, app, "0")


def drive(db: Path, size: tuple[int, int], scenario: Any, stopped: list[str] | None = None,
          state: EveningState | None = None) -> GameApp:
    app = party_app(db, state, stopped=stopped)

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot, app)

    asyncio.run(run())
    return app


@pytest.mark.parametrize("size", SIZES)
def test_a_sealed_bid_is_never_on_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        prompt = await wait_for_prompt(pilot, app)
        assert prompt is not None and prompt.secret
        assert "multiples of 100" in app.status_text()
        await pilot.press(*"4321")
        await pilot.pause()
        assert app.answer_input.password
        assert "4321" not in app.board_text() + app.log_text()
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.prompts_opened >= 2, "Ben's bid")
        assert "4321" not in app.board_text() + app.log_text()
        assert "Auction" in app.board_text() and "d4" in app.board_text()

    drive(tmp_path / "s.sqlite", size, scenario)


@pytest.mark.parametrize("size", SIZES)
def test_a_ticket_typed_with_completion_and_one_chosen_from_the_list(
        tmp_path: Path, size: tuple[int, int]) -> None:
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await to_betting(pilot, app)
        assert "Race 1 of 4" in app.board_text() and "stakes in multiples of 100" in (
            app.status_text().lower())
        await pilot.press(*"qui")
        await wait_for(pilot, lambda: app.answer_input._suggestion == "quinella",
                       "the completion")
        await pilot.press("tab")
        assert app.answer_input.value == "quinella"
        opened = app.prompts_opened
        await pilot.press(*" d10-d12 300", "enter")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the next ticket")
        assert "quinella d10-d12 for 300" in app.log_text()
        app.choice_list.focus()
        await pilot.press("down", "down")  # done, then the first win ticket
        await wait_for(pilot, lambda: app.choice_list.highlighted == 1, "a win ticket")
        opened = app.prompts_opened
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the next ticket")
        assert "win d20 for 100" in app.log_text()
        await answer(pilot, app, "done")  # Aki
        await answer(pilot, app, "done")  # Ben: the race runs, then waits for Enter

    db = tmp_path / "t.sqlite"
    drive(db, size, scenario)
    race = saved(db).ledger.history[0]
    mine = sorted((t.kind, t.stake) for t in race.tickets if t.player == 0)
    assert mine == [("quinella", 300), ("win", 100)]


@pytest.mark.parametrize("size", SIZES)
def test_undo_takes_back_a_ticket_and_quit_stops_at_the_last_save(
        tmp_path: Path, size: tuple[int, int]) -> None:
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await to_betting(pilot, app)
        await answer(pilot, app, "win d20 500")
        assert "(holds 8300)" in (app.waiting.text if app.waiting else "")
        opened = app.prompts_opened
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the prompt again")
        assert "Taken back: win d20 500" in app.log_text()
        assert "(holds 8800)" in (app.waiting.text if app.waiting else "")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: app.return_code is not None or app.finished, "quit")

    db = tmp_path / "q.sqlite"
    stopped: list[str] = []
    drive(db, size, scenario, stopped)
    assert stopped == ["quit"]
    state = saved(db)
    assert state.phase == "betting" and state.ledger.tickets == []


async def _still(pilot: Pilot[int], app: GameApp) -> None:
    """The same screen in every run: no blinking cursor, every redraw done."""
    app.answer_input.cursor_blink = False
    await pilot.pause()
    await pilot.pause()


async def _auction(pilot: Pilot[int], app: GameApp) -> None:
    await wait_for_prompt(pilot, app)
    await pilot.press(*"1200")  # typed, hidden
    await _still(pilot, app)


async def _betting(pilot: Pilot[int], app: GameApp) -> None:
    await to_betting(pilot, app)
    app.choice_list.focus()
    await pilot.press("down", "down")  # a ticket previewed on the odds board
    await wait_for(pilot, lambda: app.choice_list.highlighted == 1, "the previewed ticket")
    await _still(pilot, app)


async def _race(pilot: Pilot[int], app: GameApp) -> None:
    await to_betting(pilot, app)
    await answer(pilot, app, "win d20 500")
    await answer(pilot, app, "done")
    await answer(pilot, app, "done")
    await wait_for_prompt(pilot, app)  # the result and standings stay until Enter
    app.answer_input.focus()
    await _still(pilot, app)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", ["auction", "betting", "race"])
def test_snapshot(snap_compare: Any, tmp_path: Path, size: tuple[int, int],
                  screen: str) -> None:
    steps = {"auction": _auction, "betting": _betting, "race": _race}[screen]
    app = party_app(tmp_path / "snap.sqlite")

    async def run_before(pilot: Pilot[int]) -> None:
        await steps(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_watch_draws_the_track_and_ends_with_the_result(size: tuple[int, int]) -> None:
    from raceday.games.derby.cli import watch_loop
    from raceday.games.derby.rules import DerbyOptions
    from raceday.terminal.tui.testing import wait_until_finished

    app = GameApp(watch_loop(DerbyOptions(), 3, 0.0, "en"), title="Dice Derby")

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            assert await wait_until_finished(pilot, app) == 0
            await pilot.pause()
            board = app.board_text()
            assert "The track" in board and "1st" in board and "6th" in board
            assert "Result: 1st the d20, 2nd the d6." in app.log_text()
            assert "seed 3 (--seed 3 gives the same race again)" in app.log_text()

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_the_host_types_the_tables_dice_and_undo_is_refused_in_words(
        tmp_path: Path, size: tuple[int, int]) -> None:
    from .terminal_party import party_state

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await to_betting(pilot, app)
        await answer(pilot, app, "done")
        prompt = await answer(pilot, app, "done")
        assert prompt is not None and "Host, the numbers for furlong 1" in prompt.text
        assert "Host: type the dice" in app.status_text()
        await answer(pilot, app, "undo")
        assert "dice the table rolled stand" in app.log_text()
        await answer(pilot, app, "4 2 3 4 5 6")
        assert "→ The d6 drops out." in app.log_text()
        track = [line for line in app.board_text().splitlines() if " d20 " in line]
        assert track and "6" in track[0].split("d20", 1)[1]  # the d20 showed 6

    drive(tmp_path / "h.sqlite", size, scenario, state=party_state(host=True))


def test_the_final_standings_have_the_boards_room_at_120x40(tmp_path: Path) -> None:
    """At the end the standings table is on the board (80 columns), not squeezed into the
    38-column log: every column heading is whole on the screen, none cut to "R…". The
    evening is played by the rules to its last race, which the screen plays out."""
    from .terminal_party import party_state, played_to_race

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        for _ in range(120):
            prompt = await wait_for_prompt(pilot, app)
            if prompt is None:
                break
            await answer(pilot, app, "0" if prompt.secret
                         else "done" if "done" in prompt.words else "")
        await wait_for(pilot, lambda: app.finished, "the end of the party")
        screen = [strip.text for strip in app.screen._compositor.render_strips()]
        shown = "\n".join(screen)
        heads = [row for row in screen if "Debt" in row]
        assert heads, shown
        for column in ("Rank", "Player", "Money", "Debt", "Net", "Horse", "Prizes"):
            assert column in heads[0], shown
        assert "…" not in shown, shown

    drive(tmp_path / "f.sqlite", (120, 40), scenario,
          state=played_to_race(party_state(races=4), 4))
