"""The sprint solved exactly (sprint_solver.py), checked throw by throw against the engine."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pytest

from raceday.analysis.stats import wilson_interval
from raceday.core.errors import OptionsError
from raceday.core.play import play_game
from raceday.games.pistard import fast, search, sprint_solver
from raceday.games.pistard.agents import SolvedSprintRider, make_agent
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import LETTERS, MIN_LENGTH, load_track

SHORT = {"variant": "sprint", "track": "short", "tokens": 1}


@pytest.fixture(scope="module")
def little(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A sprint on the shortest lap a track may have (16 columns, the short track's first):
    the solver's code paths are the same on every length, and its table is a third of the
    short track's, so the throw-by-throw checks below solve in a third of the time."""
    short = load_track("short")
    rows = ",".join(f'"{"".join(LETTERS[c] for c in row[:MIN_LENGTH])}"' for row in short.rows)
    path = tmp_path_factory.mktemp("track") / "little.toml"
    path.write_text(f'name = "Little"\nline = 0\nlanes = 4\nrows = [{rows}]\n',
                    encoding="utf-8")
    return {"variant": "sprint", "track": str(path), "tokens": 1}


def _setting(config: dict[str, object]) -> tuple[PistardOptions, PistardState, fast.Engine]:
    options = PistardOptions.parse(config)
    state = PistardState(options)
    return options, state, fast.Engine.of(state)


def _chance_nodes(options: PistardOptions, state: PistardState, engine: fast.Engine,
                  seed: int, count: int) -> list[np.ndarray]:
    """``count`` positions before a throw, from sprints played at random (seeded)."""
    rng = np.random.default_rng(seed)
    acts = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
    ws = np.zeros(fast.WORK_SIZE, dtype=np.int64)
    found: list[np.ndarray] = []
    while len(found) < count:
        st = fast.initial(options, state.track)
        while engine.player(st) != fast.TERMINAL_NODE and len(found) < count:
            if engine.player(st) != fast.CHANCE_NODE:
                legal = engine.legal(st)
                fast.decide(st, engine.params, legal[int(rng.integers(len(legal)))])
                continue
            if rng.random() < 0.3:
                found.append(st.copy())
            n = fast.throw(st, engine.params, engine.grid, int(rng.integers(fast.THROWS)),
                           acts, info, ws)
            if n:
                fast.decide(st, engine.params, int(acts[rng.integers(n)]))
    return found


_REPLIES: dict[tuple[int, int], np.ndarray] = {}


def _medium_reply(engine: fast.Engine, length: int, tokens: int) -> np.ndarray:
    """The best reply to the medium rule (rider 2) on the short track: solved once for the
    module (two tests read it)."""
    key = (length, tokens)
    if key not in _REPLIES:
        _REPLIES[key] = sprint_solver.response_table(engine.grid, length, tokens, 1,
                                                     search.MEDIUM_WEIGHTS)
    return _REPLIES[key]


def _over_every_throw(st: np.ndarray, engine: fast.Engine,
                      choose: Callable[[np.ndarray, np.ndarray, np.ndarray, int], float]
                      ) -> float:
    """The mean over the 1,296 throws of ``choose``'s value of the engine's legal actions
    (or of the position after a throw without a move)."""
    acts = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
    ws = np.zeros(fast.WORK_SIZE, dtype=np.int64)
    total = 0.0
    for outcome in range(fast.THROWS):
        after = st.copy()
        n = fast.throw(after, engine.params, engine.grid, outcome, acts, info, ws)
        total += choose(after, acts, info, n)
    return total / fast.THROWS


