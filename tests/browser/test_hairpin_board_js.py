"""Hairpin's board module in Chromium: a move over the finish line is traced out past one
edge of the board and in again from the other (never across the board), and a target's
words never sit on a track line (in the middle of an empty square; on a plate of the
square's colour under a racer)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from raceday.web.app import create_app
from raceday.web.server import background_server

LEFT, CELL = 70, 100  # the board's geometry in board.js (the viewBox's units)


@pytest.fixture
def page(chromium: Any, tmp_path: Path) -> Iterator[Any]:
    app = create_app(tmp_path / "party.sqlite")
    with background_server(app, host="127.0.0.1") as url:
        page = chromium.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(f"{url}hairpin")
        yield page
        page.close()


def points(page: Any, player: str, start: str, end: str) -> list[list[Any]]:
    return list(page.evaluate(
        "async ([p, a, b]) => (await import('/games/hairpin/static/board.js'))"
        ".movePoints({player: p, from: a, to: b})", [player, start, end]))


@pytest.mark.parametrize(("player", "start", "end", "out", "back"), [
    ("red", "e3", "b1", LEFT + 6 * CELL + 30, LEFT - 30),
    ("black", "b1", "e3", LEFT - 30, LEFT + 6 * CELL + 30),
])
def test_a_move_over_the_finish_line_goes_round_not_across(
        page: Any, player: str, start: str, end: str, out: int, back: int) -> None:
    pts = points(page, player, start, end)
    jumps = [k for k, p in enumerate(pts) if len(p) > 2]
    assert len(jumps) == 1
    k = jumps[0]
    assert pts[k - 1][0] == out and pts[k][0] == back  # leaves by one edge, returns by the other
    assert pts[k - 1][1] == pts[k - 2][1] and pts[k][1] == pts[k + 1][1]  # along its rows


def test_a_move_within_the_lap_has_no_jump(page: Any) -> None:
    pts = points(page, "red", "b1", "b2")
    assert all(len(p) == 2 for p in pts)
    assert all(LEFT < x < LEFT + 6 * CELL for x, _ in pts)


def test_target_words_keep_off_the_track_lines(page: Any) -> None:
    found = page.evaluate("""async () => {
        const b = await import('/games/hairpin/static/board.js');
        const cells = new Array(18).fill(0); cells[0] = 1; cells[2] = -1;
        const view = {board: {cells, ply: 0}, recent: []};
        const moves = [{from: 0, to: 1, kind: 'move', message: {key: 'x'}},
                       {from: 0, to: 2, kind: 'bump', message: {key: 'x'}}];
        const svgEl = b.boardSvg(view, {moves, selected: 0, canMove: true, tap: () => {}});
        document.body.append(svgEl);
        const label = (t) => t.getBBox();
        const out = [...svgEl.querySelectorAll('.hp-target-label')].map((t) => {
            const box = label(t);
            const plate = t.parentNode.classList.contains('hp-target-plate')
                ? t.parentNode.querySelector('rect').getBBox() : null;
            return {box: [box.y, box.y + box.height],
                    plate: plate && [plate.y, plate.y + plate.height]};
        });
        const rows = [...new Set([...svgEl.querySelectorAll('.hp-track')].flatMap((p) =>
            p.getAttribute('d').split(' ').map((s) => Number(s.split(',')[1]))))];
        svgEl.remove();
        return {out, rows};
    }""")
    assert len(found["out"]) == 2
    for label in found["out"]:
        crossed = [y for y in found["rows"] if label["box"][0] <= y <= label["box"][1]]
        if label["plate"] is None:
            assert crossed == [], label  # an empty square's words: between the lines
        else:
            assert all(label["plate"][0] < y < label["plate"][1] for y in crossed), label
