"""PISTARD benchmarks: engine speed (reference and compiled), the compiled engine checked
step for step against the reference, the computer riders' ladder with 95% intervals,
decision times, and race length by lap length.

Run: ``nice .venv/bin/python bench/bench_pistard.py [--quick] [--only SECTION ...]``
(sections: speed, check, times, ladder, lengths, legacy, ceiling, rules; and ``tune`` and
``lab``, only when named: the rule's hill-climb, and compiled search-against-search
experiments).
The ladder plays seeded matches (``--seed``) on
the reference engine with the real agents; "a win" is defined in :func:`match` and
:func:`match_ttt`. The whole ladder (11 option sets x 3 matches x 200 races) takes many
hours on a shared machine: pick with ``--configs 0 --pairs hard:medium --games 250``.
``--quick`` shortens every section (a few minutes in all) and says how in its output: the
ladder plays 2 races a match of three option sets with 16 play-outs per candidate, the
sprint is solved on the short track without tokens; its figures check that the code runs,
not the riders' strength.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from raceday.analysis.stats import mean_interval, wilson_interval
from raceday.core.agents import Agent, RandomAgent
from raceday.core.play import play_game
from raceday.games.pistard.agents import make_agent
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import design_track

# One option set per variant and player count for the ladder: the scratch with 2-5 players
# (riders as the rules suggest), points and elimination races short enough to play
# hundreds of times with searching riders, the sprint and the team pursuit (2 players) and
# the team time trial (1 player: compared by time, see match_ttt).
LADDER_CONFIGS: tuple[dict[str, Any], ...] = (
    {"variant": "scratch", "players": 2},
    {"variant": "scratch", "players": 3},
    {"variant": "scratch", "players": 4},
    {"variant": "scratch", "players": 5},
    {"variant": "points", "players": 2, "riders_per_player": 3, "laps": 3, "track": "short"},
    {"variant": "points", "players": 3, "riders_per_player": 2, "laps": 3, "track": "short"},
    {"variant": "elimination", "players": 2, "riders_per_player": 2, "track": "short"},
    {"variant": "elimination", "players": 3, "riders_per_player": 1},
    {"variant": "sprint"},
    {"variant": "pursuit"},
    {"variant": "ttt"},
)


def timed(label: str, fn: Callable[[], int]) -> float:
    """Run ``fn`` and print its rate by the clock and by CPU time (on a shared machine the
    CPU rate is the engine's speed); return the CPU rate."""
    start, cpu = time.perf_counter(), time.process_time()
    count = fn()
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    print(f"{label}: {count:,} in {elapsed:.2f}s = {count / elapsed:,.1f}/s "
          f"({count / max(used, 1e-9):,.1f} per CPU second)", flush=True)
    return count / max(used, 1e-9)


def reference_races(n: int, options: PistardOptions) -> int:
    rng = np.random.default_rng(2)
    for _ in range(n):
        play_game(PistardState(options), [RandomAgent(), RandomAgent()], rng)
    return n


def compiled_races(options: PistardOptions) -> Callable[[int], int]:
    """The compiled engine, compiled (or loaded from numba's cache) by a first short run
    timed and printed on its own ("compile/load"): the timed runs are the engine alone."""
    from raceday.games.pistard import fast

    state = PistardState(options)
    start = time.perf_counter()
    engine = fast.Engine.of(state)
    engine.random_races(fast.encode(state), np.random.default_rng(1), 10)
    print(f"compile/load: {time.perf_counter() - start:.2f} s (the compiled engine's first "
          "10 races; not in the rate below)", flush=True)

    def run(n: int) -> int:
        engine.random_races(fast.encode(state), np.random.default_rng(2), n)
        return n

    return run


def speed(quick: bool) -> None:
    default = PistardOptions(players=2)
    ref = timed("random scratch races, reference engine (8 riders, full protocol)",
                lambda: reference_races(20 if quick else 300, default))
    races = compiled_races(default)
    fast = timed("random scratch races, compiled engine (8 riders)",
                 lambda: races(20_000 if quick else 100_000))
    print(f"  compiled / reference (CPU time): {fast / ref:,.0f}x")


def check(quick: bool, games: int = 120) -> None:
    """Lock-step games of both engines over every variant and 2-5 players."""
    from raceday.games.pistard import fast
    from raceday.games.pistard.game import HARNESS_CONFIGS

    configs: list[Mapping[str, Any]] = [*HARNESS_CONFIGS,
                                        {"variant": "points", "players": 2},
                                        {"variant": "points", "players": 4,
                                         "riders_per_player": 2, "laps": 3},
                                        {"variant": "elimination", "players": 4},
                                        {"variant": "pursuit"},
                                        {"variant": "ttt", "riders_per_player": 6},
                                        {"variant": "sprint", "tokens": 0}]
    per = 5 if quick else games
    total_games = total_steps = 0
    start = time.perf_counter()
    for config in configs:
        options = PistardOptions.parse(config)
        steps = sum(fast.lock_step(options, np.random.default_rng([seed, 77]))
                    for seed in range(per))
        total_games += per
        total_steps += steps
        print(f"  {dict(config)}: {per} games, {steps:,} steps agree", flush=True)
    print(f"lock-step check: {total_games:,} games, {total_steps:,} steps, every one equal "
          f"({time.perf_counter() - start:.0f}s)")


def _winner_share(state: PistardState, player: int) -> float:
    """The player's share of the win: 1 if his rider (team) wins, half of a tied pursuit."""
    out = state.outcome()
    if player in out.winning_players:
        return 1.0 / len(out.winning_players)
    return 0.0


def _duels(state: PistardState, seat: int) -> list[float]:
    """Against each other player of a bunch race: 1 if ``seat``'s best rider is ranked
    ahead of that player's best rider, else 0."""
    best: dict[int, int] = {}
    for place, rider in enumerate(state.ranking):
        best.setdefault(state.riders[rider].owner, place)
    return [1.0 if best[seat] < place else 0.0 for owner, place in best.items()
            if owner != seat]


def match(a: str, b: str, n: int, config: Mapping[str, Any], seed: int = 2024,
          simulations: int | None = None, duels: list[float] | None = None
          ) -> tuple[float, int, list[float]]:
    """``a`` in one seat against ``b`` in every other seat, ``a``'s seat rotating.
    A win: ``a``'s player wins the race (his rider is first in the ranking; in the pursuit
    his team; a tied pursuit counts half). Returns a's wins, races and a's decision times;
    with ``duels`` (bunch races of three or more players), appends :func:`_duels` of each
    race."""
    options = PistardOptions.parse(config)
    rng = np.random.default_rng(seed)
    players = options.num_players
    wins = 0.0
    times: list[float] = []
    for race in range(n):
        seat = race % players
        agents: list[Agent] = [make_agent(b, simulations) for _ in range(players)]
        agents[seat] = _Timed(make_agent(a, simulations), times)
        state = PistardState(options)
        play_game(state, agents, rng)
        wins += _winner_share(state, seat)
        if duels is not None:
            duels.extend(_duels(state, seat))
    return wins, n, times


def match_ttt(a: str, b: str, n: int, config: Mapping[str, Any], seed: int = 2024,
              simulations: int | None = None) -> tuple[float, int, list[float]]:
    """The team time trial has one team: ``a`` and ``b`` ride the same race with the same
    throws (the same seeded generator); ``a`` wins if its time is lower (a tie counts half)."""
    options = PistardOptions.parse(config)
    wins = 0.0
    times: list[float] = []
    for race in range(n):
        results = []
        for level, timing in ((a, times), (b, [])):
            state = PistardState(options)
            play_game(state, [_Timed(make_agent(level, simulations), timing)],
                      np.random.default_rng([seed, race]))
            results.append(state.team_time())
        wins += 1.0 if results[0] < results[1] else 0.5 if results[0] == results[1] else 0.0
    return wins, n, times


class _Timed:
    """An agent whose decisions (with more than one legal action) are timed."""

    def __init__(self, agent: Any, times: list[float]) -> None:
        self.agent = agent
        self.times = times
        self.name = agent.name

    def choose(self, state: Any, rng: np.random.Generator) -> Any:
        start = time.perf_counter()
        action = self.agent.choose(state, rng)
        if len(state.legal_actions()) > 1:
            self.times.append(time.perf_counter() - start)
        return action


def report(a: str, b: str, config: Mapping[str, Any], result: tuple[float, int, list[float]],
           target: float | None) -> None:
    wins, n, times = result
    lo, hi = wilson_interval(round(wins), n)
    options = PistardOptions.parse(config)
    fair = 1 / options.num_players if options.variant != "ttt" else 0.5
    verdict = ""
    if target is not None:
        verdict = (" MEETS" if lo >= target else " FAILS" if hi < target else " UNDECIDED") + \
            f" target {target:.0%}"
    slow = f", decisions mean {np.mean(times) * 1000:.0f} ms max {max(times) * 1000:.0f} ms" \
        if times else ""
    print(f"  {a} vs {b}, {_label(config)}: {a} wins {wins:g}/{n} = {wins / n:.1%} "
          f"(95% {lo:.1%}-{hi:.1%}; fair share {fair:.0%}){verdict}{slow}", flush=True)


def _label(config: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in config.items())


TARGETS = {("hard", "medium"): 0.65, ("hard", "easy"): 0.85, ("expert", "hard"): 0.60}


def warm_up() -> None:
    """One decision of each searching level, so that loading the compiled engine (or
    compiling it on a new machine) is not counted as a decision's time."""
    from raceday.games.pistard.state import position_state

    for level in ("hard", "expert"):
        state = position_state([(11, 30, 2), (21, 29, 3)], mover=11, dice=(6, 2, 4, 3))
        make_agent(level, 4).choose(state, np.random.default_rng(0))


def ladder(games: int, configs: Sequence[Mapping[str, Any]],
           pairs: Sequence[tuple[str, str]], seed: int = 2024,
           simulations: int | None = None) -> None:
    warm_up()
    print(f"ladder ({games} races a match; the targets apply to 2-player races, and with 3-5 "
          "players to the head-to-head rate against each rival):", flush=True)
    for config in configs:
        players = PistardOptions.parse(config).num_players
        for a, b in pairs:
            target = TARGETS.get((a, b))
            if config.get("variant") == "ttt":
                result = match_ttt(a, b, games, config, seed, simulations)
            elif players > 2:
                duels: list[float] = []
                result = match(a, b, games, config, seed, simulations, duels)
                report(a, b, config, result, None)
                won = round(sum(duels))
                lo, hi = wilson_interval(won, len(duels))
                verdict = "" if target is None else (
                    " MEETS" if lo >= target else " FAILS" if hi < target else " UNDECIDED"
                ) + f" target {target:.0%}"
                print(f"    head to head: {a}'s best rider ahead of a {b} player's best in "
                      f"{won}/{len(duels)} = {won / len(duels):.1%} "
                      f"(95% {lo:.1%}-{hi:.1%}){verdict}", flush=True)
                continue
            else:
                result = match(a, b, games, config, seed, simulations)
            report(a, b, config, result, target)


def decision_times(decisions: int) -> None:
    """Decision times of hard and expert from positions of medium-vs-medium races."""
    warm_up()
    for level in ("hard", "expert"):
        for config in ({"players": 2}, {"players": 5, "riders_per_player": 2},
                       {"variant": "points", "players": 2, "riders_per_player": 4}):
            rng = np.random.default_rng(5)
            agent, medium = make_agent(level), make_agent("medium")
            times: list[float] = []
            options = PistardOptions.parse(config)
            state = PistardState(options)
            while len(times) < decisions:
                if state.is_terminal():
                    state = PistardState(options)
                if state.is_chance_node():
                    draw = state.sample_chance(rng)
                    state.apply_action(draw.outcome, draw.detail)
                elif len(state.legal_actions()) > 1:
                    start = time.perf_counter()
                    agent.choose(state, rng)
                    times.append(time.perf_counter() - start)
                    state.apply_action(medium.choose(state, rng))
                else:
                    state.apply_action(state.legal_actions()[0])
            mean, lo, hi = mean_interval(np.asarray(times[1:]))
            print(f"{level} decision, {_label(config)}: mean {mean * 1000:.0f} ms "
                  f"(95% {lo * 1000:.0f}-{hi * 1000:.0f}), max {max(times[1:]) * 1000:.0f} ms",
                  flush=True)


def lap_lengths(n: int) -> None:
    print("lap length -> turns and throws per scratch race (2 players x 4, medium vs easy):")
    for length in (32, 40, 48, 56, 64):
        track = design_track(length, 3)
        turns, throws = [], []
        rng = np.random.default_rng(length)
        for _ in range(n):
            state = PistardState(PistardOptions(players=2), track)
            record = play_game(state, [make_agent("medium"), make_agent("easy")], rng)
            turns.append(state.rounds_total)
            throws.append(sum(1 for e in record.events if e.kind == "throw"))
        print(f"  {length:>3} columns: {np.mean(turns):5.1f} turns, {np.mean(throws):5.1f} throws")


TUNED_INDICES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 16)  # the weights a tuning moves
TUNE_STEPS = (0.3, 0.3, 1.0, 0.6, 4.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.2)


