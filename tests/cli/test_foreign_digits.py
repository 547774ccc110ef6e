"""Numbers typed by people are ASCII digits 0-9 in every game: a superscript ³, an
Arabic-Indic ١ or a mathematical 𝟓 (all true for ``str.isdigit()``) is refused with a
reason and the prompt asks again; nothing ends in a traceback."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.core.errors import BetError, OptionsError
from raceday.core.protocol import CHANCE
from raceday.games.derby.party import parse_amount
from raceday.games.hairpin.rules import position_from_text
from raceday.games.keirin.betting import parse_ticket
from raceday.games.pistard import cli as pistard_cli
from raceday.games.pistard.moves import CHOOSE_BASE
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.state import PHASE_PLACE, PistardState
from raceday.terminal import lineinput
from raceday.terminal.surface import LineSurface

runner = CliRunner()

FOREIGN = ["³", "١", "𝟓", "①", "٣"]


def test_hairpin_move_prompt_refuses_foreign_digits_and_asks_again(tmp_path: Path) -> None:
    stdin = "".join(f"{d}\n" for d in FOREIGN) + "1\nq\n"
    result = runner.invoke(
        app,
        ["hairpin", "play", "--black", "easy", "--seed", "1", "--delay", "0",
         "--db", str(tmp_path / "s.sqlite")],
        input=stdin,
    )
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.exception is None
    assert result.output.count("Refused: type numbers with the digits 0-9") == len(FOREIGN)
    assert "Red (human) plays" in result.output  # the plain "1" afterwards was played


@pytest.mark.parametrize(
    "text",
    [
        ".bbbbb/....../rrrrr. r ³-0 0-0 0-0",
        ".bbbbb/....../rrrrr. r 0-0 0-١ 0-0",
        ".bbbbb/....../rrrrr. r 0-0 0-0 0-0 ³ 0",
        ".bbbbb/....../rrrrr. r 0-0 0-0 0-0 0 𝟓",
        ".b³bbb/....../rrrrr. r 0-0 0-0 0-0",
    ],
)
def test_hairpin_position_text_refuses_foreign_digits(text: str) -> None:
    with pytest.raises(OptionsError):
        position_from_text(text)


def test_hairpin_position_option_with_foreign_digits_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = run(["hairpin", "perft", "-d", "1", "--position",
                ".bbbbb/....../rrrrr. r ³-0 0-0 0-0"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err


HUMAN_ARGS = ["pistard", "play", "--players", "human,medium", "--riders-per-player", "1",
              "--delay", "0", "--seed", "9"]


def test_pistard_placement_and_move_prompts_refuse_foreign_digits(tmp_path: Path) -> None:
    stdin = "³ 4\n2 ١\n2 4\n𝟓\ngreen ³\ng٣\n1\n"
    result = runner.invoke(app, [*HUMAN_ARGS, "--db", str(tmp_path / "s.sqlite")],
                           input=stdin)
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.exception is None
    out = " ".join(result.output.split())  # the console wraps long lines
    assert out.count("Refused: type two numbers: columns behind the line, lane (type "
                     "numbers with the digits 0-9)") == 2
    assert out.count("Refused: type numbers with the digits 0-9: a move number") == 3
    assert "rider 11 lines up 2 behind the line in lane 4" in out
    assert "rider 11 plays" in out


def _ttt_choice() -> PistardState:
    """A team time trial at the moment the player picks which rider throws next."""
    state = PistardState(PistardOptions(variant="ttt", players=1))
    rng = np.random.default_rng(1)
    while True:
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng).action)
        elif state.phase != PHASE_PLACE and state.mover is None and len(state.choosable()) > 1:
            return state
        else:
            state.apply_action(state.legal_actions()[0])


def test_pistard_next_rider_prompt_refuses_foreign_digits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = _ttt_choice()
    idents = [state.riders[i].ident for i in state.choosable()]
    answers = iter(["³", "١", "𝟓", "1"])
    monkeypatch.setattr(lineinput, "ask", lambda prompt, **_kw: next(answers))
    surface = LineSurface()
    assert pistard_cli._ask_next_rider(surface, state, 0) == CHOOSE_BASE + idents[0]
    out = " ".join(capsys.readouterr().out.split())
    assert out.count("(type numbers with the digits 0-9)") == 3


@pytest.mark.parametrize("word", ["³", "١", "𝟓", "9" * 5000])
def test_keirin_ticket_riders_are_ascii_digits_of_bounded_length(word: str) -> None:
    with pytest.raises(BetError, match="unknown rider"):
        parse_ticket(f"win {word} 10", 9)


@pytest.mark.parametrize("word", ["³", "١٢", "𝟓00", "9" * 5000, "-" + "9" * 5000])
def test_derby_amounts_are_ascii_digits_of_bounded_length(word: str) -> None:
    with pytest.raises(BetError):
        parse_amount(word)
    assert parse_amount("3,500") == 3500
