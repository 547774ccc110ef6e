"""The thinking expert's compiled search (search.py), its agent, and `hairpin analyse`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.core.errors import OptionsError
from raceday.games.hairpin import fast, search
from raceday.games.hairpin.agents import (
    AlphaBetaAgent,
    ThinkingAgent,
    make_agent,
    think,
)
from raceday.games.hairpin.game import new_game
from raceday.games.hairpin.rules import (
    CHARGE,
    CHARGE_BUMP,
    CHARGE_PASS,
    CRUISE,
    ENTER,
    SKIP,
    HairpinState,
    apply_move,
    legal_moves,
)
from raceday.store.sessions import SessionStore

runner = CliRunner()
LAP_TO_WIN = "bbbbr./....b./r.rrr. r 4-0 0-0 0-0"  # "e3 charge b1" is Red's fifth lap
# A timed search is tested on a clock that counts its nodes, not on the wall clock: a
# budget of S seconds is S / PER_NODE nodes (about the idle speed, 2 million a second),
# and the search does the same however busy the machine is.
PER_NODE = 0.5e-6


def _random_positions(variant: str, count: int, seed: int) -> list[HairpinState]:
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = new_game({"variant": variant})
        for _ in range(int(rng.integers(0, 40))):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng).outcome)
                continue
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
        if not state.is_terminal() and not state.is_chance_node():
            found.append(state)
    return found


@pytest.mark.parametrize("variant", ["standard", "derby", "v1+short"])
def test_search_with_the_former_weights_gives_the_former_search_values(variant: str) -> None:
    """Both are full-width alpha-beta to a fixed depth with the same evaluation, so the
    best value must be identical: the new search (null windows, table, killers, frame
    core) prunes differently but may not change the answer."""
    for state in _random_positions(variant, 4, seed=3):
        st, rules = fast.encode(state.position), fast.encode_rules(state.rules)
        for depth in (1, 2, 3, 4):
            tt_key = np.zeros(1 << 16, dtype=np.int64)
            tt_val = np.zeros(1 << 16)
            tt_info = np.zeros((1 << 16, 3), dtype=np.int64)
            counter = np.array([0, 1 << 60, 0], dtype=np.int64)
            acts, vals = np.zeros(64, dtype=np.int64), np.zeros(64)
            n = fast.search_root(st, rules, depth, 1 << 60, fast.make_zobrist(), tt_key,
                                 tt_val, tt_info, counter, acts, vals)
            tab = search.Table(16)
            tab.counter[1] = 1 << 60
            moves, values = np.zeros(64, dtype=np.int64), np.zeros(64)
            m = search.search_root_frames(
                st, rules, depth, True, np.zeros(0, dtype=np.int64), search.OLD_WEIGHTS,
                tab.zobrist, tab.key, tab.val, tab.info, tab.frames, tab.moves, tab.keys,
                tab.killers, tab.counter, moves, values)
            assert m == n
            assert values[:m].max() == pytest.approx(vals[:n].max(), abs=1e-9)


def test_the_evaluation_matches_the_reference_evaluation_with_the_former_weights() -> None:
    from raceday.games.hairpin.agents import evaluate

    for variant in ("standard", "derby", "short+nobump"):
        for state in _random_positions(variant, 10, seed=5):
            f = fast.new_frames(1)
            fast.frame_load(fast.encode(state.position), fast.encode_rules(state.rules), f, 0)
            assert search.evaluate_frame(f, 0, search.OLD_WEIGHTS) == pytest.approx(
                evaluate(state.position, state.rules, state.position.side))


def test_a_forced_win_is_found_and_its_line_is_legal() -> None:
    state = new_game({"position": LAP_TO_WIN})
    report = think(state, 0.2, exact_all=True, pv_moves=3)
    assert state.action_to_string(report.actions[0]) == "e3 charge b1"
    assert report.values[0] >= search.MATE  # a won game, one ply away
    assert report.depth >= 1 and report.nodes > 0
    for line in report.lines:  # every principal variation is a legal sequence
        pos = state.position
        for action in line:
            move = next(m for m in legal_moves(pos, state.rules) if m.action == action)
            pos = apply_move(pos, move, state.rules)


def test_exact_values_are_sorted_best_first_and_deepening_is_reported() -> None:
    table = search.Table()
    report = think(new_game(), 0.3, exact_all=True, pv_moves=10, table=table,
                   clock=lambda: float(table.counter[0]) * PER_NODE)
    assert report.values == sorted(report.values, reverse=True)
    assert len(report.actions) == 10 == len(report.lines)
    assert report.depth >= 4 and report.seldepth >= report.depth
    assert all(line[0] == a for line, a in zip(report.lines, report.actions, strict=True))


def test_agent_names() -> None:
    expert = make_agent("expert")
    assert isinstance(expert, ThinkingAgent) and expert.seconds == 1.0
    assert make_agent("expert", think=0.3).seconds == 0.3  # type: ignore[attr-defined]
    assert make_agent("expert:0.5s").seconds == 0.5  # type: ignore[attr-defined]
    old = make_agent("expert-old")
    assert isinstance(old, AlphaBetaAgent) and old.node_budget == 50_000
    for bad in ("expert:0s", "expert:abcs", "expert:1e9s", "expert-old:3"):
        with pytest.raises(OptionsError):
            make_agent(bad)
    for seconds in (0.0, -1.0, float("nan"), float("inf"), 1e9):
        with pytest.raises(OptionsError):
            ThinkingAgent(seconds)


def test_the_expert_plays_legal_moves_within_its_time() -> None:
    """The time budget read on a clock of nodes: each move searches at most the budget's
    nodes (the iteration that would run past it is cut at the node it reaches), and
    deeper than one ply."""
    agent = ThinkingAgent(0.1)
    agent.clock = lambda: agent.nodes * PER_NODE
    budget = round(0.1 / PER_NODE)
    state = new_game()
    rng = np.random.default_rng(0)
    for _ in range(6):
        action = agent.choose(state, rng)
        assert action in state.legal_actions()
        assert agent.last is not None
        assert agent.last.depth >= 4 and 0 < agent.last.nodes <= budget + 2, agent.last
        assert agent.last.seconds <= 0.1 + 2 * PER_NODE
        state.apply_action(action)


def _cli(args: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, ["hairpin", *args])
    return result.exit_code, result.output


def test_analyse_shows_moves_values_lines_and_depth() -> None:
    code, out = _cli(["analyse", "--think", "0.2", "--lines", "3"])
    assert code == 0, out
    assert "Searched" in out and "plies deep" in out and "positions in" in out
    assert ("principal variation" in out and "d1 charge f1" in out) or "e1 charge f2" in out
    code, out = _cli(["analyse", "--position", LAP_TO_WIN, "--think", "0.1", "--json"])
    doc = json.loads(out)
    assert doc["moves"][0]["move"] == "e3 charge b1" and doc["moves"][0]["text"] == "wins in 1"
    assert doc["side"] == "red" and doc["depth"] >= 1 and len(doc["moves"]) == 5


def test_analyse_reads_a_saved_game_without_changing_it(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    code, _ = _cli(["play", "--red", "greedy", "--black", "greedy", "--db", str(db),
                    "--delay", "0", "--save", "g", "--position", LAP_TO_WIN])
    assert code == 0
    before = SessionStore(db).load("hairpin", "g")
    code, out = _cli(["analyse", "--from", "g", "--db", str(db), "--think", "0.05"])
    assert code == 0 and "the game is over" in out
    assert SessionStore(db).load("hairpin", "g") == before


@pytest.mark.parametrize(("args", "needle"), [
    (["--think", "0"], "above 0"),
    (["--think", "-1"], "above 0"),
    (["--think", "nan"], "above 0"),
    (["--think", "inf"], "above 0"),
    (["--think", "1e9"], "at most 600"),
    (["--lines", "0"], "from 1 to 64"),
    (["--position", LAP_TO_WIN, "--from", "x"], "not both"),
    (["--from", "nothing-here", "--db", "DB"], "no saved hairpin session"),
])
def test_analyse_refuses_bad_options_in_one_line(args: list[str], needle: str,
                                                 tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(tmp_path / "d.sqlite") if a == "DB" else a for a in args]
    assert run(["hairpin", "analyse", *args]) == 2
    err = capsys.readouterr()
    text = err.out + err.err
    assert needle in text and "Traceback" not in text


def test_play_and_match_check_think_too(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["play"], ["match", "--red", "expert", "--black", "hard"]):
        assert run(["hairpin", *command, "--think", "nan"]) == 2
        assert "above 0" in capsys.readouterr().err + capsys.readouterr().out


def test_child_keys_equal_the_keys_of_the_children() -> None:
    """The search takes a child's Zobrist key from its parent's (child_hash) instead of
    hashing the child: it must be the child's full key for every legal move of every
    position of random games of every variant, and of a v1 skip (every kind of move)."""
    zob = search.make_zobrist()
    moves = np.zeros((1, fast.MAX_MOVES), dtype=np.int64)
    f = fast.new_frames(2)
    kinds: set[int] = set()

    def check(state: HairpinState) -> None:
        fast.frame_load(fast.encode(state.position), fast.encode_rules(state.rules), f, 0)
        h = search.frame_hash(f, 0, zob)
        n = fast.frame_moves(f, 0, moves, 0)
        assert n == len(state.legal_actions())
        for m in moves[0, :n]:
            fast.frame_apply(f, 0, 1, m)
            assert search.child_hash(f, 0, h, m, zob) == search.frame_hash(f, 1, zob)
            kinds.add(int(m) >> 5 & 7)

    for state in _decisions(("standard", "derby", "v1", "v1+short", "short+nobump",
                             "derby+random"), 6, np.random.default_rng(9)):
        check(state)
    check(new_game({"variant": "v1", "position": "....b3./....../r5....b2 r 0-0 0-0 0-0"}))
    assert kinds == {CRUISE, CHARGE, CHARGE_BUMP, CHARGE_PASS, ENTER, SKIP}


def test_the_table_keeps_an_entry_in_one_row() -> None:
    """key, val and info are views of one array of 32-byte entries (one cache line)."""
    tab = search.Table(4)
    assert tab.key.shape == (16, search.TT_WIDTH) and tab.entries.itemsize * 4 == 32
    tab.val[3, search.T_VAL] = 2.5
    assert tab.entries[3, search.T_VAL] == np.float64(2.5).view(np.int64)
    tab.clear()
    assert not tab.entries.any()


def test_the_quick_evaluation_equals_the_full_one() -> None:
    """Without the advance terms (weight 0, as shipped) the evaluation takes a shorter
    path with lookup tables: it must give the same values as the full one, in every
    position of random games of every variant."""
    w = search.WEIGHTS.copy()
    assert w[search.W_REACH_MOVER] == 0 and w[search.W_REACH_OTHER] == 0
    f = fast.new_frames(1)
    for state in _decisions(("standard", "derby", "short", "short+nobump", "v1",
                             "derby+random"), 4, np.random.default_rng(12)):
        fast.frame_load(fast.encode(state.position), fast.encode_rules(state.rules), f, 0)
        assert search._evaluate_running(f, 0, w, False) == search._evaluate_running(
            f, 0, w, True)


@pytest.mark.parametrize(("variant", "nodes", "move", "value"), [
    ("standard", 46_126, "c1 charge e1", 3.75),
    ("derby", 56_495, "c1 charge e1", 0.4),
])
def test_the_search_to_a_fixed_depth_is_pinned(variant: str, nodes: int, move: str,
                                               value: float) -> None:
    """The search to depth 9 from the start: its node count, move and value are pinned,
    so that a change meant only to make it faster cannot change what it searches. (The
    search before the speed work of issue #18 counted 13 more nodes in each: horizon
    positions searched again after a null window, for the same value.)"""
    state = new_game({"variant": variant})
    report = think(state, 1e9, max_depth=9, table=search.Table())
    assert report.depth == 9 and report.nodes == nodes
    assert state.action_to_string(report.actions[0]) == move
    assert report.values[0] == pytest.approx(value)


def _decisions(variants: tuple[str, ...], games: int, rng: np.random.Generator
               ) -> Iterator[HairpinState]:
    """Every position where a player moves, in ``games`` random games of each variant
    (throws and moves drawn from ``rng``)."""
    for variant in variants:
        for _ in range(games):
            state = new_game({"variant": variant})
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(state.sample_chance(rng).outcome)
                    continue
                yield state
                acts = state.legal_actions()
                state.apply_action(acts[int(rng.integers(len(acts)))])
