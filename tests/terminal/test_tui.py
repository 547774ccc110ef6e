"""The full-screen kit (raceday.terminal.tui) driven by Textual's pilot at 80x24 and 120x40.

A toy loop (tests/terminal/toy.py: a counter races to 5) plays through a GameApp: answers
typed, chosen in the choice list with the arrows, completed with Tab; undo, help and quit by
their keys; the board redrawn on resize; a secret never on screen; main's exit code returned;
a watch paused and quit. Waits are on conditions (the loop blocked in ask, the loop ended),
never on time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot

from raceday.core.errors import OptionsError
from raceday.terminal.surface import Choice, Prompt, Quit, Surface
from raceday.terminal.tui import GameApp
from raceday.terminal.tui.app import plain_text
from raceday.terminal.tui.testing import answer, wait_for, wait_for_prompt, wait_until_finished

from .toy import toy_main

SIZES = [(80, 24), (120, 40)]

Scenario = Callable[[Pilot[int], GameApp], Awaitable[None]]


def play(scenario: Scenario, size: tuple[int, int], main: Callable[[Surface], int | None]
         = toy_main) -> GameApp:
    """Run ``scenario`` against a GameApp of ``main`` at ``size``; the app afterwards."""
    app = GameApp(main, title="Toy race")

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot, app)

    asyncio.run(run())
    return app


async def type_keys(pilot: Pilot[int], text: str) -> None:
    await pilot.press(*text)


@pytest.mark.parametrize("size", SIZES)
def test_answers_typed_on_the_answer_line_play_the_game_to_its_exit_code(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        prompt = await wait_for_prompt(pilot, app)
        assert prompt is not None and prompt.secret
        await type_keys(pilot, "sesame")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "The secret has 6 letters." in app.log_text(), "secret")
        for step in ("2", "2"):
            await wait_for_prompt(pilot, app)
            opened = app.prompts_opened
            await pilot.press(step, "enter")
            await wait_for(pilot, lambda o=opened: app.prompts_opened > o, "next prompt")
        assert app.moves_text() == ["1. +2", "2. +2"]
        assert "Counter at 4" in app.status_text()
        assert "Step (1, 2 or skip)" in app.status_text()
        assert "[.] [.] [.] [.] [@] [.]" in app.board_text()
        await pilot.press("1", "enter")
        assert await wait_until_finished(pilot, app) == 0
        assert "Reached 5 in 3 steps." in app.log_text()
        assert "close" in app.status_text()
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code is not None, "the app to close")

    app = play(scenario, size)
    assert app.return_code == 0


@pytest.mark.parametrize("size", SIZES)
def test_arrows_in_the_choice_list_preview_a_choice_and_enter_answers_it(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        await pilot.press("tab")  # empty answer line: Tab goes to the choice list
        assert app.focused is app.choice_list
        await pilot.press("down")
        await wait_for(pilot, lambda: app.choice_list.highlighted == 0, "first choice")
        assert "preview: to 1" in app.board_text()
        await pilot.press("down")
        await wait_for(pilot, lambda: "preview: to 2" in app.board_text(), "second preview")
        opened = app.prompts_opened
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "next prompt")
        assert app.moves_text() == ["1. +2"]
        assert "preview" not in app.board_text()  # the new board, not a preview
        assert app.focused is app.answer_input

    play(scenario, size)


@pytest.mark.parametrize("size", SIZES)
def test_up_and_down_on_the_answer_line_fill_in_the_choices(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        await pilot.press("down", "down", "down")
        await wait_for(pilot, lambda: app.answer_input.value == "skip", "third choice")
        await pilot.press("up")
        await wait_for(pilot, lambda: app.answer_input.value == "2", "second choice")
        assert "preview: to 2" in app.board_text()
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.moves_text() == ["1. +2"], "the step")

    play(scenario, size)


def test_tab_completes_the_whole_line_then_walks_the_answers_that_fit():
    def main(surface: Surface) -> int:
        moves = ["c1 cruise c2", "a1 cruise b1", "a1 charge b1"]
        word = surface.ask(Prompt("Move: ", choices=[Choice(m) for m in moves]))
        surface.say(f"played {word}")
        return 0

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await wait_for_prompt(pilot, app)
        await type_keys(pilot, "a1 c")
        await pilot.press("tab")  # two fit (the c1 move does not): the first of them
        assert app.answer_input.value == "a1 cruise b1"
        await pilot.press("tab")  # Tab again: the other one
        assert app.answer_input.value == "a1 charge b1"
        await pilot.press("tab")
        assert app.answer_input.value == "a1 cruise b1"
        await pilot.press("backspace", "backspace", "backspace", "backspace", "backspace",
                          "backspace", "backspace", "backspace", "h")
        assert app.answer_input.value == "a1 ch"
        await pilot.press("tab")  # one fits: it
        assert app.answer_input.value == "a1 charge b1"
        await pilot.press("enter")
        assert await wait_until_finished(pilot, app) == 0
        assert "played a1 charge b1" in app.log_text()

    play(scenario, (80, 24), main)


@pytest.mark.parametrize("size", SIZES)
def test_tab_completes_a_legal_word(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        await type_keys(pilot, "sk")
        await wait_for(pilot, lambda: app.answer_input._suggestion == "skip", "suggestion")
        await pilot.press("tab")
        assert app.answer_input.value == "skip"
        assert app.focused is app.answer_input
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.moves_text() == ["1. +0"], "the skip")

    play(scenario, size)


@pytest.mark.parametrize("size", SIZES)
def test_ctrl_z_and_u_answer_undo(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        await answer(pilot, app, "2")
        assert "[@]" in app.board_text().split()[2]
        opened = app.prompts_opened
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the prompt again")
        assert "Took back a step." in app.log_text()
        assert app.moves_text() == []
        assert app.board_text().split()[0] == "[@]"
        opened = app.prompts_opened
        await pilot.press("u", "enter")  # u alone on the line is the word undo
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the prompt again")
        assert "Nothing to take back here." in app.log_text()
        assert app.answer_input.value == ""

    play(scenario, size)


@pytest.mark.parametrize("size", SIZES)
def test_the_word_undo_typed_letter_by_letter_undoes_once_and_submits_nothing_else(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        await answer(pilot, app, "2")
        await answer(pilot, app, "1")
        assert app.moves_text() == ["1. +2", "2. +1"]
        opened = app.prompts_opened
        await type_keys(pilot, "undo")
        assert app.answer_input.value == "undo"  # every letter typed, none a key
        assert app.prompts_opened == opened
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the prompt again")
        assert app.moves_text() == ["1. +2"]  # one step back, not two
        assert "ndo" not in app.log_text().replace("undo", "")
        assert app.log_text().count("Took back a step.") == 1

    play(scenario, size)


@pytest.mark.parametrize("size", SIZES)
def test_question_mark_shows_the_prompts_help_and_asks_again(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        opened = app.prompts_opened
        await pilot.press("question_mark", "enter")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the prompt again")
        log = app.log_text()
        assert "Add 1 or 2 to the counter, or skip." in log
        assert "quit (stop; what is saved stays saved)" in log  # the universal words
        assert app.waiting is not None and app.waiting.text == "Step (1, 2 or skip): "
        # Enter on the empty line after the help answers nothing: the prompt stays open
        opened = app.prompts_opened
        await pilot.press("enter")
        await pilot.pause()
        assert app.prompts_opened == opened and app.waiting is not None
        assert app.moves_text() == [] and "Counter at 0" in app.status_text()
        await pilot.press("2", "enter")  # and the next answer is taken as usual
        await wait_for(pilot, lambda: app.moves_text() == ["1. +2"], "the step")

    play(scenario, size)


@pytest.mark.parametrize("size", SIZES)
def test_q_then_enter_quits_at_once_with_exit_code_0(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        await pilot.press("q")
        assert app.answer_input.value == "q" and app.return_code is None  # typed, not a key
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.return_code is not None, "the app to close")

    app = play(scenario, size)
    assert app.return_code == 0
    assert app.finished and "Reached" not in app.log_text()


def test_q_is_typed_where_a_legal_answer_starts_with_it():
    def main(surface: Surface) -> int:
        word = surface.ask(Prompt("Bet: ", choices=[Choice("quinella"), Choice("win")]))
        surface.say(f"bet {word}")
        return 0

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await wait_for_prompt(pilot, app)
        await type_keys(pilot, "qu")
        assert app.answer_input.value == "qu"
        await pilot.press("tab", "enter")
        assert await wait_until_finished(pilot, app) == 0
        assert "bet quinella" in app.log_text()

    play(scenario, (80, 24), main)


@pytest.mark.parametrize("size", SIZES)
def test_resize_redraws_a_board_given_as_a_function_of_its_space(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        # under 120 columns the board has the whole width; from 120 an 80-column board
        assert f"space {80 if size[0] >= 120 else size[0]}x" in app.board_text()
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, lambda: "space 100x" in app.board_text(), "the redraw")
        await pilot.resize_terminal(150, 45)
        # wide: the log, choices and moves form a column right of the board
        await wait_for(pilot, lambda: "space 110x" in app.board_text(), "the wide redraw")
        assert app.screen.has_class("-wide")
        await pilot.resize_terminal(60, 16)  # small: the strip under the board shrinks
        await wait_for(pilot, lambda: "space 60x8" in app.board_text(), "the small redraw")
        assert not app.screen.has_class("-wide")

    play(scenario, size)


@pytest.mark.parametrize("size", SIZES)
def test_a_secret_answer_is_never_on_screen(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        prompt = await wait_for_prompt(pilot, app)
        assert prompt is not None and prompt.secret
        await type_keys(pilot, "sesame")
        await pilot.pause()
        screen = app.export_screenshot()
        assert "sesame" not in screen
        assert "••••••" in screen  # what is typed shows as dots
        await pilot.press("enter")
        await wait_for_prompt(pilot, app)
        await type_keys(pilot, "skip")  # a plain answer does show: the check can fail
        await pilot.pause()
        screen = app.export_screenshot()
        assert "skip" in app.answer_input.value and "sesame" not in screen
        assert "sesame" not in app.log_text() and "(hidden)" in app.log_text()

    play(scenario, size)


@pytest.mark.parametrize("size", SIZES)
def test_mains_exit_code_is_the_apps(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        for step in ("2", "2"):
            await answer(pilot, app, step)
        await answer(pilot, app, "2")  # overshoots: the toy's exit code 3
        assert await wait_until_finished(pilot, app) == 3
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code is not None, "the app to close")

    app = play(scenario, size)
    assert app.return_code == 3


def test_an_error_in_main_is_one_worded_line_and_exit_code_2():
    def main(surface: Surface) -> int:
        surface.say("starting")
        raise OptionsError("--laps must be from 1 to 9, got 12")

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        assert await wait_until_finished(pilot, app) == 2
        assert app.log_text().splitlines()[-1] == "error: --laps must be from 1 to 9, got 12"
        assert "Traceback" not in app.export_screenshot()
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: app.return_code is not None, "the app to close")

    app = play(scenario, (80, 24), main)
    assert app.return_code == 2
    assert isinstance(app.error, OptionsError)


def watch_main(surface: Surface) -> int:
    """A watch: steps said one after another with a pause between them, until quit."""
    for step in range(100_000):
        surface.status(f"step {step}")
        surface.say(f"step {step}")
        surface.pause(0.001)
    return 5


@pytest.mark.parametrize("size", SIZES)
def test_space_pauses_a_watch_and_q_stops_it(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await wait_for(pilot, lambda: "step 3" in app.log_text(), "the watch to run")
        await pilot.press("space")
        assert app.paused
        held = app.held_slices
        await wait_for(pilot, lambda: app.held_slices > held, "the loop to hold")
        steps = app.log_text().count("step")
        await wait_for(pilot, lambda: app.held_slices > held + 3, "more held slices")
        assert app.log_text().count("step") == steps  # nothing said while paused
        assert "Paused" in app.status_text()
        await pilot.press("space")
        await wait_for(pilot, lambda: app.log_text().count("step") > steps, "the watch again")
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code is not None, "the app to close")

    app = play(scenario, size, watch_main)
    assert app.return_code == 0  # Quit escaped main: 0, not main's own 5


def test_closing_the_app_ends_a_loop_blocked_in_ask():
    ended: list[str] = []

    def main(surface: Surface) -> int:
        try:
            surface.ask(Prompt("Never answered: "))
        finally:
            ended.append("yes")
        return 0

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await wait_for_prompt(pilot, app)

    play(scenario, (80, 24), main)  # leaving run_test closes the app under the loop
    assert ended == ["yes"]


@pytest.mark.parametrize("size", SIZES)
def test_a_click_on_a_choice_answers_it(size):
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        opened = app.prompts_opened
        # row 0 is the list's border, rows 1-3 its choices: +1, +2, skip
        assert await pilot.click("#choices", offset=(4, 2))
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the next prompt")
        assert app.moves_text() == ["1. +2"]

    play(scenario, size)


def test_typing_in_the_choice_list_carries_on_in_the_answer_line():
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        await pilot.press("tab")
        assert app.focused is app.choice_list
        await pilot.press("s", "k")
        assert app.focused is app.answer_input
        assert app.answer_input.value == "sk"
        await wait_for(pilot, lambda: app.answer_input._suggestion == "skip", "suggestion")
        await pilot.press("tab")  # completes "sk" to "skip"
        assert app.answer_input.value == "skip" and app.focused is app.answer_input
        await pilot.press("tab")  # nothing more to complete: to the list
        assert app.focused is app.choice_list
        await pilot.press("tab")  # Tab goes back to the answer line
        assert app.focused is app.answer_input
        await pilot.press("tab")
        assert app.focused is app.choice_list
        await pilot.press("escape")  # Esc goes back too
        assert app.focused is app.answer_input and app.answer_input.value == "skip"

    play(scenario, (80, 24))


def test_the_ending_keeps_the_last_board_and_what_came_after_the_last_answer():
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        for step in ("2", "2", "1"):
            await answer(pilot, app, step)
        assert await wait_until_finished(pilot, app) == 0

    app = play(scenario, (80, 24))
    ending = [plain_text(entry, 80) for entry in app.ending()]
    assert ending[0].startswith("[.] [.] [.] [.] [.] [@]")  # the final board
    assert ending[1:] == ["Reached 5 in 3 steps."]  # not the log before the last answer


def test_a_quit_ends_with_what_the_loop_said_after_it_and_no_board():
    def main(surface: Surface) -> int:
        surface.board("the board")
        try:
            surface.ask(Prompt("Go: ", choices=[Choice("a")]))
        except Quit:
            surface.say("Saved; resume with: raceday toy --resume t1")
            raise
        return 0

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await wait_for_prompt(pilot, app)
        await pilot.press("q", "enter")
        await wait_for(pilot, lambda: app.return_code is not None, "the app to close")

    app = play(scenario, (80, 24), main)
    assert [plain_text(entry, 80) for entry in app.ending()] == [
        "Saved; resume with: raceday toy --resume t1"]


def test_a_board_that_cannot_be_drawn_in_its_space_says_so_and_the_game_goes_on():
    def wide_board(width: int, height: int) -> str:
        if width < 90:
            raise ValueError("needs 90 columns")
        return f"wide board {width}"

    def main(surface: Surface) -> int:
        surface.board(wide_board)
        surface.ask(Prompt("Go: ", choices=[Choice("a")]))
        return 0

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await wait_for_prompt(pilot, app)
        assert "cannot be drawn in 80×" in app.board_text()
        assert "needs 90 columns" in app.board_text()
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, lambda: "wide board 100" in app.board_text(), "the redraw")
        await answer(pilot, app, "a")
        assert await wait_until_finished(pilot, app) == 0

    play(scenario, (80, 24), main)


def test_a_prompt_read_directly_opens_in_the_view():
    from raceday.terminal import common, lineinput

    def main(surface: Surface) -> int:
        again = common.ask_yes_no("Another race?", default=False)
        name = common.read_line("Name: ")
        surface.say(f"again={again} name={name}")
        return 0

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        prompt = await wait_for_prompt(pilot, app)
        assert prompt is not None and prompt.text == "Another race? (y/N) "
        await answer(pilot, app, "y")
        await answer(pilot, app, "quit")  # read as typed: read_line's caller decides
        assert await wait_until_finished(pilot, app) == 0
        assert "again=True name=quit" in app.log_text()

    play(scenario, (80, 24), main)
    assert lineinput._full_screen_reader is None  # the terminal reads again


def test_a_click_on_the_log_keeps_typing_on_the_answer_line():
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await answer(pilot, app, "sesame")
        await pilot.click("#log", offset=(3, 2))
        await pilot.press("2")
        assert app.focused is app.answer_input and app.answer_input.value == "2"

    play(scenario, (80, 24))


def test_the_view_speaks_japanese():
    app = GameApp(toy_main, title="レース", lang="ja")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await answer(pilot, app, "ひみつ")
            assert app.log_widget.border_title == "記録"
            assert "(hidden)" not in app.log_text() and "› （非表示）" in app.log_text()
            opened = app.prompts_opened
            await pilot.press("question_mark", "enter")
            await wait_for(pilot, lambda: app.prompts_opened > opened, "the prompt again")
            assert "どの入力でも" in app.log_text()
            await pilot.press("q", "enter")
            await wait_for(pilot, lambda: app.return_code is not None, "the app to close")

    asyncio.run(run())
    assert app.return_code == 0


async def _before_snapshot(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, GameApp)
    await answer(pilot, app, "sesame")
    await answer(pilot, app, "2")
    await pilot.press("down", "down")
    await wait_for(pilot, lambda: "preview: to 4" in app.board_text(), "the preview")


@pytest.mark.parametrize("size", SIZES)
def test_snapshot(snap_compare, size):
    assert snap_compare(GameApp(toy_main, title="Toy race"), terminal_size=size,
                        run_before=_before_snapshot)
