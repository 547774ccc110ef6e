"""Plots (matplotlib, PNG or SVG by the file's suffix): the route profile with win chances,
two predictions side by side, a stage race's GC places, GC gaps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from raceday.core.errors import OptionsError
from raceday.games.wielersim.campaign import TourPrediction
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


def plot_route(route: Mapping[str, Any], path: Path) -> None:
    """The route profile alone (cobbles and section colours marked)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(10, 4))
    _draw_profile(ax, route)
    fig.tight_layout()
    _save(fig, plt, path)


def _draw_profile(ax1: Any, route: Mapping[str, Any]) -> None:
    compiled = compile_route(route)
    squares, heights = profile(route)
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


def plot_prediction(route: Mapping[str, Any], pred: Prediction, path: Path, top: int = 15
                    ) -> None:
    """The route profile (cobbles and section colours marked) over the win chances."""
    plt = _pyplot()
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 8))
    _draw_profile(ax1, route)
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


def plot_compare(preds: Sequence[Prediction], labels: Sequence[str], path: Path,
                 top: int = 15) -> None:
    """Win chances (95 % Wilson intervals) of two predictions side by side, riders by the
    first prediction's chance (riders of only one start list included)."""
    plt = _pyplot()
    keys: list[tuple[int, str]] = []
    for pred in preds:
        for i in pred.order():
            key = (pred.numbers[i], pred.names[i])
            if key not in keys:
                keys.append(key)
    keys = keys[:top]
    fig, ax = plt.subplots(figsize=(10, 8))
    height = 0.4
    ys = np.arange(len(keys))[::-1]
    for k, (pred, label) in enumerate(zip(preds, labels, strict=True)):
        where = {(pred.numbers[i], pred.names[i]): i for i in range(len(pred.names))}
        order = [where.get(key, -1) for key in keys]
        bars = [_win(pred, i) if i >= 0 else (0.0, 0.0, 0.0) for i in order]
        probs = [p for p, _, _ in bars]
        below = [p - lo for p, lo, _ in bars]
        above = [hi - p for p, _, hi in bars]
        ax.barh(ys + (0.5 - k) * height, probs, height=height, xerr=[below, above],
                label=label)
    ax.set_yticks(ys, [f"{name} ({number})" for number, name in keys])
    ax.set_xlabel("win probability (95% intervals)")
    ax.legend()
    fig.tight_layout()
    _save(fig, plt, path)


def _win(pred: Prediction, i: int) -> tuple[float, float, float]:
    lo, hi = pred.interval(int(pred.wins[i]))
    p = float(pred.wins[i]) / pred.n
    return p, min(p, lo), max(p, hi)


def plot_tour(pred: TourPrediction, path: Path, title: str, top: int = 15) -> None:
    """A stage race prediction: the distribution of final GC places of the riders with
    the best mean place (a heat map), and the chances to win points and mountains."""
    plt = _pyplot()
    order = pred.place_order()[:top]
    places = min(pred.positions.shape[1], 20)
    grid = pred.positions[order, :places] / pred.n
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(14, 7),
                                   gridspec_kw={"width_ratios": [3, 2]})
    image = ax1.imshow(grid, aspect="auto", cmap="viridis")
    ax1.set_yticks(range(len(order)), [f"{pred.names[i]} ({pred.numbers[i]})"
                                       for i in order], fontsize=7)
    ax1.set_xticks(range(places), [str(p + 1) for p in range(places)], fontsize=7)
    ax1.set_xlabel("final GC place")
    ax1.set_title(f"{title}: final GC place ({pred.n} stage races)")
    fig.colorbar(image, ax=ax1, label="probability")
    for row, label in ((1, "points"), (2, "mountains")):
        best = [i for i in pred.order(row)[:8] if pred.counts[row, i]]
        ys = np.arange(len(best)) + (0 if row == 1 else len(best) + 1)
        ax2.barh(ys, [pred.counts[row, i] / pred.n for i in best], label=label)
        for y, i in zip(ys, best, strict=True):
            ax2.text(0, y, f" {pred.names[i]}", va="center", fontsize=7)
    ax2.invert_yaxis()
    ax2.set_yticks([])
    ax2.set_xlabel("chance to win the classification")
    ax2.legend()
    fig.tight_layout()
    _save(fig, plt, path)


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
