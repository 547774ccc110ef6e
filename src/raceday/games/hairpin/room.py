"""Hairpin Racers in a browser room: a game on one screen, on two devices, or against the
computer, declared on the room kit's :class:`~raceday.rooms.TurnRoom`.

The kit runs the lobby, the places (Red and Black: a human or a computer level; a phone
that joins takes the first human place still free, the host screen plays the others), the
random setup's rolls, the computer's moves, a racer's only legal move (a pit re-entry, the
v1 skip), undo in a game against the computer, and the save. This module declares what is
Hairpin's own: the options, the levels, how a refusal names a side, and the view's board,
moves (each from the state's :meth:`~raceday.games.hairpin.rules.HairpinState.action_message`,
with its decisive-bump warning as a fact) and result (from the outcome's termination).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from raceday.core.events import Message
from raceday.core.game import GameOptions
from raceday.games.hairpin.agents import LEVELS, make_agent
from raceday.games.hairpin.game import GAME, HairpinOptions
from raceday.games.hairpin.rules import PLAYER_NAMES, HairpinState
from raceday.present import refusal
from raceday.rooms import (
    HUMAN,
    JSON,
    UNDO_VS_COMPUTER,
    Actor,
    RoomError,
    TurnRoom,
    check_kinds,
)


class HairpinRoom(TurnRoom[HairpinState]):
    """A Hairpin Racers game for a browser room (see the module docstring)."""

    game: ClassVar[str] = "hairpin"
    GAME = GAME
    title: ClassVar[str] = "Hairpin Racers"
    options_title: ClassVar[str] = "Hairpin"
    max_seats: ClassVar[int] = 2
    LEVELS: ClassVar[tuple[str, ...]] = tuple(LEVELS)
    OPTION_NAMES: ClassVar[tuple[str, ...]] = ("variant", "position", "red", "black")
    undo_rule: ClassVar[str] = UNDO_VS_COMPUTER
    over_days: ClassVar[bool] = True  # the host may choose a game played over days
    hint_level: ClassVar[str | None] = "medium"  # option hints: the greedy move, at once
    # a computer's move comes on the room's timeline, a pace after the move before it, so
    # every screen sees each move in turn with "thinking" between
    paced_computers: ClassVar[bool] = True
    WIRE_NAMES: ClassVar[Mapping[str, Mapping[str, str]]] = {"move": {"how": "kind"}}
    default_pace: ClassVar[float] = 0.8
    agent_maker = staticmethod(make_agent)
    recent_limit: ClassVar[int] = 8
    options: HairpinOptions

    @classmethod
    def read_options(cls, options: Mapping[str, Any]) -> tuple[GameOptions, list[str]]:
        kinds = check_kinds([options.get("red", HUMAN), options.get("black", "medium")],
                            cls.LEVELS, 2, 2, "red and black")
        engine: dict[str, Any] = {"variant": options.get("variant", "standard")}
        if options.get("position") is not None:
            engine["position"] = options["position"]
        return HairpinOptions.parse(engine), kinds

    def player_name(self, player: int) -> str:
        return PLAYER_NAMES[player].capitalize()

    def illegal_action(self, state: HairpinState, action: int) -> str:
        """Refuses in words from the game's table (raised here, so the reader's language
        words it; the kit would raise the returned text in English only)."""
        names = ", ".join(state.action_to_string(a) for a in state.legal_actions())
        raise refusal(RoomError, "hairpin.refusal.illegal_move", names=names)

    def _pop_undo(self, events: list[JSON]) -> None:
        """Take a move back and keep the list of moves before it: the moves recorded
        after the restored position (its ply) leave the list, the older ones stay."""
        kept = self.recent
        super()._pop_undo(events)
        assert self.state is not None
        ply = self.state.position.ply
        self.recent = [e for e in kept if isinstance(e.get("ply"), int) and e["ply"] <= ply]

    def player_card(self, player: int) -> JSON:
        """On the finale a place without a name of its own is its colour (not "player 1")."""
        card = super().player_card(player)
        if card["who"] is not None and self.places.kinds[player] == HUMAN:
            card["who"] = Message(f"hairpin.hp_{PLAYER_NAMES[player]}").to_json()
        return card

    def started_facts(self) -> JSON:
        return {"variant": self.options.variant}

    def remembers(self, data: JSON) -> bool:
        return bool(data["type"] == "move")

    # --- views ---------------------------------------------------------------------------------
    def lobby_view(self, actor: Actor) -> JSON:
        rules = self.options.rules()
        return {"variant": self.options.variant,
                "rules": {"target": rules.target, "bumping": rules.bumping,
                          "derby": rules.derby, "v1": rules.v1,
                          "random": rules.setup == "random", "quiet_limit": rules.quiet_limit},
                "vs_computer": len(self.places.humans()) == 1}

    def _moves(self, state: HairpinState) -> list[JSON]:
        out = []
        for action in state.legal_actions():
            message = state.action_message(action)
            facts = message.params
            warning = facts["warning"]
            out.append({"action": action, "name": facts["name"], "message": message.to_json(),
                        "from": facts["origin"],
                        "to": facts["dest"], "kind": facts["kind"], "lap": facts["lap"],
                        "hit": facts["hit"],
                        "warning_message": warning,
                        "decides": None if warning is None else warning["params"]["decides"]})
        return out

    def state_view(self, actor: Actor, state: HairpinState, to_act: int | None) -> JSON:
        frame = state.frame()
        to_move = frame["to_move"]
        may_move = to_move is not None and not self.abandoned and \
            self.may_play(actor, to_move)
        return {"board": frame, "to_move": to_move, "may_move": may_move,
                "moves": [] if to_move is None or self.abandoned else self._moves(state)}

    def result_view(self, state: HairpinState) -> JSON:
        out = state.outcome()
        frame = state.frame()
        return {"winner": out.winner, "termination": str(out.termination),
                "message": None if out.message is None else out.message.to_json(),
                "laps": frame["laps"], "bumps": frame["bumps"], "plies": frame["ply"]}


LOGIC = HairpinRoom

__all__ = ["LOGIC", "HairpinRoom"]
