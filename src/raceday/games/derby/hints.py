"""A learner's hints in Dice Derby, from the rules' exact chances: one for a sealed bid, one
for a round of tickets.

Both faces of a lesson's first evening say them: the terminal party
(:mod:`raceday.games.derby.lesson_play`) before each of the learner's decisions, and a
browser room created with the option ``hints`` (:mod:`raceday.games.derby.room`) on the
phone of the seat that decides. Each hint is a :class:`~raceday.core.events.Message` of
the game's tables, built only from public facts (the house rules, the races run, the odds
board), never from another player's sealed bid or tickets.
"""

from __future__ import annotations

from fractions import Fraction

from raceday.core.events import Message
from raceday.games.derby.agents import expected_prizes
from raceday.games.derby.odds import ExactOdds, exact_odds, format_odds, pair_name
from raceday.games.derby.rules import POSTS, horse_name
from raceday.games.derby.session import Session


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def place_chances(odds: ExactOdds, post: int) -> tuple[Fraction, Fraction]:
    """The chances that ``post``'s horse finishes 1st and 2nd in a race."""
    first = odds.win[post]
    in_two = sum((p for pair, p in odds.quinella.items() if post in pair), Fraction(0))
    return first, in_two - first


def bid_hint(session: Session, post: int) -> Message:
    """The die's chances of 1st and 2nd and what its owner's prizes are worth over the
    races left (the most a bid can cost and still pay back on average)."""
    config = session.config
    first, second = place_chances(exact_odds(config.fall_rate), post)
    races = config.races - len(session.history)
    worth = expected_prizes(session, post)
    return Message("derby.first_game.hint_bid", {
        "horse": horse_name(post), "first": _percent(first), "second": _percent(second),
        "per_race": round(worth / max(races, 1)), "races": races, "worth": round(worth)})


def best_ticket(session: Session) -> tuple[str, tuple[int, ...], Fraction, int]:
    """The ticket that returns most per stake on average at this race's board: its kind
    (``win`` or ``quinella``), its posts, its chance and its board odds (tenths). Ties:
    the likelier ticket."""
    odds = exact_odds(session.config.fall_rate)
    board = session.board()
    offers: list[tuple[str, tuple[int, ...], Fraction, int]] = [
        ("win", (h,), odds.win[h], board.win[h]) for h in POSTS]
    offers += [("quinella", tuple(pair), odds.quinella[pair], tenths)
               for pair, tenths in board.quinella.items()]
    return max(offers, key=lambda offer: (offer[2] * offer[3], offer[2]))


def ticket_words(kind: str, posts: tuple[int, ...], *, typed: bool) -> str | Message:
    """How a hint names a ticket: as the terminal's command is typed (``win d20``,
    ``q d4-d6``) when ``typed``, else in the reader's words (``derby.what.*``)."""
    horses = horse_name(posts[0]) if kind == "win" else pair_name((posts[0], posts[1]))
    if typed:
        return f"{'win' if kind == 'win' else 'q'} {horses}"
    return Message(f"derby.what.{kind}", {"horses": horses})


def ticket_hint(session: Session, *, typed: bool = False) -> Message:
    """The best-value ticket (named as :func:`ticket_words` does), its chance, fair odds
    against the board's, what 100 staked on it comes back as on average, and whether that
    is a gain or a loss."""
    kind, posts, chance, tenths = best_ticket(session)
    back = round(chance * tenths * 10)
    # what that means for a newcomer: below 100, even the best ticket loses on average
    verdict = "pays" if back > 100 else "loses" if back < 100 else "evens"
    return Message("derby.first_game.hint_ticket", {
        "ticket": ticket_words(kind, posts, typed=typed), "chance": _percent(chance),
        "fair": f"{float(1 / chance):.1f}", "odds": format_odds(tenths), "back": back,
        "verdict": Message(f"derby.first_game.hint_ticket_{verdict}")})


__all__ = ["best_ticket", "bid_hint", "place_chances", "ticket_hint", "ticket_words"]
