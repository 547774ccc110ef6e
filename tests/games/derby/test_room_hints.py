"""Dice Derby's room option ``hints`` (#48, the lesson's first evening in the browser): the
seat whose person is to bid or buy tickets finds the terminal's advice (the exact odds'
bid and ticket hints) in its own ``me``; no other screen gets it, it says nothing of
another player's sealed bid, and the switch is saved with the room."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from raceday.games.derby.hints import bid_hint, ticket_hint
from raceday.games.derby.room import DerbyRoom
from raceday.rooms import Actor, RoomError

HOST = Actor.host()
AKI, BEN = Actor.player(0), Actor.player(1)


def started(hints: bool, seed: int = 5) -> tuple[DerbyRoom, np.random.Generator]:
    """Aki and Ben and one computer (the cautious one), the first lot up for bids."""
    room = DerbyRoom.create({"races": 4, "hints": hints}, seed)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(seed)
    room.handle(HOST, {"type": "start", "computers": 1}, rng)
    assert room.phase() == "auction"
    return room, rng


def hint_of(room: DerbyRoom, actor: Actor) -> Any:
    return room.view(actor).get("me", {}).get("hint")


def test_a_bidder_is_shown_the_lots_worth_on_their_own_phone_only() -> None:
    room, rng = started(hints=True)
    assert room.state is not None
    lot = room.state.ledger.next_lot
    assert lot is not None
    expected = bid_hint(room.state.ledger, lot).to_json()
    assert hint_of(room, AKI) == expected and hint_of(room, BEN) == expected
    # the big screen and a spectator see no hint anywhere in their views
    for actor in (HOST, Actor.spectator()):
        assert "hint_bid" not in json.dumps(room.view(actor))
    # another person's sealed bid changes nothing in Aki's hint
    room.handle(BEN, {"type": "bid", "amount": 1300}, rng)
    assert hint_of(room, AKI) == expected
    assert "1300" not in json.dumps(hint_of(room, AKI))


def test_the_ticket_hint_comes_while_betting_and_goes_with_done() -> None:
    room, rng = started(hints=True)
    while room.phase() == "auction":
        for actor in (AKI, BEN):
            me = room.view(actor)["me"]
            if me["may_bid"] and me["sealed_bid"] is None:
                room.handle(actor, {"type": "bid", "amount": 0}, rng)
    assert room.phase() == "betting"
    assert room.state is not None
    expected = ticket_hint(room.state.ledger).to_json()
    assert expected["key"] == "derby.first_game.hint_ticket"
    assert expected["params"]["ticket"]["key"].startswith("derby.what.")  # in the page's words
    # the house's margin (10% by default): even the best ticket gives back less than 100
    assert expected["params"]["back"] < 100
    assert expected["params"]["verdict"]["key"] == "derby.first_game.hint_ticket_loses"
    assert hint_of(room, AKI) == expected and hint_of(room, BEN) == expected
    room.handle(AKI, {"type": "done"}, rng)
    assert hint_of(room, AKI) is None  # Aki has decided
    assert hint_of(room, BEN) == expected
    room.handle(BEN, {"type": "done"}, rng)
    assert room.phase() == "racing"
    assert hint_of(room, AKI) is None and hint_of(room, BEN) is None


def test_without_the_option_no_phone_gets_a_hint() -> None:
    room, _ = started(hints=False)
    assert hint_of(room, AKI) is None and hint_of(room, BEN) is None
    assert "hints" not in room.lobby_options


def test_the_switch_is_saved_with_the_room_and_checked() -> None:
    room, _ = started(hints=True)
    again = DerbyRoom.from_json(json.loads(json.dumps(room.to_json())))
    assert again.hints is True
    assert hint_of(again, AKI) == hint_of(room, AKI) is not None
    with pytest.raises(RoomError, match="hints must be true or false"):
        DerbyRoom.create({"races": 4, "hints": "yes"}, 1)
    with pytest.raises(RoomError, match="hintz"):  # other unknown options still refused
        DerbyRoom.create({"races": 4, "hintz": True}, 1)
