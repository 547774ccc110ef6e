"""WielerSIM's compiled engine for ``raceday warm-up``: the races of predict and simulate."""

from __future__ import annotations

from raceday.terminal.warm import Engine


def _warm_wielersim() -> None:
    from raceday.games.wielersim import fast

    fast.warm_up()


def _wrap() -> object:
    from raceday.games.wielersim import fast

    return fast._kernel()  # wraps the functions with numba (compiles nothing)


ENGINES = (
    Engine("wielersim", "WielerSIM: the compiled races of predict and simulate",
           ("raceday.games.wielersim.fast",), _warm_wielersim, _wrap),
)
