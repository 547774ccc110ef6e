"""The WielerSIM lesson's first race at the terminal: the step's route, watched.

``raceday learn wielersim`` ends with the lesson's play step (``lessons/basics.json``): a
short custom route and a small peloton. A WielerSIM race has no decisions for the rider to
take, so the terminal rides it as ``raceday wielersim watch`` does (turn by turn, the road,
the groups and the commentary, then the result); the lesson says so instead of hints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from raceday.core.events import Event
from raceday.core.lesson import Play
from raceday.terminal.surface import Surface

if TYPE_CHECKING:
    from raceday.games.wielersim.rules import WielersimState

ROAD_SQUARES = 22  # the road shown: an 80-column terminal holds it


def first_game(surface: Surface, play: Play, lang: str) -> None:
    """The step's race (``play.options``: its route and peloton) watched on ``surface``
    with a fresh seed."""
    from raceday.games.wielersim.cli import race_main
    from raceday.games.wielersim.game import GAME, WielersimOptions
    from raceday.games.wielersim.render import say
    from raceday.terminal.common import default_delay, fresh_seed

    state = GAME.new_state(WielersimOptions.parse(dict(play.options)))
    surface.say(say("first_game.watched", lang))
    race_main(state, fresh_seed(None), delay=default_delay(None))(surface)


def lesson_picture(state: WielersimState, lang: str) -> str:
    """A lesson step's board as plain text in ``lang``: the turn and the road around the
    front (ruler, marks, terrain, the six lanes and their riders)."""
    from raceday.games.wielersim.picture import draw_road
    from raceday.games.wielersim.render import say
    from raceday.games.wielersim.rules import OVER

    if state.phase == OVER:
        return say("lesson_board.over", lang, route=state.route.name)
    head = say("lesson_board.head", lang, route=state.route.name, turn=state.turn,
               finished=len(state.results), riders=state.n)
    if not state.on_road():
        return head
    return f"{head}\n{draw_road(state, ROAD_SQUARES, lang).plain}"


def lesson_event(event: Event) -> Event:
    """``event`` with its facts worded for a lesson's reader: why a throw is thrown, its
    dice and how a rider moved (``purpose.*``, ``dice.*``, ``how.follow``) and a sprint's
    line (``at.*``) by the tables' words, not their codes."""
    data = dict(event.data)
    for fact in ("purpose", "how"):
        code = data.get(fact)
        if isinstance(code, str):
            data[fact] = {"key": "how.follow" if code == "follow" else f"purpose.{code}"}
    die = data.get("die")  # a throw's dice: "3d6b2" reads "3 dice, best two"
    if isinstance(die, str):
        data["die"] = {"key": f"dice.{die}"}
    at = data.get("at")  # a sprint's line: "finish" or "sprint 2"
    if event.kind == "sprint" and isinstance(at, str):
        number = at.removeprefix("sprint ")
        data["at"] = ({"key": "at.sprint", "params": {"n": int(number)}} if number.isdigit()
                      else {"key": "at.finish"})
    return Event(event.kind, data)
