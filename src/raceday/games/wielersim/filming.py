"""A WielerSIM film, frame by frame: what the browser's watch page and the watch room show.

A film is the route (its profile drawn by :func:`raceday.games.wielersim.drawing.profile`,
with where each square's road is on it), the riders, and one frame per turn: the state's own
:meth:`~raceday.games.wielersim.rules.WielersimState.frame` after the turn, numbered by that
turn, with what the commentator said about it (``items``: ``{"k", "key", "params"}``
messages of the game's tables), then the result. :func:`next_frame` rides one turn; the
watch room (:mod:`raceday.games.wielersim.room`) calls it once a paced step, the REST film
(:func:`raceday.games.wielersim.watch.film`) until the finish: the same frames either way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from raceday.drawing.svg import num as svg_num
from raceday.games.wielersim import drawing
from raceday.games.wielersim.commentary import Commentator
from raceday.games.wielersim.model import RIDER_TYPES, UPHILL
from raceday.games.wielersim.peloton import Peloton
from raceday.games.wielersim.rules import WielersimState

PROFILE_WIDTH = 300.0  # the profile's user units (the drawing module draws in mm)
PROFILE_HEIGHT = 62.0


def route_info(state: WielersimState) -> dict[str, Any]:
    """The route for the page: its profile drawing, where each square's surface is on it,
    the climbs, sprints and cobbles."""
    route = state.route
    n = route.distance
    drawn = drawing.profile(route, 0, 0, PROFILE_WIDTH, PROFILE_HEIGHT)
    # the same geometry as drawing.profile: where a rider stands on square p
    band = 5.0
    base = PROFILE_HEIGHT - band - 7
    unit = (PROFILE_HEIGHT - band - 16) / 7
    step = PROFILE_WIDTH / n
    surface = [round(base - unit * (0.6 + (route.steepness[p] if route.road[p] == UPHILL
                                           else 0)), 2) for p in range(n)]
    return {
        "name": route.name, "distance": n, "finish": route.finish,
        "width": PROFILE_WIDTH, "height": PROFILE_HEIGHT, "step": float(svg_num(step)),
        "surface": surface, "svg": drawn,
        "climbs": [{"name": c.name, "top": c.top, "category": c.category,
                    "steepness": c.max_steepness} for c in route.climbs],
        "sprints": list(route.sprints),
        "sections": [{"name": s.name, "start": s.start, "end": s.end,
                      "colour": RIDER_TYPES[s.colour], "road": s.road} for s in route.sections],
    }


def riders_info(peloton: Peloton) -> list[dict[str, Any]]:
    """Every rider of the peloton: bib number, name, team and type."""
    return [{"number": r.number, "name": r.name, "team": peloton.teams[r.team],
             "type": r.type_name} for r in peloton.riders]


def next_frame(state: WielersimState, rng: np.random.Generator, talk: Commentator
               ) -> dict[str, Any]:
    """Ride one turn of ``state`` with ``rng`` (throw by throw, as ``raceday wielersim
    watch`` does) and return its frame: the state's frame after the turn, numbered by that
    turn, with what ``talk`` said about it. The race must not be over."""
    turn = state.turn
    pending = []
    while not state.is_terminal():
        draw = state.sample_chance(rng)
        pending.extend(state.apply_action(draw.outcome, draw.detail))
        if state.turn != turn:
            break
    return {**state.frame(), "turn": turn, "items": talk.ticker(state, pending)}


def result_rows(state: WielersimState) -> list[dict[str, Any]]:
    """The finished race's order: place, bib, gap in seconds, sprint and mountain points."""
    points = state.sprint_points()
    mountains = state.mountain_points()
    return [{"place": i + 1, "number": state.num(r), "gap": gap,
             "points": points[r], "mountains": mountains[r]}
            for i, (r, gap, _) in enumerate(state.results)]
