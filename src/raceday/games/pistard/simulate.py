"""Computer-only PISTARD races with statistics: who wins from which starting lane, which
computer level wins, and how long races last."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from raceday.analysis.stats import mean_interval, wilson_interval
from raceday.core.game import ProgressCallback
from raceday.core.play import play_game
from raceday.games.pistard.agents import LEVELS, make_agent
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import Track


@dataclass
class SimulationResult:
    """Counts gathered over ``races`` races."""

    variant: str = "scratch"
    races: int = 0
    lane_starts: dict[int, int] = field(default_factory=dict)
    lane_wins: dict[int, int] = field(default_factory=dict)
    level_entries: dict[str, int] = field(default_factory=dict)
    level_wins: dict[str, float] = field(default_factory=dict)
    rounds: list[int] = field(default_factory=list)
    throws: list[int] = field(default_factory=list)
    team_times: list[float] = field(default_factory=list)
    stopped: int = 0

    def to_json(self) -> dict[str, Any]:
        """Summary with 95% intervals (Wilson for rates, normal for means).

        Only numbers that mean something for the variant are given: the team time trial has
        one team and no winner, so its result is the team's time (no win rates); a team
        pursuit is won by a team, not by a rider from a starting lane (no lane table).
        """
        lanes = {}
        for lane in sorted(self.lane_starts):
            n = self.lane_starts[lane]
            wins = self.lane_wins.get(lane, 0)
            lo, hi = wilson_interval(wins, n)
            lane_rate = wins / n if n else 0.0
            lanes[str(lane)] = {"starts": n, "wins": wins, "rate": lane_rate,
                                "ci95": [lo, hi]}
        levels = {}
        for level in sorted(self.level_entries):
            n = self.level_entries[level]
            won = self.level_wins.get(level, 0.0)
            lo, hi = wilson_interval(round(won), n)
            levels[level] = {"entries": n, "wins": won, "rate": won / n if n else 0.0,
                             "ci95": [lo, hi]}
        return {
            "races": self.races,
            "win_rate_by_start_lane": None if self.variant in ("ttt", "pursuit") else lanes,
            "win_rate_by_level": None if self.variant == "ttt" else levels,
            "turns": _mean_block(self.rounds),
            "throws": _mean_block(self.throws),
            "team_time": _mean_block(self.team_times) if self.team_times else None,
            "stopped_by_round_cap": self.stopped,
        }


def _mean_block(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {"mean": None}
    arr = np.asarray(values, dtype=float)
    _mean, lo, hi = mean_interval(arr)
    return {"mean": float(arr.mean()), "ci95": [lo, hi], "min": float(arr.min()),
            "max": float(arr.max())}


def simulate(
    options: PistardOptions,
    levels: Sequence[str],
    races: int,
    seed: int | None = None,
    track: Track | None = None,
    progress: ProgressCallback | None = None,
    simulations: int | None = None,
) -> SimulationResult:
    """Play ``races`` races between computer players of the given ``levels`` (one per
    player); the players' seats rotate from race to race so no level keeps the first pick."""
    for level in levels:
        if level not in LEVELS:
            make_agent(level)  # raises the OptionsError naming the levels
    rng = np.random.default_rng(seed)
    result = SimulationResult(variant=options.variant)
    n = options.num_players
    for race in range(races):
        seats = [levels[(p + race) % n] for p in range(n)]
        agents = [make_agent(level, simulations) for level in seats]
        state = PistardState(options, track)
        record = play_game(state, agents, rng, max_steps=options.max_steps(state.track.length))
        start_lane: dict[int, int] = {}
        for event in record.events:
            if event.kind == "place" and event["rider"] not in start_lane:
                start_lane[event["rider"]] = event["lane"]
        for lane in start_lane.values():
            result.lane_starts[lane] = result.lane_starts.get(lane, 0) + 1
        for level in seats:
            result.level_entries[level] = result.level_entries.get(level, 0) + 1
        _count_winner(state, seats, start_lane, result)
        result.rounds.append(state.rounds_total)
        result.throws.append(sum(1 for e in record.events if e.kind == "throw"))
        result.stopped += int(state.stopped)
        if options.variant == "ttt":
            result.team_times.append(state.team_time())
        result.races += 1
        if progress is not None:
            progress(race + 1, races)
    return result


def _count_winner(state: PistardState, seats: Sequence[str], start_lane: Mapping[int, int],
                  result: SimulationResult) -> None:
    """The winning players share a win (a tied pursuit: half each); a winning rider counts
    for his starting lane."""
    out = state.outcome()
    share = 1.0 / len(out.winning_players)
    for player in out.winning_players:
        result.level_wins[seats[player]] = result.level_wins.get(seats[player], 0.0) + share
    if out.winner is not None and out.winner in start_lane:
        lane = start_lane[out.winner]
        result.lane_wins[lane] = result.lane_wins.get(lane, 0) + 1
