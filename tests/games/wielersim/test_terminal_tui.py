"""WielerSIM in full screen (the kit's Textual view), driven by Textual's pilot at 80x24 and
120x40: a watched race runs to its end with the road, its legend and the groups on the
board and the commentary in the log; space pauses it and q stops it; a stage race asks
between stages (help, undo refused in words, quit keeps what was ridden), shows the stage's
result and the GC on the board, and watches a stage on the road. Snapshots of the watch
screen at both sizes. Waits are on conditions; the timeouts only guard against a hang."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from raceday.games.wielersim import cli
from raceday.games.wielersim.campaign import load_campaign, new_campaign, open_store
from raceday.games.wielersim.game import new_race
from raceday.games.wielersim.rules import peloton_spec
from raceday.games.wielersim.stage import resolve_tour
from raceday.terminal.surface import Surface
from raceday.terminal.tui import GameApp
from raceday.terminal.tui.testing import answer, wait_for, wait_for_prompt, wait_until_finished

SIZES = [(80, 24), (120, 40)]
Scenario = Callable[[Pilot[int], GameApp], Awaitable[None]]


def flat(text: str) -> str:
    """``text`` with its line breaks and runs of blanks as single spaces (a view wraps)."""
    return " ".join(text.split())


def play(scenario: Scenario, size: tuple[int, int], main: Callable[[Surface], int | None],
         lang: str = "en") -> GameApp:
    app = GameApp(main, title="WielerSIM", lang=lang)

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot, app)

    asyncio.run(run())
    return app


def watch_main(delay: float = 0.0, seed: int = 7) -> Callable[[Surface], None]:
    return cli.race_main(new_race({"route": "flanders", "peloton": "classics"}), seed,
                         delay=delay)


def paused_at(turn: int, main: Callable[[Surface], None]) -> Callable[[Surface], None]:
    """``main`` whose race pauses itself (as space would) at the end of ``turn``: a fixed
    moment for snapshots, whatever the speed of the machine."""
    def gated(surface: Surface) -> None:
        app = surface.app  # type: ignore[attr-defined]
        real = surface.pause
        turns = {"n": 0}

        def pause(seconds: float) -> None:
            turns["n"] += 1
            if turns["n"] == turn + 1:  # the first pause is the flying start's
                app.call_from_thread(app.toggle_pause)
            real(seconds)

        surface.pause = pause  # type: ignore[method-assign]
        main(surface)

    return gated


@pytest.mark.parametrize("size", SIZES)
def test_a_watched_race_runs_to_its_end(size: tuple[int, int]) -> None:
    boards: list[str] = []

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        # the race holds itself after turn 3, so the road is read mid-race on any machine
        await wait_for(pilot, lambda: app.paused and "Turn 3:" in app.log_text(),
                       "the race to reach turn 3 and hold")
        held = app.held_slices
        await wait_for(pilot, lambda: app.held_slices > held, "the loop to hold")
        boards.append(app.board_text())
        await pilot.press("space")
        assert await wait_until_finished(pilot, app) == 0
        boards.append(app.board_text())
        assert "The end" in app.status_text()

    app = play(scenario, size, paused_at(3, watch_main()))
    road = boards[0]
    assert "lane 5" in road and "who may accelerate" in flat(road)
    assert "bib (team colour)" in flat(road)
    assert max(len(line.rstrip()) for line in road.splitlines()) <= size[0]
    if size == (120, 40):  # the taller view has room for the groups under the road
        assert "at the front" in road
    log = app.log_text()
    assert "Flying start: 36 riders on the road" in log and "VICTORY for" in log
    assert "lane 0" not in log  # the road stays on the board, never in the log
    end = flat(boards[1])
    assert "Ronde van Vlaanderen: result" in end and "Kasper Asgreen" in end


@pytest.mark.parametrize("size", SIZES)
def test_space_pauses_the_race_and_q_stops_it(size: tuple[int, int]) -> None:
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await wait_for(pilot, lambda: "Turn 2:" in app.log_text(), "the race to run")
        await pilot.press("space")
        assert app.paused
        held = app.held_slices
        await wait_for(pilot, lambda: app.held_slices > held, "the loop to hold")
        said = app.log_text()
        await wait_for(pilot, lambda: app.held_slices > held + 3, "more held slices")
        assert app.log_text() == said  # nothing ridden while paused
        assert "Paused" in app.status_text()
        await pilot.press("space")
        await wait_for(pilot, lambda: app.log_text() != said, "the race again")
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code is not None, "the app to close")

    app = play(scenario, size, watch_main(delay=0.2))
    assert app.return_code == 0
    assert "VICTORY" not in app.log_text()  # stopped before the finish


def tour_main(tmp_path: Path) -> tuple[Callable[[Surface], None], Path]:
    db = tmp_path / "t.sqlite"
    campaign = new_campaign(open_store(db), "rvb", resolve_tour("ronde-van-belgie"),
                            peloton_spec("small"), 5)
    main = cli.tour_main(campaign, "Ronde van Belgie: 6 stages, saved as 'rvb' (seed 5).",
                         auto=False, delay=0.0,
                         resume_command="raceday wielersim tour --resume rvb")
    return main, db


@pytest.mark.parametrize("size", SIZES)
def test_a_stage_race_asks_between_stages_and_quits_keeping_the_ridden_ones(
        size: tuple[int, int], tmp_path: Path) -> None:
    main, db = tour_main(tmp_path)

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        prompt = await wait_for_prompt(pilot, app)
        assert prompt is not None and [c.text for c in prompt.choices] == ["c", "w", "s"]
        assert "0 of 6 stages ridden" in app.status_text()
        await pilot.press("question_mark", "enter")
        await wait_for(pilot, lambda: "c (or just Enter) rides" in app.log_text(), "help")
        assert "At any prompt: help or ?" in app.log_text()
        await pilot.press("u", "enter")
        await wait_for(pilot, lambda: "cannot be taken back" in app.log_text(), "refusal")
        await answer(pilot, app, "c")  # the prologue
        board = flat(app.board_text())
        assert "Prologue: stage result" in board and "General classification" in board
        assert "1 of 6 stages ridden" in app.status_text()
        await answer(pilot, app, "w")  # stage 1 on the road, then its tables
        assert "Turn 1:" in app.log_text() and "won by" in app.log_text()
        assert "Stage 1: Brugge - Oostende (flat): stage result" in flat(app.board_text())
        await pilot.press("q", "enter")
        await wait_for(pilot, lambda: app.return_code is not None, "the app to close")

    app = play(scenario, size, main)
    assert app.return_code == 0
    assert ("Stopped after 2 of 6 stages; every ridden stage is saved. Saved as 'rvb'; "
            "continue with: raceday wielersim tour --resume rvb") in flat(app.log_text())
    assert load_campaign(open_store(db), "rvb").next_stage == 2


@pytest.mark.parametrize("size", SIZES)
def test_a_stage_race_with_auto_rides_to_its_end(size: tuple[int, int], tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    campaign = new_campaign(open_store(db), "all", resolve_tour("ronde-van-belgie"),
                            peloton_spec("small"), 6)
    main = cli.tour_main(campaign, "Ronde van Belgie: 6 stages.", auto=True, delay=0.0,
                         resume_command="raceday wielersim tour --resume all")
    boards: list[str] = []

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        assert await wait_until_finished(pilot, app) == 0
        boards.append(flat(app.board_text()))

    app = play(scenario, size, main)
    log = flat(app.log_text())
    assert log.count("won by") == 6 and "Ronde van Belgie is over." in log
    assert "Final standings saved as 'all'." in log
    assert "Stage 5" in boards[0] and "General classification" in boards[0]
    assert load_campaign(open_store(db), "all").finished


def test_the_full_screen_stage_race_in_japanese(tmp_path: Path) -> None:
    main, _ = tour_main(tmp_path)

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "c")
        board = flat(app.board_text())
        assert "総合順位" in board and "プロローグ：ステージ結果" in board
        assert "ステージ終了" in app.status_text()
        await answer(pilot, app, "s")
        await wait_until_finished(pilot, app)

    app = play(scenario, (80, 24), main, lang="ja")
    assert "プロローグの優勝確率" in app.log_text() and "で中断" in app.log_text()


async def _paused(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, GameApp)
    app.answer_input.cursor_blink = False  # a blinking cursor is not part of the picture
    await wait_for(pilot, lambda: app.paused and app.held_slices > 0, "the race to pause")


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_of_the_watch(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = GameApp(paused_at(14, watch_main()), title="WielerSIM: Ronde van Vlaanderen")
    assert snap_compare(app, terminal_size=size, run_before=_paused)