def tune(games: int, iterations: int, seed: int) -> None:
    """Hill-climb the searching riders' rule (:data:`HARD_WEIGHTS`) by compiled scratch
    races (2 x 4 riders, seats alternating): easy's wins plus half of medium's, no lower
    than 68% against medium. A few weights move at a time; the incumbent is re-measured on
    fresh races every 100 steps so a lucky block of races does not stick. Prints each
    improvement and the final weights measured on 40,000 fresh races."""
    from raceday.games.pistard import fast, search

    state = PistardState(PistardOptions(players=2))
    engine = fast.Engine.of(state)
    st, par, grid = fast.encode(state), engine.params, engine.grid

    def rate(w: np.ndarray, other: np.ndarray, at: int, n: int) -> float:
        return float(search.greedy_match(st, par, grid, w, other, at, n))

    def objective(w: np.ndarray, at: int) -> tuple[float, list[float]]:
        easy = rate(w, search.EASY_WEIGHTS, at, games)
        medium = rate(w, search.MEDIUM_WEIGHTS, at + 10**6, games)
        return easy + 0.5 * medium - 5 * max(0.0, 0.68 - medium), [easy, medium]

    best = search.HARD_WEIGHTS.copy()
    rng = np.random.default_rng(seed)
    at = 100
    best_value, shares = objective(best, at)
    print(f"tuning: start (vs easy, medium) {np.round(shares, 4).tolist()}", flush=True)
    for step in range(iterations):
        trial = best.copy()
        for j in rng.choice(len(TUNED_INDICES), size=int(rng.integers(1, 4)), replace=False):
            trial[TUNED_INDICES[j]] += rng.normal() * TUNE_STEPS[j]
        value, trial_shares = objective(trial, at)
        if value > best_value:
            best, best_value, shares = trial, value, trial_shares
            print(f"  step {step}: {np.round(shares, 4).tolist()}", flush=True)
        if step % 100 == 99:
            at += 17
            best_value, shares = objective(best, at)
    final = [rate(best, search.EASY_WEIGHTS, 999, 40_000),
             rate(best, search.MEDIUM_WEIGHTS, 998, 40_000)]
    print(f"tuned, on 40,000 fresh races each (vs easy, medium): "
          f"{np.round(final, 4).tolist()}\nweights {np.round(best, 3).tolist()}", flush=True)


