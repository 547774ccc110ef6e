"""The same toy loop through the line surface (pipes and --plain): scripted standard input,
the universal words help/?/quit/undo, and run_game's line mode; and run_app, the path
run_game takes at a terminal, driven headless."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from raceday.core.errors import OptionsError
from raceday.terminal.surface import Choice, LineSurface, Prompt, Quit
from raceday.terminal.tui import GameApp, run_app, run_game
from raceday.terminal.tui.testing import answer, wait_for_prompt, wait_until_finished

from .toy import toy_main


def scripted(monkeypatch: pytest.MonkeyPatch, *lines: str) -> Console:
    """Standard input holding ``lines``; a console writing to a buffer (``.file``)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    monkeypatch.delenv("RACEDAY_PLAIN", raising=False)
    return Console(file=io.StringIO(), width=80, color_system=None, highlight=False)


def output(console: Console) -> str:
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def test_the_toy_plays_to_its_end_in_line_mode(monkeypatch):
    console = scripted(monkeypatch, "sesame", "2", "2", "1")
    assert run_game(toy_main, title="Toy", lang="en", plain=True, console=console) == 0
    out = output(console)
    assert "The secret has 6 letters." in out
    assert "Reached 5 in 3 steps." in out
    assert "Counter at 4" in out  # the status is printed when it changes


def test_help_and_question_mark_show_the_help_and_ask_again(monkeypatch):
    console = scripted(monkeypatch, "sesame", "help", "?", "1", "2", "2")
    assert run_game(toy_main, title="Toy", lang="en", plain=True, console=console) == 0
    out = output(console)
    assert out.count("Add 1 or 2 to the counter, or skip.") == 2
    assert out.count("At any prompt: help or ?") == 2
    assert "Not a step" not in out  # help was never taken for an answer
    for line in out.splitlines():  # the help starts its own line, not the prompt's
        assert "Add 1 or 2" not in line or line.startswith("Add 1 or 2")


def test_undo_takes_back_and_refuses_when_there_is_nothing(monkeypatch):
    console = scripted(monkeypatch, "sesame", "undo", "2", "u", "2", "2", "1")
    assert run_game(toy_main, title="Toy", lang="en", plain=True, console=console) == 0
    out = output(console)
    assert "Nothing to take back here." in out
    assert "Took back a step." in out
    assert "Reached 5 in 3 steps." in out  # 2 taken back, then 2, 2, 1


def test_quit_stops_with_exit_code_0(monkeypatch):
    console = scripted(monkeypatch, "sesame", "2", "quit", "1")
    assert run_game(toy_main, title="Toy", lang="en", plain=True, console=console) == 0
    assert "Reached" not in output(console)
    console = scripted(monkeypatch, "sesame", "QUIT ")
    with pytest.raises(Quit):  # the surface itself raises Quit; run_game turns it into 0
        toy_main(LineSurface(console))


def test_main_s_exit_code_is_returned(monkeypatch):
    console = scripted(monkeypatch, "sesame", "2", "2", "2")
    assert run_game(toy_main, title="Toy", lang="en", plain=True, console=console) == 3


def test_the_end_of_the_input_is_eof(monkeypatch):
    console = scripted(monkeypatch, "sesame", "2")
    with pytest.raises(EOFError):
        run_game(toy_main, title="Toy", lang="en", plain=True, console=console)


def test_japanese_help_in_line_mode(monkeypatch):
    console = scripted(monkeypatch, "x", "？", "2", "2", "1")
    assert run_game(toy_main, title="Toy", lang="ja", plain=True, console=console) == 0
    assert "どの入力でも" in output(console)


def test_a_board_function_gets_the_consoles_width(monkeypatch):
    console = scripted(monkeypatch, "x", "2", "2", "1")
    run_game(toy_main, title="Toy", lang="en", plain=True, console=console)
    assert "space 80x" in output(console)


class ScriptedApp(GameApp):
    """A GameApp that runs headless at 80x24 with ``script`` at its keys (Textual's
    auto-pilot), so run_app's whole path runs without a terminal."""

    def __init__(self, main, script) -> None:
        super().__init__(main, title="Toy")
        self.script = script

    def run(self, **_options):  # run_app calls app.run()
        return super().run(headless=True, size=(80, 24), auto_pilot=self.script)


