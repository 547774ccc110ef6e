"""Twin Dice Dash, the rules: a two-runner dice race with sealed side bets (see RULES.md).

Pure rules: this module imports only :mod:`raceday.core` and never a face. Every round
has two steps: a sealed phase in which both players choose a bet in any order (nobody
sees the other's bet until both are sealed), then one chance node that rolls both
runners' dice at once. Runner ``i`` belongs to player ``i``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Self

from raceday.core.errors import IllegalActionError, SaveFormatError
from raceday.core.events import Event, Message
from raceday.core.protocol import CHANCE, TERMINAL, Action, Outcome, State, Termination

GAME_NAME = "twindash"
PLAYERS = 2
FACES = 6
PASS: Action = 0
"""The action that bets nothing this round; bets are numbered from 1 (see :func:`bet_action`)."""

ONE_DIE = {face: Fraction(1, FACES) for face in range(1, FACES + 1)}
"""A runner level with or ahead of the other rolls one die."""
SLIPSTREAM = {face: Fraction(2 * face - 1, FACES * FACES) for face in range(1, FACES + 1)}
"""The runner strictly behind rolls two dice and keeps the higher: P(k) = (2k - 1) / 36."""


@dataclass(frozen=True)
class Course:
    """The fixed numbers of one game: track length, round limit, starting chips, top
    stake, and the prize for the runner ahead at the end."""

    length: int = 20
    rounds: int = 8
    chips: int = 5
    max_stake: int = 3
    prize: int = 3

    def to_json(self) -> dict[str, int]:
        return {"length": self.length, "rounds": self.rounds, "chips": self.chips,
                "max_stake": self.max_stake, "prize": self.prize}

    @classmethod
    def from_json(cls, data: Any) -> Course:
        if not isinstance(data, Mapping) or set(data) != set(cls().to_json()):
            raise SaveFormatError("twindash course must have length, rounds, chips, "
                                  "max_stake, prize")
        values = {k: data[k] for k in cls().to_json()}
        may_be_zero = ("chips", "prize")
        if not all(type(v) is int and v >= (0 if k in may_be_zero else 1)
                   for k, v in values.items()):
            raise SaveFormatError(f"twindash course has a bad number: {dict(values)}")
        return cls(**values)


@dataclass(frozen=True)
class Bet:
    """A sealed bet: ``stake`` chips that runner ``runner`` moves further this round."""

    runner: int
    stake: int

    def to_json(self) -> dict[str, int]:
        return {"runner": self.runner, "stake": self.stake}


NO_BET = Bet(runner=-1, stake=0)
"""What a player who passed has sealed."""


def bet_action(runner: int, stake: int, max_stake: int) -> Action:
    """The action number of backing ``runner`` with ``stake`` chips (``stake`` ≥ 1)."""
    return 1 + runner * max_stake + (stake - 1)


def action_bet(action: Action, max_stake: int) -> Bet:
    """The bet an action number stands for (the inverse of :func:`bet_action`)."""
    if action == PASS:
        return NO_BET
    runner, stake = divmod(action - 1, max_stake)
    return Bet(runner=runner, stake=stake + 1)


def roll_outcome(die0: int, die1: int) -> Action:
    """The chance outcome number of runner 0 rolling ``die0`` and runner 1 ``die1``."""
    return (die0 - 1) * FACES + (die1 - 1)


def outcome_roll(outcome: Action) -> tuple[int, int]:
    """The two dice of a chance outcome number."""
    first, second = divmod(outcome, FACES)
    return first + 1, second + 1


def runner_name(runner: int) -> dict[str, Any]:
    """A runner's name as a message reference (rendered in the reader's language)."""
    return Message(f"runner.{runner}").to_json()


class TwinDashState(State):
    """One position of Twin Dice Dash."""

    game_name: ClassVar[str] = GAME_NAME

    def __init__(self, course: Course | None = None) -> None:
        self.course = course or Course()
        self.squares = [0, 0]
        self.chips = [self.course.chips] * PLAYERS
        self.round = 1
        self.bets: list[Bet | None] = [None, None]
        self.last: dict[str, Any] | None = None  # the previous round, revealed
        self.over = False

    # --- who acts -------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return PLAYERS

    def acting_players(self) -> list[int]:
        if self.over:
            return []
        return [p for p in range(PLAYERS) if self.bets[p] is None]

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        acting = self.acting_players()
        return acting[0] if acting else CHANCE

    def phase(self) -> str:
        """``"bet"`` (sealed bets), ``"roll"`` (the dice) or ``"over"``."""
        player = self.current_player()
        return {CHANCE: "roll", TERMINAL: "over"}.get(player, "bet")

    def leading_runner(self) -> int | None:
        """The runner strictly ahead, or None when level."""
        trailing = self.trailing_runner()
        return None if trailing is None else 1 - trailing

    def trailing_runner(self) -> int | None:
        """The runner strictly behind (it rolls in the slipstream), or None when level."""
        if self.squares[0] == self.squares[1]:
            return None
        return 0 if self.squares[0] < self.squares[1] else 1

    def die_odds(self, runner: int) -> dict[int, Fraction]:
        """The exact distribution of ``runner``'s move this round."""
        return SLIPSTREAM if self.trailing_runner() == runner else ONE_DIE

    def further_chances(self) -> tuple[Fraction, Fraction, Fraction]:
        """Exact chances that runner 0 moves further, runner 1 moves further, or a tie."""
        first, second = self.die_odds(0), self.die_odds(1)
        ahead = [Fraction(0)] * 3
        for a, pa in first.items():
            for b, pb in second.items():
                ahead[0 if a > b else 1 if b > a else 2] += pa * pb
        return ahead[0], ahead[1], ahead[2]

    # --- what can happen --------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        player = self.current_player()
        return self._legal_for(player) if player >= 0 else []

    def legal_actions_for(self, player: int) -> list[Action]:
        return self._legal_for(player) if player in self.acting_players() else []

    def _legal_for(self, player: int) -> list[Action]:
        top = min(self.course.max_stake, self.chips[player])
        return [PASS] + [bet_action(runner, stake, self.course.max_stake)
                         for runner in range(PLAYERS) for stake in range(1, top + 1)]

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if not self.is_chance_node():
            raise IllegalActionError("chance", "this state is not a chance node")
        first, second = self.die_odds(0), self.die_odds(1)
        return [(roll_outcome(a, b), pa * pb) for a, pa in first.items()
                for b, pb in second.items()]

    def action_to_string(self, action: Action) -> str:
        if self.is_chance_node():
            die0, die1 = outcome_roll(action)
            return f"roll {die0}-{die1}"
        bet = action_bet(action, self.course.max_stake)
        if bet.stake == 0:
            return "pass"
        return f"back {bet.runner} for {bet.stake}"

    def action_message(self, action: Action) -> Message:
        if self.is_chance_node():
            die0, die1 = outcome_roll(action)
            return Message("action.roll", {"dice": [die0, die1]})
        bet = action_bet(action, self.course.max_stake)
        if bet.stake == 0:
            return Message("action.pass")
        return Message("action.bet", {"runner": bet.runner, "name": runner_name(bet.runner),
                                      "stake": bet.stake})

    # --- moving -----------------------------------------------------------------------
    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        if self.is_chance_node():
            return self._roll(*outcome_roll(action))
        return self._apply_for(self.current_player(), action)

    def _apply_for(self, player: int, action: Action) -> list[Event]:
        self.bets[player] = action_bet(action, self.course.max_stake)
        return [Event("sealed", {"player": player, "name": runner_name(player),
                                 "round": self.round})]

    def _roll(self, die0: int, die1: int) -> list[Event]:
        bets = [bet or NO_BET for bet in self.bets]
        trailing = self.trailing_runner()
        events = [Event("revealed", {"round": self.round,
                                     "bets": [dict(player=p, **bets[p].to_json())
                                              for p in range(PLAYERS)]})]
        if trailing is not None:
            events.append(Event("slipstream", {"runner": trailing,
                                               "name": runner_name(trailing)}))
        moves = (die0, die1)
        for runner, move in enumerate(moves):
            start = self.squares[runner]
            self.squares[runner] = start + move
            events.append(Event("moved", {"runner": runner, "name": runner_name(runner),
                                          "roll": move, "from": start,
                                          "to": self.squares[runner]}))
        for player, bet in enumerate(bets):
            if bet.stake == 0:
                continue
            rival = 1 - bet.runner
            change = (bet.stake if moves[bet.runner] > moves[rival]
                      else -bet.stake if moves[bet.runner] < moves[rival] else 0)
            self.chips[player] += change
            kind = "bet_won" if change > 0 else "bet_lost" if change < 0 else "bet_void"
            events.append(Event(kind, {"player": player, "player_name": runner_name(player),
                                       "runner": bet.runner, "name": runner_name(bet.runner),
                                       "stake": bet.stake, "change": change,
                                       "chips": self.chips[player]}))
        self.last = {"round": self.round, "dice": list(moves), "slipstream": trailing,
                     "bets": [bets[p].to_json() for p in range(PLAYERS)]}
        self.bets = [None, None]
        if max(self.squares) >= self.course.length or self.round >= self.course.rounds:
            self.over = True
            leader = self.leading_runner()
            if leader is not None and self.course.prize:
                self.chips[leader] += self.course.prize
                events.append(Event("prize", {"runner": leader, "name": runner_name(leader),
                                              "prize": self.course.prize,
                                              "chips": self.chips[leader]}))
            result = self.outcome()
            events.append(Event("finished", {"termination": result.termination,
                                             "winner": result.winner,
                                             "squares": list(self.squares),
                                             "chips": list(self.chips)}))
        else:
            self.round += 1
            events.append(Event("round", {"round": self.round, "rounds": self.course.rounds}))
        return events

    # --- results ----------------------------------------------------------------------
    def outcome(self) -> Outcome:
        """The richer player wins (the prize for the runner ahead is paid at the end);
        equal purses are a draw. Scores are chips."""
        self.require_over()
        scores = {0: self.chips[0], 1: self.chips[1]}
        if self.chips[0] == self.chips[1]:
            return Outcome(ranking=(0, 1), winner=None, scores=scores, score_name="chips",
                           description=f"a draw: {self.chips[0]} chips each",
                           winning_players=(0, 1), termination=Termination.DRAW,
                           message=Message("result.draw", {"chips": self.chips[0]}))
        winner = 0 if self.chips[0] > self.chips[1] else 1
        loser = 1 - winner
        return Outcome(
            ranking=(winner, loser), winner=winner, scores=scores, score_name="chips",
            description=f"runner {winner}'s player wins with {self.chips[winner]} chips "
                        f"against {self.chips[loser]}",
            winning_players=(winner,), termination=Termination.MONEY,
            message=Message("result.money", {"winner": winner, "name": runner_name(winner),
                                             "mine": self.chips[winner],
                                             "theirs": self.chips[loser]}))

    # --- what a seat may see ------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        """What everybody may see: the board, the purses, who has sealed, the last round."""
        return {"course": self.course.to_json(), "round": self.round, "phase": self.phase(),
                "squares": list(self.squares), "chips": list(self.chips),
                "sealed": [bet is not None for bet in self.bets],
                "slipstream": self.trailing_runner(), "last": self.last}

    def observation(self, player: int | None) -> dict[str, Any]:
        view = self.public_view()
        if player is not None:
            bet = self.bets[player]
            view["seat"] = player
            view["my_bet"] = None if bet is None else bet.to_json()
        return view

    def frame(self) -> dict[str, Any]:
        view = self.public_view()
        return {"game": GAME_NAME, "length": self.course.length, "round": self.round,
                "rounds": self.course.rounds, "phase": view["phase"],
                "runners": [{"id": r, "name": runner_name(r), "square": self.squares[r],
                             "chips": self.chips[r], "sealed": view["sealed"][r],
                             "slipstream": view["slipstream"] == r}
                            for r in range(PLAYERS)],
                "last": self.last}

    # --- copies and saving ------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"course": self.course.to_json(), "squares": list(self.squares),
                "chips": list(self.chips), "round": self.round,
                "bets": [None if bet is None else bet.to_json() for bet in self.bets],
                "last": self.last, "over": self.over}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        fields = {"course", "squares", "chips", "round", "bets", "last", "over"}
        if not isinstance(data, Mapping) or set(data) != fields:
            raise SaveFormatError(f"a twindash state has exactly the fields "
                                  f"{', '.join(sorted(fields))}")
        state = cls(Course.from_json(data["course"]))
        state.squares = _numbers(data["squares"], "squares")
        state.chips = _numbers(data["chips"], "chips")
        if type(data["round"]) is not int or not 1 <= data["round"] <= state.course.rounds:
            raise SaveFormatError(f"twindash round must be 1 to {state.course.rounds}")
        state.round = data["round"]
        if not isinstance(data["bets"], list) or len(data["bets"]) != PLAYERS:
            raise SaveFormatError("twindash bets must be a list of two")
        state.bets = [None if bet is None else _bet(bet, state.course, state.chips[p])
                      for p, bet in enumerate(data["bets"])]
        if data["last"] is not None and not isinstance(data["last"], dict):
            raise SaveFormatError("twindash last round must be an object or null")
        state.last = data["last"]
        if not isinstance(data["over"], bool):
            raise SaveFormatError("twindash over must be true or false")
        state.over = data["over"]
        return state

    def __str__(self) -> str:
        """The public board as one line (no sealed bet shown)."""
        sealed = [" (sealed)" if bet is not None else "" for bet in self.bets]
        runners = "  ".join(f"runner {r}: square {self.squares[r]}/{self.course.length}, "
                            f"{self.chips[r]} chips{sealed[r]}" for r in range(PLAYERS))
        return f"round {self.round}/{self.course.rounds}  {runners}"


def _numbers(value: Any, what: str) -> list[int]:
    if not (isinstance(value, list) and len(value) == PLAYERS
            and all(type(v) is int and v >= 0 for v in value)):
        raise SaveFormatError(f"twindash {what} must be two whole numbers from 0")
    return list(value)


def _bet(value: Any, course: Course, chips: int) -> Bet:
    if not isinstance(value, Mapping) or set(value) != {"runner", "stake"}:
        raise SaveFormatError("a twindash bet has a runner and a stake")
    bet = Bet(runner=value["runner"], stake=value["stake"])
    if bet == NO_BET:
        return bet
    if bet.runner not in range(PLAYERS) or type(bet.stake) is not int \
            or not 1 <= bet.stake <= min(course.max_stake, chips):
        raise SaveFormatError(f"twindash bet {value} is not one the rules allow")
    return bet
