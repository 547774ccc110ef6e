"""KEIRIN's room as a show (#32): the finish is one step of the timeline and the payout the
next, so no view or event tells a result, a payout or a new standing before every screen has
seen the riders on the line; the finale's awards are facts of the night; "again" starts a
fresh night with the same seats."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from raceday.games.keirin.room import KeirinRoom
from raceday.rooms import JSON, Actor

HOST = Actor.host()
TICK = {"type": "tick"}
PAYOUT_KINDS = {"settled", "finished", "betting_open"}


def night(races: int = 1, seed: int = 5) -> tuple[KeirinRoom, np.random.Generator]:
    """A room with Aki and Ben, started, each holding a ticket, betting closed."""
    room = KeirinRoom.create({"races": races, "riders": 6}, seed)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(seed)
    room.handle(HOST, {"type": "start"}, rng)
    room.handle(Actor.player(0), {"type": "ticket", "kind": "win", "riders": [1],
                                  "stake": "100"}, rng)
    room.handle(Actor.player(1), {"type": "ticket", "kind": "trio", "riders": [1, 2, 3],
                                  "stake": "250"}, rng)
    room.handle(Actor.player(0), {"type": "done"}, rng)
    room.handle(Actor.player(1), {"type": "done"}, rng)
    assert room.phase() == "racing"
    return room, rng


def screens(room: KeirinRoom) -> list[JSON]:
    """What the TV and each phone may see now."""
    return [room.view(a) for a in (HOST, Actor.player(0), Actor.player(1))]


def test_the_finish_is_a_step_of_its_own_and_the_payout_the_next() -> None:
    room, rng = night()
    before = screens(room)
    standings = before[0]["standings"]
    ticks: list[list[JSON]] = []
    while room.curtain is None:
        events = room.handle(Actor.timeline(), TICK, rng)
        ticks.append(events)
        assert len(ticks) < 300
        # while the race runs: no payout, no purse moved, no standing changed
        for view in screens(room):
            assert view["phase"] == "racing" and view["last"] is None
            assert view["standings"] == standings
            if "me" in view:
                assert view["me"]["last"] == [] and view["me"]["tickets"]
        assert not any(e["type"] in PAYOUT_KINDS for e in events)
    # the finish: the riders are on the line, the order is told; still nothing paid
    finish = ticks[-1]
    assert [e["type"] for e in finish][-1] == "result"
    tv = room.view(HOST)
    assert tv["live"]["phase"] == "over"
    assert tv["live"]["ranked"] == finish[-1]["ranking"]
    assert tv["timeline"]["running"], "the payout is the timeline's next step"
    assert room.next_tick() is not None
    assert tv["last"] is None and tv["standings"] == standings
    assert all(v.get("me", {}).get("last", []) == [] for v in screens(room))
    assert "returned" not in json.dumps(finish)
    # a pace later: the night settles, with the same order the screens saw
    payout = room.handle(Actor.timeline(), TICK, rng)
    assert [e["type"] for e in payout] == ["settled", "finished"]
    assert payout[0]["ranking"] == finish[-1]["ranking"]
    after = room.view(Actor.player(0))
    assert after["phase"] == "finished" and after["last"]["race"] == 1
    assert len(after["me"]["last"]) == 1 and room.curtain is None


def test_a_held_finish_survives_a_save_and_settles_the_same() -> None:
    room, rng = night()
    while room.curtain is None:
        room.handle(Actor.timeline(), TICK, rng)
    saved = json.loads(json.dumps(room.to_json()))
    twin = KeirinRoom.from_json(saved)
    assert twin.held == room.held
    assert twin.view(HOST)["live"] == room.view(HOST)["live"]
    a = room.handle(Actor.timeline(), TICK, np.random.default_rng(1))
    b = twin.handle(Actor.timeline(), TICK, np.random.default_rng(2))  # no dice left to draw
    assert a == b


def test_a_room_saved_holding_the_finishs_throw_loads_behind_the_curtain() -> None:
    """Rooms saved before the kit's curtain kept the night one throw short of the finish
    and that throw apart (``held``): they load with the night settled behind the curtain."""
    room, rng = night()
    while True:  # the save just before the race's last throw, as those rooms kept it
        night_state = room.state
        assert night_state is not None and night_state.race is not None
        draw = night_state.sample_chance(rng)
        probe = night_state.race.clone()
        probe.apply_action(draw.outcome, draw.detail)
        if probe.is_terminal():
            break
        night_state.apply_action(draw.outcome, draw.detail)
    old = {**room.to_json(), "held": {"outcome": draw.outcome, "detail": draw.detail}}
    del old["curtain"]
    loaded = KeirinRoom.from_json(json.loads(json.dumps(old)))
    tv = loaded.view(HOST)
    assert loaded.phase() == "racing" and tv["live"]["phase"] == "over"
    assert tv["last"] is None and loaded.state is not None and loaded.state.settled == 1
    payout = loaded.handle(Actor.timeline(), TICK, rng)
    assert [e["type"] for e in payout] == ["settled", "finished"]
    assert payout[0]["ranking"] == tv["live"]["ranked"]


def test_skip_and_advance_go_through_the_finish_to_the_payout() -> None:
    room, rng = night(races=2)
    room.handle(HOST, {"type": "pause"}, rng)
    while room.curtain is None:
        room.handle(HOST, {"type": "advance"}, rng)
    events = room.handle(HOST, {"type": "advance"}, rng)
    assert [e["type"] for e in events] == ["settled", "betting_open"]
    room.handle(HOST, {"type": "close_betting"}, rng)
    events = room.handle(HOST, {"type": "skip"}, rng)
    kinds = [e["type"] for e in events]
    assert kinds.index("result") < kinds.index("settled") and kinds[-1] == "finished"
    assert room.phase() == "finished" and room.curtain is None


def finished_night() -> tuple[KeirinRoom, np.random.Generator]:
    room, rng = night()
    room.handle(HOST, {"type": "skip"}, rng)
    assert room.phase() == "finished"
    return room, rng


def test_the_awards_are_facts_of_the_accounts() -> None:
    room, _ = finished_night()
    finale: Any = room.finale()  # the kit puts it in the view as "finale"
    awards = {a["title"]["key"]: a for a in finale["awards"]}
    boldest = awards["keirin.award.boldest"]
    assert boldest["name"] == "Ben" and boldest["seat"] == 1  # 2.50 against Aki's 1.00
    assert boldest["detail"] == {"key": "keirin.award.money", "params": {"amount": "250.00"}}
    state = room.state
    assert state is not None
    won = [a.winnings for a in state.accounts]
    if max(won):
        best = awards["keirin.award.biggest_return"]
        assert best["players"] == [room.player_card(p) for p, w in enumerate(won)
                                   if w == max(won)]
    else:
        assert "keirin.award.biggest_return" not in awards
    assert ("keirin.award.sharpest" in awards) == any(a.winning_tickets for a in state.accounts)
    assert finale["podium"][0]["name"] == state.names[state.outcome().ranking[0]]


def test_a_shared_award_names_everyone_sharing_it() -> None:
    """Aki and Ben hold the same win tickets on every rider: each award is theirs together,
    named both, its detail saying it is a tie."""
    room = KeirinRoom.create({"races": 1, "riders": 6}, 3)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(3)
    room.handle(HOST, {"type": "start"}, rng)
    for seat in (0, 1):
        for rider in range(1, 7):
            room.handle(Actor.player(seat), {"type": "ticket", "kind": "win",
                                             "riders": [rider], "stake": "1"}, rng)
    room.handle(HOST, {"type": "close_betting"}, rng)
    room.handle(HOST, {"type": "skip"}, rng)
    finale: Any = room.finale()
    sharpest = next(a for a in finale["awards"]
                    if a["title"]["key"] == "keirin.award.sharpest")
    assert sharpest["name"] == "Aki & Ben"
    assert [p["seat"] for p in sharpest["players"]] == [0, 1]
    assert sharpest["detail"] == {"key": "keirin.award.hits_each", "params": {"won": 1}}
    assert [p["place"] for p in finale["podium"]] == [1, 1]


def test_again_is_a_fresh_night_with_the_same_seats() -> None:
    room, rng = finished_night()
    events = room.handle(HOST, {"type": "again"}, rng)
    kinds = [e["type"] for e in events]
    assert kinds[0] == "again" and "betting_open" in kinds
    view = room.view(Actor.player(1))
    assert view["phase"] == "betting" and view["race"] == 1 and view["last"] is None
    assert view["seats"] == ["Aki", "Ben"] and view["me"]["name"] == "Ben"
    assert view["me"]["purse"] == 1_000_000 and view["live"] is None and room.step == []


def received_by_aki(ben_tickets: list[JSON]) -> tuple[list[JSON], list[JSON]]:
    """A pool night with two bettors: what Aki's phone and the TV receive (every event and,
    after each, their views) from the start until Ben is done betting, Ben buying
    ``ben_tickets`` between Aki's two tickets."""
    room = KeirinRoom.create({"races": 1, "riders": 6, "mode": "pool"}, 2)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(2)
    aki, ben = Actor.player(0), Actor.player(1)
    phone: list[JSON] = []
    tv: list[JSON] = []
    intents = [(HOST, {"type": "start"}),
               (aki, {"type": "ticket", "kind": "win", "riders": [4], "stake": "250"}),
               *[(ben, t) for t in ben_tickets],
               (aki, {"type": "ticket", "kind": "exacta", "riders": [4, 1], "stake": "30"}),
               (ben, {"type": "done"})]
    for actor, intent in intents:
        events = room.handle(actor, intent, rng)
        phone += [*events, room.view(aki)]
        tv += [*events, room.view(HOST), room.view(Actor.spectator())]
    assert room.phase() == "betting"
    return phone, tv