def race_rules(quick: bool) -> None:
    """The races with rules of their own (:func:`raceday.games.pistard.search.weights_for`)
    against the rule they replaced, as greedy rules in compiled races against easy and
    medium (seats rotating, the same seeded races for both rules): the figures in
    search.py and docs/usage/pistard.md. Share of wins; a tied pursuit counts half."""
    from raceday.games.pistard import fast, search

    # (race, options, own rule, former rule, races, seeds against easy and medium)
    cases: tuple[tuple[str, dict[str, Any], np.ndarray, np.ndarray, int, tuple[int, int]],
                 ...] = (
        ("sprint", {"variant": "sprint"}, search.SPRINT_WEIGHTS,
         np.array([1, 0, 0.786, 0.026, 2.537, 1.144, 34.364, 0.795, 0.719, 0.764, 0.002,
                   0.751, 33.583, 0.0, 0, 0, 0], dtype=np.float64),  # the former sprint rule
         60_000, (5 * 10**8, 6 * 10**8)),
        ("team pursuit", {"variant": "pursuit"}, search.PURSUIT_WEIGHTS,
         search.TUNED_WEIGHTS, 20_000, (9 * 10**8, 8 * 10**8)),
        *((f"elimination {players} x {riders}{note}",
           {"variant": "elimination", "players": players, "riders_per_player": riders},
           search.ELIMINATION_SOLO_WEIGHTS, search.TUNED_WEIGHTS, games, seeds)
          for players, riders, games, seeds, note in (
              (3, 1, 20_000, (9 * 10**8, 8 * 10**8), ""),
              (4, 1, 10_000, (7 * 10**8, 6 * 10**8), ""),
              (5, 1, 10_000, (7 * 10**8, 6 * 10**8), ""),
              (2, 2, 10_000, (7 * 10**8, 6 * 10**8), " (keeps the former rule)"))),
    )
    print("races with rules of their own (greedy rules, compiled races; against easy / "
          "medium):", flush=True)
    for label, config, own, former, games, (easy_seed, medium_seed) in cases:
        games = 1_000 if quick else games
        state = PistardState(PistardOptions.parse(config))
        engine = fast.Engine.of(state)
        st = fast.encode(state)
        shares = {
            name: [float(search.greedy_match(st, engine.params, engine.grid, rule, other, at,
                                             games))
                   for other, at in ((search.EASY_WEIGHTS, easy_seed),
                                     (search.MEDIUM_WEIGHTS, medium_seed))]
            for name, rule in (("former", former), ("own", own))
        }
        print(f"  {label}, {games:,} races each: former rule "
              f"{shares['former'][0]:.1%} / {shares['former'][1]:.1%}, own rule "
              f"{shares['own'][0]:.1%} / {shares['own'][1]:.1%}", flush=True)


