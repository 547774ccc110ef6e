"""KEIRIN's 100-square track in two halves of 50, and its riders and derny (mm).

A half is drawn as an arch: 13 squares up the right-hand straight, 24 round the bend and
13 down the left-hand straight, numbered 0 to 49 in the direction of travel. Two halves,
end to end, make the oval (half A's square 49 meets half B's square 0, and B's 49 meets
A's 0). Positions in the engine count from the derny's starting square, A0; the finish
line lies ``length`` squares on (50 by default: the start of half B).
"""

from __future__ import annotations

import math

from raceday.drawing import svg
from raceday.drawing.svg import Point

HALF = 50
STRAIGHT = 13
BEND = HALF - 2 * STRAIGHT
LANE = 24.0  # mm across the track: several riders fit side by side
# Rider colours as on Japanese keirin jerseys (1 white ... 9 purple).
RIDER_COLOURS = ("#ffffff", "#1a1a1a", "#d32f2f", "#1e5bc6", "#f4c430", "#2e8b3d",
                 "#f08a24", "#f28cb8", "#7b3fa0")
RIDER_INK = (svg.INK, svg.WHITE, svg.WHITE, svg.WHITE, svg.INK, svg.WHITE, svg.INK,
             svg.INK, svg.WHITE)


class HalfTrack:
    """The geometry of a half: ``point(t, offset)`` for ``t`` squares along (0..50) and
    ``offset`` mm across from the centre line (positive: outwards)."""

    def __init__(self, square: float, cx: float, cy: float) -> None:
        self.square = square
        self.radius = BEND * square / math.pi  # centre line of the bend
        self.cx, self.cy = cx, cy

    @property
    def width(self) -> float:
        return 2 * (self.radius + LANE / 2)

    @property
    def height(self) -> float:
        return self.radius + LANE / 2 + STRAIGHT * self.square

    def point(self, t: float, offset: float) -> Point:
        r = self.radius + offset
        if t <= STRAIGHT:  # up the right-hand straight
            return self.cx + r, self.cy + (STRAIGHT - t) * self.square
        if t <= STRAIGHT + BEND:
            phi = (t - STRAIGHT) * math.pi / BEND
            return self.cx + r * math.cos(phi), self.cy - r * math.sin(phi)
        return self.cx - r, self.cy + (t - STRAIGHT - BEND) * self.square

    def heading(self, t: float) -> float:
        a, b = self.point(t, 0), self.point(min(t + 0.01, HALF), 0)
        if t + 0.01 > HALF:
            a, b = self.point(t - 0.01, 0), self.point(t, 0)
        return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))

    def outline(self, t0: float, t1: float, steps: int = 4) -> list[Point]:
        ts = [t0 + (t1 - t0) * i / steps for i in range(steps + 1)]
        return ([self.point(t, -LANE / 2) for t in ts]
                + [self.point(t, LANE / 2) for t in reversed(ts)])


def half_track(track: HalfTrack, name: str, first: int, finish: int | None, *,
               finish_word: str = "FINISH") -> str:
    """The squares of one half, numbered 0..49 (``first`` is the engine's position of its
    square 0), with the finish line before square ``finish`` if it lies on this half."""
    parts = []
    for k in range(HALF):
        shade = "#f7f7f7" if k % 2 else svg.WHITE
        parts.append(svg.polygon(track.outline(k, k + 1), fill=shade, stroke=svg.INK,
                                 stroke_width=0.3, class_="square", data_square=k,
                                 data_position=first + k))
        centre = track.point(k + 0.5, 0)
        angle = track.heading(k + 0.5) + 90
        angle = angle - 180 if angle > 90 else angle  # numbers read from outside the oval
        parts.append(svg.centred_text(centre[0], centre[1], str(k), 3.6, bold=k % 10 == 0,
                                      rotate=angle))
        if k % 5 == 0:
            tick_a, tick_b = track.point(k, LANE / 2), track.point(k, LANE / 2 + 3)
            parts.append(svg.line(*tick_a, *tick_b, stroke_width=0.4))
    if finish is not None:
        cells = 6
        for i in range(cells):
            for j in range(2):
                t0 = finish + 0.15 * j
                a = -LANE / 2 + LANE * i / cells
                b = -LANE / 2 + LANE * (i + 1) / cells
                parts.append(svg.polygon(
                    [track.point(t0, a), track.point(t0 + 0.15, a), track.point(t0 + 0.15, b),
                     track.point(t0, b)], fill=svg.INK if (i + j) % 2 else svg.WHITE))
        spot = track.point(finish + 0.2, -LANE / 2 - 6)
        parts.append(svg.centred_text(spot[0], spot[1], finish_word, 4.0, bold=True,
                                      class_="finish", data_square=finish))
    arrow_a, arrow_b = track.point(STRAIGHT + 6, -LANE / 2 - 8), track.point(
        STRAIGHT + BEND - 6, -LANE / 2 - 8)
    parts.append(svg.arrow(*arrow_a, *arrow_b, head=3, stroke=svg.GREY, stroke_width=0.5))
    label = (track.cx, track.cy + STRAIGHT * track.square * 0.55)
    parts.append(svg.centred_text(label[0], label[1], name, 9, bold=True, fill=svg.GREY))
    return svg.group(parts, class_="half")


def rider_counter(x: float, y: float, rider: int, square: float) -> str:
    """A rider three squares long (a rider fills three fields), numbered."""
    length, width = 3 * square, 9.0
    fill, ink = RIDER_COLOURS[rider - 1], RIDER_INK[rider - 1]
    return svg.group([
        svg.rect(x, y, length, width, fill=fill, stroke=svg.INK, stroke_width=0.4, rx=2),
        svg.centred_text(x + length / 2, y + width / 2, str(rider), 6.5, bold=True, fill=ink),
        svg.polygon([(x + length - 4, y + 2), (x + length - 1.5, y + width / 2),
                     (x + length - 4, y + width - 2)], fill=ink),
    ], class_="counter", data_rider=rider)


def derny_counter(x: float, y: float, square: float, word: str = "DERNY") -> str:
    length, width = 3 * square, 9.0
    return svg.group([
        svg.rect(x, y, length, width, fill="#555555", stroke=svg.INK, stroke_width=0.4, rx=2),
        svg.centred_text(x + length / 2, y + width / 2, word, 4.2, bold=True,
                         fill=svg.WHITE),
    ], class_="counter", data_rider="derny")