def test_solved_values_are_best_play_over_every_throw_the_engine_allows(
        little: dict[str, object]) -> None:
    """Every tested position's value is the mean over all throws of the best of the
    engine's legal actions (moves, token moves, standing still, or none) valued by the
    table: the per-die shortcut loses nothing, and falls and the finish are right."""
    options, state, engine = _setting(little)
    table = sprint_solver.table_for(engine.grid, state.track.length, options.tokens)
    positions = _chance_nodes(options, state, engine, seed=11, count=12)
    for st in positions:
        mover = int(st[fast.MOVER])

        def best(after: np.ndarray, acts: np.ndarray, info: np.ndarray, n: int,
                 mover: int = mover) -> float:
            if n == 0:
                return sprint_solver.value_after(table, after, mover)
            return float(sprint_solver.decision_values(table, after, engine.params,
                                                       engine.grid, acts, n).max())

        want = _over_every_throw(st, engine, best)
        assert sprint_solver.value_after(table, st, mover) == \
            pytest.approx(want, abs=1e-5)


def test_reply_to_a_rule_values_the_rule_s_own_choices(little: dict[str, object]) -> None:
    """Against the medium rule (rider 2), a position where the rule throws is worth the
    mean over all throws of the action the rule picks (its best score, the engine's first
    on a tie); where the replier throws, the best action."""
    options, state, engine = _setting(little)
    table = _medium_reply(engine, state.track.length, options.tokens)
    positions = _chance_nodes(options, state, engine, seed=12, count=15)
    assert {int(st[fast.MOVER]) for st in positions} == {0, 1}
    for st in positions:
        mover = int(st[fast.MOVER])

        def value(after: np.ndarray, acts: np.ndarray, info: np.ndarray, n: int,
                  mover: int = mover) -> float:
            if n == 0:
                return sprint_solver.value_after(table, after, 0)
            if mover == 0:
                return float(sprint_solver.decision_values(table, after, engine.params,
                                                           engine.grid, acts, n).max())
            scores = [search.score(after, engine.params, acts[k], info[k],
                                   search.MEDIUM_WEIGHTS) for k in range(n)]
            chosen = after.copy()
            fast.decide(chosen, engine.params, int(acts[int(np.argmax(scores))]))
            return sprint_solver.value_after(table, chosen, 0)

        want = _over_every_throw(st, engine, value)
        assert sprint_solver.value_after(table, st, 0) == \
            pytest.approx(want, abs=1e-5)


def _noisy_choice_chances(scores: np.ndarray, noise: float) -> np.ndarray:
    """Each action's chance of the best score after adding ``noise`` x U(0, 1) to every
    score (the easy rider), by the trapezoid rule on a fine grid."""
    return _noisy_chances(tuple(float(x) for x in scores), noise)


@functools.cache
def _noisy_chances(scores: tuple[float, ...], noise: float) -> np.ndarray:
    """:func:`_noisy_choice_chances`, kept: many of a position's 1,296 throws leave the same
    choices with the same scores."""
    if len(scores) == 1:
        return np.ones(1)
    out = []
    for k in range(len(scores)):
        x = np.linspace(scores[k], scores[k] + noise, 8_001)
        below = np.ones_like(x)
        for j in range(len(scores)):
            if j != k:
                below *= np.clip((x - scores[j]) / noise, 0.0, 1.0)
        out.append(np.trapezoid(below, x) / noise)
    return np.array(out)


def test_reply_to_easy_values_its_random_choices_over_every_throw(
        little: dict[str, object]) -> None:
    """Against the easy rule (noise on every score), a position where easy throws is worth
    the mean over all throws of its actions' values weighted by each action's chance of the
    best noisy score; standing still and the square behind the rival included."""
    options, state, engine = _setting({**little, "tokens": 0})
    table = sprint_solver.response_table(engine.grid, state.track.length, options.tokens,
                                         1, search.EASY_WEIGHTS)
    noise = float(search.EASY_WEIGHTS[search.W_NOISE])
    positions = [st for st in _chance_nodes(options, state, engine, seed=13, count=12)
                 if st[fast.MOVER] == 1][:4]
    assert len(positions) == 4
    for st in positions:
        def value(after: np.ndarray, acts: np.ndarray, info: np.ndarray, n: int) -> float:
            if n == 0:
                return sprint_solver.value_after(table, after, 0)
            scores = np.array([search.score(after, engine.params, acts[k], info[k],
                                            search.EASY_WEIGHTS) for k in range(n)])
            values = []
            for k in range(n):
                chosen = after.copy()
                fast.decide(chosen, engine.params, int(acts[k]))
                values.append(sprint_solver.value_after(table, chosen, 0))
            return float(np.dot(_noisy_choice_chances(scores, noise), values))

        want = _over_every_throw(st, engine, value)
        assert sprint_solver.value_after(table, st, 0) == pytest.approx(want, abs=1e-5)


