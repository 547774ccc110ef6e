"""Snapshots of Hairpin's full-screen view at 80x24 and 120x40: the start position, and a
position with a move's preview (the racers on f2 and the bumped racer on d2 highlighted,
the warning of a fifth bump under the board)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from textual.pilot import Pilot

from raceday.games.hairpin.cli import HairpinPlay
from raceday.games.hairpin.game import GAME
from raceday.games.hairpin.rules import HairpinState
from raceday.terminal.tui.app import GameApp
from raceday.terminal.tui.testing import wait_for, wait_for_prompt

SIZES = [(80, 24), (120, 40)]
BUMP_FIFTH = "..bbb./..bb.r2/rrr... r 0-0 4-0 0-0"


def view(position: str | None = None) -> GameApp:
    """A game against the greedy computer that is not saved (nothing on screen depends on
    a path or the clock)."""
    state = HairpinState.from_text(position) if position else GAME.new_state({})
    loop = HairpinPlay(state, "human", "greedy", np.random.default_rng(5))
    return GameApp(loop, title="Hairpin Racers")


async def _at_the_prompt(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, GameApp)
    await wait_for_prompt(pilot, app)


async def _previewing_the_fifth_bump(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, GameApp)
    await wait_for_prompt(pilot, app)
    await pilot.press(*["down"] * 8)
    await wait_for(pilot, lambda: "▶ 8  f2 charge d2 bump" in app.board_text(), "the preview")


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_of_the_start(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(view(), terminal_size=size, run_before=_at_the_prompt)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_of_a_preview(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(view(BUMP_FIFTH), terminal_size=size,
                        run_before=_previewing_the_fifth_bump)
