"""A finished Dice Derby evening that ties all seven players, stored in a server's file:
nobody bid on a horse (the house kept all six) and nobody bet, so every purse ends where
it started: the finale's hardest case, seven names on the first step. No seed decides
it: any evening played so ties."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from keirin_ties import NAMES, store_room

from raceday.games.derby.room import DerbyRoom
from raceday.games.derby.session import MIN_RACES
from raceday.rooms import Actor

CODE = "TIES"


def all_tied_evening() -> DerbyRoom:
    """The evening, played out on the server's timeline: seven zero bids a lot, nothing
    staked in any race."""
    room = DerbyRoom.create({"races": MIN_RACES}, 1)
    for name in NAMES:
        room.add_seat(name)
    rng = np.random.default_rng(1)
    room.handle(Actor.host(), {"type": "start", "computers": 0}, rng)
    while room.phase() != "finished":
        phase = room.phase()
        for seat in range(len(NAMES)):
            me = room.private_view(Actor.player(seat))
            assert me is not None
            if phase == "auction" and me["may_bid"] and me["sealed_bid"] is None:
                room.handle(Actor.player(seat), {"type": "bid", "amount": 0}, rng)
            elif phase == "betting" and me["may_bet"]:
                room.handle(Actor.player(seat), {"type": "done"}, rng)
        if phase == "racing":
            room.handle(Actor.timeline(), {"type": "tick"}, rng)
    return room


def store_tied_evening(db: Path) -> tuple[str, str, list[str]]:
    """Write the evening into the server file ``db`` (before the server opens it): its
    code, the host's token and each seat's token."""
    return store_room(db, all_tied_evening(), CODE, NAMES)
