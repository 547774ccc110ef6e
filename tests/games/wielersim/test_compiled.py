"""The compiled engine (numba) against the rules engine's fast path, record for record.

Fed the same generator, the compiled engine reads the same dice faces as a DiceBuffer, so
every race must end the same: places, gaps and turns, the squares and lanes of every
rider, the intermediate sprints' places, the weather, and how far into the dice it read.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from raceday.core.errors import OptionsError
from raceday.games.wielersim.dice import DiceBuffer
from raceday.games.wielersim.fast import CompiledRaces, count_races_compiled
from raceday.games.wielersim.game import new_race
from raceday.games.wielersim.predict import count_races, predict
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.games.wielersim.rules import (
    WielersimState,
    fresh_race,
    peloton_spec,
    route_spec,
    run_race_fast,
)

PELOTONS = ("classics", "small", "flanders")  # the two shipped pelotons, a rated start list


def reference_races(template: WielersimState, rng: np.random.Generator, races: int,
                    places: int | None = None) -> tuple[list[dict[str, Any]], DiceBuffer]:
    """``races`` races on the Python fast path, all on one DiceBuffer (as predictions do)."""
    throws = DiceBuffer(rng)
    out = []
    for _ in range(races):
        state = run_race_fast(fresh_race(template), throws, places)
        out.append({"results": state.results, "turn": state.turn, "pos": state.pos,
                    "lane": state.lane, "sprint_places": state.sprint_places,
                    "rain": state.rain, "half_done": state.half_done,
                    "over": state.is_terminal(), "board": state.board or 0})
    return out, throws


def assert_same_races(options: dict[str, Any], seed: int, races: int,
                      places: int | None = None) -> None:
    template = new_race(options)
    expected, throws = reference_races(template, np.random.default_rng(seed), races, places)
    engine = CompiledRaces(template, np.random.default_rng(seed), keep=races)
    engine.run(races, places)
    for k, want in enumerate(expected):
        got = engine.race(k)
        assert got == want, (options, seed, k)
    # the same faces read: the same place in the current blocks, the generator in step
    assert engine.faces_used == throws.faces_used
    assert engine.rng.bit_generator.state == throws.rng.bit_generator.state


@pytest.mark.parametrize("route", SHIPPED_ROUTES)
@pytest.mark.parametrize("peloton", PELOTONS)
def test_compiled_engine_rides_the_same_races_as_the_fast_path(route: str, peloton: str
                                                                ) -> None:
    """Every shipped route (cobble boards, flat and summit finishes, sprints, two laps)
    with both shipped pelotons and a rated start list (our ratings extension): 16 whole
    races in a row on one dice stream, then 8 stopped after the top ten."""
    assert_same_races({"route": route, "peloton": peloton}, 2012, 16)
    assert_same_races({"route": route, "peloton": peloton}, 7, 8, places=10)


@pytest.mark.parametrize("route", ["flanders", "ardennes", "mountain-stage"])
def test_variants_four_d6_start_and_monotonic_gaps(route: str) -> None:
    """The 4D6 start (the favoured riders re-roll ones and twos) and our monotonic_gaps
    variant, on a flat and two summit finishes, rated and unrated."""
    spec = {**route_spec(route), "start_dice": "d6", "monotonic_gaps": True}
    for peloton in ("classics", "ardennes"):
        assert_same_races({"route": spec, "peloton": peloton}, 99, 12)


def test_tiny_dice_blocks_split_throws_across_refills(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """With blocks of 7 faces a throw often finds too few faces left (the rest of the
    block is dropped) and a 4D6 re-roll takes its two new faces from the next block: the
    compiled engine must drop and refill exactly where the DiceBuffer does."""
    monkeypatch.setattr(DiceBuffer, "BLOCK", 7)
    spec = {**route_spec("flanders"), "start_dice": "d6"}
    assert_same_races({"route": spec, "peloton": "flanders"}, 3, 4)
    assert_same_races({"route": "ardennes", "peloton": "small"}, 4, 4)


def test_compiled_counts_equal_the_fast_path_counts() -> None:
    route, peloton = route_spec("flanders"), peloton_spec("flanders")
    for seed in (1, 2):
        sequence = np.random.SeedSequence(seed)
        fast = count_races_compiled(route, peloton, 150, sequence)
        reference = count_races(route, peloton, 150, sequence)
        assert (fast == reference).all()
        assert fast[0].sum() == 150 and fast[1].sum() == 450 and fast[2].sum() == 1500


def test_predict_gives_the_same_numbers_on_both_engines() -> None:
    route, peloton = route_spec("ardennes"), peloton_spec("ardennes")
    fast = predict(route, peloton, 300, seed=11)
    reference = predict(route, peloton, 300, seed=11, engine="reference")
    assert fast.extra["engine"] == "fast" and reference.extra["engine"] == "reference"
    assert fast.to_json() == reference.to_json()
    with pytest.raises(OptionsError, match="engine"):
        predict(route, peloton, 10, engine="turbo")


def test_cli_engine_option(capsys: pytest.CaptureFixture[str]) -> None:
    from raceday.cli.main import run

    assert run(["wielersim", "predict", "flanders", "small", "-n", "40", "--seed", "5",
                "--json", "--engine", "reference"]) == 0
    reference = capsys.readouterr().out
    assert run(["wielersim", "predict", "flanders", "small", "-n", "40", "--seed", "5",
                "--json"]) == 0
    assert capsys.readouterr().out == reference
    assert run(["wielersim", "predict", "flanders", "small", "-n", "40",
                "--engine", "turbo"]) == 2
    err = capsys.readouterr().err
    assert "--engine" in err and len(err.strip().splitlines()) == 1


def test_help_and_watch_do_not_import_numba() -> None:
    code = ("import sys\n"
            "from raceday.cli.main import run\n"
            "assert run(['--help']) == 0\n"
            "assert run(['wielersim', 'watch', 'flat-stage', 'small', '--seed', '1',"
            " '--delay', '0']) == 0\n"
            "print('numba' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.strip().splitlines()[-1] == "False"


def test_two_threads_compiling_the_kernel_get_one_kernel() -> None:
    """Two web jobs may start the first compiled race at once: the kernel is wrapped once
    (wrapping a compiled function again raised TypeError and failed one of the jobs)."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import threading
        from raceday.games.wielersim import fast
        got, errors = [], []
        def build():
            try:
                got.append(fast._kernel())
            except Exception as exc:
                errors.append(repr(exc))
        threads = [threading.Thread(target=build) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        assert len(got) == 4 and all(k is got[0] for k in got), got
        print("one kernel")
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0 and "one kernel" in out.stdout, out.stderr[-2000:]
