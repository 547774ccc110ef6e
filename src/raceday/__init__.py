"""raceday: play, watch, simulate and price dice and racing tabletop games."""

__version__ = "0.1.0"