def ceiling(games: int) -> None:
    """What knowing the dice is worth: a clairvoyant rider who knows every throw still to
    come tries each legal action, plays the race out with the true throws and keeps the best,
    against easy and medium (compiled scratch races, 2 x 4 riders, seats alternating). Twice:
    first it plays the race out with hard's rule for every rider (it knows the dice, not the
    rival's rule), then with the rival's own rule for the rival (it knows both: against the
    deterministic medium that is nearly certain victory). Neither is a bound on a fair
    rider's strength; the first shows how much the dice alone decide under hard's rule."""
    from numba import njit

    from raceday.games.pistard import fast, search

    @njit(cache=False)
    def clairvoyant_match(st0: np.ndarray, par: np.ndarray, grid: np.ndarray,
                          wa: np.ndarray, wb: np.ndarray, seed: int, n: int,
                          knows_rival: bool) -> float:
        acts = np.empty(fast.MAXM, dtype=np.int64)
        info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
        ws = np.empty(fast.WORK_SIZE, dtype=np.int64)
        rs = np.empty(1, dtype=np.uint64)
        trial_rs = np.empty(1, dtype=np.uint64)
        cand = np.empty(fast.MAXM, dtype=np.int64)
        everyone = np.empty((fast.MAXP, search.WEIGHTS))
        st = st0.copy()
        trial = st0.copy()
        won = 0.0
        for g in range(n):
            a_seat = g % 2
            for p in range(fast.MAXP):
                everyone[p] = wb if knows_rival and p != a_seat else wa
            st[:] = st0
            rs[0] = np.uint64(seed + 7919 * g + 1)
            dice = seed * 1_000_003 + g
            while True:
                player, k = search.next_decision(st, par, grid, dice, acts, info, ws)
                if player == fast.TERMINAL_NODE:
                    break
                if k == 0:
                    continue
                if player != a_seat:
                    fast.decide(st, par, acts[search.pick(st, par, acts, info, k, wb, rs)])
                    continue
                k = search.ranked(st, par, grid, cand, info, wa)  # ties: the rule's order
                best, best_value = cand[0], -1.0
                for c in range(k):
                    trial[:] = st
                    trial_rs[0] = np.uint64(g * 131 + c + 1)
                    fast.decide(trial, par, cand[c])
                    search.play_out(trial, par, grid, everyone, trial_rs, dice, acts, info, ws)
                    v = search.value(trial, par, player)
                    if v > best_value:
                        best, best_value = cand[c], v
                fast.decide(st, par, best)
            if st[fast.OWNER + st[fast.RANK]] == a_seat:
                won += 1.0
        return won

    state = PistardState(PistardOptions(players=2))
    engine = fast.Engine.of(state)
    for knows_rival in (False, True):
        model = "the rival's own rule" if knows_rival else "hard's rule for everyone"
        for name, other in (("easy", search.EASY_WEIGHTS), ("medium", search.MEDIUM_WEIGHTS)):
            wins = clairvoyant_match(fast.encode(state), engine.params, engine.grid,
                                     search.HARD_WEIGHTS, other, 4242, games, knows_rival)
            lo, hi = wilson_interval(round(wins), games)
            print(f"clairvoyant rider ({model} in its play-outs) vs {name}, scratch 2x4, "
                  f"{games} races: {wins / games:.1%} (95% {lo:.1%}-{hi:.1%})", flush=True)


