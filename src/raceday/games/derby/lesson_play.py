"""The Dice Derby lesson's first game at the terminal: a short evening with hints.

``raceday learn derby`` ends with the lesson's play step (``lessons/basics.json``): the
terminal party of :mod:`raceday.games.derby.party` with the learner and one computer player
of the step's level, on the step's house rules. Hints are on: before each sealed bid the
party says what the die is worth to its owner, and before each round of tickets the ticket
that gives back most on average — both from the exact chances of
:mod:`raceday.games.derby.odds`, never a guess (:mod:`raceday.games.derby.hints`, which a
browser room with hints shows on the learner's phone too).
"""

from __future__ import annotations

import sys
from typing import Any

from raceday.core.events import Message
from raceday.core.lesson import Play
from raceday.games.derby.hints import bid_hint, ticket_hint
from raceday.games.derby.party import Party, new_party_name
from raceday.games.derby.render import words
from raceday.games.derby.rules import POSTS, horse_name
from raceday.present import render
from raceday.terminal.surface import Surface


def _hint(advice: Message, lang: str) -> str:
    """One line: "Hint:" and the advice, in ``lang``."""
    return render(Message("derby.first_game.hint", {"hint": advice}), lang)


class HintedParty(Party):
    """The terminal party with a hint line before each of a person's decisions."""

    def _bid(self, i: int, post: int, *, again: bool = False) -> Any:
        if not again:
            self.say(_hint(bid_hint(self.session, post), self.lang))
        return super()._bid(i, post, again=again)

    def _tickets(self, i: int) -> None:
        self.say(_hint(ticket_hint(self.session, typed=True), self.lang))
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
