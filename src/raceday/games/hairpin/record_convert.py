"""Hairpin Racers' saves from before records, read as records (found by
:func:`raceday.store.converters.record_converter`)."""

from raceday.games.hairpin.saves import convert

__all__ = ["convert"]