def test_run_app_returns_the_code_and_leaves_the_ending_on_the_terminal():
    async def script(pilot) -> None:
        app = pilot.app
        for text in ("sesame", "2", "2", "2"):
            await answer(pilot, app, text)
        await wait_until_finished(pilot, app)
        await pilot.press("q")

    console = Console(file=io.StringIO(), width=80, color_system=None)
    assert run_app(ScriptedApp(toy_main, script), console) == 3
    out = output(console)
    assert out.startswith("[.] [.] [.] [.] [.] [.]\nspace 80x")  # the last board (at 6)
    assert out.rstrip().endswith("Reached 6 in 3 steps.")
    assert "The secret has" not in out  # only what came after the last answer


def test_run_app_raises_what_the_loop_raised_after_the_view_closed():
    def main(surface) -> int:
        raise OptionsError("--laps must be from 1 to 9, got 12")

    async def script(pilot) -> None:
        await wait_until_finished(pilot, pilot.app)
        await pilot.press("q")

    console = Console(file=io.StringIO(), width=80, color_system=None)
    with pytest.raises(OptionsError, match="--laps"):
        run_app(ScriptedApp(main, script), console)
    assert "--laps" not in output(console)  # the CLI words it once, not the ending too


def test_run_app_leaves_a_long_ending_line_whole_for_copying():
    resume = ("Saved as 'a-rather-long-session-name'; continue with "
              "`raceday hairpin play --resume a-rather-long-session-name --db /tmp/x.sqlite`")

    def main(surface) -> int:
        surface.board("board")
        surface.ask(Prompt("go?"))
        surface.say(resume)
        return 0

    async def script(pilot) -> None:
        app = pilot.app
        await answer(pilot, app, "go")
        await wait_until_finished(pilot, app)
        await pilot.press("q")

    console = Console(file=io.StringIO(), width=40, color_system=None)
    assert run_app(ScriptedApp(main, script), console) == 0
    assert resume in output(console).splitlines()  # one line, not cut at 40 columns


def test_a_no_wrap_line_is_left_whole_in_line_mode():
    from rich.text import Text

    console = Console(file=io.StringIO(), width=40, color_system=None)
    command = "continue with: raceday pistard play --resume q1 --db /a/rather/long/path/s.sqlite"
    LineSurface(console).say(Text(command, no_wrap=True))
    LineSurface(console).say(Text(command))
    lines = output(console).splitlines()
    assert lines[0] == command  # whole, for copying
    assert all(len(line) <= 40 for line in lines[1:]) and len(lines) > 2  # wrapped as usual


def test_ctrl_c_in_the_view_closes_it_and_leaves_the_games_interrupt_line_after_it(capsys):
    # as line by line: the loop's own Ctrl-C handling runs (it says what it kept on one
    # line) and the command's code is 130; the line is printed once the view has gone
    from raceday.terminal.common import on_interrupt

    def main(surface) -> int:
        with on_interrupt("the first answer is kept", "raceday toy --resume x"):
            surface.ask(Prompt("Step: ", choices=[Choice("1"), Choice("2")]))
            surface.ask(Prompt("Again: ", choices=[Choice("1"), Choice("2")]))
        return 0

    async def script(pilot) -> None:
        app = pilot.app
        await answer(pilot, app, "1")
        await pilot.press("ctrl+c")

    console = Console(file=io.StringIO(), width=80, color_system=None)
    assert run_app(ScriptedApp(main, script), console) == 130
    err = capsys.readouterr().err
    assert err.count("interrupted: the first answer is kept; resume with: raceday toy "
                     "--resume x") == 1


def test_ctrl_c_in_the_view_of_a_loop_without_its_own_handling_raises_keyboard_interrupt():
    async def script(pilot) -> None:
        await wait_for_prompt(pilot, pilot.app)
        await pilot.press("ctrl+c")

    console = Console(file=io.StringIO(), width=80, color_system=None)
    with pytest.raises(KeyboardInterrupt):  # the CLI turns it into its line and 130
        run_app(ScriptedApp(toy_main, script), console)


@pytest.mark.parametrize("lang, said", [("en", "needs a terminal of at least 80×24 (this one "
                                                "is 40×10): playing line by line"),
                                        ("ja", "80×24 以上の端末が必要です（この端末は 40×10）")])
def test_a_terminal_too_small_for_the_view_says_so_and_plays_line_by_line(monkeypatch, lang,
                                                                          said):
    import os

    console = scripted(monkeypatch, "sesame", "2", "2", "1")
    monkeypatch.setattr("raceday.terminal.tui.wants_full_screen", lambda plain: True)
    monkeypatch.setattr("shutil.get_terminal_size", lambda *a: os.terminal_size((40, 10)))
    assert run_game(toy_main, title="Toy", lang=lang, plain=False, console=console) == 0
    out = output(console)
    assert said in out.replace("\n", "")
    assert "Reached 5 in 3 steps." in out  # played to its end, line by line
