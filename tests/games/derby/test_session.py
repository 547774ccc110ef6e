"""Dice Derby session bookkeeping: auction, tickets, borrowing, payouts, prizes, awards."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from raceday.core.errors import OptionsError, SaveFormatError
from raceday.games.derby.agents import computer_bets, computer_bid, expected_prizes
from raceday.games.derby.evening import EveningState
from raceday.games.derby.saved import saved_evening
from raceday.games.derby.session import (
    PHASE_BETTING,
    PHASE_FINISHED,
    BetError,
    EveningOptions,
    Session,
)

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi"]


def new_session(players: int = 6, **config: object) -> Session:
    return Session.new(EveningOptions(**config), [(n, "human") for n in NAMES[:players]])  # type: ignore[arg-type]


def buy_all(session: Session) -> None:
    """Player i buys die i+1 for 1000 * (i+1) (the document's flow: die by die)."""
    rng = np.random.default_rng(0)
    for i in range(6):
        session.auction_lot({i: 1000 * (i + 1)}, rng)


def test_highest_sealed_bid_buys_and_pays() -> None:
    s = new_session()
    lot = s.auction_lot({0: 3000, 1: 3500, 2: 0}, np.random.default_rng(1))
    assert lot.buyer == 1 and lot.price == 3500  # the document's example
    assert s.players[1].money == 10_000 - 3500 and s.players[1].horse == 1
    assert s.next_lot == 2
    assert 1 not in s.eligible_bidders()
    with pytest.raises(BetError, match="already owns the d4"):
        s.check_bid(1, 100)


def test_tie_is_settled_by_a_fair_draw_that_is_recorded() -> None:
    winners = []
    for seed in range(200):
        s = new_session()
        lot = s.auction_lot({0: 2000, 3: 2000, 4: 1000}, np.random.default_rng(seed))
        assert lot.tied == (0, 3) and lot.draw in (0, 1)
        assert lot.buyer == lot.tied[lot.draw or 0]
        winners.append(lot.buyer)
    # a fair coin over 200 draws: each side wins at least 70 times except with
    # probability below 1e-4
    assert winners.count(0) >= 70 and winners.count(3) >= 70


def test_bad_bids_are_refused() -> None:
    s = new_session()
    with pytest.raises(BetError, match="cannot be more"):
        s.check_bid(0, 10_100)
    with pytest.raises(BetError, match="multiples of 100"):
        s.check_bid(0, 150)
    with pytest.raises(BetError, match="negative"):
        s.check_bid(0, -100)
    with pytest.raises(BetError):
        s.auction_lot({0: 20_000}, np.random.default_rng(0))
    assert s.lots == []


def test_a_die_nobody_bids_on_is_run_by_the_house_and_earns_no_prize() -> None:
    s = new_session(players=2)
    rng = np.random.default_rng(0)
    for post in range(1, 7):
        s.auction_lot({0: 500} if post == 6 else {}, rng)
    assert s.phase == PHASE_BETTING and s.owner_of(6) == 0 and s.owner_of(5) is None
    s.close_betting()
    record = s.settle(5, 6, [1])
    assert [(p.player, p.amount) for p in record.payouts] == [(0, 1000)]


def test_win_and_quinella_payouts_and_owner_prizes() -> None:
    s = new_session()
    buy_all(s)
    board = s.board()
    s.place_ticket(0, "win", [6], 500)
    s.place_ticket(1, "quinella", [6, 5], 300)
    s.place_ticket(1, "quinella", [4, 6], 300)
    s.place_ticket(2, "win", [5], 1000)
    assert s.players[0].money == 10_000 - 1000 - 500
    s.close_betting()
    assert [p.amount for p in s.quinella_payouts((5, 6))] == [300 * board.quinella[(5, 6)] // 10]
    record = s.settle(6, 5, [1])
    paid = {(p.player, p.what): p.amount for p in record.payouts}
    assert paid[(0, "win d20")] == 500 * board.win[6] // 10 == 1000  # 2.0 on the d20
    assert paid[(1, "quinella d12-d20")] == 300 * 44 // 10  # 4.4 on 5-6
    assert (2, "win d12") not in paid
    assert paid[(5, "prize 1st (d20)")] == 2000 and paid[(4, "prize 2nd (d12)")] == 1000
    assert s.players[0].money == 8500 + 1000
    assert s.players[5].money == 10_000 - 6000 + 2000 and s.players[5].prize == 2000
    assert s.players[1].money == 10_000 - 2000 - 600 + 1320
    assert s.race == 2 and s.tickets == []


def test_ticket_rules_limits_money_and_horses() -> None:
    s = new_session()
    buy_all(s)
    s.place_ticket(3, "win", [1], 100)
    with pytest.raises(BetError, match="limit per race is 1"):
        s.place_ticket(3, "win", [2], 100)
    for pair in ([1, 2], [1, 3], [1, 4]):
        s.place_ticket(3, "quinella", pair, 100)
    with pytest.raises(BetError, match="limit per race is 3"):
        s.place_ticket(3, "quinella", [5, 6], 100)
    with pytest.raises(BetError, match="holds"):
        s.place_ticket(0, "win", [6], 9100)  # Aki paid 1000 for the d4
    with pytest.raises(BetError, match="posts 1-6"):
        s.place_ticket(0, "win", [7], 100)
    with pytest.raises(BetError, match="two different"):
        s.place_ticket(0, "quinella", [6, 6], 100)
    with pytest.raises(BetError, match="multiple of 100"):
        s.place_ticket(0, "win", [6], 50)
    with pytest.raises(BetError, match="names 2 horses"):
        s.place_ticket(0, "quinella", [6], 100)
    s.close_betting()
    with pytest.raises(BetError, match="closed"):
        s.place_ticket(0, "win", [6], 100)


def test_custom_limits_apply() -> None:
    s = new_session(win_limit=2, quinella_limit=1)
    buy_all(s)
    s.place_ticket(0, "win", [1], 100)
    s.place_ticket(0, "win", [2], 100)
    s.place_ticket(0, "quinella", [1, 2], 100)
    with pytest.raises(BetError, match="limit per race is 1"):
        s.place_ticket(0, "quinella", [1, 3], 100)


def test_borrowing_lends_now_and_repays_more_at_the_end() -> None:
    s = new_session(borrowing=True)
    buy_all(s)
    s.borrow(0)
    assert s.players[0].money == 9000 + 10_000 and s.players[0].debt == 15_000
    with pytest.raises(BetError, match="limit is 1"):
        s.borrow(0)
    s.place_ticket(0, "win", [6], 15_000)  # more than Aki held before the loan
    assert s.players[0].net == 4000 - 15_000
    plain = new_session()
    with pytest.raises(BetError, match="not allowed"):
        plain.borrow(0)


def test_final_ranking_counts_money_after_loans_and_shares_ties() -> None:
    s = new_session(players=3, borrowing=True)
    s.players[0].money, s.players[1].money, s.players[2].money = 20_000, 12_000, 12_000
    s.players[0].debt = 15_000
    assert s.standings() == [(1, 1, 12_000), (1, 2, 12_000), (3, 0, 5_000)]


def test_owner_award_gross_or_net() -> None:
    s = new_session(owner_award="gross")
    buy_all(s)
    s.players[5].prize, s.players[0].prize = 6000, 4000  # d20 cost 6000, d4 cost 1000
    assert s.owner_award() == ([5], 6000)
    net = new_session(owner_award="net")
    buy_all(net)
    net.players[5].prize, net.players[0].prize = 6000, 4000
    assert net.owner_award() == ([0], 3000)


def test_first_out_bonus_changes_the_next_board_only_when_enabled() -> None:
    for enabled in (True, False):
        s = new_session(first_out_bonus=enabled)
        buy_all(s)
        before = s.board().win[2]
        s.close_betting()
        s.settle(6, 5, [2])
        after = s.board().win[2]
        assert (after > before) == enabled
        assert s.first_out_counts == {2: 1}


def test_session_ends_after_the_configured_races() -> None:
    s = new_session(races=4)
    buy_all(s)
    for race in range(1, 5):
        assert s.race == race and s.is_last_race == (race == 4)
        s.close_betting()
        s.settle(6, 5, [1])
    assert s.phase == PHASE_FINISHED
    with pytest.raises(BetError):
        s.close_betting()


def test_settings_are_validated() -> None:
    with pytest.raises(OptionsError, match="4 to 6 races"):
        EveningOptions(races=7)
    with pytest.raises(OptionsError, match="gross"):
        EveningOptions(owner_award="most")
    with pytest.raises(OptionsError, match="margin"):
        EveningOptions(margin="0.7")  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="different"):
        Session.new(EveningOptions(), [("Aki", "human"), ("aki", "human")])
    assert EveningOptions(fall_rate="0.05").fall_rate == Fraction(1, 20)  # type: ignore[arg-type]


def test_session_round_trips_through_json_and_refuses_bad_saves() -> None:
    s = new_session(borrowing=True, first_out_bonus=True)
    buy_all(s)
    s.borrow(2)
    s.place_ticket(2, "quinella", [3, 6], 700)
    again = Session.from_json(s.to_json())
    assert again.to_json() == s.to_json()
    s.close_betting()
    s.settle(3, 6, [1])
    again = Session.from_json(s.to_json())
    assert again.to_json() == s.to_json()
    bad = s.to_json()
    bad["phase"] = "dancing"
    with pytest.raises(SaveFormatError):
        Session.from_json(bad)
    bad = s.to_json()
    del bad["players"][0]["money"]
    with pytest.raises(SaveFormatError):
        Session.from_json(bad)


def test_computer_players_bid_within_means_and_bet_within_limits() -> None:
    s = Session.new(EveningOptions(), [("C", "cautious"), ("B", "bold")])
    # the d20 owner expects more prize money than the d4 owner
    assert expected_prizes(s, 6) > expected_prizes(s, 1)
    cautious, bold = computer_bid(s, 0, 6), computer_bid(s, 1, 6)
    assert 0 < cautious < bold <= s.players[1].money
    assert cautious % 100 == 0 and bold % 100 == 0
    rng = np.random.default_rng(0)
    for _ in range(6):
        s.auction_lot({}, rng)
    for i in (0, 1):
        bets = computer_bets(s, i)
        assert sum(b.kind == "win" for b in bets) <= 1
        assert sum(b.kind == "quinella" for b in bets) <= 3
        for b in bets:
            s.place_ticket(i, b.kind, b.horses, b.stake)
    assert s.players[1].money < s.players[0].money  # the bold player stakes more
    s.players[0].money = 0
    assert computer_bets(s, 0) == []


def test_all_computer_sessions_keep_the_books_straight(tmp_path: object) -> None:
    import io
    from pathlib import Path

    from rich.console import Console

    from raceday.games.derby.party import Party
    from raceday.store.sessions import SessionStore
    from raceday.terminal.surface import LineSurface

    assert isinstance(tmp_path, Path)
    store = SessionStore(tmp_path / "auto.sqlite")
    variants = [
        {"seed": 1},
        {"seed": 2, "fall_rate": "0.1", "simple_odds": True, "first_out_bonus": True},
        {"seed": 3, "races": 6, "owner_award": "net", "margin": "0.2"},
    ]
    for k, options in enumerate(variants):
        config = EveningOptions(**options)  # type: ignore[arg-type]
        roster = [(f"C{i}", ("cautious", "bold")[i % 2]) for i in range(7)]
        session = Session.new(config, roster)
        out = Console(file=io.StringIO(), width=100)
        Party(EveningState.from_session(session), store, f"auto{k}", LineSurface(out)).run()
        done = saved_evening(store, f"auto{k}").ledger
        assert done.phase == PHASE_FINISHED and len(done.history) == config.races
        assert sorted(p.horse for p in done.players if p.horse) == [1, 2, 3, 4, 5, 6]
        for i, p in enumerate(done.players):
            assert p.money >= 0
            stakes = sum(t.stake for r in done.history for t in r.tickets if t.player == i)
            paid = sum(x.amount for r in done.history for x in r.payouts if x.player == i)
            assert p.money == config.start_money - p.price - stakes + paid
            for r in done.history:
                mine = [t for t in r.tickets if t.player == i]
                assert sum(t.kind == "win" for t in mine) <= config.win_limit
                assert sum(t.kind == "quinella" for t in mine) <= config.quinella_limit
        # prizes: each race pays exactly one 1st and one 2nd prize (every die is owned)
        prizes = sum(p.prize for p in done.players)
        assert prizes == config.races * (config.prize_first + config.prize_second)
        assert "Owners' award" in out.file.getvalue()  # type: ignore[attr-defined]
