"""Tickets, quoted odds and settlement (fixed odds and pools), independent of any prompt."""

from __future__ import annotations

import pytest

from raceday.games.keirin.betting import (
    Account,
    BetError,
    Ticket,
    check_affordable,
    fixed_return,
    format_money,
    parse_money,
    parse_ticket,
    quoted_odds,
    settle_pools,
    winning_selection,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("win 3 100", ("win", (3,), 10000)),
        ("W 3 2.5", ("win", (3,), 250)),
        ("exacta 4-3 50", ("exacta", (4, 3), 5000)),
        ("quinella 4=3 20", ("quinella", (3, 4), 2000)),  # unordered: stored ascending
        ("trifecta 4 3 5 1,000", ("trifecta", (4, 3, 5), 100000)),
        ("trio 7/2/5 0.01", ("trio", (2, 5, 7), 1)),
    ],
)
def test_parse_ticket(text: str, expected: tuple[str, tuple[int, ...], int]) -> None:
    assert parse_ticket(text, 9) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("win 10 5", "unknown rider '10'"),
        ("win 7 5", "unknown rider '7'"),  # a 6-rider race
        ("exacta 3 5", "names 2 riders"),
        ("exacta 3-3 5", "appears twice"),
        ("place 3 5", "unknown bet type"),
        ("win 3", "TYPE RIDERS STAKE"),
        ("win 3 lots", "not an amount"),
        ("win 3 -5", "more than 0"),
        ("win 3 1.005", "two decimals"),
        ("trio 1=2=x 5", "unknown rider 'x'"),
    ],
)
def test_malformed_tickets_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(BetError, match=message):
        parse_ticket(text, 6)


def test_money_round_trip() -> None:
    assert parse_money("10000") == 1_000_000
    assert format_money(1_234_550) == "12,345.50"
    assert format_money(-5) == "-0.05"


def test_winning_selections() -> None:
    result = [5, 2, 7, 1, 3, 4]
    assert winning_selection("win", result) == (5,)
    assert winning_selection("exacta", result) == (5, 2)
    assert winning_selection("quinella", result) == (2, 5)
    assert winning_selection("trifecta", result) == (5, 2, 7)
    assert winning_selection("trio", result) == (2, 5, 7)


def test_quoted_odds_are_fair_odds_times_one_minus_margin_rounded_down() -> None:
    assert quoted_odds(0.25, 0.0) == 400  # 4.00
    assert quoted_odds(0.25, 0.2) == 320  # 3.20
    assert quoted_odds(0.3, 0.0) == 333  # 3.333… quoted 3.33
    assert quoted_odds(0.0, 0.0) is None
    with pytest.raises(BetError):
        quoted_odds(0.5, 1.0)


def test_fixed_return_pays_stake_times_quoted_odds_to_the_cent() -> None:
    ticket = Ticket("Ann", "quinella", (2, 5), 1234, 1789)  # 12.34 at 17.89
    assert fixed_return(ticket, [5, 2, 1]) == 1234 * 1789 // 100  # 220.76 (220.7626 down)
    assert fixed_return(ticket, [5, 1, 2]) == 0


def test_pool_shares_net_pool_pro_rata_after_takeout() -> None:
    tickets = [
        Ticket("Ann", "win", (3,), 3000),
        Ticket("Bob", "win", (3,), 1000),
        Ticket("Cy", "win", (4,), 6000),
        Ticket("Cy", "exacta", (4, 3), 500),  # alone in its pool and wrong: refunded
    ]
    returns, pools = settle_pools(tickets, [3, 1, 4], takeout=0.2)
    # win pool 100.00, 20% takeout -> 80.00 shared by 40.00 on rider 3: 2.00 per unit
    assert returns[:3] == [6000, 2000, 0]
    assert pools["win"].dividend() == 2
    assert returns[3] == 500 and pools["exacta"].refunded


def test_pool_breakage_rounds_each_return_down() -> None:
    tickets = [Ticket("A", "trio", (1, 2, 3), 100), Ticket("B", "trio", (1, 2, 3), 200),
               Ticket("C", "trio", (4, 5, 6), 701)]
    returns, _ = settle_pools(tickets, [2, 3, 1], takeout=0.0)
    # 10.01 shared 1:2 -> 3.3366… and 6.6733… -> 3.33 and 6.67
    assert returns == [333, 667, 0]


def test_pool_with_no_winner_refunds_every_stake_without_takeout() -> None:
    tickets = [Ticket("A", "win", (1,), 700), Ticket("B", "win", (2,), 300)]
    returns, pools = settle_pools(tickets, [4, 1, 2], takeout=0.25)
    assert returns == [700, 300]
    assert pools["win"].refunded and pools["win"].dividend() is None


def test_no_debt_unless_allowed() -> None:
    acc = Account(bankroll=10_000)
    placed = [Ticket("A", "win", (1,), 9_000, 500)]
    check_affordable(acc, placed, 1_000, allow_debt=False)
    with pytest.raises(BetError, match=r"more than the 10\.00 left"):
        check_affordable(acc, placed, 1_001, allow_debt=False)
    check_affordable(acc, placed, 50_000, allow_debt=True)


def test_ticket_json_round_trip_and_bad_data() -> None:
    t = Ticket("Ann", "trifecta", (4, 3, 5), 250, 11282)
    assert Ticket.from_json(t.to_json()) == t
    for bad in ({"player": "A"}, {"player": "A", "kind": "win", "selection": [1, 2],
                                  "stake": 5, "odds": None}):
        with pytest.raises(BetError):
            Ticket.from_json(bad)
