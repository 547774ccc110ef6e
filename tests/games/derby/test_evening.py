"""The Dice Derby evening as one protocol game: its phases, the conformance harness, what
each seat may see, the same books as the party's old flow for fixed seeds, and saves."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from raceday.core.errors import BetError, GameNotOverError, IllegalActionError, OptionsError
from raceday.core.events import Message
from raceday.core.protocol import CHANCE, HOST, TERMINAL
from raceday.games.derby.agents import Computer, computer_bets, computer_bid
from raceday.games.derby.evening import DONE, EVENING, EveningState
from raceday.games.derby.rules import FALL, DerbyOptions, DerbyState
from raceday.games.derby.session import (
    PHASE_AUCTION,
    PHASE_BETTING,
    PHASE_FINISHED,
    PHASE_RACING,
    Session,
)
from raceday.present import describe_action
from raceday.testing import check_random_games

THREE = ["Aki", "Ben", "Chie"]


def evening(**options: Any) -> EveningState:
    return EVENING.new_state({"players": THREE, "races": 4, **options})


def test_random_evenings_pass_the_conformance_harness() -> None:
    assert check_random_games(EVENING, games=2, full_games=1) == 2 * len(
        EVENING.harness_configs)


def test_options_are_one_model_with_the_old_messages() -> None:
    with pytest.raises(OptionsError, match="4 to 6 races"):
        EVENING.options({"races": 7})
    with pytest.raises(OptionsError, match="different from one another"):
        EVENING.options({"players": ["Aki", "aki"]})
    with pytest.raises(OptionsError, match="player kind must be one of"):
        EVENING.options({"players": [["Aki", "clever"]]})
    with pytest.raises(OptionsError, match="start_money"):
        EVENING.options({"start_money": True})  # true is not a number of yen
    with pytest.raises(OptionsError, match="multiple of the stake unit"):
        EVENING.options({"start_money": 150})
    names = [seat.name for seat in EVENING.options({"players": [" Aki ", ["B", "bold"]]}).players]
    assert names == ["Aki", "B"]


def test_the_phases_of_an_evening() -> None:
    state = evening()
    assert state.phase == PHASE_AUCTION and state.acting_players() == [0, 1, 2]
    with pytest.raises(GameNotOverError):
        state.outcome()
    # sealed bids in any order: Chie, then Aki; the lot waits for Ben
    state.apply_action_for(2, state.bid_action(2, 500))
    state.apply_action_for(0, state.bid_action(0, 1000))
    assert state.acting_players() == [1] and state.ledger.lots == []
    events = state.apply_action_for(1, state.bid_action(1, 0))
    lot = next(e for e in events if e.kind == "lot")
    assert lot["buyer"] == 0 and lot["price"] == 1000 and state.ledger.players[0].horse == 1
    assert state.acting_players() == [1, 2]  # an owner holds one die only
    # a tie is a chance node: a fair draw among the tied bidders
    state.apply_action_for(1, state.bid_action(1, 700))
    state.apply_action_for(2, state.bid_action(2, 700))
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(0, pytest.approx(0.5)), (1, pytest.approx(0.5))]
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "draw picks Ben", "draw picks Chie"]
    events = state.apply_action(1)
    assert state.ledger.players[2].horse == 2 and state.ledger.lots[-1].draw == 1
    # Ben alone may bid now; his last bid buys the d8 and the house runs the rest
    state.apply_action_for(1, state.bid_action(1, 100))
    assert state.phase == PHASE_BETTING and len(state.ledger.lots) == 6
    assert [lot.buyer for lot in state.ledger.lots] == [0, 2, 1, None, None, None]
    # tickets, then 'done' from everyone starts the race
    state.apply_action_for(1, state.ticket_action(1, "quinella", (6, 5), 300))
    state.apply_action_for(0, state.ticket_action(0, "win", (6,), 100))
    with pytest.raises(BetError, match="already holds 1 win"):
        state.ticket_action(0, "win", (5,), 100)
    for player in (0, 1, 2):
        state.apply_action_for(player, DONE)
    assert state.phase == PHASE_RACING and state.current_player() == CHANCE
    assert sum(p for _, p in state.chance_outcomes()) == 1
    rng = np.random.default_rng(3)
    while state.phase == PHASE_RACING:
        state.apply_action(state.sample_chance(rng).outcome)
    assert state.phase == PHASE_BETTING and state.ledger.race == 2
    assert state.last is not None and state.last["race"] == 1
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng).outcome)
        else:
            state.apply_action_for(state.acting_players()[-1], DONE)
    assert state.current_player() == TERMINAL and state.phase == PHASE_FINISHED
    out = state.outcome()
    assert out.termination == "money" and out.message is not None
    assert list(out.ranking) == [i for _, i, _ in state.ledger.standings()]


def test_refusals_name_the_problem_and_change_nothing() -> None:
    state = evening()
    before = state.to_json()
    with pytest.raises(BetError, match="multiples of 100"):
        state.bid_action(0, 150)
    with pytest.raises(BetError, match="cannot be more than that"):
        state.bid_action(0, 20_000)
    with pytest.raises(IllegalActionError, match="betting is not open"):
        state.apply_action_for(0, DONE)
    assert state.to_json() == before


def test_actions_have_names_and_messages() -> None:
    state = evening(start_money=300)
    names = [state.action_to_string(a) for a in state.legal_actions_for(0)]
    assert names == ["bid 0", "bid 100", "bid 200", "bid 300"]
    message = state.action_message(state.bid_action(0, 200))
    assert message.key == "derby.action.bid" and message.params["amount"] == 200
    assert "200" in describe_action(state, state.bid_action(0, 200))
    while state.phase == PHASE_AUCTION:
        for player in state.acting_players():
            state.apply_action_for(player, state.bid_action(player, 0))
    ticket = state.ticket_action(0, "quinella", (5, 6), 200)
    assert state.action_to_string(ticket) == "quinella d12-d20 200"
    assert state.action_message(ticket).params == {  # the kind in the reader's words
        "amount": 200, "kind": Message("derby.what.kind_quinella"), "horses": ["d12", "d20"]}


def _text(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def test_secrets_reach_only_their_own_seat() -> None:
    state = evening()
    state.apply_action_for(0, state.bid_action(0, 4200))
    for seat in (None, 1, 2):
        assert "4200" not in _text(state.observation(seat))
    assert state.observation(0)["me"]["sealed_bid"] == 4200
    assert state.observation(None)["players"][0]["sealed"] is True
    assert "me" not in state.observation(None)
    assert "seed" not in _text(state.observation(None))
    state.apply_action_for(1, state.bid_action(1, 0))
    state.apply_action_for(2, state.bid_action(2, 0))  # the bids are revealed with the lot
    assert state.observation(None)["lots"][0]["price"] == 4200
    while state.phase == PHASE_AUCTION:
        for player in state.acting_players():
            state.apply_action_for(player, state.bid_action(player, 0))
    state.apply_action_for(1, state.ticket_action(1, "quinella", (5, 6), 700))
    mine = state.observation(1)["me"]
    assert mine["money"] == 9300 and mine["tickets"][0]["label"] == "quinella d12-d20"
    for seat in (None, 0, 2):
        view = state.observation(seat)
        assert view["players"][1]["money"] == 10_000  # the stake does not show
        assert "d12-d20" not in _text(view) and "700" not in _text(view.get("me", {}))
        assert all("tickets" not in p for p in view["players"])


def test_a_random_evening_never_shows_a_seat_another_seats_secret() -> None:
    state = evening(borrowing=True)
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        for seat in range(3):
            me = state.observation(seat)["me"]
            assert me["seat"] == seat
            for other in (None, *(o for o in range(3) if o != seat)):
                view = state.observation(other)
                assert view.get("me", {}).get("seat") != seat
                public = view["players"][seat]
                assert public["money"] == state.shown_money(seat)
                assert set(public) == {"index", "name", "kind", "horse", "price", "prize",
                                       "loans", "money", "sealed", "done"}
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng).outcome)
            continue
        player = state.acting_players()[int(rng.integers(len(state.acting_players())))]
        actions = state.legal_actions_for(player)
        state.apply_action_for(player, actions[int(rng.integers(len(actions)))])


def _old_flow(options: dict[str, Any], roster: list[tuple[str, str]]) -> Session:
    """The party as the terminal played it before the evening was one state: the ledger
    driven directly, draws from the seed's generators, computers choosing as they did."""
    session = Session.new(EVENING.options(options), roster)
    seed = session.config.seed
    while session.phase == PHASE_AUCTION:
        post = session.next_lot
        assert post is not None
        bids = {i: computer_bid(session, i, post) for i in session.eligible_bidders()}
        session.auction_lot(bids, np.random.default_rng([seed, 0, post]))
    while session.phase != PHASE_FINISHED:
        for i in range(len(session.players)):
            for bet in computer_bets(session, i):
                session.place_ticket(i, bet.kind, bet.horses, bet.stake)
        session.close_betting()
        race = DerbyState(DerbyOptions(session.config.fall_rate))
        rng = np.random.default_rng([seed, session.race])
        while not race.is_terminal():
            race.apply_action(race.sample_chance(rng).outcome)
        first, second = race.winner(), race.second()
        assert first is not None and second is not None
        session.settle(first, second, race.first_out())
    return session


