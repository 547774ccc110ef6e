"""WielerSIM's stage races saved before records, read as records, one per stage (found by
:func:`raceday.store.converters.record_converter`)."""

from raceday.games.wielersim.campaign import convert_campaign as convert

__all__ = ["convert"]
