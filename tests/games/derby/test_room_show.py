"""Dice Derby's room as a show (#32): the race is the server's timeline (one furlong a
tick), its results wait behind a curtain until the tick after the finish, the finale's
podium and awards are facts of the ledger, and "again" keeps the seats."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from raceday.games.derby.evening import EVENING, what_words
from raceday.games.derby.room import OWNER_COLOURS, DerbyRoom, photo_finish
from raceday.present import render
from raceday.rooms import Actor, RoomError

HOST = Actor.host()
TICK = {"type": "tick"}


def seat(i: int) -> Actor:
    return Actor.player(i)


def auctioned_room(seed: int, computers: int, bids: dict[str, tuple[int, int]]
                   ) -> tuple[DerbyRoom, np.random.Generator]:
    """Two people (Aki, Ben) and ``computers`` computers through the auction, Aki and Ben
    bidding ``bids[horse]`` (nothing on the others)."""
    room = DerbyRoom.create({"races": 4}, seed)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(seed)
    room.handle(HOST, {"type": "start", "computers": computers}, rng)
    while room.phase() == "auction":
        horse = room.public_view()["auction"]["horse"]
        for i in (0, 1):
            me = room.private_view(seat(i))
            assert me is not None
            if me["may_bid"] and me["sealed_bid"] is None:
                room.handle(seat(i), {"type": "bid", "amount": bids.get(horse, (0, 0))[i]}, rng)
    return room, rng


def betting_room(seed: int = 7, computers: int = 1) -> tuple[DerbyRoom, np.random.Generator]:
    """Two people (Aki, Ben) and ``computers`` computers, the auction done (Aki bought the
    d20, Ben the d12), each person holding a win ticket on the d20: betting open."""
    room, rng = auctioned_room(seed, computers, {"d12": (0, 900), "d20": (1500, 0)})
    assert room.phase() == "betting"
    for i in (0, 1):
        room.handle(seat(i), {"type": "ticket", "kind": "win", "horses": ["d20"],
                              "stake": 500}, rng)
    return room, rng


def start_race(room: DerbyRoom, rng: np.random.Generator) -> None:
    for i in (0, 1):
        room.handle(seat(i), {"type": "done"}, rng)
    assert room.phase() == "racing"


def screens(room: DerbyRoom) -> dict[str, Any]:
    """Every screen's view: the big screen's and each phone's."""
    views: dict[str, Any] = {"tv": room.public_view()}
    for i in (0, 1):
        views[f"seat{i}"] = {**room.public_view(), "me": room.private_view(seat(i))}
    return views


def test_a_race_is_one_furlong_a_tick_and_no_screen_drives_it() -> None:
    room, rng = betting_room()
    start_race(room, rng)
    assert room.next_tick() == pytest.approx(DerbyRoom.default_pace)
    assert room.public_view()["timeline"]["running"] is True
    for actor in (HOST, seat(0)):  # no page rolls a die any more
        with pytest.raises(RoomError, match="cannot send 'roll'"):
            room.handle(actor, {"type": "roll"}, rng)
    ticks = 0
    while room.public_view()["live"]["finished"] is False:
        events = room.handle(Actor.timeline(), TICK, rng)
        ticks += 1
        rounds = [e for e in events if e["type"] in ("round", "reroll")]
        assert len(rounds) == 1, events  # one furlong (or a re-roll) a tick
        assert ticks < 60
    assert ticks >= 5  # six horses, one drops a furlong (more with falls and roll-offs)


