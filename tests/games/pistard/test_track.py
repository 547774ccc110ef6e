"""Tracks: the shipped velodromes, their design constraints, and file validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from raceday.core.errors import InputFileError
from raceday.games.pistard.track import (
    EXAMPLE_WINDOW,
    LANES,
    SHIPPED_TRACKS,
    TACTICS_WINDOW,
    colour_index,
    default_track,
    design_track,
    load_track,
    parse_track_text,
)

GOOD = 'name = "t"\nline = 0\nlanes = 4\nrows = [\n "{}",\n "{}",\n "{}",\n "{}",\n]\n'
ROWS = ["YGBR" * 4, "GBRY" * 4, "BRYG" * 4, "RYGB" * 4]


@pytest.mark.parametrize("name", SHIPPED_TRACKS)
def test_shipped_tracks_hold_every_colour_in_every_column(name: str) -> None:
    track = load_track(name)
    assert track.lanes == LANES
    for column in range(track.length):
        assert sorted(track.colour(column, lane) for lane in range(1, 5)) == [0, 1, 2, 3]


def test_default_track_is_balanced_without_repeats_along_a_lane() -> None:
    track = default_track()
    assert track.length == 56
    for lane in range(1, 5):
        counts = [0, 0, 0, 0]
        for column in range(track.length):
            counts[track.colour(column, lane)] += 1
            assert track.colour(column, lane) != track.colour(column + 1, lane)
        assert counts == [14, 14, 14, 14]


def test_default_track_embeds_the_examples() -> None:
    track = default_track()
    for start, window in ((14, EXAMPLE_WINDOW), (34, TACTICS_WINDOW)):
        for offset, lane, colour, equal in window:
            assert (track.colour(start + offset, lane) == colour_index(colour)) == equal


def test_default_track_is_reproduced_by_its_design_recipe() -> None:
    designed = design_track(56, 2009, [(14, EXAMPLE_WINDOW), (34, TACTICS_WINDOW)])
    assert designed.rows == default_track().rows


def test_good_file_loads_and_orange_means_red(tmp_path: Path) -> None:
    rows = [r.replace("R", "O") for r in ROWS]
    path = tmp_path / "t.toml"
    path.write_text(GOOD.format(*rows), encoding="utf-8")
    track = load_track(str(path))
    assert track.length == 16 and track.colour(3, 1) == colour_index("red")


@pytest.mark.parametrize(
    ("rows", "needle"),
    [
        ([ROWS[0], ROWS[1], ROWS[2][:-1] + "X", ROWS[3]], "row 3 (lane 3) column 15: bad colour"),
        ([ROWS[0], ROWS[1], ROWS[2][:-1], ROWS[3]], "row 3 has 15 squares"),
        ([ROWS[0], ROWS[0], ROWS[2], ROWS[3]], "column 0 reads YYBR"),
    ],
)
def test_bad_rows_are_named(rows: list[str], needle: str) -> None:
    with pytest.raises(InputFileError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        parse_track_text(GOOD.format(*rows))


def test_bad_fields_are_named() -> None:
    with pytest.raises(InputFileError, match="'lanes' must be 4"):
        parse_track_text(GOOD.format(*ROWS).replace("lanes = 4", "lanes = 5"))
    with pytest.raises(InputFileError, match="'line' must be a column"):
        parse_track_text(GOOD.format(*ROWS).replace("line = 0", "line = 99"))
    with pytest.raises(InputFileError, match="not valid TOML"):
        parse_track_text("rows = [")
    with pytest.raises(InputFileError, match="neither a shipped track"):
        load_track("/no/such/track.toml")
