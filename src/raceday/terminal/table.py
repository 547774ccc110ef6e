"""A game at the terminal on the session kit: what a game's terminal face declares, and the
loop every such face shares.

As a room declares only what is its own on the room kit (:mod:`raceday.rooms`), a terminal
face subclasses :class:`TurnTable` and declares its game, its computer levels, how a seat is
named and how its board is drawn. The kit does the rest on a
:class:`~raceday.terminal.session.GameSession`: chance drawn with the one seeded generator,
computers thinking off the main thread, the people at the keyboard choosing from the menu
of legal moves (``undo`` takes back their last move and the answers after it), the record
written as the game is played and saved after every move a person makes, and the end.
Full screen and ``--plain`` come from :func:`raceday.terminal.tui.run_command`, so a plugin
game gets all of it by declaring the same few things (docs/adding-a-game.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Self

from rich.text import Text

from raceday.core.agents import Agent
from raceday.core.digits import ascii_int
from raceday.core.events import Event, Message
from raceday.core.game import AnyGame
from raceday.core.record import RecordError
from raceday.present import describe_action, describe_event, describe_outcome, render
from raceday.terminal.common import DIGITS_ONLY, foreign_digits
from raceday.terminal.session import GameSession
from raceday.terminal.surface import UNDO, Board, Choice, Prompt, Quit, Surface

if TYPE_CHECKING:
    from raceday.store.sessions import SessionStore

HUMAN = "human"


class TurnTable:
    """One game at one terminal (see the module docstring). A game declares the class
    attributes and :meth:`make_agent`, :meth:`board`; it may word its prompts with keys of
    its own (``choose_key``, ``hand_over_key``, ``not_a_choice_key``, ``you_are_key``:
    each gets ``name``) and override :meth:`seat_name` and :meth:`turn_status`."""

    game: ClassVar[AnyGame]
    levels: ClassVar[tuple[str, ...]] = ()
    history: ClassVar[str] = "table"  # the prompt's history (line editing)
    choose_key: ClassVar[str] = "terminal.table.choose"
    hand_over_key: ClassVar[str] = "terminal.table.hand_over"
    not_a_choice_key: ClassVar[str] = "terminal.table.not_a_choice"
    you_are_key: ClassVar[str] = "terminal.table.you_are"

    def __init__(self, session: GameSession, seats: Sequence[str], lang: str,
                 delay: float = 0.0) -> None:
        self.session = session
        self.seats = list(seats)
        self.lang = lang
        self.delay = delay
        self.agents: dict[int, Agent] = {p: self.make_agent(seat)
                                         for p, seat in enumerate(self.seats) if seat != HUMAN}
        self.humans = [p for p, seat in enumerate(self.seats) if seat == HUMAN]

    @classmethod
    def resumed(cls, path: str | Path, lang: str, delay: float = 0.0, *,
                store: SessionStore | None = None, name: str | None = None) -> Self:
        """The game of the record file ``path``, going on where it stops (the seats as
        the record names them; saved as ``name`` in ``store`` from now on)."""
        session = GameSession.from_file(path, cls.game.name)
        seats = [str(seat["player"]) for seat in session.recorder.tags.get("Seats") or []]
        if not seats:
            raise RecordError(f"{path} names no seats (the Seats tag): who plays is unknown")
        for seat in seats:
            if seat != HUMAN and seat not in cls.levels:
                raise RecordError(f"{path}: no computer plays at the level {seat!r} here "
                                  f"(levels: {', '.join(cls.levels)})")
        session.store, session.name = store, name
        return cls(session, seats, lang, delay)

    # --- what a game declares ------------------------------------------------------------
    def make_agent(self, level: str) -> Agent:
        """The computer player of ``level``."""
        raise NotImplementedError

    def board(self, surface: Surface) -> Board:
        """The board now (drawn from the state's frame)."""
        raise NotImplementedError

    def seat_name(self, player: int) -> Any:
        """How the words name ``player`` (a text, or a message worded in the table's
        language)."""
        return render("terminal.table.player", self.lang, params={"n": player + 1})

    def turn_status(self) -> str | None:
        """The full screen's status line while the players choose (None: whose turn)."""
        return None

    # --- the kit ---------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.session.state

    def say(self, message: Message | str, **params: Any) -> str:
        """A message of the game's table (or the kit's) in the table's language."""
        return render(message, self.lang, self.game.name, params)

    def show_events(self, surface: Surface, events: list[Event]) -> None:
        for event in events:
            surface.say(Text(describe_event(self.game.name, event, self.lang)))
        surface.pause(self.delay)

    def show_board(self, surface: Surface, status: str | None = None) -> None:
        surface.board(self.board(surface), status if surface.full_screen else None)

    def ask(self, surface: Surface, player: int) -> int | None:
        """The move of a person at the keyboard, chosen by its number in the menu of legal
        moves; None when they typed ``undo``."""
        actions = self.state.legal_actions_for(player)
        labels = [describe_action(self.state, action, self.lang) for action in actions]
        if not surface.full_screen:
            for number, label in enumerate(labels, start=1):
                surface.say(Text(f"  {number}. {label}"))
        question = self.say(self.choose_key, name=self.seat_name(player))
        prompt = Prompt(question + " ", choices=[Choice(str(n), f"{n}. {label}")
                                                 for n, label in enumerate(labels, start=1)],
                        secret=len(self.humans) > 1, history=self.history,
                        undo=self.session.can_undo())
        if surface.full_screen:
            surface.status(question)
        while True:
            text = surface.ask(prompt)
            if text == UNDO:
                return None
            if foreign_digits(text):
                surface.say(Text(DIGITS_ONLY))
                continue
            chosen = ascii_int(text)
            if chosen is not None and 1 <= chosen <= len(actions):
                return int(actions[chosen - 1])
            surface.say(Text(self.say(self.not_a_choice_key)))

    def turn(self, surface: Surface) -> None:
        """Every player who acts now, in seat order (a sealed choice shown to nobody else),
        after one look at the board."""
        self.show_board(surface, self.turn_status())
        for player in self.state.acting_players():
            if player not in self.state.acting_players():
                continue  # the game moved on without them
            agent = self.agents.get(player)
            if agent is not None:
                action = self.session.think(agent).result()
                self.show_events(surface, self.session.move(player, action))
                continue
            if len(self.humans) > 1:
                surface.say(Text(self.say(self.hand_over_key, name=self.seat_name(player))))
            chosen = self.ask(surface, player)
            if chosen is None:
                self.undo(surface)
                return
            self.show_events(surface, self.session.move(player, chosen, undoable=True))
            self.session.save()

    def undo(self, surface: Surface) -> None:
        """Take back the last move made at the keyboard (and everything after it)."""
        if not self.session.can_undo():
            surface.say(Text(self.say("terminal.table.nothing_to_undo")))
            return
        self.session.undo()
        surface.say(Text(self.say("terminal.table.undone")))
        self.session.save()

    def main(self, surface: Surface) -> int:
        """The whole game on ``surface`` (saved as it goes when the session has a name)."""
        if self.session.revision is None:
            self.session.save()  # a name already taken is refused before any move
        if len(self.humans) == 1:
            surface.say(Text(self.say(self.you_are_key, name=self.seat_name(self.humans[0]))))
        try:
            while not self.state.is_terminal():
                if self.state.is_chance_node():
                    self.show_events(surface, self.session.draw())
                else:
                    self.turn(surface)
        except (Quit, EOFError):
            self.session.save()  # what was played stays saved
            raise
        self.session.save()
        result = describe_outcome(self.game.name, self.state.outcome(), self.lang)
        self.show_board(surface, result)
        surface.say(Text(result, style="bold"))
        return 0


def seats_tag(names: Sequence[str], seats: Sequence[str]) -> list[dict[str, str]]:
    """The record's Seats: each seat's name and who plays it (``human`` or a level)."""
    return [{"name": name, "player": seat} for name, seat in zip(names, seats, strict=True)]
