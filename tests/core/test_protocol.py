"""The protocol, play loop, generic agents and saving on a tiny game built here."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Self

import numpy as np
import pytest

from raceday.core.agents import MCTSAgent, RandomAgent
from raceday.core.errors import IllegalActionError, SaveFormatError
from raceday.core.events import Event
from raceday.core.play import GameTooLongError, play_game
from raceday.core.protocol import CHANCE, TERMINAL, Action, Outcome, State
from raceday.core.serialize import Fields, atomic_write_text


class Nim(State):
    """Take 1 or 2 from a pile (after a chance roll of 4 or 5); taking the last one wins."""

    game_name = "test-nim"

    def __init__(self) -> None:
        self.pile: int | None = None
        self.to_move = 0

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        if self.pile is None:
            return CHANCE
        return TERMINAL if self.pile == 0 else self.to_move

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        return [(4, Fraction(1, 2)), (5, Fraction(1, 2))]

    def legal_actions(self) -> list[Action]:
        return [a for a in (1, 2) if self.pile is not None and a <= self.pile]

    def action_to_string(self, action: Action) -> str:
        return f"pile {action}" if self.pile is None else f"take {action}"

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        if self.pile is None:
            self.pile = action
            return [Event("pile", {"size": action})]
        self.pile -= action
        mover = self.to_move
        self.to_move = 1 - self.to_move
        return [Event("take", {"player": mover, "n": action})]

    def outcome(self) -> Outcome:
        winner = 1 - self.to_move
        return Outcome(ranking=(winner, 1 - winner), winner=winner, winning_players=(winner,))

    def to_json(self) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        f = Fields(data, "nim")
        s = cls()
        s.pile = data.get("pile")
        s.to_move = f.get("to_move", int)
        return s


def test_illegal_actions_raise_value_error_subclass() -> None:
    s = Nim()
    with pytest.raises(IllegalActionError, match="chance outcome"):
        s.apply_action(7)
    s.apply_action(4)
    with pytest.raises(ValueError, match="3"):
        s.apply_action(3)
    assert s.string_to_action("TAKE  2") == 2
    with pytest.raises(IllegalActionError):
        s.string_to_action("take 9")


def test_play_loop_and_terminal_checks() -> None:
    s = Nim()
    record = play_game(s, [RandomAgent(), RandomAgent()], np.random.default_rng(3))
    assert s.is_terminal() and record.events[0].kind == "pile"
    assert sorted(s.returns()) == [0.0, 1.0]
    assert s.returns()[s.outcome().winner or 0] == 1.0
    with pytest.raises(IllegalActionError, match="over"):
        s.apply_action(1)


def test_max_steps_is_enforced() -> None:
    with pytest.raises(GameTooLongError):
        play_game(Nim(), [RandomAgent(), RandomAgent()], np.random.default_rng(0), max_steps=2)


def test_clone_is_equal_and_independent() -> None:
    s = Nim()
    s.apply_action(5)
    t = s.clone()
    assert t == s
    t.apply_action(2)
    assert t != s and s.pile == 5


def test_mcts_plays_nim_perfectly_from_winning_positions() -> None:
    # With a pile of 4 or 5 the first player wins by leaving a multiple of 3.
    rng = np.random.default_rng(0)
    agent = MCTSAgent(simulations=300)
    for pile in (4, 5):
        s = Nim()
        s.apply_action(pile)
        assert (pile - agent.choose(s, rng)) % 3 == 0


def test_mcts_beats_random_at_nim() -> None:
    rng = np.random.default_rng(1)
    wins = 0
    for game in range(40):
        s = Nim()
        mcts_player = game % 2
        agents = [RandomAgent(), RandomAgent()]
        agents[mcts_player] = MCTSAgent(simulations=100)  # type: ignore[call-overload]
        play_game(s, agents, rng)
        wins += s.outcome().winner == mcts_player
    # Perfect play wins every game as first player and most as second: a random agent
    # would win about half. 34+/40 for a 50% player has probability < 1e-5.
    assert wins >= 34


def test_fields_reject_malformed_data() -> None:
    with pytest.raises(SaveFormatError, match="missing field 'to_move'"):
        Nim.from_json({"pile": 3})
    with pytest.raises(SaveFormatError, match="wrong type"):
        Nim.from_json({"pile": 3, "to_move": "x"})


def test_atomic_write_replaces_whole_file(tmp_path: Any) -> None:
    target = tmp_path / "sub" / "save.json"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in target.parent.iterdir()] == ["save.json"]


class WhoMoves(State):
    """P0 picks 0 or 1; then chance names the next mover, who picks 0 or 1 (same ids)."""

    game_name = "test-who-moves"

    def __init__(self) -> None:
        self.history: list[int] = []
        self.mover: int | None = None

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        if not self.history:
            return 0
        if len(self.history) == 1:
            return CHANCE
        if len(self.history) == 2:
            return self.history[1]
        return TERMINAL

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        return [(0, Fraction(1, 2)), (1, Fraction(1, 2))]

    def legal_actions(self) -> list[Action]:
        return [0, 1] if self.current_player() in (0, 1) else []

    def action_to_string(self, action: Action) -> str:
        return f"{len(self.history)}:{action}"

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        self.history.append(action)
        return []

    def outcome(self) -> Outcome:
        mover, choice = self.history[1], self.history[2]
        winner = mover if choice == 1 else 1 - mover
        return Outcome(ranking=(winner, 1 - winner), winner=winner, winning_players=(winner,))

    def to_json(self) -> dict[str, Any]:
        return {"history": self.history}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        s = cls()
        s.history = list(data["history"])
        return s


def test_mcts_keeps_each_players_statistics_apart() -> None:
    # After the chance node either player may move with the same action ids; the tree
    # must hold separate children for (player 0, a) and (player 1, a), each of which
    # learns that choosing 1 wins for its own mover.
    agent = MCTSAgent(simulations=400)
    root_state = WhoMoves()
    from raceday.core.agents import _Node

    root = _Node()
    rng = np.random.default_rng(4)
    for _ in range(400):
        agent._simulate(root_state.clone(), root, rng)
    second = root.children[(0, 0)].children
    assert {(0, 0), (0, 1), (1, 0), (1, 1)} <= set(second)
    for player in (0, 1):
        good, bad = second[(player, 1)], second[(player, 0)]
        assert good.value / good.visits > bad.value / bad.visits
