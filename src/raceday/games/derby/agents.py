"""Computer players for a Dice Derby party: a cautious and a bold style.

Both read the exact odds and the board. The cautious player bids about half of what a
horse is expected to earn in prizes and bets small on the most likely results; the bold
player bids close to the expected prizes and bets larger on the best-value long shots.
Their choices are deterministic given the session, so a resumed party replays them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from raceday.games.derby.odds import ALL_PAIRS, Pair, exact_odds
from raceday.games.derby.rules import POSTS
from raceday.games.derby.session import Session


@dataclass(frozen=True)
class Bet:
    """A ticket a computer player wants: kind, horses and stake."""

    kind: str
    horses: tuple[int, ...]
    stake: int


STYLES = {
    # share of expected prize money to bid, share of money per win stake, per quinella stake,
    # number of quinella tickets
    "cautious": (Fraction(1, 2), Fraction(1, 20), Fraction(1, 40), 1),
    "bold": (Fraction(9, 10), Fraction(3, 20), Fraction(1, 20), 3),
}


def expected_prizes(session: Session, post: int) -> Fraction:
    """Prize money the owner of ``post`` expects over the races still to run."""
    odds = exact_odds(session.config.fall_rate)
    top_two = sum((p for pr, p in odds.quinella.items() if post in pr), Fraction(0))
    second = top_two - odds.win[post]
    per_race = odds.win[post] * session.config.prize_first + second * session.config.prize_second
    races_left = session.config.races - len(session.history)
    return per_race * races_left


def _round_down(amount: Fraction, unit: int) -> int:
    return int(amount // unit) * unit


def computer_bid(session: Session, player: int, post: int) -> int:
    """A sealed bid for the horse of ``post`` (0 = no bid)."""
    p = session.players[player]
    share = STYLES[p.kind][0]
    bid = _round_down(expected_prizes(session, post) * share, session.config.stake_unit)
    return max(0, min(bid, p.money // 2 // session.config.stake_unit * session.config.stake_unit))


def computer_bets(session: Session, player: int) -> list[Bet]:
    """The tickets a computer player buys this race (it stops when money runs short)."""
    p = session.players[player]
    share_win, share_quinella, quinellas = STYLES[p.kind][1:4]
    unit = session.config.stake_unit
    board = session.board()
    odds = exact_odds(session.config.fall_rate)
    bets: list[Bet] = []
    money = p.money

    def stake(share: Fraction) -> int:
        return max(unit, _round_down(share * p.money, unit))

    if p.kind == "cautious":
        win_pick = max(POSTS, key=lambda h: (odds.win[h], h))
        pairs: list[Pair] = sorted(ALL_PAIRS, key=lambda pr: -odds.quinella[pr])
    else:
        # the best expected return per unit staked, long shots first on equal value
        win_pick = max(POSTS, key=lambda h: (odds.win[h] * board.win[h], -h))
        pairs = sorted(ALL_PAIRS, key=lambda pr: -(odds.quinella[pr] * board.quinella[pr]))
    wanted = [Bet("win", (win_pick,), stake(share_win))][: session.config.win_limit]
    wanted += [
        Bet("quinella", pr, stake(share_quinella))
        for pr in pairs[: min(quinellas, session.config.quinella_limit)]
    ]
    for bet in wanted:
        if bet.stake <= money:
            bets.append(bet)
            money -= bet.stake
    return bets