def test_nothing_about_the_results_reaches_a_screen_before_the_finish() -> None:
    room, rng = betting_room()
    start_race(room, rng)
    before = screens(room)
    while True:
        events = room.handle(Actor.timeline(), TICK, rng)
        now = screens(room)
        kinds = {e["type"] for e in events}
        # no payout, settlement or next betting goes out with a furlong or the finish
        assert not kinds & {"quinella_paid", "settled", "betting_open", "finished"}, kinds
        for name, view in now.items():
            assert view["phase"] == "racing"
            assert view["standings"] == before[name]["standings"]
            assert view["last"] == before[name]["last"]  # no result of this race
            assert [p["money"] for p in view["players"]] == \
                [p["money"] for p in before[name]["players"]]
            if name != "tv":
                assert view["me"]["money"] == before[name]["me"]["money"]
                assert view["me"]["tickets"] == before[name]["me"]["tickets"]
        if now["tv"]["live"]["finished"]:
            break
    # the finish: places on the track, the results still behind the curtain
    finish = now["tv"]["live"]
    assert sorted(finish["places"].values())[0] == 1 and finish["to_roll"] == []
    assert "result" in kinds and room.next_tick() is not None
    assert all("collects" not in json.dumps(v) for v in now.values())  # no winnings named
    # the next tick releases them, to every screen together
    events = room.handle(Actor.timeline(), TICK, rng)
    kinds = [e["type"] for e in events]
    assert kinds[:3] == ["quinella_paid", "settled", "betting_open"], kinds
    after = screens(room)
    assert after["tv"]["phase"] == "betting" and after["tv"]["last"]["race"] == 1
    for name in ("seat0", "seat1"):
        assert after[name]["me"]["tickets"] == []  # paid or lost, they are settled


def test_the_curtain_holds_the_results_of_real_dice_too() -> None:
    room = DerbyRoom.create({"races": 4, "host_dice": True}, 3)
    room.add_seat("Aki")
    rng = np.random.default_rng(3)
    room.handle(HOST, {"type": "start", "computers": 1}, rng)
    while room.phase() == "auction":
        room.handle(seat(0), {"type": "bid", "amount": 0}, rng)
    room.handle(seat(0), {"type": "done"}, rng)
    assert room.next_tick() is None  # the host types the dice
    while not room.public_view()["live"]["finished"]:
        n = len(room.public_view()["live"]["to_roll"])
        events = room.handle(HOST, {"type": "enter", "values": list(range(1, n + 1))}, rng)
        assert "settled" not in {e["type"] for e in events}
    assert room.next_tick() is not None  # the results come at the room's pace
    events = room.handle(Actor.timeline(), TICK, rng)
    assert "settled" in {e["type"] for e in events} and room.phase() == "betting"


def test_a_room_saved_behind_the_curtain_loads_behind_it() -> None:
    room, rng = betting_room()
    start_race(room, rng)
    while not room.public_view()["live"]["finished"]:
        room.handle(Actor.timeline(), TICK, rng)
    saved = room.to_json()
    again = DerbyRoom.from_json(json.loads(json.dumps(saved)))
    assert again.public_view() == room.public_view()
    assert again.private_view(seat(1)) == room.private_view(seat(1))
    assert [e["type"] for e in again.handle(Actor.timeline(), TICK, rng)][:2] == \
        ["quinella_paid", "settled"]
    with pytest.raises(RoomError, match="held results"):
        DerbyRoom.from_json({**saved, "held": "nope"})


def test_phones_wait_while_the_curtain_is_drawn() -> None:
    room, rng = betting_room()
    start_race(room, rng)
    while not room.public_view()["live"]["finished"]:
        room.handle(Actor.timeline(), TICK, rng)
    # the evening itself is already betting on the next race: not before the results
    with pytest.raises(RoomError, match="results of a race"):
        room.handle(seat(0), {"type": "ticket", "kind": "win", "horses": ["d4"],
                              "stake": 100}, rng)
    with pytest.raises(RoomError, match="results of a race"):
        room.handle(HOST, {"type": "close_betting"}, rng)


def test_skip_plays_the_race_and_its_results_and_pause_stops_the_clock() -> None:
    room, rng = betting_room()
    start_race(room, rng)
    room.handle(HOST, {"type": "pause"}, rng)
    assert room.next_tick() is None and room.public_view()["timeline"]["paused"] is True
    room.handle(HOST, {"type": "resume"}, rng)
    room.handle(HOST, {"type": "pace", "seconds": 0.4}, rng)
    assert room.next_tick() == pytest.approx(0.4)
    events = room.handle(HOST, {"type": "skip"}, rng)
    kinds = [e["type"] for e in events]
    assert kinds.index("result") < kinds.index("settled")
    assert room.phase() == "betting" and room.curtain is None


