"""A finished KEIRIN pool night that ties all seven players, stored in a server's file: each
bought one trifecta of the same stake that nobody's race result matched, so every pool was
refunded and every purse is where it started (the finale's hardest case: seven names on
the first step, an award shared by all seven)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

from raceday.games.keirin.room import KeirinRoom
from raceday.rooms import Actor, PartyRoom
from raceday.web.rooms import Room, RoomStore, new_token, token_hash

NAMES = ["Aki", "Ben", "Chie", "Daisuke", "Emi", "Fumiko", "Gorō"]
CODE = "TIED"


def all_refunded_night() -> KeirinRoom:
    """The night, played out: the first seed whose result no ticket matched (each player's
    trifecta is 9-8 then their own third rider, so a result of 9-8-x refunds nothing)."""
    for seed in range(100):
        room = KeirinRoom.create({"races": 1, "riders": 9, "mode": "pool"}, seed)
        for name in NAMES:
            room.add_seat(name)
        rng = np.random.default_rng(seed)
        room.handle(Actor.host(), {"type": "start"}, rng)
        for seat in range(len(NAMES)):
            room.handle(Actor.player(seat), {"type": "ticket", "kind": "trifecta",
                                             "riders": [9, 8, seat + 1], "stake": "100"}, rng)
        room.handle(Actor.host(), {"type": "close_betting"}, rng)
        room.handle(Actor.host(), {"type": "skip"}, rng)
        state = room.state
        assert state is not None and state.last is not None
        if room.phase() == "finished" and all(p["refunded"]
                                              for p in state.last["pools"].values()):
            return room
    raise AssertionError("no seed below 100 refunds every pool")


def store_tied_night(db: Path) -> tuple[str, str, list[str]]:
    """Write the night into the server file ``db`` (before the server opens it): its code,
    the host's token and each seat's token."""
    return store_room(db, all_refunded_night(), CODE, NAMES)


def store_room(db: Path, logic: PartyRoom, code: str, names: list[str]
               ) -> tuple[str, str, list[str]]:
    """Write the room ``logic`` (its seats ``names``) into the server file ``db`` as room
    ``code``, before the server opens it: its code, the host's token and each seat's."""
    host = new_token()
    seats = [new_token() for _ in names]
    room = Room(code, logic.game, logic, np.random.default_rng(0), 1, token_hash(host),
                {i: token_hash(t) for i, t in enumerate(seats)})
    room.take_snapshot()
    store = RoomStore(db)
    store.insert_room(room, {"type": "created", "game": logic.game})
    store.close()
    with sqlite3.connect(db) as conn:  # the seats a join would have written
        conn.executemany("INSERT INTO room_seats (code, seat, name, token_hash) "
                         "VALUES (?, ?, ?, ?)",
                         [(code, i, n, token_hash(t))
                          for i, (n, t) in enumerate(zip(names, seats, strict=True))])
    conn.close()
    return code, host, seats
