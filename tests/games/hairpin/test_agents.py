"""Computer players: the compiled evaluation and search, and the difficulty ladder."""

from __future__ import annotations

import numpy as np
import pytest

from raceday.core.agents import Agent
from raceday.core.errors import OptionsError
from raceday.games.hairpin import fast
from raceday.games.hairpin.agents import (
    AlphaBetaAgent,
    GreedyAgent,
    ThinkingAgent,
    evaluate,
    fast_rollout,
    guided_rollout,
    make_agent,
)
from raceday.games.hairpin.game import new_game
from raceday.games.hairpin.match import play_match
from raceday.games.hairpin.rules import HairpinState, Rules


@pytest.mark.parametrize("variant", ["standard", "derby+short", "nobump"])
def test_compiled_evaluation_equals_the_reference(variant: str) -> None:
    rng = np.random.default_rng(9)
    rules = Rules.from_variant(variant)
    for _ in range(3):
        state = new_game({"variant": variant})
        while not state.is_terminal():
            for player in (0, 1):
                expected = evaluate(state.position, rules, player)
                got = fast.evaluate_fast(fast.encode(state.position), fast.encode_rules(rules),
                                         player)
                assert got == pytest.approx(expected)
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])


def test_search_takes_a_winning_lap() -> None:
    # Red on f3 with four laps: cruising to a1 or charging to b1 both cross the line and win.
    text = ".bbbbr/b...../..rrrr r 4-0 0-0 0-0"
    for agent in (AlphaBetaAgent(node_budget=5_000), GreedyAgent()):
        state = HairpinState.from_text(text)
        state.apply_action(agent.choose(state, np.random.default_rng(0)))
        assert state.is_terminal() and state.outcome().winner == 0


def test_search_avoids_the_disqualifying_bump() -> None:
    # Red has bumped four: the bump on d2 would lose at once, so the search passes instead.
    state = HairpinState.from_text("..bbb./..bb.r2/rrr... r 0-0 4-0 0-0")
    choice = state.action_to_string(
        AlphaBetaAgent(node_budget=20_000).choose(state, np.random.default_rng(0))
    )
    assert choice != "f2 charge d2 bump"


def test_alpha_beta_is_deterministic_under_a_node_budget() -> None:
    state = new_game()
    a = AlphaBetaAgent(node_budget=20_000)
    b = AlphaBetaAgent(node_budget=20_000)
    assert a.choose(state, np.random.default_rng(3)) == b.choose(state, np.random.default_rng(3))
    assert a.last_depth >= 5 and a.last_nodes <= 20_001  # the node that hit the budget


def test_time_budget_is_respected() -> None:
    """The time budget read on a clock of nodes (a machine searching 360,000 nodes a
    second, about the idle speed): the search stops within the budget's nodes."""
    spec = make_agent("alphabeta:0.2s")
    assert isinstance(spec, AlphaBetaAgent)
    assert spec.time_budget == 0.2 and spec.node_budget is None
    per_node = 1 / 360_000
    agent = AlphaBetaAgent(node_budget=None, time_budget=0.2)
    agent.clock = lambda: agent.nodes * per_node
    state = new_game()
    action = agent.choose(state, np.random.default_rng(0))
    assert action in state.legal_actions()
    assert agent.last_depth >= 4 and 0 < agent.last_nodes <= round(0.2 / per_node) + 2


def test_rollouts_return_a_result() -> None:
    assert sorted(fast_rollout(new_game(), np.random.default_rng(0))) == [0.0, 1.0]
    first = guided_rollout(new_game(), np.random.default_rng(4))
    assert sorted(first) == [0.0, 1.0]
    assert guided_rollout(new_game(), np.random.default_rng(4)) == first


def test_matches_replay_exactly_from_the_seed() -> None:
    def run() -> dict[str, object]:
        return play_match(lambda: make_agent("hard"), lambda: make_agent("mcts-guided:20"), 2,
                          seed=8).to_json()

    assert run() == run()


def test_agent_names_are_checked() -> None:
    for name in ("easy", "medium", "hard", "expert", "random", "greedy", "mcts:5", "mcts-guided",
                 "alphabeta:100", "alphabeta:0.5s"):
        make_agent(name)
    for bad in ("genius", "mcts:x", "alphabeta:0", "greedy:3", "alphabeta:zs"):
        with pytest.raises(OptionsError):
            make_agent(bad)


def test_easy_beats_random_play() -> None:
    result = play_match(lambda: make_agent("easy"), lambda: make_agent("random"), 4, seed=1)
    assert result.a_wins >= 3


# The ladder. Each match alternates sides over seeded random openings (4 plies). Passing
# needs at least 7 wins of 8: if the two were equally strong (p = 1/2) that happens with
# probability 9/256 < 3.5%, so a pass shows the stronger level at >96% confidence.
# The full 100-game matches are in bench/bench_hairpin.py.
@pytest.mark.parametrize(("strong", "weak"), [("hard", "medium"), ("expert", "hard")])
def test_ladder_holds(strong: str, weak: str) -> None:
    # The expert's time budget is read on a clock of nodes, not the wall clock, so the
    # match is the same on a busy machine (the suite runs beside itself) as on an idle one:
    # 0.12 s a move (1 s by default) at 2 million nodes a second, about its idle speed: a
    # smaller budget than a player's makes the ladder harder for the thinking level to hold.
    # (On the wall clock, 0.05 s lost 2 of 8 games under load.)
    def player(level: str) -> Agent:
        agent = make_agent(level, think=0.12)
        if isinstance(agent, ThinkingAgent):
            thinker = agent
            thinker.clock = lambda: thinker.nodes * 0.5e-6
        return agent

    result = play_match(lambda: player(strong), lambda: player(weak), 8, seed=0)
    assert result.a_wins >= 7, result.to_json()