def search_lab(quick: bool) -> None:
    """Compiled search-against-search matches (scratch 2 x 4, seats alternating, the same
    throws for every pairing): the hard rider's search with a fixed number of play-outs
    (four candidates, 96 play-outs each, the rule's veto at one standard error), changed one
    way at a time, against easy, medium or itself: modelling easy by its own rule in the
    play-outs, valuing a race also by the winning margin, and expert's six candidates with
    512 play-outs against hard's. A paired difference compares two riders on the same races."""
    from numba import njit

    from raceday.games.pistard import fast, search

    @njit(cache=False)
    def race_value(st: np.ndarray, par: np.ndarray, player: int, margin_weight: float) -> float:
        v = float(search.value(st, par, player))
        if margin_weight == 0.0:
            return v
        mine = theirs = -1000
        for i in range(st[fast.NRIDERS]):
            if st[fast.OWNER + i] == player:
                mine = max(mine, st[fast.DIST + i])
            else:
                theirs = max(theirs, st[fast.DIST + i])
        return v + margin_weight * min(6, max(-6, mine - theirs)) / 6.0

    @njit(cache=False)
    def decide(st: np.ndarray, par: np.ndarray, grid: np.ndarray, rule: np.ndarray,
               playouts: np.ndarray, player: int, cfg: np.ndarray, seed: int,
               acts: np.ndarray, info: np.ndarray, ws: np.ndarray, rs: np.ndarray) -> int:
        cand = np.empty(fast.MAXM, dtype=np.int64)
        k = min(search.ranked(st, par, grid, cand, info, rule), int(cfg[0]))
        rolls = int(cfg[1])
        if k == 1 or rolls == 0:
            n = fast.legal_ws(st, par, grid, acts, info, ws)
            return int(acts[search.pick(st, par, acts, info, n, rule, rs)])
        out = np.zeros((k, rolls))
        trial = st.copy()
        prs = np.empty(1, dtype=np.uint64)
        for c in range(k):
            for j in range(rolls):
                trial[:] = st
                prs[0] = np.uint64(seed + 7919 * j + 1)
                fast.decide(trial, par, cand[c])
                search.play_out(trial, par, grid, playouts, prs, seed * 1_000_003 + j,
                                acts, info, ws)
                out[c, j] = race_value(trial, par, player, cfg[3])
        best = 0
        for c in range(1, k):
            if out[c].mean() > out[best].mean():
                best = c
        if best == 0:
            return int(cand[0])
        d = out[best] - out[0]
        se = d.std() * np.sqrt(rolls / (rolls - 1.0)) / np.sqrt(rolls)
        return int(cand[best]) if d.mean() > cfg[2] * se else int(cand[0])

    @njit(cache=False)
    def play(st0: np.ndarray, par: np.ndarray, grid: np.ndarray, rules: np.ndarray,
             models: np.ndarray, cfgs: np.ndarray, seed: int, n: int) -> np.ndarray:
        acts = np.empty(fast.MAXM, dtype=np.int64)
        info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
        ws = np.empty(fast.WORK_SIZE, dtype=np.int64)
        rs = np.empty(1, dtype=np.uint64)
        playouts = np.empty((fast.MAXP, search.WEIGHTS))
        st = st0.copy()
        won = np.zeros(n)
        for g in range(n):
            a_seat = g % 2
            st[:] = st0
            rs[0] = np.uint64(seed + 7919 * g + 1)
            dice = seed * 1_000_003 + g
            step = 0
            while True:
                player, k = search.next_decision(st, par, grid, dice, acts, info, ws)
                if player == fast.TERMINAL_NODE:
                    break
                if k == 0:
                    continue
                step += 1
                if k == 1:
                    fast.decide(st, par, acts[0])
                    continue
                side = 0 if player == a_seat else 1
                for p in range(fast.MAXP):
                    playouts[p] = models[side, 0] if p == player else models[side, 1]
                fast.decide(st, par, decide(st, par, grid, rules[side], playouts, player,
                                            cfgs[side], seed * 7 + g * 100_003 + step,
                                            acts, info, ws, rs))
            won[g] = 1.0 if st[fast.OWNER + st[fast.RANK]] == a_seat else 0.0
        return won

    state = PistardState(PistardOptions(players=2))
    engine = fast.Engine.of(state)
    hard_rule, easy, medium = search.HARD_WEIGHTS, search.EASY_WEIGHTS, search.MEDIUM_WEIGHTS
    greedy = np.array([1, 0, 1.0, 0.0])

    def searcher(candidates: int = 4, rolls: int = 96, margin_weight: float = 0.0
                 ) -> np.ndarray:
        return np.array([candidates, rolls, 1.0, margin_weight])

    def run(label: str, a: tuple[np.ndarray, np.ndarray, np.ndarray],
            b: tuple[np.ndarray, np.ndarray, np.ndarray], seed: int, games: int) -> np.ndarray:
        games = 10 if quick else games
        start = time.perf_counter()
        won = play(fast.encode(state), engine.params, engine.grid, np.stack([a[0], b[0]]),
                   np.stack([a[1], b[1]]), np.stack([a[2], b[2]]), seed, games)
        lo, hi = wilson_interval(round(won.sum()), games)
        print(f"  {label}: {won.mean():.1%} (95% {lo:.1%}-{hi:.1%}) over {games} races "
              f"({time.perf_counter() - start:.0f}s)", flush=True)
        return won

    def paired(label: str, first: np.ndarray, second: np.ndarray) -> None:
        d = second - first
        se = float(d.std(ddof=1)) / np.sqrt(len(d))
        print(f"  {label}: {d.mean():+.1%} (standard error {se:.1%}; "
              f"{int((d != 0).sum())} races differ)", flush=True)

    print("search lab (compiled, scratch 2x4):", flush=True)
    tuned_model = np.stack([hard_rule, hard_rule])
    hard = (hard_rule, tuned_model, searcher())
    run("hard's search vs easy", hard, (easy, np.stack([easy, easy]), greedy), 11, 400)
    run("the same, easy modelled by its own rule", (hard_rule, np.stack([hard_rule, easy]),
        searcher()), (easy, np.stack([easy, easy]), greedy), 11, 400)
    base = run("hard's search vs medium", hard, (medium, np.stack([medium, medium]), greedy),
               31, 300)
    shaped = run("the same, valuing the winning margin too (0.5 for 6 columns)",
                 (hard_rule, tuned_model, searcher(margin_weight=0.5)),
                 (medium, np.stack([medium, medium]), greedy), 31, 300)
    paired("margin value minus plain value, same races", base, shaped)
    run("expert's search (6 candidates x 512) vs hard's (4 x 96)",
        (hard_rule, tuned_model, searcher(6, 512)), hard, 21, 200)


