"""The shared input layer (raceday.terminal.lineinput): line editing, history per kind of
prompt, completion of legal words, secrets kept out of every history — prompt_toolkit read
from a pipe (create_pipe_input) with no screen (DummyOutput); and the plain path for pipes."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from raceday.terminal import common, lineinput
from raceday.terminal.lineinput import LineReader, history_name
from raceday.terminal.surface import Choice, Prompt

LEFT, RIGHT, UP, DOWN, HOME, END = "\x1b[D", "\x1b[C", "\x1b[A", "\x1b[B", "\x1b[H", "\x1b[F"
ENTER = "\r"

STEP = Prompt("Step: ", choices=[Choice("1"), Choice("2"), Choice("skip")], history="step")
BET = Prompt("Bet: ", choices=[Choice("quinella"), Choice("win")], completions=["trifecta"],
             history="bet")


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as pipe_input:
        yield pipe_input


def reads(reader: LineReader, pipe: PipeInput, prompt: Prompt, keys: str) -> str:
    pipe.send_text(keys)
    return reader.read(prompt)


def test_arrow_keys_edit_the_line_instead_of_inserting_escapes(pipe):
    reader = LineReader(input=pipe, output=DummyOutput())
    assert reads(reader, pipe, STEP, f"sip{LEFT}{LEFT}k{END}!{ENTER}") == "skip!"
    assert reads(reader, pipe, STEP, f"2x{LEFT}{LEFT}1{RIGHT}{RIGHT}\x7f{ENTER}") == "12"
    assert reads(reader, pipe, STEP, f"bc{HOME}a{ENTER}") == "abc"


def test_up_recalls_earlier_answers_of_the_same_kind_only(pipe):
    reader = LineReader(input=pipe, output=DummyOutput())
    reads(reader, pipe, STEP, f"1{ENTER}")
    reads(reader, pipe, STEP, f"2{ENTER}")
    reads(reader, pipe, BET, f"win{ENTER}")
    assert reads(reader, pipe, STEP, f"{UP}{ENTER}") == "2"
    assert reads(reader, pipe, STEP, f"{UP}{UP}{UP}{ENTER}") == "1"
    assert reads(reader, pipe, BET, f"{UP}{ENTER}") == "win"  # the bets' own history


def test_prompts_differing_only_in_numbers_share_a_history():
    assert history_name(Prompt("R3 ticket> ")) == history_name(Prompt("R12 ticket> "))
    assert history_name(Prompt("[bold]Bid[/] for 3: ")) == "Bid for #:"
    assert history_name(Prompt("R3 ticket> ", history="ticket")) == "ticket"


def test_tab_completes_a_legal_word(pipe):
    reader = LineReader(input=pipe, output=DummyOutput())
    assert reads(reader, pipe, BET, f"quin\t{ENTER}") == "quinella"
    assert reads(reader, pipe, BET, f"qu\t{ENTER}") == "qu"  # quinella or quit: no guess
    assert reads(reader, pipe, BET, f"TRI\t{ENTER}") == "trifecta"  # a completion, any case
    assert reads(reader, pipe, BET, f"und\t{ENTER}") == "undo"  # the universal words too
    assert reads(reader, pipe, BET, f"zz\t{ENTER}") == "zz"  # nothing legal: left alone


MOVE = Prompt("Move: ", choices=[Choice("c1 cruise c2"), Choice("a1 cruise b1"),
                                 Choice("a1 charge b1")], history="move")


def test_tab_completes_the_whole_line_not_its_last_word(pipe):
    reader = LineReader(input=pipe, output=DummyOutput())
    # "a1 c": both a1 moves fit, and no c1 move (the last word alone would offer those)
    assert reads(reader, pipe, MOVE, f"a1 c\t{ENTER}") == "a1 c"
    assert reads(reader, pipe, MOVE, f"a1 ch\t{ENTER}") == "a1 charge b1"
    assert reads(reader, pipe, MOVE, f"a1 cr\t{ENTER}") == "a1 cruise b1"
    assert reads(reader, pipe, MOVE, f"c\t{ENTER}") == "c1 cruise c2"


def test_secret_answers_are_in_no_history(pipe):
    reader = LineReader(input=pipe, output=DummyOutput())
    secret = Prompt("Bid: ", secret=True, history="bid")
    assert reads(reader, pipe, secret, f"700{ENTER}") == "700"
    assert reads(reader, pipe, secret, f"{UP}{ENTER}") == ""
    assert list(reader.session(secret).history.get_strings()) == []
    reads(reader, pipe, STEP, f"1{ENTER}")
    for session in [*reader._sessions.values()]:
        assert "700" not in session.history.get_strings()
    assert reads(reader, pipe, STEP, f"{UP}{ENTER}") == "1"


def test_markup_is_not_shown_in_the_message():
    assert lineinput.plain_message(Prompt("[bold]R3[/] ticket> ")) == "R3 ticket> "


def test_ctrl_d_on_an_empty_line_is_the_end_of_input(pipe):
    reader = LineReader(input=pipe, output=DummyOutput())
    with pytest.raises(EOFError):
        reads(reader, pipe, STEP, "\x04")


def test_a_pipe_reads_plain_lines_then_eof(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("2\x1b[D\n"))
    out = Console(file=io.StringIO(), color_system=None)
    assert not lineinput.at_terminal()
    assert lineinput.ask(STEP, console=out) == "2\x1b[D"  # a script's bytes, as they are
    with pytest.raises(EOFError):
        lineinput.ask(STEP, console=out)


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_only_a_real_terminal_edits_lines(monkeypatch):
    monkeypatch.setattr("sys.stdin", FakeTerminal())
    monkeypatch.setattr("sys.stdout", FakeTerminal())
    monkeypatch.setenv("TERM", "xterm-256color")
    assert lineinput.at_terminal()
    monkeypatch.setenv("TERM", "dumb")
    assert not lineinput.at_terminal()
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setattr("sys.stdout", io.StringIO())  # output piped
    assert not lineinput.at_terminal()


def test_read_line_and_read_secret_go_through_the_input_layer(monkeypatch):
    asked: list[Prompt] = []

    def ask(prompt: Prompt, console: Console | None = None) -> str:
        asked.append(prompt)
        return "y"

    monkeypatch.setattr(lineinput, "ask", ask)
    assert common.read_line("Name? ", words=["Ann"], history="names") == "y"
    assert common.read_secret("Bid: ") == "y"
    assert common.ask_yes_no("Again?", default=False) is True
    assert [(p.text, p.secret, p.history) for p in asked] == [
        ("Name? ", False, "names"), ("Bid: ", True, ""), ("Again? (y/N) ", False, "yes-no")]
    assert asked[0].words == ["Ann"] and "yes" in asked[2].words