def test_a_computer_evening_runs_to_its_end_on_the_timeline() -> None:
    room = DerbyRoom.create({"races": 4}, 11)
    rng = np.random.default_rng(11)
    room.handle(HOST, {"type": "start", "computers": 3}, rng)
    ticks = 0
    while room.next_tick() is not None:
        room.handle(Actor.timeline(), TICK, rng)
        ticks += 1
        assert ticks < 400
    assert room.phase() == "finished" and room.finished()
    finale = room.public_view()["finale"]
    assert finale is not None and finale["again"] is True
    assert finale["podium"][0]["place"] == 1
    assert {a["title"]["key"] for a in finale["awards"]} >= {
        "derby.finale.biggest", "derby.finale.luckiest"}


def test_the_finale_names_the_evenings_facts() -> None:
    room, rng = betting_room(computers=0)
    for _ in range(4):
        if room.phase() == "betting":
            for i in (0, 1):
                me = room.private_view(seat(i))
                assert me is not None
                if not me["done"]:
                    room.handle(seat(i), {"type": "done"}, rng)
        room.handle(HOST, {"type": "skip"}, rng)
    assert room.phase() == "finished"
    state = room.state
    assert state is not None
    finale = room.finale()
    assert finale is not None
    standings = state.standings()
    assert [(p["place"], p["name"]) for p in finale["podium"]] == \
        [(s["rank"], s["name"]) for s in standings]
    assert finale["podium"][0]["detail"]["params"]["amount"] == f"{standings[0]['net']:,}"
    awards = {a["title"]["key"]: a for a in finale["awards"]}
    top = awards["derby.finale.top_bid"]
    assert (top["name"], top["seat"]) == ("Aki", 0)  # 1,500 for the d20 beats 900
    assert top["detail"]["params"] == {"horse": "d20", "price": "1,500"}
    wins: dict[int, int] = {}
    for r in state.ledger.history:
        wins[r.first] = wins.get(r.first, 0) + 1
    lucky = awards["derby.finale.luckiest"]["detail"]["params"]
    assert lucky["n"] == max(wins.values())


def test_a_shared_award_names_everyone_sharing_it() -> None:
    """Aki pays 1,200 for the d12 and Ben 1,200 for the d20: the top bid is both of theirs,
    named together, its detail saying it is a tie."""
    room, _ = auctioned_room(3, 0, {"d12": (1200, 0), "d20": (0, 1200)})
    assert room.state is not None
    top = next(a for a in room.awards(room.state)
               if a["title"]["key"] == "derby.finale.top_bid")
    assert top["name"] == "Aki & Ben" and [p["seat"] for p in top["players"]] == [0, 1]
    assert top["detail"] == {"key": "derby.finale.top_bid_tied",
                             "params": {"horse": "d12, d20", "price": "1,200"}}


def test_again_keeps_the_seats_and_the_computers() -> None:
    room = DerbyRoom.create({"races": 4}, 5)
    room.add_seat("Aki")
    rng = np.random.default_rng(5)
    room.handle(HOST, {"type": "start", "computers": 2}, rng)
    with pytest.raises(RoomError):
        room.handle(HOST, {"type": "again"}, rng)  # not before the end
    for _ in range(200):
        if room.phase() == "finished":
            break
        if room.phase() == "auction":
            room.handle(seat(0), {"type": "bid", "amount": 0}, rng)
        elif room.phase() == "betting":
            room.handle(seat(0), {"type": "done"}, rng)
        else:
            room.handle(HOST, {"type": "skip"}, rng)
    assert room.phase() == "finished"
    events = room.handle(HOST, {"type": "again"}, rng)
    assert [e["type"] for e in events][:2] == ["again", "started"]
    assert events[1]["players"] == ["Aki", "CPU 1", "CPU 2"]
    assert room.phase() == "auction" and room.names == ["Aki"]
    assert room.public_view()["standings"][0]["net"] == 10_000