def sprint_solution(quick: bool) -> None:
    """The sprint solved exactly (sprint_solver.py): the value of the game, and the best
    any player can do against the medium rule, the easy rule (its random choices valued
    exactly) and the rule hard plays out with. A rule without noise has its ties broken the
    engine's way; breaking them in the replier's favour bounds what random tie-breaks could
    give him. Each best reply to a level is also played against the real rider."""
    from raceday.games.pistard import fast, search, sprint_solver

    config: dict[str, Any] = {"variant": "sprint", "track": "short", "tokens": 0} if quick \
        else {"variant": "sprint"}
    options = PistardOptions.parse(config)
    state = PistardState(options)
    engine = fast.Engine.of(state)
    length, tokens = state.track.length, options.tokens
    start = time.perf_counter()
    best = sprint_solver.table_for(engine.grid, length, tokens)
    print(f"sprint solved ({state.track.name}, {tokens} tokens): "
          f"{time.perf_counter() - start:.1f} s, {best.nbytes / 1e6:.0f} MB", flush=True)
    first = _sprint_start(engine, options, lambda rider: best, None)
    print(f"  best play by both: the first to place wins {first[0]:.1%}, the second "
          f"{first[1]:.1%}", flush=True)
    for label, weights, target in (
            ("medium", search.MEDIUM_WEIGHTS, TARGETS[("hard", "medium")]),
            ("easy", search.EASY_WEIGHTS, TARGETS[("hard", "easy")]),
            ("hard's play-out rule", search.SPRINT_WEIGHTS, None)):
        noisy = weights[search.W_NOISE] > 0
        shares = []
        exact: dict[int, Any] = {}
        for generous in (False,) if noisy else (False, True):
            start = time.perf_counter()
            tables = {rider: sprint_solver.response_table(engine.grid, length, tokens,
                                                          1 - rider, weights, generous)
                      for rider in (0, 1)}
            seats = _sprint_start(engine, options, tables.__getitem__, weights)
            shares.append((seats[0] + seats[1]) / 2)
            exact = exact or tables
            kind = "ties in the replier's favour (a bound)" if generous else \
                "exact, over its random choices" if noisy else "exact"
            print(f"  best reply to {label}, {kind}: placing first {seats[0]:.1%}, second "
                  f"{seats[1]:.1%}, both seats {shares[-1]:.2%} "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
        if target is not None:
            verdict = "no player reaches" if shares[-1] < target else "the best reply reaches"
            print(f"  -> against {label} {verdict} {target:.0%} in the sprint (at most "
                  f"{shares[-1]:.2%})", flush=True)
            _reply_against(label, weights, options, engine, exact, 20 if quick else 2000)


def _rule_choices(engine: Any, st: np.ndarray, weights: np.ndarray) -> list[tuple[int, float]]:
    """The actions a greedy rule takes at a decision, with their chances: the best score
    (the engine's first on a tie), or with noise each action's chance of the best noisy
    score (numerical integration)."""
    from raceday.games.pistard import fast, search

    acts = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
    n = fast.legal_actions(st, engine.params, engine.grid, acts, info)
    scores = np.array([search.score(st, engine.params, acts[k], info[k], weights)
                       for k in range(n)])
    noise = weights[search.W_NOISE]
    if noise <= 0 or n == 1:
        return [(int(acts[int(np.argmax(scores))]), 1.0)]
    chances = []
    for k in range(n):
        x = np.linspace(scores[k], scores[k] + noise, 20_001)
        below = np.ones_like(x)
        for j in range(n):
            if j != k:
                below *= np.clip((x - scores[j]) / noise, 0.0, 1.0)
        chances.append(float(np.trapezoid(below, x)) / noise)
    return [(int(acts[k]), chances[k]) for k in range(n)]


def _sprint_start(engine: Any, options: PistardOptions, table_of: Callable[[int], Any],
                  rule: Any) -> tuple[float, float]:
    """Each seat's value from the start: rider 0 places first, rider 1 replies. The solved
    seat places best; the other seat places best too (``rule`` None) or by ``rule``."""
    from raceday.games.pistard import fast, sprint_solver

    acts = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)

    def places(st: np.ndarray) -> list[int]:
        n = fast.legal_actions(st, engine.params, engine.grid, acts, info)
        return [int(a) for a in acts[:n]]

    def after(st: np.ndarray, action: int) -> np.ndarray:
        return _after(engine, st, action)

    st0 = fast.initial(options, engine.track)
    values = []
    for rider in (0, 1):
        table = table_of(rider)

        def value(st: np.ndarray, table: Any = table, rider: int = rider) -> float:
            return sprint_solver.value_after(table, st, rider)

        firsts = [after(st0, a) for a in places(st0)]
        if rider == 0 and rule is None:
            values.append(max(min(value(after(a1, b)) for b in places(a1)) for a1 in firsts))
        elif rider == 0:
            values.append(max(sum(p * value(after(a1, b))
                                  for b, p in _rule_choices(engine, a1, rule))
                              for a1 in firsts))
        elif rule is None:
            values.append(min(max(value(after(a1, b)) for b in places(a1)) for a1 in firsts))
        else:
            values.append(sum(p * max(value(after(a1, b)) for b in places(a1))
                              for a1, p in ((after(st0, a), p)
                                            for a, p in _rule_choices(engine, st0, rule))))
    return values[0], values[1]


