"""Computer players for a Dice Derby party: a cautious and a bold style.

Both read the exact odds and the board. The cautious player bids about half of what a
horse is expected to earn in prizes; the bold player bids close to the expected prizes.

Betting (:func:`choose_bets`): every ticket on the board is valued by its expected return
per unit staked, ``p × board odds − 1``, with ``p`` the exact probability. Tickets are
ranked by that value plus a small seeded jitter (so two tickets of about equal value are
not always chosen the same way), positive-expectation tickets first. The race's budget is
a seeded share of the purse (cautious 4–8 %, bold 10–20 %), spread over the chosen tickets
by weight: a positive-expectation ticket weighs by its Kelly fraction (edge / (odds − 1))
and much more than a ticket with negative expectation, which only gets a token stake. The
cautious player also keeps to likely results (at least a 10 % chance). Stakes are whole
stake units and never add up to more than the purse. The jitter comes from the session's
seed, the race and the seat, so a resumed party replays the same tickets.

:class:`Computer` is the :class:`~raceday.core.agents.Agent` both faces drive (the
terminal party and the browser room): one action at a time, its sealed bid or its next
ticket and then 'done'; :func:`computer_turn` plays a computer's whole turn with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from raceday.core.agents import Agent
from raceday.core.errors import OptionsError
from raceday.core.events import Event
from raceday.core.protocol import Action, State
from raceday.games.derby.evening import DONE, EveningState
from raceday.games.derby.odds import ALL_PAIRS, ExactOdds, OddsBoard, exact_odds
from raceday.games.derby.rules import POSTS
from raceday.games.derby.session import PHASE_AUCTION, PHASE_BETTING, Session


@dataclass(frozen=True)
class Bet:
    """A ticket a computer player wants: kind, horses and stake."""

    kind: str
    horses: tuple[int, ...]
    stake: int


STYLES = {
    # share of expected prize money to bid, share of money per win stake, per quinella stake,
    # number of quinella tickets (the win and quinella shares are kept for the bids' sake)
    "cautious": (Fraction(1, 2), Fraction(1, 20), Fraction(1, 40), 1),
    "bold": (Fraction(9, 10), Fraction(3, 20), Fraction(1, 20), 3),
}


@dataclass(frozen=True)
class Policy:
    """How a style bets: budget range (share of the purse), quinella tickets, the least
    chance it backs, and how much seeded jitter it adds to a ticket's value."""

    budget: tuple[float, float]
    quinellas: int
    min_chance: float
    jitter: float


POLICIES = {
    "cautious": Policy(budget=(0.04, 0.08), quinellas=1, min_chance=0.10, jitter=0.04),
    "bold": Policy(budget=(0.10, 0.20), quinellas=3, min_chance=0.0, jitter=0.08),
}
TOKEN_WEIGHT = 0.02  # weight of a ticket with negative expectation (a Kelly weight is larger)


def expected_prizes(session: Session, post: int) -> Fraction:
    """Prize money the owner of ``post`` expects over the races still to run."""
    odds = exact_odds(session.config.fall_rate)
    top_two = sum((p for pr, p in odds.quinella.items() if post in pr), Fraction(0))
    second = top_two - odds.win[post]
    per_race = odds.win[post] * session.config.prize_first + second * session.config.prize_second
    races_left = session.config.races - len(session.history)
    return per_race * races_left


def style_of(kind: str) -> str:
    """A seat's betting style: its own (cautious or bold), a person's seat cautious."""
    return kind if kind in STYLES else "cautious"


