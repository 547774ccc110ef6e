"""Shared fixtures for this game's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from raceday.terminal.common import interrupt_reported


@pytest.fixture(autouse=True)
def _forget_reported_interrupts() -> Iterator[None]:
    """A Ctrl-C that a command reported through CliRunner (not through ``run``) leaves the
    shared 'already reported' flag set; clear it so later tests see a fresh process."""
    yield
    interrupt_reported()