def test_two_bettors_cannot_read_each_other_before_the_close() -> None:
    """docs/rules/keirin.md, our completion 12: while betting is open nothing a seat or the
    TV receives depends on what the other bettor chose or staked (only on how many tickets
    they hold), so subtracting one's own tickets reveals nothing."""
    bold = [{"type": "ticket", "kind": "win", "riders": [4], "stake": "900"},
            {"type": "ticket", "kind": "trio", "riders": [1, 2, 3], "stake": "5"}]
    shy = [{"type": "ticket", "kind": "quinella", "riders": [2, 5], "stake": "1"},
           {"type": "ticket", "kind": "win", "riders": [6], "stake": "70"}]
    phone_bold, tv_bold = received_by_aki(bold)
    phone_shy, tv_shy = received_by_aki(shy)
    assert phone_bold == phone_shy and tv_bold == tv_shy
    assert phone_bold[-1]["tote"] is None and phone_bold[-1]["tote_sealed"] is True
    assert {"type": "ticket_sold"} in phone_bold  # the sale is told, nothing of it


def test_the_tote_opens_when_betting_closes() -> None:
    """The same completion: at the close every screen sees the pools, still nameless."""
    room = KeirinRoom.create({"races": 1, "riders": 6, "mode": "pool"}, 2)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(2)
    room.handle(HOST, {"type": "start"}, rng)
    room.handle(Actor.player(0), {"type": "ticket", "kind": "win", "riders": [4],
                                  "stake": "250"}, rng)
    room.handle(HOST, {"type": "close_betting"}, rng)
    for actor in (HOST, Actor.spectator(), Actor.player(1)):
        view = room.view(actor)
        assert view["tote"]["win"]["pool"] == 25_000 and view["tote_sealed"] is False
        assert "Aki" not in json.dumps(view["tote"])
