"""The PISTARD velodrome, its rider counters and energy tokens as SVG (lengths in mm).

The board is a stadium-shaped oval seen from above: a home straight along the bottom, a
bend on the right, the back straight along the top and a bend on the left, ridden
anticlockwise (left to right along the home straight). Lane 1 borders the infield. A lap of
``L`` columns is split into two straights of ``L // 4`` columns and two bends sharing the
rest (so any lap length from 16 to 400 closes). The start/finish line lies on the home
straight, six columns in (so the start area behind it is straight too).

Squares are addressed by their *path index* ``q`` (0 at the start of the home straight,
increasing along the direction of travel) and lane; :meth:`Velodrome.column` turns a path
index into the track's column counted from the line (the engine's ``column``), whose colour
is ``track.colour(column, lane)``. Everything here is a pure function of the track.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from raceday.drawing import svg
from raceday.drawing.svg import Point
from raceday.games.pistard.track import LANES, LETTERS, Track

SQUARE = 24.0  # mm along a straight: a 20 mm counter fits with room to spare
LANE = 24.0  # mm across a lane
MIN_INNER_WIDTH = 18.0  # mm: the narrowest (inner-lane) square of a bend
MIN_RADIUS = 60.0  # mm: the infield's half-width at the bends
START_OFFSET = 6  # columns of the home straight before the line (the start area)
INFIELD_MARGIN = 10.0  # mm of paper kept on the infield side of a tile (column numbers)
OUTSIDE_MARGIN = 9.0  # mm of paper kept outside the outer lane (assembly marks)

COLOUR_FILL = (svg.YELLOW, svg.GREEN, svg.BLUE, svg.RED)
LETTER_INK = (svg.INK, svg.WHITE, svg.WHITE, svg.WHITE)
PLAYER_COLOURS = ("#ffffff", "#222222", "#7b3fa0", "#e87ab8", "#8a5a2b")
PLAYER_INK = (svg.INK, svg.WHITE, svg.WHITE, svg.INK, svg.WHITE)


@dataclass(frozen=True)
class Velodrome:
    """The geometry of the oval for a lap of ``length`` columns (velodrome frame, mm)."""

    length: int

    @cached_property
    def straight(self) -> int:
        return self.length // 4

    @cached_property
    def bends(self) -> tuple[int, int]:
        rest = self.length - 2 * self.straight
        return rest // 2, rest - rest // 2

    @cached_property
    def radius(self) -> float:
        """Radius of the inner edge of lane 1 on both bends."""
        narrowest = math.pi / max(self.bends)
        return max(MIN_RADIUS, MIN_INNER_WIDTH / narrowest)

    @property
    def width(self) -> float:
        return LANES * LANE

    @cached_property
    def start_offset(self) -> int:
        return max(1, min(START_OFFSET, self.straight - 2))

    @property
    def straight_length(self) -> float:
        return self.straight * SQUARE

    @property
    def centre_y(self) -> float:
        return self.radius + self.width + OUTSIDE_MARGIN

    @property
    def left_x(self) -> float:
        """x of the left bend's centre (the right bend's is one straight further)."""
        return self.radius + self.width + OUTSIDE_MARGIN

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the whole board with its outer margin."""
        outer = self.radius + self.width + OUTSIDE_MARGIN
        return self.straight_length + 2 * outer, 2 * outer

    def column(self, q: int) -> int:
        """The track column (counted from the line) at path index ``q``."""
        return (q - self.start_offset) % self.length

    def segment(self, q: int) -> tuple[str, int, int]:
        """(kind, first path index of the segment, number of columns in it)."""
        s, (b1, b2) = self.straight, self.bends
        starts = (("home", 0, s), ("bend1", s, b1), ("back", s + b1, s), ("bend2", 2 * s + b1, b2))
        for kind, start, count in starts:
            if start <= q < start + count:
                return kind, start, count
        raise ValueError(f"path index {q} is not on a lap of {self.length} columns")

    def segments(self) -> list[tuple[str, int, int]]:
        s, (b1, b2) = self.straight, self.bends
        return [("home", 0, s), ("bend1", s, b1), ("back", s + b1, s), ("bend2", 2 * s + b1, b2)]

    # --- points ---------------------------------------------------------------------------
    def point(self, q: float, offset: float) -> Point:
        """The point ``q`` columns along the path (fractions allowed) at ``offset`` mm out
        from the inner edge of lane 1 (negative: in the infield)."""
        qi = min(math.floor(q), self.length - 1)
        kind, start, count = self.segment(qi % self.length)
        t = q - start
        r = self.radius + offset
        cy, lx = self.centre_y, self.left_x
        if kind == "home":
            return lx + t * SQUARE, cy + r
        if kind == "back":
            return lx + self.straight_length - t * SQUARE, cy - r
        angle = math.pi / count * t
        if kind == "bend1":
            phi = math.pi / 2 - angle
            return lx + self.straight_length + r * math.cos(phi), cy + r * math.sin(phi)
        phi = -math.pi / 2 - angle
        return lx + r * math.cos(phi), cy + r * math.sin(phi)

    def heading(self, q: float) -> float:
        """Direction of travel at ``q`` in degrees (0 = +x, SVG angles: clockwise)."""
        p1 = self.point(q, self.width / 2)
        p2 = self.point(min(q + 0.01, self.length - 1e-9), self.width / 2)
        return math.degrees(math.atan2(p2[1] - p1[1], p2[0] - p1[0]))

    def corners(self, q: int, lane: int) -> tuple[Point, Point, Point, Point]:
        """Inner start, inner end, outer end, outer start of the square (q, lane)."""
        inner, outer = (lane - 1) * LANE, lane * LANE
        end = q + 1
        return (self.point(q, inner), self.point(end, inner), self.point(end, outer),
                self.point(q, outer))

    def is_bend(self, q: int) -> bool:
        return self.segment(q)[0].startswith("bend")

    def square_path(self, q: int, lane: int) -> str:
        """The outline of a square: straight sides, arcs on the bends (corners explicit)."""
        a, b, c, d = self.corners(q, lane)
        n = svg.num
        if not self.is_bend(q):
            return (f"M {n(a[0])} {n(a[1])} L {n(b[0])} {n(b[1])} L {n(c[0])} {n(c[1])} "
                    f"L {n(d[0])} {n(d[1])} Z")
        ri = self.radius + (lane - 1) * LANE
        ro = self.radius + lane * LANE
        # along the path the bends turn anticlockwise on the page: sweep flag 0
        return (f"M {n(a[0])} {n(a[1])} A {n(ri)} {n(ri)} 0 0 0 {n(b[0])} {n(b[1])} "
                f"L {n(c[0])} {n(c[1])} A {n(ro)} {n(ro)} 0 0 1 {n(d[0])} {n(d[1])} Z")

    def outline(self, q0: int, q1: int, inside: float, outside: float, steps: int = 6
                ) -> list[Point]:
        """The paper of the columns ``q0 .. q1 - 1``: from ``inside`` mm into the infield
        to ``outside`` mm beyond the outer lane, cut square to the track at both ends."""
        inner = [self.point(q0 + (q1 - q0) * i / (steps * (q1 - q0)), -inside)
                 for i in range(steps * (q1 - q0) + 1)]
        outer = [self.point(q0 + (q1 - q0) * i / (steps * (q1 - q0)), self.width + outside)
                 for i in range(steps * (q1 - q0) + 1)]
        return inner + outer[::-1]


