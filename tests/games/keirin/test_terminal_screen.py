"""KEIRIN full screen (#33): `keirin play` and `keirin watch` in the Textual view, driven by
the pilot at 80x24 and 120x40, and snapshots of the betting screen and the race screen.

Waits are on conditions (the loop asking, the loop ended), never on time."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest
from rich.console import RenderableType
from textual.pilot import Pilot

from raceday.games.keirin.interactive import Night, play_night, prepare_night, watch_race
from raceday.games.keirin.rules import KeirinOptions
from raceday.games.keirin.saved_night import BetSession
from raceday.store.sessions import SessionStore
from raceday.terminal.surface import Board, Prompt, Surface
from raceday.terminal.tui import GameApp
from raceday.terminal.tui.testing import answer, wait_for, wait_for_prompt, wait_until_finished

SIZES = [(80, 24), (120, 40)]
Scenario = Callable[[Pilot[int], GameApp], Awaitable[None]]

RESUME_LINE = "Saved as 'screen'; continue with: raceday keirin play --resume screen"


def _night(db: Path, lang: str = "en", wait: float = 0.0) -> Night:
    return prepare_night(players=["Ann", "Bob"], bankroll="10000", margin=0.1, pool=False,
                         allow_debt=False, save="screen", resume=None, db=db, seed=31,
                         riders=9, length=50, derny=None, top=8, delay=wait, lang=lang)


def _play_app(db: Path, lang: str = "en") -> GameApp:
    night = _night(db, lang)
    return GameApp(lambda surface: play_night(surface, night), title="KEIRIN — screen",
                   lang=lang)


def _run(app: GameApp, size: tuple[int, int], scenario: Scenario) -> GameApp:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot, app)

    asyncio.run(go())
    return app


def _fits(app: GameApp) -> None:
    """The board shown fits the board's space: nothing to scroll to."""
    region = app.board_view.scrollable_content_region
    lines = app.board_text().splitlines()
    assert len(lines) <= region.height, (len(lines), region.height)
    assert max(len(line) for line in lines) <= region.width


@pytest.mark.parametrize("size", SIZES)
def test_a_night_in_full_screen_typed_chosen_undone_raced_and_paid(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        prompt = await wait_for_prompt(pilot, app)
        assert prompt is not None and "exacta" in prompt.words and "9" in prompt.words
        board = app.board_text()
        assert "Race 1 — odds board" in board
        head = next(line for line in board.splitlines() if line.startswith("win"))
        assert all(kind in head for kind in ("quinella", "exacta", "trio", "trifecta"))
        winners = [line.split()[0] for line in board.splitlines()[2:11]]
        assert sorted(winners) == [str(r) for r in range(1, 10)]  # every rider's win odds
        _fits(app)
        assert "Ann" in app.status_text() and "Enter: done" in app.status_text()

        # typed, Tab completing it to the favourite of its bet type
        app.answer_input.focus()
        await pilot.press(*"exa")
        await pilot.press("tab")
        assert app.answer_input.value == "exacta 3-4 100"
        opened = app.prompts_opened
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the next prompt")
        assert "accepted: exacta 3-4 for 100.00 at 21.84" in app.log_text()

        # chosen: the favourite's win ticket, previewed on the board while it is selected
        await pilot.press("down", "down")
        assert app.answer_input.value == "win 3 100"
        assert app._preview is not None  # the board shows the chosen ticket's row
        opened = app.prompts_opened
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the next prompt")
        assert "accepted: win 3 for 100.00 at 4.75" in app.log_text()
        assert app.moves_text() == ["Ann exacta 3-4 100.00", "Ann win 3 100.00"]

        # undo by its key takes back the last ticket
        opened = app.prompts_opened
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the next prompt")
        assert "taken back: win 3 for 100.00 at 4.75" in app.log_text()
        assert app.moves_text() == ["Ann exacta 3-4 100.00"]

        await answer(pilot, app, "")  # Ann is done
        assert "Bob" in app.status_text()
        await answer(pilot, app, "")  # Bob is done: the race runs, then the payouts
        assert "Race 1 settled — first three:" in app.board_text()
        assert "Ann" in app.board_text() and "exacta 3-4 for 100.00" in app.board_text()
        _fits(app)
        assert "wins!" in app.log_text() and "Bankrolls: Ann:" in app.log_text()
        assert "another race" in app.status_text()
        await answer(pilot, app, "n")
        assert await wait_until_finished(pilot, app) == 0
        assert "Standings after 1 race" in app.board_text()
        assert RESUME_LINE in app.log_text()

    _run(_play_app(tmp_path / "k.sqlite"), size, scenario)
    saved = BetSession.load(SessionStore(tmp_path / "k.sqlite"), "screen")
    assert saved.races == 1
    log = SessionStore(tmp_path / "k.sqlite").log("keirin", "screen")
    assert [(t["player"], t["kind"]) for t in log[0]["tickets"]] == [("Ann", "exacta")]


@pytest.mark.parametrize("size", SIZES)
def test_quit_in_full_screen_ends_the_night_saved(tmp_path: Path, size: tuple[int, int]
                                                  ) -> None:
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "win 3 100")
        await pilot.press("ctrl+q")  # (q alone types a q: quinella starts with it)
        await wait_for(pilot, lambda: app.return_code is not None or app.finished,
                       "the night to end")

    app = _run(_play_app(tmp_path / "k.sqlite"), size, scenario)
    assert "its 1 ticket is withdrawn" in app.log_text()
    assert RESUME_LINE in app.log_text()
    saved = BetSession.load(SessionStore(tmp_path / "k.sqlite"), "screen")
    assert saved.races == 0 and saved.players["Ann"].bankroll == 1_000_000