def _new_flow(options: dict[str, Any], roster: list[tuple[str, str]]) -> EveningState:
    """The same evening driven through the protocol state, with the same generators, its
    computers one :class:`Computer` agent choosing for whoever is to move."""
    state = EVENING.new_state({**options, "players": roster})
    s = state.ledger
    seed = state.options.seed
    agent = Computer()
    rng = None
    while not state.is_terminal():
        if not state.is_chance_node():
            if state.phase == PHASE_BETTING:
                rng = np.random.default_rng([seed, s.race])
            state.apply_action(agent.choose(state, np.random.default_rng(0)))
        elif state.phase == PHASE_AUCTION:
            assert s.next_lot is not None
            draw = state.sample_chance(np.random.default_rng([seed, 0, s.next_lot]))
            state.apply_action(draw.outcome)
        else:
            assert rng is not None
            state.apply_action(state.sample_chance(rng).outcome)
    return state


@pytest.mark.parametrize("options", [
    {"seed": 1},
    {"seed": 2, "fall_rate": "0.1", "simple_odds": True, "first_out_bonus": True},
    {"seed": 3, "races": 6, "owner_award": "net", "margin": "0.2"},
])
def test_the_same_books_as_the_old_flow_for_fixed_seeds(options: dict[str, Any]) -> None:
    roster = [(f"C{i}", ("cautious", "bold")[i % 2]) for i in range(7)]
    old = _old_flow(options, roster)
    new = _new_flow(options, roster)
    assert new.ledger.to_json() == old.to_json()
    assert [x.draw for x in old.lots] == [x.draw for x in new.ledger.lots]


