"""OpenSpiel: every game registered, honest game types, OpenSpiel's own random simulation
test with serialisation, exact chance outcomes, observations, and OpenSpiel's bots."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

from raceday.core.protocol import CHANCE  # noqa: E402
from raceday.interop import openspiel as ro  # noqa: E402
from raceday.interop.adapters import adapters  # noqa: E402

GT = pyspiel.GameType

# Small configurations so that each random simulation stays short on a loaded machine.
CASES = [
    ("hairpin", {"variant": "short"}),
    ("hairpin", {"variant": "short+derby+random"}),
    ("hairpin", {"variant": "short+random", "engine": "reference"}),
    ("pistard", {"variant": "sprint"}),
    ("pistard", {"track": "short", "riders_per_player": 1, "players": 3}),
    ("pistard", {"variant": "ttt", "riders_per_player": 3, "track": "short"}),
    ("keirin", {"riders": 6, "length": 30}),
    ("keirin", {"riders": 7, "mode": "fixed", "bettors": 3}),
    ("derby", {}),
    ("derby", {"fall_rate": 0.1, "bettors": 4}),
    ("wielersim", {"peloton": "small"}),
]


@pytest.mark.parametrize(("game", "params"), CASES)
def test_random_sim_test_with_serialisation(game: str, params: dict[str, object]) -> None:
    loaded = ro.load_game(game, **params)
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


def test_every_game_is_registered_with_an_honest_type() -> None:
    names = {g.short_name for g in pyspiel.registered_games()}
    assert {ro.short_name(n) for n in adapters()} <= names
    types = {n: ro.load_game(n).get_type() for n in adapters()}
    for name in ("pistard", "keirin", "derby", "wielersim"):
        assert types[name].chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    # Hairpin rolls dice only for the random setup
    assert types["hairpin"].chance_mode == GT.ChanceMode.DETERMINISTIC
    random_setup = ro.load_game("hairpin", variant="random").get_type()
    assert random_setup.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    for name in ("keirin", "derby"):
        assert types[name].information == GT.Information.IMPERFECT_INFORMATION
        assert types[name].utility == GT.Utility.GENERAL_SUM
    for name in ("hairpin", "pistard", "wielersim"):
        assert types[name].information == GT.Information.PERFECT_INFORMATION
    assert types["hairpin"].utility == GT.Utility.CONSTANT_SUM
    assert ro.load_game("wielersim", peloton="small").num_players() == 0
    for t in types.values():
        assert t.reward_model == GT.RewardModel.TERMINAL


def test_each_game_describes_itself_from_its_message_tables_in_both_languages() -> None:
    for name, adapter in adapters().items():
        english, japanese = adapter.describe("en"), adapter.describe("ja")
        assert ro.GAME_NOTES[name] == english and len(english) > 40
        if adapter.description == "":  # the words live in the game's tables only
            assert japanese != english and "research.description" not in japanese
    assert adapters()["keirin"].describe("ja").startswith("1〜4人の賭け手")


def test_chance_outcomes_are_the_engines_exact_probabilities() -> None:
    game = ro.load_game("keirin", riders=6)
    state = game.new_initial_state()
    state.apply_action(0)  # bettor 0: no ticket
    state.apply_action(0)  # bettor 1: no ticket
    assert state.is_chance_node()
    engine = state.engine
    assert engine.current_player() == CHANCE
    exact = dict(engine.chance_outcomes())
    assert sum(exact.values()) == Fraction(1)
    for outcome, p in state.chance_outcomes():
        assert p == float(exact[outcome])


def test_serialize_round_trip_keeps_the_engine_state() -> None:
    game = ro.load_game("pistard", variant="sprint")
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(12):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.engine.to_json() == state.engine.to_json()
    assert again.history() == state.history()


def test_sealed_tickets_stay_hidden_from_the_other_bettor() -> None:
    game = ro.load_game("derby")
    state = game.new_initial_state()
    legal = state.legal_actions()
    state.apply_action(legal[5])
    other = game.new_initial_state()
    other.apply_action(legal[9])
    # bettor 1 cannot tell which ticket bettor 0 sealed; bettor 0 can
    assert state.information_state_string(1) == other.information_state_string(1)
    assert state.observation_tensor(1) == other.observation_tensor(1)
    assert state.information_state_string(0) != other.information_state_string(0)


def test_fast_and_reference_hairpin_states_agree() -> None:
    fast = ro.load_game("hairpin", variant="short")
    ref = ro.load_game("hairpin", variant="short", engine="reference")
    a, b = fast.new_initial_state(), ref.new_initial_state()
    rng = np.random.default_rng(11)
    while not a.is_terminal():
        assert a.legal_actions() == b.legal_actions()
        assert a.observation_tensor(0) == b.observation_tensor(0)
        assert a.current_player() == b.current_player()
        action = int(rng.choice(a.legal_actions()))
        assert a.action_to_string(action) == b.action_to_string(action)
        a.apply_action(action)
        b.apply_action(action)
    assert b.is_terminal()
    assert a.returns() == b.returns()


def test_openspiel_bots_play_every_two_player_game() -> None:
    for name, params in (("hairpin", {"variant": "short"}), ("pistard", {"variant": "sprint"}),
                         ("keirin", {"riders": 6}), ("derby", {})):
        game = ro.load_game(name, **params)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
        # two simulations a move: every call the bot makes on our states is made (a
        # PISTARD sprint with eight took 8 s of rollouts and checked nothing more)
        bots = [mcts.MCTSBot(game, 2.0, 2, evaluator, random_state=np.random.RandomState(1)),
                pyspiel.make_uniform_random_bot(1, 5)]
        state = game.new_initial_state()
        rng = np.random.default_rng(0)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        assert len(state.returns()) == 2


class _CountingEvaluator:
    """Passes evaluations through and counts the rollouts: the clock of a timed bot."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.rollouts = 0

    def evaluate(self, state: Any) -> Any:
        self.rollouts += 1
        return self.inner.evaluate(state)

    def prior(self, state: Any) -> Any:
        return self.inner.prior(state)


def test_timed_mcts_bot_searches_in_proportion_to_its_budget() -> None:
    """The time budget read on a clock of rollouts (10,000 a second), not the wall clock:
    ten times the budget searches several times as much, and each move takes about its
    budget on that clock, however busy the machine is."""
    game = ro.load_game("hairpin")
    searched = []
    per_rollout = 1e-4
    for budget in ("0.02s", "0.2s"):
        bot = ro.mcts_bot(game, budget, seed=1)
        counting = _CountingEvaluator(bot.evaluator)
        bot.evaluator = counting
        bot.clock = lambda counting=counting: counting.rollouts * per_rollout
        state = game.new_initial_state()
        for _ in range(3):
            state.apply_action(bot.step(state))
        searched.append(bot.searched)
        assert bot.spent / 3 <= 1.25 * bot.seconds, (bot.spent, bot.seconds)
    assert searched[1] > 3 * searched[0]


def test_unknown_parameters_are_refused_with_one_line() -> None:
    from raceday.core.errors import OptionsError

    with pytest.raises(OptionsError, match="unknown hairpin parameter"):
        ro.load_game("hairpin", colour="red")