def _reply_against(level: str, weights: np.ndarray, options: PistardOptions, engine: Any,
                   tables: Mapping[int, Any], races: int) -> None:
    """The exact best reply to a level's rule (``tables[seat]``), played against the real
    rider of that level, seats alternating: the exact figure seen in races."""
    from raceday.games.pistard import fast, sprint_solver

    class Reply:
        name = "best reply"

        def __init__(self, seat: int) -> None:
            self.seat = seat

        def value(self, st: np.ndarray) -> float:
            if st[fast.PHASE] == fast.PH_PLACE:  # the rule places next
                return sum(p * self.value(_after(engine, st, b))
                           for b, p in _rule_choices(engine, st, weights))
            return sprint_solver.value_after(tables[self.seat], st, self.seat)

        def choose(self, state: Any, rng: np.random.Generator) -> Any:
            legal = state.legal_actions()
            if len(legal) == 1:
                return legal[0]
            st = fast.encode(state)
            values = [self.value(_after(engine, st, action)) for action in legal]
            return legal[int(np.argmax(values))]

    rng = np.random.default_rng(77)
    wins = 0
    for race in range(races):
        seat = race % 2
        agents: list[Any] = [make_agent(level), make_agent(level)]
        agents[seat] = Reply(seat)
        state = PistardState(options)
        play_game(state, agents, rng)
        wins += seat in state.outcome().winning_players
    lo, hi = wilson_interval(wins, races)
    print(f"  that best reply against the real {level} rider, {races} races: "
          f"{wins / races:.1%} (95% {lo:.1%}-{hi:.1%})", flush=True)


