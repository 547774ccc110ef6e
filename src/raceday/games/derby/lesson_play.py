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
