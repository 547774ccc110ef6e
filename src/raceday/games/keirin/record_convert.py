"""KEIRIN's betting nights saved before records, read as records (found by
:func:`raceday.store.converters.record_converter`)."""

from raceday.games.keirin.saved_night import night_record as convert

__all__ = ["convert"]
