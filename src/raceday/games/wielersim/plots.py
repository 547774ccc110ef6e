"""Plots (matplotlib, written to PNG): the route profile with win chances, GC gaps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from raceday.core.errors import OptionsError
from raceday.games.wielersim.model import COBBLES, TYPE_COLOURS, UPHILL
from raceday.games.wielersim.predict import Prediction
from raceday.games.wielersim.route import compile_route


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def profile(route: Mapping[str, Any]) -> tuple[list[int], list[int]]:
    """Squares and a height profile: each uphill square rises by its steepness."""
    compiled = compile_route(route)
    heights = [0]
    for p in range(compiled.distance):
        rise = compiled.steepness[p] if compiled.road[p] == UPHILL else 0
        heights.append(heights[-1] + rise)
    return list(range(compiled.distance + 1)), heights


def plot_prediction(route: Mapping[str, Any], pred: Prediction, path: Path, top: int = 15
                    ) -> None:
    """The route profile (cobbles and section colours marked) over the win chances."""
    plt = _pyplot()
    compiled = compile_route(route)
    squares, heights = profile(route)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 8))
    ax1.fill_between(squares, heights, color="0.85")
    ax1.plot(squares, heights, color="0.2")
    for sec in compiled.sections:
        ax1.axvspan(sec.start, sec.end, ymin=0, ymax=0.04, color=TYPE_COLOURS[sec.colour])
        if sec.road == COBBLES:
            ax1.axvspan(sec.start, sec.end, color="saddlebrown", alpha=0.25)
    for climb in compiled.climbs:
        ax1.annotate(f"{climb.name} ({climb.category or '-'})", (climb.top, heights[climb.top]),
                     fontsize=7, rotation=30)
    for line in compiled.sprints:
        ax1.axvline(line, color="green", linestyle=":")
    ax1.set_title(f"{compiled.name}: profile ({compiled.distance} squares, "
                  f"{compiled.finish} finish)")
    ax1.set_xlabel("square")
    ax1.set_ylabel("height (sum of steepness)")
    order = sorted(range(len(pred.names)), key=lambda i: (-pred.wins[i], i))[:top]
    probs, below, above = win_bars(pred, order)
    ax2.barh([f"{pred.names[i]} ({pred.numbers[i]})" for i in order][::-1], probs[::-1],
             xerr=[below[::-1], above[::-1]], color="steelblue")
    ax2.set_xlabel(f"win probability ({pred.n} races, 95% intervals)")
    fig.tight_layout()
    _save(fig, plt, path)


def win_bars(pred: Prediction, order: Sequence[int]
             ) -> tuple[list[float], list[float], list[float]]:
    """Win chances and the lengths of their error bars below and above (Wilson interval,
    so never negative and never past 0 or 1, even for a chance of 0 or 1)."""
    probs, below, above = [], [], []
    for i in order:
        p = float(pred.wins[i]) / pred.n
        lo, hi = pred.interval(int(pred.wins[i]))
        probs.append(p)
        below.append(max(0.0, p - lo))
        above.append(max(0.0, hi - p))
    return probs, below, above


def plot_gc(stages: Sequence[str], gaps: Mapping[str, Sequence[float]], path: Path,
            title: str) -> None:
    """GC gaps (seconds) of the top riders after each stage."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(10, 6))
    for name, series in gaps.items():
        ax.plot(range(1, len(series) + 1), series, marker="o", label=name)
    ax.set_xticks(range(1, len(stages) + 1), stages, rotation=30, fontsize=7)
    ax.invert_yaxis()
    ax.set_ylabel("seconds behind the leader")
    ax.set_title(title)
    ax.legend(fontsize=7)
    fig.tight_layout()
    _save(fig, plt, path)


def _save(fig: Any, plt: Any, path: Path) -> None:
    try:
        fig.savefig(path, dpi=100)
    except OSError as exc:
        raise OptionsError(f"cannot write the plot to {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