@pytest.mark.parametrize(("rolls", "out", "photo"), [
    ({"d12": 11, "d20": 10}, ["d20"], {"horses": ["d12", "d20"], "margin": 1}),
    ({"d12": 7, "d20": 7}, ["d20"], {"horses": ["d12", "d20"], "margin": 0}),
    ({"d12": 11, "d20": 3}, ["d20"], None),
])
def test_a_photo_finish_is_a_win_by_one_pip_or_a_tie(rolls: dict[str, int], out: list[str],
                                                     photo: dict[str, Any] | None) -> None:
    rounds = [{"round": 5, "rolloff": False, "kind": "drop", "rolls": rolls, "out": out,
               "leader": None}]
    got = photo_finish(rounds)
    if photo is None:
        assert got is None
    else:
        assert got is not None and {k: got[k] for k in photo} == photo


def test_payout_labels_are_words_in_both_languages() -> None:
    assert render(what_words("quinella d8-d10"), "ja") == "馬連 d8-d10"
    assert render(what_words("win d20"), "en") == "win d20"
    assert render(what_words("prize 1st (d20)"), "ja") == "馬主賞金 1着（d20）"


def test_a_seats_own_view_is_its_part_of_the_observation() -> None:
    room, _ = betting_room()
    state = room.state
    assert state is not None
    for i in range(state.num_players):
        assert state.own_view(i) == state.observation(i)["me"]
    assert EVENING.name == "derby_evening"


def test_every_player_has_racing_colours_of_their_own_by_seat_order() -> None:
    """Twelve players (the room's most): twelve different colours, the seats' first in
    the palette's order and the computers' after them, the same on every screen."""
    room = DerbyRoom.create({"races": 4}, 3)
    for name in ("Aki", "Ben", "Chie"):
        room.add_seat(name)
    room.handle(HOST, {"type": "start", "computers": 9}, np.random.default_rng(3))
    players = room.public_view()["players"]
    assert [p["colour"] for p in players] == list(OWNER_COLOURS)
    assert len(set(OWNER_COLOURS)) == 12
    phone = room.view(seat(1))
    assert [p["colour"] for p in phone["players"]] == list(OWNER_COLOURS)


def test_refusals_are_words_in_both_languages_and_never_echo_a_bid() -> None:
    room = DerbyRoom.create({"races": 4}, 2)
    room.add_seat("Aki")
    rng = np.random.default_rng(2)
    room.handle(HOST, {"type": "start", "computers": 1}, rng)
    refusals = []
    for intent in ({"type": "bid", "amount": 10_100}, {"type": "bid", "amount": 150},
                   {"type": "bid", "amount": "lots"},
                   {"type": "ticket", "kind": "win", "horses": ["d20"], "stake": 100}):
        with pytest.raises(RoomError) as info:
            room.handle(seat(0), intent, rng)
        refusals.append(info.value)
    for error in refusals:
        assert error.message is not None, str(error)
        english, japanese = render(error.message, "en"), render(error.message, "ja")
        assert english == str(error) and japanese != english
        assert all("\u3040" <= c <= "\u9fff" for c in japanese if c.isalpha() and
                   not c.isascii()), japanese
        for secret in ("10100", "10,100", "150"):  # the bid typed is never said back
            assert secret not in english and secret not in japanese
    assert "所持金" in render(refusals[0].message, "ja")
    assert render(refusals[3].message, "ja") == \
        "それができるのは投票の間だけです（いまはオークション）"


def test_no_tote_the_board_does_not_move_with_the_stakes() -> None:
    """docs/rules/derby.md, "no tote": fixed odds, the same before and after tickets, and
    no screen shows a stake but its holder's."""
    room = DerbyRoom.create({"races": 4}, 7)
    room.add_seat("Aki")
    rng = np.random.default_rng(7)
    room.handle(HOST, {"type": "start", "computers": 0}, rng)
    while room.phase() == "auction":
        room.handle(seat(0), {"type": "bid", "amount": 0}, rng)
    board = (room.public_view()["horses"], room.public_view()["board"])
    room.handle(seat(0), {"type": "ticket", "kind": "win", "horses": ["d4"], "stake": 4300},
                rng)
    assert (room.public_view()["horses"], room.public_view()["board"]) == board
    assert "4300" not in json.dumps(room.public_view())
