"""Hairpin's saved games as records (:mod:`raceday.core.record`).

A Hairpin game is saved, exported and resumed as its record: the options, the two seats
(Red then Black: ``human`` or a computer's name, the name ``--players`` takes), the moves
and the seeded generator. :func:`convert` reads a document saved before records (``state``,
``red``, ``black``, ``moves``, ``undo``, ``rng``): the moves it kept are played again from
the start of its rules and setup rolls, so the converted record has every move; where
they do not give the saved position (a game begun from a given position, a save without
its moves) the saved position is the record's ``Start``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from raceday.core.errors import RacedayError, SaveFormatError
from raceday.core.protocol import CHANCE
from raceday.core.record import Move, Record, Recorder, RecordError
from raceday.games.hairpin.game import GAME
from raceday.games.hairpin.rules import HairpinState
from raceday.store.records import SavedGame, load_game

if TYPE_CHECKING:
    from raceday.store.sessions import SessionStore

SAVE_KIND = GAME.name  # the store's key of Hairpin's sessions
HUMAN = "human"
SIDES = ("Red", "Black")  # the seats' names (the sides' colours, as a room names them)


def seats(red: str, black: str) -> list[dict[str, str]]:
    """The ``Seats`` tag of a game between ``red`` and ``black`` (``human`` or a computer)."""
    return [{"name": SIDES[0], "player": red}, {"name": SIDES[1], "player": black}]


def sides(record: Record) -> tuple[str, str]:
    """Who plays Red and Black in ``record`` (``human`` or a computer's name); a record
    without seats is between two people. :class:`RecordError` for a computer no one knows."""
    from raceday.games.hairpin.agents import make_agent

    players = [seat["player"] for seat in record.seats] or [HUMAN, HUMAN]
    if len(players) != 2:
        raise RecordError(f"a Hairpin game has two seats, Red and Black; the Seats tag has "
                          f"{len(players)}", record.line)
    for player in players:
        if player.strip().lower() != HUMAN:
            try:
                make_agent(player)
            except RacedayError as exc:
                raise RecordError(f"the Seats tag: {exc}", record.line) from None
    return players[0], players[1]


def options_of(state: HairpinState) -> dict[str, Any]:
    """The ``Options`` a game with ``state``'s rules is started with."""
    return {"variant": state.rules.variant_name()}


def recorder_for(state: HairpinState, red: str, black: str, *,
                 options: Mapping[str, Any] | None = None, seed: int | None = None,
                 name: str | None = None) -> Recorder:
    """A recorder for a game that starts at ``state``: its options (by default those of
    its rules), and ``state`` as the record's ``Start`` unless the options begin there."""
    chosen = dict(options) if options is not None else options_of(state)
    begins = GAME.new_state(chosen).to_json() == state.to_json()
    tags: dict[str, Any] = {"Face": "terminal"}
    if name is not None:
        tags["Name"] = name
    return Recorder(SAVE_KIND, chosen, seats=seats(red, black), seed=seed, tags=tags,
                    start=None if begins else state)


def convert(document: Mapping[str, Any]) -> Record:
    """The record of a Hairpin document saved before records (see the module docstring)."""
    final = HairpinState.from_json(document["state"])
    red, black = (str(document.get(side, HUMAN)) for side in ("red", "black"))
    moves = [m for m in document.get("moves", []) if isinstance(m, Mapping)]
    recorder = recorder_for(final, red, black)
    played = _played_again(final, moves) if moves else None
    if played is None:
        recorder.tags.setdefault("Start", final.to_json())
    else:
        recorder.tags.pop("Start", None)
        recorder.moves = played
    record = Record(dict(recorder.tags), list(recorder.moves))
    record.tags.pop("Started", None)  # not known: the save did not keep it
    rng = document.get("rng")
    if isinstance(rng, Mapping) and rng:
        record.tags["Generator"] = dict(rng)
    record.tags["Result"] = "*"
    return record


def _played_again(final: HairpinState, moves: Sequence[Mapping[str, Any]]
                  ) -> list[Move] | None:
    """The old save's moves as a record's, from the start of ``final``'s rules with its
    setup rolls, if they give ``final``; else None."""
    state = GAME.new_state(options_of(final))
    out: list[Move] = []
    for roll in final.setup_rolls:
        if not state.is_chance_node() or roll not in dict(state.chance_outcomes()):
            return None
        out.append(Move(CHANCE, state.action_to_string(roll)))
        state.apply_action(roll)
    for entry in moves:
        if state.is_chance_node() or state.is_terminal() \
                or state.position.ply != entry.get("ply"):
            return None
        named = [a for a in state.legal_actions()
                 if state.action_to_string(a) == entry.get("move")]
        if len(named) != 1:
            return None
        out.append(Move(state.current_player(), state.action_to_string(named[0])))
        state.apply_action(named[0])
    return out if state.to_json() == final.to_json() else None


def load(store: SessionStore, name: str) -> SavedGame:
    """The saved Hairpin game ``name`` (a record, or a document from before records);
    :class:`SaveFormatError` names what is wrong with a damaged one."""
    saved = load_game(store, SAVE_KIND, name, convert)
    if saved.record.game != SAVE_KIND:
        raise SaveFormatError(f"saved session {name!r} is a record of {saved.record.game}, "
                              "not of hairpin")
    return saved


def final_state(saved: SavedGame) -> HairpinState:
    """The position after the last move of a saved game."""
    state = saved.state()
    if not isinstance(state, HairpinState):
        raise SaveFormatError("the saved game is not a Hairpin game")
    return state
