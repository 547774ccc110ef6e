"""The room protocol lives in :mod:`raceday.rooms` (the room kit); these names stay here
only for the rooms still inside the web package (Derby's and KEIRIN's) until they move
into their game packages."""

from raceday.rooms.protocol import JSON, Actor, RoomError, RoomLogic

__all__ = ["JSON", "Actor", "RoomError", "RoomLogic"]
