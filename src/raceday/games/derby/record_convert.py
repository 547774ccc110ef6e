"""Dice Derby's saves from before records, read as records (found by
:func:`raceday.store.converters.record_converter`)."""

from raceday.games.derby.saved import convert

__all__ = ["convert"]
