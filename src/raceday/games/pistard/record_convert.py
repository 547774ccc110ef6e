"""PISTARD's races saved before records, read as records (found by
:func:`raceday.store.converters.record_converter`)."""

from raceday.games.pistard.saves import convert_document as convert

__all__ = ["convert"]
