"""Hairpin Racers in OpenSpiel on the compiled engine: the state that
:meth:`HairpinAdapter.openspiel_state <raceday.games.hairpin.adapter.HairpinAdapter>` gives
for ``engine=fast`` (the default). Imported only by OpenSpiel's wrapper, so pyspiel is
needed only there."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from raceday.core.protocol import CHANCE, State
from raceday.games.hairpin.tensor import hairpin_tensor
from raceday.research import Shared


class FastState(pyspiel.State):  # type: ignore[misc]
    """Hairpin on the compiled engine's array (:mod:`raceday.games.hairpin.fast`): same
    rules, same action numbers (checked move for move against the reference engine in
    tests/games/hairpin), a few microseconds per step."""

    def __init__(self, game: Any) -> None:
        from raceday.games.hairpin import fast

        super().__init__(game)
        engine: Any = game.adapter.new_state(game.params)
        rules = engine.rules
        self._rules = Shared((fast.encode_rules(rules), rules.target, rules.quiet_limit,
                               rules.variant_name(), rules.quiet_limit))
        self._st = fast.encode(engine.position)
        self._setup = list(engine.setup_rolls)
        self._setting_up = bool(engine.in_setup)
        self._moves: Shared | None = None

    # --- the array engine ---------------------------------------------------------------
    def _gen(self) -> tuple[Any, Any, Any, int]:
        from raceday.games.hairpin import fast

        if self._moves is None:
            acts = np.empty(fast.MAX_MOVES, dtype=np.int64)
            dests = np.empty(fast.MAX_MOVES, dtype=np.int64)
            laps = np.empty(fast.MAX_MOVES, dtype=np.int64)
            n = fast.gen_moves(self._st, self._rules.value[0], acts, dests, laps)
            self._moves = Shared((acts, dests, laps, int(n)))
        return self._moves.value  # type: ignore[no-any-return]

    def _winner(self) -> int:
        from raceday.games.hairpin import fast

        return int(fast.winner(self._st, self._rules.value[0]))

    def current_player(self) -> int:
        if self._setting_up:
            return int(pyspiel.PlayerId.CHANCE)
        if self._winner() >= 0:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self._st[18])

    def is_terminal(self) -> bool:
        return not self._setting_up and self._winner() >= 0

    def _legal_actions(self, player: int) -> list[int]:
        acts, _, _, n = self._gen()
        return sorted(acts[:n].tolist())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(k, 0.2) for k in range(1, 6)]

    def _apply_action(self, action: int) -> None:
        from raceday.games.hairpin import fast
        from raceday.games.hairpin.rules import BLACK_TRACK, RACERS, RED_TRACK

        if self._setting_up:
            self._st[RED_TRACK[action - 1]] += 1
            self._st[BLACK_TRACK[action - 1]] -= 1
            self._setup.append(action)
            self._setting_up = len(self._setup) < RACERS
            self._moves = None
            return
        acts, dests, laps, n = self._gen()
        for i in range(n):
            if acts[i] == action:
                fast.apply(self._st, int(acts[i]), int(dests[i]), int(laps[i]))
                self._moves = None
                return
        raise pyspiel.SpielError(f"hairpin: action {action} is not legal here")

    def returns(self) -> list[float]:
        if self._setting_up:
            return [0.0, 0.0]
        w = self._winner()
        return {0: [1.0, 0.0], 1: [0.0, 1.0], 2: [0.5, 0.5]}.get(w, [0.0, 0.0])

    def engine_state(self) -> State:
        """The reference engine's state at this position (for names, text and checks)."""
        from raceday.games.hairpin import fast
        from raceday.games.hairpin.rules import HairpinState, Rules, setup_position

        rules = Rules.from_variant(self._rules.value[3])
        if self._setting_up:
            state = HairpinState(rules)
            state.position = setup_position(self._setup)
            state.setup_rolls = list(self._setup)
            return state
        state = HairpinState(rules, fast.decode(self._st))
        state.setup_rolls = list(self._setup)
        return state

    @property
    def engine(self) -> State:
        return self.engine_state()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"setup roll {action}"
        return self.engine_state().action_to_string(action)

    def observe(self, player: int, out: np.ndarray) -> None:
        out[:] = 0.0
        _, target, quiet, _, _ = self._rules.value
        hairpin_tensor(self._st, target, quiet, out)
        out[45] = float(self._setting_up)

    def observation_text(self, player: int) -> str:
        return str(self.engine_state())

    def private_text(self, player: int) -> str:
        return ""

    def __str__(self) -> str:
        return str(self.engine_state())

    def fast_rollout(self, seed: np.ndarray) -> np.ndarray | None:
        """The returns of one uniformly random play-out from here, run inside the compiled
        engine (``seed``: its random state, advanced); None during the random setup."""
        if self._setting_up:
            return None
        from raceday.games.hairpin import fast

        w = int(fast.playout(self._st.copy(), self._rules.value[0], seed, 100_000))
        return np.asarray({0: (1.0, 0.0), 1: (0.0, 1.0)}.get(w, (0.5, 0.5)))
