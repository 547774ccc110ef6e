"""The Dice Derby lesson's first game at the terminal: a short evening with hints.

``raceday learn derby`` ends with the lesson's play step (``lessons/basics.json``): the
terminal party of :mod:`raceday.games.derby.party` with the learner and one computer player
of the step's level, on the step's house rules. Hints are on: before each sealed bid the
party says what the die is worth to its owner, and before each round of tickets the ticket
that gives back most on average — both from the exact chances of
:mod:`raceday.games.derby.odds`, never a guess.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any

from raceday.core.lesson import Play
from raceday.games.derby.agents import expected_prizes
from raceday.games.derby.odds import ExactOdds, exact_odds, format_odds, pair_name
from raceday.games.derby.party import Party, new_party_name
from raceday.games.derby.render import words
from raceday.games.derby.rules import POSTS, horse_name
from raceday.terminal.surface import Surface


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def place_chances(odds: ExactOdds, post: int) -> tuple[Fraction, Fraction]:
    """The chances that ``post``'s horse finishes 1st and 2nd in a race."""
    first = odds.win[post]
    in_two = sum((p for pair, p in odds.quinella.items() if post in pair), Fraction(0))
    return first, in_two - first


def bid_hint(party: Party, post: int, lang: str) -> str:
    """One line: the die's chances of 1st and 2nd and what its owner's prizes are worth
    over the races left (the most a bid can cost and still pay back on average)."""
    session = party.session
    config = session.config
    first, second = place_chances(exact_odds(config.fall_rate), post)
    races = config.races - len(session.history)
    worth = expected_prizes(session, post)
    return words("first_game.hint_bid", lang, horse=horse_name(post), first=_percent(first),
                 second=_percent(second), per_race=round(worth / max(races, 1)),
                 races=races, worth=round(worth))


def best_ticket(party: Party) -> tuple[str, Fraction, int]:
    """The ticket that returns most per stake on average at this race's board: its name,
    its chance and its board odds (tenths). Ties: the likelier ticket."""
    session = party.session
    odds = exact_odds(session.config.fall_rate)
    board = session.board()
    offers: list[tuple[str, Fraction, int]] = [
        (f"win {horse_name(h)}", odds.win[h], board.win[h]) for h in POSTS]
    offers += [(f"q {pair_name(pair)}", odds.quinella[pair], tenths)
               for pair, tenths in board.quinella.items()]
    return max(offers, key=lambda offer: (offer[1] * offer[2], offer[1]))


def ticket_hint(party: Party, lang: str) -> str:
    """One line: the best-value ticket, its chance, fair odds against the board's, and what
    100 staked on it comes back as on average."""
    ticket, chance, tenths = best_ticket(party)
    return words("first_game.hint_ticket", lang, ticket=ticket, chance=_percent(chance),
                 fair=f"{float(1 / chance):.1f}", odds=format_odds(tenths),
                 back=round(chance * tenths * 10))


class HintedParty(Party):
    """The terminal party with a hint line before each of a person's decisions."""

    def _bid(self, i: int, post: int, *, again: bool = False) -> Any:
        if not again:
            self.say(bid_hint(self, post, self.lang))
        return super()._bid(i, post, again=again)

    def _tickets(self, i: int) -> None:
        self.say(ticket_hint(self, self.lang))
        super()._tickets(i)


def first_game(surface: Surface, play: Play, lang: str) -> None:
    """The lesson's evening on ``surface``: the learner and one computer player of
    ``play.level``, on ``play.options``, saved like any party (so ``raceday derby play
    --resume NAME`` goes on with it)."""
    from raceday.games.derby.evening import EveningState
    from raceday.games.derby.session import EveningOptions, Session
    from raceday.store.sessions import writable_store
    from raceday.terminal.common import default_delay, fresh_seed

    config = EveningOptions.parse({**play.options, "seed": fresh_seed(None)})
    roster = [(words("first_game.you", lang), "human"),
              (words("computer.name", lang, number=1), play.level)]
    state = EveningState.from_session(Session.new(config, roster))
    store = writable_store()
    name = new_party_name(store)
    surface.say(words("first_game.party", lang, name=name, races=config.races,
                      command=f"raceday derby play --resume {name}"))
    HintedParty(state, store, name, surface, None, delay=default_delay(None, 0.3),
                wait_after_race=sys.stdin.isatty()).run()