# --- drawing the squares ------------------------------------------------------------------
def square(track: Track, velodrome: Velodrome, q: int, lane: int) -> str:
    """One square: its colour, its letter (for colour-blind players) and its lane number,
    tagged with its column and lane for tests and tools."""
    column = velodrome.column(q)
    colour = track.colour(column, lane)
    centre = velodrome.point(q + 0.5, (lane - 0.5) * LANE)
    letter_angle = velodrome.heading(q + 0.5)
    small = velodrome.point(q + 0.18, (lane - 0.2) * LANE)
    return svg.group([
        svg.path(velodrome.square_path(q, lane), fill=COLOUR_FILL[colour], stroke=svg.INK,
                 stroke_width=0.35, class_="square"),
        svg.centred_text(centre[0], centre[1], LETTERS[colour], 8.5, bold=True,
                         fill=LETTER_INK[colour], rotate=letter_angle),
        svg.centred_text(small[0], small[1], str(lane), 2.6, fill=LETTER_INK[colour],
                         rotate=letter_angle),
    ], class_="sq", data_column=column, data_lane=lane, data_q=q)


def start_line(velodrome: Velodrome, word: str = "START / FINISH >") -> str:
    """The start/finish line: a chequered band at the end of the column before column 0
    (so it lies on one tile), across every lane, named outside the track."""
    q = velodrome.start_offset
    cells, depth = 8, 0.22
    out = []
    for i in range(cells):
        for j in range(2):
            t0, t1 = q - depth + depth / 2 * j, q - depth + depth / 2 * (j + 1)
            w0, w1 = velodrome.width * i / cells, velodrome.width * (i + 1) / cells
            out.append(svg.polygon([velodrome.point(t0, w0), velodrome.point(t1, w0),
                                    velodrome.point(t1, w1), velodrome.point(t0, w1)],
                                   fill=svg.INK if (i + j) % 2 else svg.WHITE))
    spot = velodrome.point(q - 1.2, velodrome.width + 4.8)
    out.append(svg.centred_text(spot[0], spot[1], word, 3.4, bold=True,
                                rotate=velodrome.heading(q - 0.5)))
    return svg.group(out, class_="line", data_column=0)


