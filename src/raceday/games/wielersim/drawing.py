"""WielerSIM drawings: a route's profile, and the markers laid beside the track (mm)."""

from __future__ import annotations

from raceday.drawing import svg
from raceday.games.wielersim.model import COBBLES, RIDER_TYPES, UPHILL
from raceday.games.wielersim.route import CompiledRoute

TYPE_FILL = (svg.YELLOW, svg.RED, svg.GREEN, svg.BLUE)  # leader, climber, sprinter, helper
TYPE_INK = (svg.INK, svg.WHITE, svg.WHITE, svg.WHITE)


def profile(route: CompiledRoute, x: float, y: float, width: float, height: float) -> str:
    """The route from start (left) to finish (right): a bar per square whose height is
    its steepness (climbs), hatched cobbles, the colour band of each section below, climb
    tops and sprints marked, squares to go along the bottom."""
    n = route.distance
    step = width / n
    band = 5.0
    base = y + height - band - 7
    unit = (height - band - 16) / 7  # steepness 6 fills the area (plus a little room)
    parts = [svg.rect(x, y, width, height, fill="none", stroke=svg.LIGHT, stroke_width=0.3)]
    level = [0.6 * unit] * n
    for p in range(n):
        if route.road[p] == UPHILL:
            level[p] = unit * (0.6 + route.steepness[p])
    points = [(x, base)]
    for p in range(n):
        points += [(x + p * step, base - level[p]), (x + (p + 1) * step, base - level[p])]
    points.append((x + width, base))
    parts.append(svg.polygon(points, fill="#d9d2c3", stroke=svg.INK, stroke_width=0.35,
                             class_="profile"))
    for p in range(n):
        if route.road[p] == COBBLES:
            px = x + p * step
            parts.append(svg.rect(px, base - level[p], step, level[p], fill="#7a6a55"))
    for section in route.sections:
        sx, ex = x + section.start * step, x + section.end * step
        parts.append(svg.rect(sx, base + 1, ex - sx, band, fill=TYPE_FILL[section.colour],
                              stroke=svg.INK, stroke_width=0.2))
    for climb in route.climbs:
        cx = x + climb.top * step
        top_y = base - level[min(climb.top, n) - 1]
        cat = climb.category or ""
        label = f"{'C' + cat if cat.isdigit() else (cat or 'top')} ({climb.max_steepness})"
        parts.append(svg.line(cx, top_y - 1, cx, top_y - 6, stroke=svg.RED, stroke_width=0.4))
        parts.append(svg.text(cx, top_y - 7, label, 2.6, anchor="middle", fill=svg.RED,
                              bold=True))
    for sprint in route.sprints:
        sx = x + sprint * step
        parts.append(svg.line(sx, y + 3, sx, base, stroke=svg.GREEN, stroke_width=0.5,
                              stroke_dasharray="1.5 1"))
        parts.append(svg.text(sx, y + 2.8, "Sp", 2.8, anchor="middle", fill=svg.GREEN,
                              bold=True))
    for to_go in range(n, -1, -20):
        px = x + (n - to_go) * step
        parts.append(svg.line(px, base + band + 1, px, base + band + 2.5, stroke_width=0.3))
        parts.append(svg.text(px, base + band + 5.5, str(to_go), 2.5, anchor="middle"))
    return svg.group(parts, class_="route-profile")


def zone_marker(x: float, y: float, kind: int, to_go: int, *, name: str | None = None,
                from_word: str = "from {n} to go") -> str:
    """A rectangular marker for the start of a section where ``kind`` may accelerate
    (``name``: the rider type's name, ``from_word``: where the zone starts, in the
    caller's language)."""
    return svg.group([
        svg.rect(x, y, 34, 14, fill=TYPE_FILL[kind], stroke=svg.INK, stroke_width=0.4),
        svg.centred_text(x + 17, y + 5.5, name or RIDER_TYPES[kind].capitalize(), 4.2,
                         bold=True, fill=TYPE_INK[kind]),
        svg.centred_text(x + 17, y + 10.5, from_word.format(n=to_go), 2.6,
                         fill=TYPE_INK[kind]),
    ], class_="marker zone")


def point_marker(x: float, y: float, word: str, detail: str, fill: str, ink: str) -> str:
    """START, FINISH, MOUNTAIN or SPRINT, with the squares to go."""
    return svg.group([
        svg.rect(x, y, 34, 14, fill=fill, stroke=svg.INK, stroke_width=0.4, rx=2),
        svg.centred_text(x + 17, y + 5.5, word, 4.2, bold=True, fill=ink),
        svg.centred_text(x + 17, y + 10.5, detail, 2.6, fill=ink),
    ], class_="marker point")


def round_marker(cx: float, cy: float, label: str, fill: str, ink: str, r: float = 6.0
                 ) -> str:
    return svg.group([
        svg.circle(cx, cy, r, fill=fill, stroke=svg.INK, stroke_width=0.4),
        svg.centred_text(cx, cy, label, r * 0.8, bold=True, fill=ink),
    ], class_="marker round")
