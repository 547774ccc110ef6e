"""KEIRIN's computer bettors (#48): legal tickets only, the generator decides a night, the
sharp level loses less a unit staked than the cautious one (exact), and a room's computer
seats and stand-ins buy so the night goes on without them waiting."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from raceday.core.errors import OptionsError
from raceday.games.keirin.agents import (
    LEVELS,
    Computer,
    computer_turn,
    favourite,
    plan_tickets,
    ticket_values,
)
from raceday.games.keirin.night import NIGHT, PHASE_TICKETS, NightOptions, NightState
from raceday.games.keirin.room import KeirinRoom
from raceday.rooms import JSON, Actor, RoomError

HOST = Actor.host()


def new_night(**options: Any) -> NightState:
    return NIGHT.new_state(NightOptions.parse(
        {"players": ["cautious", "sharp"], "riders": 6, "races": 4, **options}))


def play_night(night: NightState, seed: int) -> list[tuple[int, int, int]]:
    """The computers' whole night (cautious at seat 0, sharp at 1): every action they
    chose, each checked legal before it is applied, with the race it was for."""
    rng = np.random.default_rng(seed)
    agents = [Computer(level, seat) for seat, level in enumerate(LEVELS)]
    chosen: list[tuple[int, int, int]] = []
    for _ in range(10_000):
        if night.is_terminal():
            return chosen
        if night.is_chance_node():
            draw = night.sample_chance(rng)
            night.apply_action(draw.outcome, draw.detail)
            continue
        seat = night.acting_players()[0]
        action = agents[seat].choose(night, rng)
        ticket = night.ticket_of(action)
        if ticket is not None:
            night.check_ticket(seat, *ticket)  # the rules' own check: raises if illegal
            assert ticket[2] % 100 == 0 and ticket[2] >= 100  # whole money units
        chosen.append((night.race_number, seat, action))
        night.apply_action_for(seat, action)
    raise AssertionError("the night did not end")


@pytest.mark.parametrize("mode", ["fixed", "pool"])
def test_computers_buy_legal_tickets_within_their_purse_and_the_night_ends(mode: str) -> None:
    night = new_night(mode=mode, margin=0.1, bankroll=50_000)
    chosen = play_night(night, seed=3)
    assert night.is_terminal()
    for race in range(1, 5):  # each race: the cautious one ticket, the sharp up to three
        bought = [(s, a) for r, s, a in chosen if r == race and night.ticket_of(a)]
        assert sum(1 for s, _ in bought if s == 0) == 1
        assert 1 <= sum(1 for s, _ in bought if s == 1) <= 3
    assert all(a.bankroll >= 0 for a in night.accounts)


def test_the_generator_decides_the_night() -> None:
    same = [play_night(new_night(), seed=11) for _ in range(2)]
    other = play_night(new_night(), seed=12)
    assert same[0] == same[1]
    assert other != same[0]  # the stakes are seeded shares of the purse


def test_a_computer_never_stakes_more_than_it_has() -> None:
    night = new_night(bankroll=150)  # 1.50: room for one unit only
    for level, seat in (("cautious", 0), ("sharp", 1)):
        plan = plan_tickets(night, seat, level, np.random.default_rng(0))
        assert [p.stake for p in plan] == [100]
    broke = new_night(bankroll=99)
    assert plan_tickets(broke, 0, "sharp", np.random.default_rng(0)) == []


def test_the_cautious_computer_backs_the_favourite_to_win() -> None:
    night = new_night()
    kind, combo, chance, _ = favourite(night)
    plan = plan_tickets(night, 0, "cautious", np.random.default_rng(4))
    assert [(p.kind, p.riders) for p in plan] == [(kind, combo)]
    assert chance == max(night.odds.bet("win").values())


@pytest.mark.parametrize("margin", [0.0, 0.15])
def test_the_sharp_computer_loses_less_a_unit_than_the_cautious_one(margin: float) -> None:
    # exact: each ticket's expected return a unit is its chance times the board's odds;
    # every ticket the sharp computer buys is worth at least the cautious one's favourite
    night = new_night(margin=margin)
    value = {(k, c): v for k, c, _, v in ticket_values(night)}
    for seed in range(5):
        rng = np.random.default_rng(seed)
        cautious = plan_tickets(night, 0, "cautious", rng)
        sharp = plan_tickets(night, 1, "sharp", rng)
        worst_sharp = min(value[(p.kind, p.riders)] for p in sharp)
        assert worst_sharp >= value[(cautious[0].kind, cautious[0].riders)]
        assert worst_sharp == max(value.values()) or len(sharp) > 1
    best = max(value.values())
    assert best <= 1 - margin  # the board rounds down: no ticket is worth more than its price


def test_an_unknown_level_is_refused_by_name() -> None:
    with pytest.raises(OptionsError, match="no KEIRIN computer level 'bold'"):
        Computer("bold")
    with pytest.raises(OptionsError, match="no KEIRIN computer level"):
        plan_tickets(new_night(), 0, "pass", np.random.default_rng(0))


def test_a_computer_turn_ends_with_done() -> None:
    night = new_night()
    actions = [a for a, _ in computer_turn(night, 1, Computer("sharp", 1),
                                           np.random.default_rng(1))]
    assert actions[-1] == 0 and 1 in night.done and night.phase == PHASE_TICKETS


# --- the room ------------------------------------------------------------------------------
def room_with_computers(computers: int, **options: Any) -> tuple[KeirinRoom, np.random.Generator]:
    room = KeirinRoom.create({"races": 2, "riders": 6, **options}, 9)
    room.add_seat("Aki")
    rng = np.random.default_rng(9)
    room.handle(HOST, {"type": "start", "computers": computers}, rng)
    return room, rng


def test_room_computers_buy_as_betting_opens_and_the_night_goes_on() -> None:
    room, rng = room_with_computers(2)
    tv = room.view(HOST)
    assert [c["name"] for c in tv["computers"]] == ["CPU 1", "CPU 2"]
    assert [c["level"] for c in tv["computers"]] == ["cautious", "sharp"]
    assert [p["done"] for p in tv["players"]] == [False, True, True]  # they bought at once
    assert room.state is not None and len(room.state.tickets) >= 2  # sealed: only counted
    assert "tickets" not in str(tv["players"])
    room.handle(Actor.player(0), {"type": "done"}, rng)
    assert room.phase() == "racing"
    for _ in range(2000):  # the race and the next race's betting: the computers buy again
        if room.phase() == "betting":
            break
        room.handle(Actor.timeline(), {"type": "tick"}, rng)
    assert room.phase() == "betting" and room.view(HOST)["race"] == 2
    assert room.state is not None and sorted(room.state.done) == [1, 2]


def test_room_computers_survive_a_save_and_start_again() -> None:
    room, rng = room_with_computers(1, hints=True)
    again = KeirinRoom.from_json(room.to_json())
    assert again.hints and again.view(HOST)["computers"] == room.view(HOST)["computers"]
    room.handle(HOST, {"type": "finish"}, rng)
    events = room.handle(HOST, {"type": "again"}, rng)
    assert any(e["type"] == "started" for e in events)
    assert [c["name"] for c in room.view(HOST)["computers"]] == ["CPU 1"]


def test_room_refuses_too_many_computers_and_a_computers_name() -> None:
    room = KeirinRoom.create({"races": 1}, 1)
    room.add_seat("Aki")
    with pytest.raises(RoomError, match="computer bettors: 0 to 11"):
        room.handle(HOST, {"type": "start", "computers": 12}, np.random.default_rng(0))
    with pytest.raises(RoomError, match="'cpu 3' is a computer bettor's name"):
        room.add_seat("cpu 3")
    with pytest.raises(RoomError, match="hints must be true or false"):
        KeirinRoom.create({"hints": "yes"}, 1)


def hint_of(view: JSON) -> JSON | None:
    hint: JSON | None = view["me"].get("hint")
    return hint


def test_hints_show_the_favourite_to_a_phone_that_may_buy_only() -> None:
    room, rng = room_with_computers(1, hints=True)
    state = room.state
    assert state is not None
    hint = hint_of(room.view(Actor.player(0)))
    kind, combo, chance, price = favourite(state)
    assert hint is not None and hint["kind"] == kind and hint["riders"] == list(combo)
    assert hint["chance"] == f"{chance * 100:.1f}%" and hint["back"] == round(chance * price)
    assert "hint" not in str(room.view(HOST).get("me"))  # the TV has no hint
    room.handle(Actor.player(0), {"type": "done"}, rng)  # done: nothing more to buy
    assert room.phase() == "racing" and hint_of(room.view(Actor.player(0))) is None
    off, _ = room_with_computers(1)
    assert hint_of(off.view(Actor.player(0))) is None


@pytest.mark.parametrize("level", ["cautious", "sharp"])
def test_a_computer_stands_in_for_a_bettor_who_left(level: str) -> None:
    room = KeirinRoom.create({"races": 1, "riders": 6}, 2)
    for name in ("Aki", "Ben"):
        room.add_seat(name)
    rng = np.random.default_rng(2)
    room.handle(HOST, {"type": "start"}, rng)
    assert room.view(HOST)["levels"] == ["cautious", "sharp", "pass"]
    room.present = {0}  # as the server tells it: Ben's phone is gone
    room.handle(HOST, {"type": "replace", "seat": 1, "level": level}, rng)
    state = room.state
    assert state is not None and state.done == {1} and state.mine(1)  # Ben's stand-in bought
    room.handle(Actor.player(0), {"type": "done"}, rng)
    assert room.phase() == "racing"


def test_a_pool_nights_hint_names_the_favourite_without_odds() -> None:
    room, _ = room_with_computers(1, hints=True, mode="pool")
    hint = hint_of(room.view(Actor.player(0)))
    assert hint is not None and hint["kind"] == "win"
    assert hint["odds"] is None and hint["back"] is None  # no board in a pool
    assert float(hint["fair"]) > 1
