"""PISTARD tiles, measured from the SVG: cut out and laid mark to mark they give every
square of the track, in order, once, each in the engine's colour."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from raceday.games.pistard.drawing import COLOUR_FILL
from raceday.games.pistard.track import LETTERS, load_track
from tests.printing.conftest import NS, pages_of, parse, with_class

Point = tuple[float, float]
TOLERANCE = 0.02  # mm


def _transform(text: str) -> tuple[float, Point]:
    """'translate(a b) rotate(t)' -> (t in radians, (a, b))."""
    found = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\) rotate\(([-\d.]+)\)", text.strip())
    assert found, text
    a, b, t = (float(v) for v in found.groups())
    return math.radians(t), (a, b)


def _apply(angle: float, shift: Point, p: Point) -> Point:
    c, s = math.cos(angle), math.sin(angle)
    return p[0] * c - p[1] * s + shift[0], p[0] * s + p[1] * c + shift[1]


def _corners(d: str) -> list[Point]:
    """The four corners of a square's outline (M/L end points and each arc's end point)."""
    tokens = re.findall(r"[MLAZ]|-?\d+(?:\.\d+)?", d)
    points, i = [], 0
    while i < len(tokens):
        cmd = tokens[i]
        if cmd in ("M", "L"):
            points.append((float(tokens[i + 1]), float(tokens[i + 2])))
            i += 3
        elif cmd == "A":
            points.append((float(tokens[i + 6]), float(tokens[i + 7])))
            i += 8
        else:
            i += 1
    return points


class Tile:
    """One printed tile in page coordinates, read from its SVG."""

    def __init__(self, root: ET.Element) -> None:
        (placed,) = with_class(root, "placed-tile")
        angle, shift = _transform(placed.get("transform", ""))
        self.number = int(placed.get("data-tile", "0"))
        self.squares: dict[tuple[int, int], tuple[list[Point], str, str]] = {}
        for sq in with_class(placed, "sq"):
            path = next(sq.iter(f"{NS}path"))
            letter = next(sq.iter(f"{NS}text")).text or ""
            corners = [_apply(angle, shift, p) for p in _corners(path.get("d", ""))]
            key = (int(sq.get("data-column", "-1")), int(sq.get("data-lane", "-1")))
            assert key not in self.squares, f"square {key} twice on tile {self.number}"
            self.squares[key] = (corners, path.get("fill", ""), letter)
        self.joints: list[tuple[str, Point, Point]] = []
        for joint in with_class(placed, "joint"):
            marks = [e for e in joint.iter(f"{NS}circle") if e.get("class") == "mark"]
            inner, outer = ((float(m.get("cx", "0")), float(m.get("cy", "0"))) for m in marks)
            self.joints.append((joint.get("data-joint", ""),
                                _apply(angle, shift, inner), _apply(angle, shift, outer)))
        self.width = float(root.get("viewBox", "0 0 0 0").split()[2])
        self.height = float(root.get("viewBox", "0 0 0 0").split()[3])

    def move(self, angle: float, shift: Point) -> None:
        self.squares = {k: ([_apply(angle, shift, p) for p in c], f, t)
                        for k, (c, f, t) in self.squares.items()}
        self.joints = [(n, _apply(angle, shift, a), _apply(angle, shift, b))
                       for n, a, b in self.joints]


def _close(p: Point, q: Point) -> bool:
    return math.dist(p, q) < TOLERANCE


def _align(moving: tuple[Point, Point], fixed: tuple[Point, Point]) -> tuple[float, Point]:
    """The rigid motion laying mark pair ``moving`` onto ``fixed`` (as a person aligns
    two pieces of paper); the cuts must be equally long."""
    (a, b), (c, d) = moving, fixed
    assert abs(math.dist(a, b) - math.dist(c, d)) < TOLERANCE, "the two sides of a cut differ"
    angle = math.atan2(d[1] - c[1], d[0] - c[0]) - math.atan2(b[1] - a[1], b[0] - a[0])
    turned = _apply(angle, (0, 0), a)
    return angle, (c[0] - turned[0], c[1] - turned[1])


def assemble(documents: list[str]) -> tuple[list[Tile], dict[tuple[int, int], tuple[
        list[Point], str, str]]]:
    tiles = [Tile(parse(d)) for d in documents if with_class(parse(d), "placed-tile")]
    for previous, tile in itertools.pairwise(tiles):
        end_name, *end_marks = previous.joints[1]
        start_name, *start_marks = tile.joints[0]
        assert start_name == end_name, "consecutive tiles must share a joint letter"
        tile.move(*_align((start_marks[0], start_marks[1]), (end_marks[0], end_marks[1])))
    # the lap closes: the last tile's end lies on the first tile's start
    last_name, *last_marks = tiles[-1].joints[1]
    first_name, *first_marks = tiles[0].joints[0]
    assert last_name == first_name
    assert _close(last_marks[0], first_marks[0]) and _close(last_marks[1], first_marks[1])
    squares: dict[tuple[int, int], tuple[list[Point], str, str]] = {}
    for tile in tiles:
        for key, value in tile.squares.items():
            assert key not in squares, f"square {key} printed twice"
            squares[key] = value
    return tiles, squares


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("track_name", ["default", "short", "user"])
def test_tiles_laid_mark_to_mark_give_every_square_in_order_once(
        track_name: str, paper: str, user_track: Path) -> None:
    source = str(user_track) if track_name == "user" else track_name
    track = load_track(source)
    documents = pages_of("pistard", "track", track=source, paper=paper)
    tiles, squares = assemble(documents)
    length = track.length
    assert set(squares) == {(c, lane) for c in range(length) for lane in range(1, 5)}
    # every tile is a run of consecutive columns, and the runs follow each other round the lap
    order = [c for tile in tiles for c in sorted({k[0] for k in tile.squares},
                                                  key=lambda c, t=tile: _rank(t, c))]
    start = order[0]
    assert order == [(start + i) % length for i in range(length)]
    for (column, lane), (corners, fill, letter) in squares.items():
        colour = track.colour(column, lane)
        assert fill == COLOUR_FILL[colour] and letter == LETTERS[colour]
        ahead = squares[((column + 1) % length, lane)][0]
        assert _close(corners[1], ahead[0]) and _close(corners[2], ahead[3]), (
            f"column {column} lane {lane} does not meet the next column")
        if lane < 4:
            outside = squares[(column, lane + 1)][0]
            assert _close(corners[3], outside[0]) and _close(corners[2], outside[1])
    for tile in tiles:  # every tile lies inside its sheet's margins
        for corners, _, _ in Tile(parse(documents[tile.number])).squares.values():
            for x, y in corners:
                assert 10 <= x <= tile.width - 10 and 10 <= y <= tile.height - 10


def _rank(tile: Tile, column: int) -> float:
    """Position of a column along its tile in the direction of travel: the distance of
    its inner-start corner from the tile's start mark."""
    corners = tile.squares[(column, 1)][0]
    return math.dist(corners[0], tile.joints[0][1])


def test_the_line_is_drawn_once_before_column_zero() -> None:
    documents = pages_of("pistard", "track")
    lines = [d for d in documents if with_class(parse(d), "line")]
    assert len(lines) == 1
    root = parse(lines[0])
    (placed,) = with_class(root, "placed-tile")
    columns = {int(sq.get("data-column", "-1")) for sq in with_class(placed, "sq")}
    assert 0 in columns or 55 in columns