@pytest.mark.parametrize("size", SIZES)
def test_help_in_full_screen_shows_the_ticket_help_and_asks_again(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await wait_for_prompt(pilot, app)
        prompt = await answer(pilot, app, "?")
        assert prompt is not None and "ticket" in prompt.text  # the same prompt again
        assert "TYPE RIDERS STAKE" in app.log_text() and "At any prompt" in app.log_text()

    _run(_play_app(tmp_path / "k.sqlite"), size, scenario)


@pytest.mark.parametrize("size", SIZES)
def test_japanese_in_full_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await wait_for_prompt(pilot, app)
        assert "第1レース — オッズ表" in app.board_text() and "単勝" in app.board_text()
        await answer(pilot, app, "単勝 3 100")
        assert "受付：単勝 3 100.00（オッズ 4.75）" in app.log_text()
        assert "残り 9,900.00" in app.status_text()

    _run(_play_app(tmp_path / "k.sqlite", "ja"), size, scenario)


@pytest.mark.parametrize("size", SIZES)
def test_watch_in_full_screen_keeps_the_race_on_the_board_and_ends_with_the_result(
    size: tuple[int, int]
) -> None:
    main = watch_race(KeirinOptions.parse({}), 7, 0.0)
    turns: list[str] = []

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        assert await wait_until_finished(pilot, app) == 0
        turns.extend(line for line in app.log_text().splitlines() if "Turn " in line)
        board = app.board_text()
        assert "Result" in board and "Rider 3 wins!" in board
        assert all(f"R{r}" in board for r in range(1, 10))
        _fits(app)
        assert "Rider 3 wins!" in app.log_text()
        assert "seed 7 (--seed 7 gives the same race again)" in app.log_text()

    _run(GameApp(main, title="KEIRIN — watch"), size, scenario)
    assert len(turns) >= 10  # each turn's heading in the log, its commentary under it


@pytest.mark.parametrize("size", SIZES)
def test_quit_while_the_race_runs_keeps_its_tickets_locked_for_the_resume(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    night = _night(tmp_path / "k.sqlite")

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "win 3 100")
        await answer(pilot, app, "")
        await pilot.press("enter")  # Bob is done: the race starts, and is held at turn 2
        await wait_for(pilot, lambda: "Turn 2" in app.board_text(), "the race")
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code is not None or app.finished,
                       "the night to end")

    app = _run(GameApp(lambda surface: play_night(HeldAt(surface, 3), night),
                       title="KEIRIN — screen"), size, scenario)
    assert "race 1's 1 ticket is locked and the race runs on resume" in app.log_text()
    assert RESUME_LINE in app.log_text()
    saved = BetSession.load(SessionStore(tmp_path / "k.sqlite"), "screen")
    assert saved.races == 0 and saved.pending is not None and len(saved.pending) == 1


