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


def lesson_picture(state: Any, lang: str) -> str:
    """A lesson step's board as plain text in ``lang``: an evening's race, phase and each
    player's money and horse, and a race's furlong with one line a horse (post, die, where
    it stands)."""
    from raceday.games.derby.evening import EveningState
    from raceday.games.derby.rules import DerbyState

    if isinstance(state, EveningState):
        s = state.ledger
        lines = [words("lesson_board.evening", lang, race=s.race, races=state.options.races,
                       phase=words(f"phase.{s.phase}", lang))]
        for i, p in enumerate(s.players):
            money = f"{state.shown_money(i):,}"
            lines.append(words("lesson_board.player", lang, name=p.name, money=money,
                               horse=horse_name(p.horse)) if p.horse else
                         words("lesson_board.player_no_horse", lang, name=p.name,
                               money=money))
        if state.race is not None:
            lines.append(lesson_picture(state.race, lang))
        return "\n".join(lines)
    assert isinstance(state, DerbyState)
    return "\n".join([_race_head(state, lang), *_race_lines(state, lang)])


def _race_head(race: Any, lang: str) -> str:
    from raceday.games.derby.rules import place_message

    if not race.to_roll:
        return words("lesson_board.over", lang)
    if race.in_rolloff:
        return words("rolloff_head", lang, place=place_message(race.group_place))
    return words("round_head", lang, n=race.round)


def _race_lines(race: Any, lang: str) -> list[str]:
    from raceday.games.derby.rules import place_message

    lines = []
    for post in POSTS:
        if post in race.places:
            status = words("lesson_board.placed", lang, place=place_message(race.places[post]))
        elif post in race.rolls:
            value = race.rolls[post]
            status = (words("lesson_board.fell", lang) if value is None else
                      words("lesson_board.shows", lang, value=value))
        elif post == race.roller:
            status = words("lesson_board.rolls_next", lang)
        else:
            status = words("lesson_board.to_roll", lang)
        lines.append(f"{post} {horse_name(post):>3}  {status}")
    return lines
