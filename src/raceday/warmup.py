"""Moved to :mod:`raceday.terminal.warm` (the kit game CLIs may import); this name stays
only until every game's CLI imports the kit, then goes."""

from raceday.terminal.warm import announce_if_cold, preload

__all__ = ["announce_if_cold", "preload"]