def _round_down(amount: Fraction, unit: int) -> int:
    return int(amount // unit) * unit


def computer_bid(session: Session, player: int, post: int) -> int:
    """A sealed bid for the horse of ``post`` (0 = no bid)."""
    p = session.players[player]
    share = STYLES[style_of(p.kind)][0]
    bid = _round_down(expected_prizes(session, post) * share, session.config.stake_unit)
    return max(0, min(bid, p.money // 2 // session.config.stake_unit * session.config.stake_unit))


def ticket_values(odds: ExactOdds, board: OddsBoard) -> list[tuple[str, tuple[int, ...],
                                                                   float, float, int]]:
    """Every ticket on the board: (kind, horses, chance, expected return per unit − 1, odds
    in tenths)."""
    out: list[tuple[str, tuple[int, ...], float, float, int]] = []
    for h in POSTS:
        p = float(odds.win[h])
        out.append(("win", (h,), p, p * board.win[h] / 10 - 1, board.win[h]))
    for pr in ALL_PAIRS:
        p = float(odds.quinella[pr])
        out.append(("quinella", pr, p, p * board.quinella[pr] / 10 - 1, board.quinella[pr]))
    return out


def choose_bets(
    style: str,
    money: int,
    unit: int,
    odds: ExactOdds,
    board: OddsBoard,
    rng: np.random.Generator,
    *,
    win_limit: int = 1,
    quinella_limit: int = 3,
) -> list[Bet]:
    """The tickets a computer player of ``style`` buys with ``money`` (see the module doc)."""
    policy = POLICIES[style]
    if money < unit:
        return []
    lo, hi = policy.budget
    budget = money * float(rng.uniform(lo, hi))
    scored = []
    for kind, horses, p, edge, tenths in ticket_values(odds, board):
        if p < policy.min_chance and edge <= 0:
            continue
        scored.append((edge + float(rng.uniform(0, policy.jitter)), kind, horses, p, edge, tenths))
    scored.sort(key=lambda x: (-x[0], x[1], x[2]))
    limits = {"win": win_limit, "quinella": min(policy.quinellas, quinella_limit)}
    picked: list[tuple[str, tuple[int, ...], float]] = []
    for _, kind, horses, _p, edge, tenths in scored:
        if limits[kind] <= 0:
            continue
        limits[kind] -= 1
        odds_minus_one = max(tenths / 10 - 1, 0.1)
        weight = edge / odds_minus_one if edge > 0 else TOKEN_WEIGHT
        picked.append((kind, horses, weight))
    total = sum(w for _, _, w in picked) or 1.0
    # the budget is shared in proportion to weight (a positive edge takes the lion's share)
    spend = min(budget, money)
    bets: list[Bet] = []
    left = money
    for kind, horses, weight in picked:
        stake = max(unit, int(spend * weight / total) // unit * unit)
        if stake > left:
            stake = left // unit * unit
        if stake < unit:
            break
        bets.append(Bet(kind, horses, stake))
        left -= stake
    return bets


def computer_bets(session: Session, player: int, money: int | None = None) -> list[Bet]:
    """The tickets a computer player buys this race with ``money`` (default: what it holds
    now), never more than that."""
    p = session.players[player]
    rng = np.random.default_rng([session.config.seed, session.race, player, 7])
    return choose_bets(
        style_of(p.kind), p.money if money is None else money, session.config.stake_unit,
        exact_odds(session.config.fall_rate), session.board(), rng,
        win_limit=session.config.win_limit, quinella_limit=session.config.quinella_limit,
    )


class Computer:
    """A computer player of the evening as an :class:`~raceday.core.agents.Agent`, in the
    style of its seat (cautious or bold; a person's seat plays cautious). It sits at
    ``player`` (default: whoever is to move) and chooses one action at a time: in the
    auction its sealed bid; in betting its next ticket of the race's plan, then 'done'.
    Its choices come from the evening's seed, the race and the seat, not from ``rng``, so
    a resumed party replays them."""

    name = "computer"

    def __init__(self, player: int | None = None) -> None:
        self.player = player

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        if not isinstance(state, EveningState):
            raise OptionsError("this agent plays the Dice Derby evening only")
        player = state.current_player() if self.player is None else self.player
        s = state.ledger
        if state.phase == PHASE_AUCTION and s.next_lot is not None:
            return state.bid_action(player, computer_bid(s, player, s.next_lot))
        if state.phase != PHASE_BETTING:
            raise OptionsError("a computer bids in the auction and bets before a race")
        bought = s.tickets_of(player)
        purse = s.players[player].money + sum(t.stake for t in bought)  # before this race
        plan = computer_bets(s, player, purse)
        if len(bought) >= len(plan):
            return DONE
        bet = plan[len(bought)]
        return state.ticket_action(player, bet.kind, bet.horses, bet.stake)


def computer_turn(state: EveningState, player: int, agent: Agent,
                  rng: np.random.Generator) -> Iterator[tuple[Action, list[Event]]]:
    """Play ``player``'s whole turn with ``agent`` (its sealed bid for the die on offer, or
    its tickets and 'done' for this race): each action with the events it made, as it is
    applied. The turn ends when the player no longer acts on that die or race."""
    s = state.ledger
    turn = (s.phase, s.next_lot, s.race)
    for _ in range(state.options.quinella_limit + state.options.win_limit + 2):
        if player not in state.acting_players() or (s.phase, s.next_lot, s.race) != turn:
            return
        action = agent.choose(state, rng)
        yield action, state.apply_action_for(player, action)
    raise OptionsError(f"the computer at seat {player} would not end its turn")