def column_numbers(velodrome: Velodrome, q0: int, q1: int) -> list[str]:
    out = []
    for q in range(q0, q1):
        p = velodrome.point(q + 0.5, -3.2)
        out.append(svg.centred_text(p[0], p[1], str(velodrome.column(q)), 2.8,
                                    fill=svg.GREY, rotate=velodrome.heading(q + 0.5)))
    return out


def direction_arrow(velodrome: Velodrome, q0: int, q1: int) -> str:
    middle = (q0 + q1) / 2
    a = velodrome.point(max(q0 + 0.1, middle - 0.8), -7.0)
    b = velodrome.point(min(q1 - 0.1, middle + 0.8), -7.0)
    return svg.arrow(a[0], a[1], b[0], b[1], head=2.4, stroke=svg.GREY, stroke_width=0.5)


def joint_marks(velodrome: Velodrome, q: int, label: str) -> str:
    """Assembly marks on the cut between columns q-1 and q: a tick at each end of the cut
    and the joint's letter outside the outer lane (the same on both tiles)."""
    inner_a = velodrome.point(q, -INFIELD_MARGIN)
    inner_b = velodrome.point(q, -INFIELD_MARGIN + 3)
    outer_a = velodrome.point(q, velodrome.width + OUTSIDE_MARGIN)
    outer_b = velodrome.point(q, velodrome.width + OUTSIDE_MARGIN - 3)
    spot = velodrome.point(q, velodrome.width + OUTSIDE_MARGIN / 2 + 0.5)
    return svg.group([
        svg.line(*inner_a, *inner_b, stroke_width=0.6),
        svg.line(*outer_a, *outer_b, stroke_width=0.6),
        svg.circle(spot[0], spot[1], 2.6, fill=svg.WHITE, stroke=svg.INK, stroke_width=0.3),
        svg.centred_text(spot[0], spot[1], label, 3.0, bold=True),
        svg.circle(inner_a[0], inner_a[1], 0.5, fill=svg.INK, class_="mark"),
        svg.circle(outer_a[0], outer_a[1], 0.5, fill=svg.INK, class_="mark"),
    ], class_="joint", data_joint=label, data_q=q % velodrome.length)


def joint_label(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... for the cuts between tiles."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def tile(track: Track, velodrome: Velodrome, q0: int, q1: int, start_label: str,
         end_label: str, line_word: str = "START / FINISH >") -> str:
    """The columns ``q0 .. q1 - 1`` with their paper outline (the cut line), column
    numbers, direction of travel, the line if it falls here and the assembly marks."""
    parts = [svg.polygon(velodrome.outline(q0, q1, INFIELD_MARGIN, OUTSIDE_MARGIN),
                         fill=svg.WHITE, stroke=svg.GREY, stroke_width=0.25,
                         stroke_dasharray="1.5 1", class_="cut")]
    parts += [square(track, velodrome, q, lane) for q in range(q0, q1)
              for lane in range(1, LANES + 1)]
    parts += column_numbers(velodrome, q0, q1)
    parts.append(direction_arrow(velodrome, q0, q1))
    if q0 < velodrome.start_offset <= q1:
        parts.append(start_line(velodrome, line_word))
    parts.append(joint_marks(velodrome, q0, start_label))
    parts.append(joint_marks(velodrome, q1, end_label))
    return svg.group(parts, class_="tile")