@pytest.mark.parametrize("size", SIZES)
def test_a_terminal_without_players_asks_their_names(tmp_path: Path, size: tuple[int, int]
                                                     ) -> None:
    night = prepare_night(players=None, bankroll="10000", margin=0.0, pool=False,
                          allow_debt=False, save="named", resume=None,
                          db=tmp_path / "k.sqlite", seed=31, riders=9, length=50, derny=None,
                          top=8, delay=0, lang="en", ask_names=True)

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        prompt = await wait_for_prompt(pilot, app)
        assert prompt is not None and "names" in prompt.text
        prompt = await answer(pilot, app, "Ann, Bob")
        assert prompt is not None and prompt.text.startswith("Ann [10,000.00 left] ticket")
        assert "Race 1 — odds board" in app.board_text()

    _run(GameApp(lambda surface: play_night(surface, night), title="KEIRIN"), size, scenario)
    assert list(BetSession.load(SessionStore(tmp_path / "k.sqlite"), "named").players) == [
        "Ann", "Bob"]


# --- snapshots --------------------------------------------------------------------------------
async def _betting(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, GameApp)
    app.answer_input.cursor_blink = False  # the same cursor in every snapshot
    await answer(pilot, app, "exacta 3-4 50")
    await pilot.press("down", "down")  # the favourite's win ticket, previewed
    await wait_for(pilot, lambda: app._preview is not None, "the preview")
    # the log rewrites itself when the choice list narrows it; show its end, as a player
    # sees it once it has settled, whatever the moment of the rewrite
    await pilot.pause()
    app.log_widget.scroll_end(animate=False, immediate=True)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_of_the_betting_screen(snap_compare, tmp_path: Path, size: tuple[int, int]
                                        ) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(_play_app(tmp_path / "k.sqlite"), terminal_size=size,
                        run_before=_betting)


class HeldAt:
    """A surface that lets a watch run at once up to its ``stop``-th pause and holds it
    there (a minute, until the snapshot closes the view): the same screen every time."""

    def __init__(self, surface: Surface, stop: int) -> None:
        self.surface, self.stop, self.pauses = surface, stop, 0
        self.lang, self.full_screen = surface.lang, surface.full_screen

    def board(self, board: Board, status: str | None = None) -> None:
        self.surface.board(board, status)

    def say(self, text: RenderableType) -> None:
        self.surface.say(text)

    def status(self, text: str) -> None:
        self.surface.status(text)

    def moves(self, lines: Sequence[str]) -> None:
        self.surface.moves(lines)

    def ask(self, prompt: Prompt) -> str:
        return self.surface.ask(prompt)

    def pause(self, seconds: float) -> None:
        self.pauses += 1
        if self.pauses >= self.stop:
            self.surface.pause(60)


async def _racing(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, GameApp)
    app.answer_input.cursor_blink = False  # the same cursor in every snapshot
    # held after turn 3: its board is up and its last line of commentary said
    await wait_for(pilot, lambda: "Turn 3" in app.board_text()
                   and "After turn 3, R1 leads." in app.log_text(), "turn 3 said")


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_of_the_race_screen(snap_compare, size: tuple[int, int]
                                     ) -> None:  # type: ignore[no-untyped-def]
    watch = watch_race(KeirinOptions.parse({}), 7, 0.0)
    app = GameApp(lambda surface: watch(HeldAt(surface, 4)), title="KEIRIN — watch")
    assert snap_compare(app, terminal_size=size, run_before=_racing)
