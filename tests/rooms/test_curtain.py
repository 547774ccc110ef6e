"""The party kit's curtain on a toy game of sealed guesses whose throw is paced: the throw
is drawn into the state at once, but every screen keeps the guesses sealed and the throw
unsaid until the timeline's next tick, and a room saved behind the curtain loads behind it."""

from __future__ import annotations

import json

import numpy as np

from raceday.core.events import Event
from raceday.rooms import JSON, Actor
from tests.rooms.test_party_room import GuessRoom
from tests.rooms.toy import GuessState

HOST = Actor.host()
TICK = {"type": "tick"}


class CurtainRoom(GuessRoom):
    """The guessing room with its throws at the timeline's pace, behind the curtain."""

    allows_undo = False

    def waits_for_host(self, state: GuessState) -> bool:
        return False

    def paces(self, state: GuessState) -> bool:
        return True

    def told_at_once(self, event: Event) -> bool:
        return event.kind != "thrown"

    def paced_step(self, state: GuessState, rng: np.random.Generator,
                   events: list[JSON]) -> None:
        before = state.clone()
        draw = state.sample_chance(rng)
        self.tell(state.apply_action(draw.outcome, draw.detail), events, before)


def guessed() -> tuple[CurtainRoom, np.random.Generator]:
    room = CurtainRoom.create({"rounds": 1}, 1)
    for name in ("Aki", "Ben"):
        room.add_seat(name)
    rng = np.random.default_rng(4)
    room.handle(HOST, {"type": "start"}, rng)
    room.handle(Actor.player(0), {"type": "act", "action": 1}, rng)
    room.handle(Actor.player(1), {"type": "act", "action": 2}, rng)
    return room, rng


def test_the_throw_waits_behind_the_curtain_for_the_next_tick() -> None:
    room, rng = guessed()
    assert room.handle(Actor.timeline(), TICK, rng) == []  # thrown, not yet told
    assert room.state is not None and room.state.is_terminal()
    for actor in (HOST, Actor.player(0)):
        view = room.view(actor)
        assert view["observation"]["thrown"] is None and "guesses" not in view["observation"]
        assert view["result"] is None and view["finale"] is None
    assert room.view(Actor.player(1))["me"]["observation"]["mine"] == 2
    assert not room.finished() and room.next_tick() is not None
    twin = CurtainRoom.from_json(json.loads(json.dumps(room.to_json())))
    assert twin.view(HOST) == room.view(HOST)
    events = twin.handle(Actor.timeline(), TICK, np.random.default_rng(9))
    assert events == [{"type": "thrown", "value": room.state.thrown}]
    assert twin.finished() and twin.view(HOST)["observation"]["guesses"] == [1, 2]
    assert twin.next_tick() is None


def test_skip_tells_what_the_curtain_holds() -> None:
    room, rng = guessed()
    events = room.handle(HOST, {"type": "skip"}, rng)
    assert [e["type"] for e in events] == ["thrown"] and room.curtain is None
    assert room.finished() and room.view(HOST)["result"] is not None