def test_a_host_types_whole_rounds_checked_before_anything_changes() -> None:
    state = evening(host=True)
    while state.phase == PHASE_AUCTION:
        for player in state.acting_players():
            state.apply_action_for(player, state.bid_action(player, 0))
    for player in range(3):
        state.apply_action_for(player, DONE)
    before = state.to_json()
    assert state.legal_actions_for(HOST) == [FALL, 1, 2, 3, 4]  # the d4 rolls first
    with pytest.raises(IllegalActionError, match="5 is not on the d4: it shows 1 to 4"):
        state.apply_action_for(HOST, 5)
    with pytest.raises(IllegalActionError, match="5 is not on the d4: it shows 1 to 4"):
        state.enter_rolls([5, 1, 1, 1, 1, 1])
    with pytest.raises(IllegalActionError, match="'six' is not a number on a die"):
        state.enter_rolls(["4", "six", "F", "x", None, "1"])
    with pytest.raises(IllegalActionError, match="enter 6 numbers"):
        state.enter_rolls([1, 1])
    assert state.to_json() == before
    events = state.enter_rolls(["4", 6, "8", " 10", 12, "1"])  # as typed or sent
    assert [e["out"] for e in events if e.kind == "round"] == [["d20"]]
    events = state.enter_rolls([None, 2, 3, 4, 5])  # a fall although the rate is 0
    assert [e["out"] for e in events if e.kind == "round"] == [["d4"]]


def test_an_evening_round_trips_through_json_at_every_phase() -> None:
    state = evening(borrowing=True, fall_rate="1/20")
    rng = np.random.default_rng(11)
    while not state.is_terminal():
        again = EVENING.state_from_json(json.loads(json.dumps(state.to_json())))
        assert again == state and again.observation(0) == state.observation(0)
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng).outcome)
        else:
            player = state.acting_players()[0]
            actions = state.legal_actions_for(player)
            state.apply_action_for(player, actions[int(rng.integers(len(actions)))])


def test_the_evenings_own_events_and_actions_read_in_both_languages() -> None:
    from raceday.present import describe_event

    own = {"bid_sealed", "lot", "borrowed", "done_betting", "betting_open", "race_start",
           "quinella_paid", "settled", "finished"}
    state = evening(borrowing=True)
    rng = np.random.default_rng(4)
    seen: set[str] = set()
    while not state.is_terminal():
        if state.is_chance_node():
            events = state.apply_action(state.sample_chance(rng).outcome)
        else:
            player = state.acting_players()[0]
            actions = state.legal_actions_for(player)
            action = actions[int(rng.integers(len(actions)))]
            for lang in ("en", "ja"):
                text = describe_action(state, action, lang)
                assert "{" not in text and not text.startswith("derby."), text
            events = state.apply_action_for(player, action)
        for e in events:
            if e.kind in own:
                seen.add(e.kind)
                for lang in ("en", "ja"):
                    text = describe_event("derby", e, lang)
                    assert "{" not in text and not text.startswith("event."), text
    assert seen >= own - {"quinella_paid", "borrowed"}


def test_an_award_shared_names_everyone_sharing_it() -> None:
    """The finale's awards are the evening's facts: Aki and Ben both pay the top price of
    the auction, so the top bid is theirs together, not the first post's."""
    state = evening()
    for player, amount in ((0, 1000), (1, 0), (2, 0)):  # Aki buys the d4
        state.apply_action_for(player, state.bid_action(player, amount))
    for player, amount in ((1, 1000), (2, 0)):  # Ben buys the d6 at the same price
        state.apply_action_for(player, state.bid_action(player, amount))
    state.apply_action_for(2, state.bid_action(2, 300))  # Chie alone: the d8
    assert state.phase == PHASE_BETTING
    top = next(a for a in state.awards() if a["award"] == "top_bid")
    assert top["winners"] == [{"player": 0, "post": 1, "price": 1000},
                              {"player": 1, "post": 2, "price": 1000}]