def _after(engine: Any, st: np.ndarray, action: int) -> np.ndarray:
    from raceday.games.pistard import fast

    out = st.copy()
    fast.decide(out, engine.params, action)
    return out


def legacy(quick: bool) -> None:
    """Medium against easy with 4 and 1 riders each (the figures in the usage page)."""
    for riders in (4, 1):
        config = {"players": 2, "riders_per_player": riders}
        report("medium", "easy", config, match("medium", "easy", 40 if quick else 1000,
                                               config), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="every section shortened, said in the output (a few minutes)")
    parser.add_argument("--only", nargs="*", default=None,
                        help="sections: speed check times ladder lengths legacy ceiling rules "
                        "sprint tune lab")
    parser.add_argument("--games", type=int, default=None, help="races per ladder match")
    parser.add_argument("--check-games", type=int, default=120,
                        help="lock-step games per option set (17 option sets)")
    parser.add_argument("--configs", default=None,
                        help="ladder option sets by number in LADDER_CONFIGS, e.g. 0,8,9")
    parser.add_argument("--seed", type=int, default=2024,
                        help="ladder: seed of the races (another seed, other races)")
    parser.add_argument("--simulations", type=int, default=None,
                        help="ladder: play-outs per candidate of the searching riders "
                        "(default: their own, 96 and 2048)")
    parser.add_argument("--tune-steps", type=int, default=500, help="tune: hill-climb steps")
    parser.add_argument("--pairs", default="hard:medium,hard:easy,expert:hard",
                        help="ladder matches, e.g. hard:medium,expert:hard")
    args = parser.parse_args()
    quick = args.quick
    sections = set(args.only or ("speed", "check", "times", "ladder", "lengths", "legacy",
                                 "ceiling", "rules", "sprint"))
    shortened: list[str] = []

    def shorten(section: str, how: str) -> None:
        """Say (and remember for the summary) how a section runs shorter with --quick."""
        shortened.append(f"{section} ({how})")
        print(f"[--quick: {section} shortened: {how}]", flush=True)

    if "speed" in sections:
        if quick:
            shorten("speed", "20 reference and 20,000 compiled races, not 300 and 100,000")
        speed(quick)
    if "check" in sections:
        if quick:
            shorten("check", f"5 lock-step games per option set, not {args.check_games}")
        check(quick, args.check_games)
    if "times" in sections:
        if quick:
            shorten("times", "5 decisions per level and race, not 60")
        decision_times(5 if quick else 60)
    if "ladder" in sections:
        # --quick: every kind of match (two players, a bunch race with head-to-head
        # figures, the team time trial) for a few races with few play-outs, unless asked
        # otherwise
        quick_configs = "0,1,10"
        picked = args.configs or (quick_configs if quick else None)
        configs = LADDER_CONFIGS if picked is None else \
            [LADDER_CONFIGS[int(k)] for k in picked.split(",")]
        pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
        games = args.games or (2 if quick else 200)
        simulations = args.simulations or (16 if quick else None)
        if quick:
            shorten("ladder", f"{games} races a match, option sets {picked} of "
                    f"{len(LADDER_CONFIGS)}, {simulations} play-outs per candidate: the "
                    "figures are not the riders' strength")
        ladder(games, configs, [(a, b) for a, b in pairs], args.seed, simulations)
    if "lengths" in sections:
        if quick:
            shorten("lengths", "5 races per lap length, not 100")
        lap_lengths(5 if quick else 100)
    if "legacy" in sections:
        if quick:
            shorten("legacy", "40 races each, not 1,000")
        legacy(quick)
    if "ceiling" in sections:
        if quick:
            shorten("ceiling", "100 races each, not 1,000")
        ceiling(100 if quick else 1000)
    if "rules" in sections:
        if quick:
            shorten("rules", "1,000 races each, not 10,000 to 60,000")
        race_rules(quick)
    if "sprint" in sections:
        if quick:
            shorten("sprint", "solved on the short track with 0 tokens, not the default "
                    "sprint; 20 races of each best reply, not 2,000")
        sprint_solution(quick)
    if "lab" in sections and args.only:  # only when asked for: it takes over an hour
        if quick:
            shorten("lab", "10 races a match, not 200 to 400")
        search_lab(quick)
    if "tune" in sections and args.only:  # only when asked for: it takes half an hour
        if quick:
            shorten("tune", "1,000 races per measure and 20 steps, not 5,000 and "
                    f"{args.tune_steps}")
        tune(1000 if quick else 5000, 20 if quick else args.tune_steps, 3)
    if shortened:
        print("--quick: shortened sections: " + "; ".join(shortened), flush=True)

if __name__ == "__main__":
    main()