def test_best_reply_beats_best_play_and_generous_ties_bound_it(
        little: dict[str, object]) -> None:
    """From every start, the best reply to the medium rule is worth at least the game's
    value under best play by both (the rule is no better than best play), and breaking the
    rule's ties in the replier's favour is worth at least as much again. Without tokens:
    the bounds hold for any table, and the two tests above check the token moves."""
    options, state, engine = _setting({**little, "tokens": 0})
    length, tokens = state.track.length, options.tokens
    best = sprint_solver.table_for(engine.grid, length, tokens)
    reply = _medium_reply(engine, length, tokens)
    bound = sprint_solver.response_table(engine.grid, length, tokens, 1, search.MEDIUM_WEIGHTS,
                                         generous=True)
    starts = [((-b0, l0), (-b1, l1)) for b0 in range(1, 7) for l0 in range(1, 5)
              for b1 in range(1, 7) for l1 in range(1, 5) if (b0, l0) != (b1, l1)]
    gaps = []
    for places in starts:
        v_best = sprint_solver.start_value(best, (tokens, tokens), places)
        v_reply = sprint_solver.start_value(reply, (tokens, tokens), places)
        v_bound = sprint_solver.start_value(bound, (tokens, tokens), places)
        assert 0.0 <= v_best <= v_reply + 1e-6 <= v_bound + 2e-6 <= 1.0 + 2e-6
        gaps.append(v_reply - v_best)
    assert max(gaps) > 0.01  # the medium rule is beatable by more than best play needs


def test_solved_rider_wins_the_sprint_against_medium() -> None:
    """The solved rider against medium on the short track, seats alternating, 200 races
    (seed 5): its share of wins is above one half at 95% confidence."""
    options = PistardOptions.parse({"variant": "sprint", "track": "short", "tokens": 0})
    rng = np.random.default_rng(5)
    wins = 0
    races = 200
    for race in range(races):
        seat = race % 2
        agents = [make_agent("medium"), make_agent("medium")]
        agents[seat] = SolvedSprintRider()
        state = PistardState(options)
        play_game(state, agents, rng)
        wins += seat in state.outcome().winning_players
    low, _ = wilson_interval(wins, races)
    assert low > 0.5


def test_solved_rider_takes_the_best_valued_action() -> None:
    # without tokens: the table the match above solved (the checks above have token moves)
    options, state, engine = _setting({**SHORT, "tokens": 0})
    table = sprint_solver.table_for(engine.grid, state.track.length, options.tokens)
    rng = np.random.default_rng(8)
    rider = SolvedSprintRider()
    acts = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(fast.THROWS)))
            continue
        legal = state.legal_actions()
        chosen = rider.choose(state, rng)
        if len(legal) > 1:
            st = fast.encode(state)
            n = fast.legal_actions(st, engine.params, engine.grid, acts, info)
            values = sprint_solver.decision_values(table, st, engine.params, engine.grid,
                                                   acts, n)
            assert values[legal.index(chosen)] == pytest.approx(values.max())
            decisions += 1
        state.apply_action(chosen)
    assert decisions > 5


def test_solved_rider_refuses_other_races_and_too_many_tokens() -> None:
    rng = np.random.default_rng(0)
    for config, words in (({"variant": "scratch"}, "only the sprint"),
                          ({"variant": "sprint", "tokens": sprint_solver.MAX_TOKENS + 1},
                           "at most")):
        state = PistardState(PistardOptions.parse(config))
        while state.is_chance_node() or len(state.legal_actions()) < 2:
            state.apply_action(int(rng.integers(fast.THROWS)) if state.is_chance_node()
                               else state.legal_actions()[0])
        with pytest.raises(OptionsError, match=words):
            SolvedSprintRider().choose(state, rng)