def board(track: Track) -> str:
    """The whole velodrome as one SVG document (for a screen, or a large-format print)."""
    v = Velodrome(track.length)
    width, height = v.size
    body = [svg.rect(0, 0, width, height, fill=svg.WHITE)]
    body += [square(track, v, q, lane) for q in range(track.length)
             for lane in range(1, LANES + 1)]
    body += column_numbers(v, 0, track.length)
    body.append(start_line(v))
    cx = v.left_x + v.straight_length / 2
    body.append(svg.centred_text(cx, v.centre_y - 4, track.name, 6, bold=True))
    body.append(svg.centred_text(cx, v.centre_y + 5, "lanes numbered from the infield; "
                                 "Y yellow, G green, B blue, R red", 3.2))
    return svg.document(width, height, body, title=f"PISTARD: {track.name}")


def tile_plan(velodrome: Velodrome, width: float, height: float) -> list[tuple[int, int]]:
    """Cut the lap into runs of whole columns (never across a straight/bend boundary), each
    fitting a ``width`` x ``height`` mm area once turned; as few tiles as that allows."""
    plan: list[tuple[int, int]] = []
    for _kind, start, count in velodrome.segments():
        if count == 0:
            continue
        for pieces in range(1, count + 1):
            runs = _split(start, count, pieces)
            if all(fits(velodrome, a, b, width, height) for a, b in runs):
                plan += runs
                break
        else:
            raise ValueError("a single column of the track does not fit the paper")
    return plan


def _split(start: int, count: int, pieces: int) -> list[tuple[int, int]]:
    size, extra = divmod(count, pieces)
    runs, at = [], start
    for i in range(pieces):
        n = size + (1 if i < extra else 0)
        runs.append((at, at + n))
        at += n
    return runs


def placement(velodrome: Velodrome, q0: int, q1: int, width: float, height: float
              ) -> tuple[float, Point, tuple[float, float]] | None:
    """How to turn a tile to fit a ``width`` x ``height`` area: (rotation in degrees,
    centre of its bounding box once turned, (width, height) of that box), or None if it
    does not fit. The direction of travel runs left to right when it fits that way."""
    points = velodrome.outline(q0, q1, INFIELD_MARGIN, OUTSIDE_MARGIN)
    base = -velodrome.heading((q0 + q1) / 2)
    for angle in (base, base - 90):
        turned = rotate_points(points, angle)
        xs, ys = [p[0] for p in turned], [p[1] for p in turned]
        box = (max(xs) - min(xs), max(ys) - min(ys))
        if box[0] <= width and box[1] <= height:
            return angle, ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2), box
    return None


def fits(velodrome: Velodrome, q0: int, q1: int, width: float, height: float) -> bool:
    return placement(velodrome, q0, q1, width, height) is not None


def rotate_points(points: Sequence[Point], degrees: float) -> list[Point]:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return [(x * c - y * s, x * s + y * c) for x, y in points]


# --- counters -----------------------------------------------------------------------------
COUNTER = 18.0  # mm: rider counters fit a 24 mm square


def rider_counter(x: float, y: float, player: int, rider: int,
                  player_word: str = "player {n}") -> str:
    """A round rider counter ``player``/``rider`` (e.g. 33) in the player's colour."""
    r = COUNTER / 2
    fill, ink = PLAYER_COLOURS[player - 1], PLAYER_INK[player - 1]
    return svg.group([
        svg.circle(x, y, r, fill=fill, stroke=svg.INK, stroke_width=0.5),
        svg.circle(x, y, r - 1.6, fill="none", stroke=ink, stroke_width=0.3),
        svg.centred_text(x, y - 0.6, f"{player}{rider}", 7.5, bold=True, fill=ink),
        svg.centred_text(x, y + 5.2, player_word.format(n=player), 2.2, fill=ink),
    ], class_="counter", data_rider=f"{player}{rider}")


def energy_token(x: float, y: float, player: int) -> str:
    """An energy token (+1 pip on one die, once a throw) in the player's colour."""
    r = 7.0
    fill, ink = PLAYER_COLOURS[player - 1], PLAYER_INK[player - 1]
    bolt = [(x + 0.8, y - 5.2), (x - 2.6, y + 0.6), (x - 0.2, y + 0.6), (x - 1.0, y + 5.2),
            (x + 2.6, y - 0.8), (x + 0.2, y - 0.8)]
    return svg.group([
        svg.circle(x, y, r, fill=fill, stroke=svg.INK, stroke_width=0.5),
        svg.polygon(bolt, fill=svg.YELLOW, stroke=svg.INK, stroke_width=0.25),
        svg.text(x + 4.6, y - 2.2, "+1", 2.8, anchor="middle", bold=True, fill=ink),
        svg.text(x - 4.4, y + 4.6, str(player), 2.8, anchor="middle", bold=True, fill=ink),
    ], class_="token", data_player=player)
