"""Twin Dice Dash, the rules: a dice race with sealed side bets (see RULES.md).

Pure rules: this module imports only :mod:`raceday.core` and never a face. Every round
has two steps: a sealed phase in which every player chooses a bet in any order (nobody
sees another's bet until all are sealed), then one chance node that rolls every runner's
dice at once. Runner ``i`` belongs to player ``i``; two to :data:`MAX_PLAYERS` play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any, ClassVar, Self

from raceday.core.errors import IllegalActionError, SaveFormatError
from raceday.core.events import Event, Message
from raceday.core.protocol import CHANCE, TERMINAL, Action, Outcome, State, Termination

GAME_NAME = "twindash"
PLAYERS = 2
"""The players (and runners) of a game with the default options."""
MAX_PLAYERS = 4
FACES = 6
PASS: Action = 0
"""The action that bets nothing this round; bets are numbered from 1 (see :func:`bet_action`)."""

ONE_DIE = {face: Fraction(1, FACES) for face in range(1, FACES + 1)}
"""A runner level with or ahead of the other rolls one die."""
SLIPSTREAM = {face: Fraction(2 * face - 1, FACES * FACES) for face in range(1, FACES + 1)}
"""A runner strictly behind the leader rolls two dice and keeps the higher: P(k) = (2k - 1) / 36."""


@dataclass(frozen=True)
class Course:
    """The fixed numbers of one game: track length, round limit, starting chips, top
    stake, the prize for the runner ahead at the end, and how many play."""

    length: int = 20
    rounds: int = 8
    chips: int = 5
    max_stake: int = 3
    prize: int = 3
    players: int = PLAYERS

    def to_json(self) -> dict[str, int]:
        return {"length": self.length, "rounds": self.rounds, "chips": self.chips,
                "max_stake": self.max_stake, "prize": self.prize, "players": self.players}

    @classmethod
    def from_json(cls, data: Any) -> Course:
        """The course of a save (one saved before games of more players has no
        ``players``: two)."""
        if isinstance(data, Mapping) and "players" not in data:
            data = {**data, "players": PLAYERS}
        if not isinstance(data, Mapping) or set(data) != set(cls().to_json()):
            raise SaveFormatError("twindash course must have length, rounds, chips, "
                                  "max_stake, prize, players")
        values = {k: data[k] for k in cls().to_json()}
        may_be_zero = ("chips", "prize")
        if not all(type(v) is int and v >= (0 if k in may_be_zero else 1)
                   for k, v in values.items()) \
                or not PLAYERS <= values["players"] <= MAX_PLAYERS:
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


def roll_outcome(*dice: int) -> Action:
    """The chance outcome number of runner ``i`` rolling ``dice[i]`` (runner 0's die the
    most significant digit in base 6)."""
    outcome = 0
    for die in dice:
        outcome = outcome * FACES + (die - 1)
    return outcome


def outcome_roll(outcome: Action, runners: int = PLAYERS) -> tuple[int, ...]:
    """The dice of a chance outcome number for ``runners`` runners."""
    dice = []
    for _ in range(runners):
        outcome, die = divmod(outcome, FACES)
        dice.append(die + 1)
    return tuple(reversed(dice))


def furthest(moves: Sequence[int]) -> int | None:
    """The runner that moved strictly furthest, or None when two or more tie for it."""
    best = max(moves)
    return moves.index(best) if moves.count(best) == 1 else None


def runner_name(runner: int) -> dict[str, Any]:
    """A runner's name as a message reference (rendered in the reader's language)."""
    return Message(f"runner.{runner}").to_json()


class TwinDashState(State):
    """One position of Twin Dice Dash."""

    game_name: ClassVar[str] = GAME_NAME

    def __init__(self, course: Course | None = None) -> None:
        self.course = course or Course()
        count = self.course.players
        self.squares = [0] * count
        self.chips = [self.course.chips] * count
        self.round = 1
        self.bets: list[Bet | None] = [None] * count
        self.last: dict[str, Any] | None = None  # the previous round, revealed
        self.over = False

    # --- who acts -------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.course.players

    def acting_players(self) -> list[int]:
        if self.over:
            return []
        return [p for p in range(self.num_players) if self.bets[p] is None]

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
        """The runner strictly ahead of every other, or None when the lead is shared."""
        return furthest(self.squares)

    def slipstream_runners(self) -> list[int]:
        """The runners strictly behind the leader (each rolls in the slipstream); none
        when all are level."""
        front = max(self.squares)
        return [r for r, square in enumerate(self.squares) if square < front]

    def die_odds(self, runner: int) -> dict[int, Fraction]:
        """The exact distribution of ``runner``'s move this round."""
        return SLIPSTREAM if runner in self.slipstream_runners() else ONE_DIE

    def rolls(self) -> list[tuple[tuple[int, ...], Fraction]]:
        """Every roll of all the runners' dice this round with its exact chance."""
        odds = [self.die_odds(r) for r in range(self.num_players)]
        out = []
        for dice in product(range(1, FACES + 1), repeat=len(odds)):
            chance = Fraction(1)
            for die, runner_odds in zip(dice, odds, strict=True):
                chance *= runner_odds[die]
            out.append((dice, chance))
        return out

    def further_chances(self) -> tuple[Fraction, ...]:
        """Exact chances that each runner moves strictly furthest this round (runner 0
        first), then that two or more tie for it (two runners: 0 further, 1 further, a
        tie)."""
        chances = [Fraction(0)] * (self.num_players + 1)
        for dice, chance in self.rolls():
            best = furthest(dice)
            chances[self.num_players if best is None else best] += chance
        return tuple(chances)

    # --- what can happen --------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        player = self.current_player()
        return self._legal_for(player) if player >= 0 else []

    def legal_actions_for(self, player: int) -> list[Action]:
        return self._legal_for(player) if player in self.acting_players() else []

    def _legal_for(self, player: int) -> list[Action]:
        top = min(self.course.max_stake, self.chips[player])
        return [PASS] + [bet_action(runner, stake, self.course.max_stake)
                         for runner in range(self.num_players) for stake in range(1, top + 1)]

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if not self.is_chance_node():
            raise IllegalActionError("chance", "this state is not a chance node")
        return [(roll_outcome(*dice), chance) for dice, chance in self.rolls()]

    def action_to_string(self, action: Action) -> str:
        if self.is_chance_node():
            return "roll " + "-".join(map(str, outcome_roll(action, self.num_players)))
        bet = action_bet(action, self.course.max_stake)
        if bet.stake == 0:
            return "pass"
        return f"back {bet.runner} for {bet.stake}"

    def action_message(self, action: Action) -> Message:
        if self.is_chance_node():
            return Message("action.roll", {"dice": list(outcome_roll(action,
                                                                     self.num_players))})
        bet = action_bet(action, self.course.max_stake)
        if bet.stake == 0:
            return Message("action.pass")
        return Message("action.bet", {"runner": bet.runner, "name": runner_name(bet.runner),
                                      "stake": bet.stake})

    # --- moving -----------------------------------------------------------------------
    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        if self.is_chance_node():
            return self._roll(outcome_roll(action, self.num_players))
        return self._apply_for(self.current_player(), action)

    def _apply_for(self, player: int, action: Action) -> list[Event]:
        self.bets[player] = action_bet(action, self.course.max_stake)
        return [Event("sealed", {"player": player, "name": runner_name(player),
                                 "round": self.round})]

    def _roll(self, moves: tuple[int, ...]) -> list[Event]:
        bets = [bet or NO_BET for bet in self.bets]
        players = range(self.num_players)
        events = [Event("revealed", {"round": self.round,
                                     "bets": [dict(player=p, **bets[p].to_json())
                                              for p in players]})]
        behind = self.slipstream_runners()
        for trailing in behind:
            events.append(Event("slipstream", {"runner": trailing,
                                               "name": runner_name(trailing)}))
        best = furthest(moves)
        for runner, move in enumerate(moves):
            start = self.squares[runner]
            self.squares[runner] = start + move
            events.append(Event("moved", {"runner": runner, "name": runner_name(runner),
                                          "roll": move, "from": start,
                                          "to": self.squares[runner]}))
        for player, bet in enumerate(bets):
            if bet.stake == 0:
                continue
            tied_for_best = best is None and moves[bet.runner] == max(moves)
            change = (bet.stake if best == bet.runner else 0 if tied_for_best
                      else -bet.stake)
            self.chips[player] += change
            kind = "bet_won" if change > 0 else "bet_lost" if change < 0 else "bet_void"
            events.append(Event(kind, {"player": player, "player_name": runner_name(player),
                                       "runner": bet.runner, "name": runner_name(bet.runner),
                                       "stake": bet.stake, "change": change,
                                       "chips": self.chips[player]}))
        self.last = {"round": self.round, "dice": list(moves),
                     "slipstream": behind,
                     "bets": [bets[p].to_json() for p in players]}
        self.bets = [None] * self.num_players
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
        """The richest player wins (the prize for the runner ahead is paid at the end);
        when two or more share the richest purse it is a draw among them. Scores are
        chips; the ranking is by chips (seat order among equals)."""
        self.require_over()
        scores = dict(enumerate(self.chips))
        ranking = tuple(sorted(scores, key=lambda p: (-self.chips[p], p)))
        top = self.chips[ranking[0]]
        richest = tuple(p for p in ranking if self.chips[p] == top)
        if len(richest) > 1:
            return Outcome(ranking=ranking, winner=None, scores=scores, score_name="chips",
                           description=f"a draw: {top} chips each for the richest",
                           winning_players=richest, termination=Termination.DRAW,
                           message=Message("result.draw", {"chips": top}))
        winner, runner_up = ranking[0], ranking[1]
        return Outcome(
            ranking=ranking, winner=winner, scores=scores, score_name="chips",
            description=f"runner {winner}'s player wins with {top} chips against "
                        f"{self.chips[runner_up]}",
            winning_players=(winner,), termination=Termination.MONEY,
            message=Message("result.money", {"winner": winner, "name": runner_name(winner),
                                             "mine": top,
                                             "theirs": self.chips[runner_up]}))

    # --- what a seat may see ------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        """What everybody may see: the board, the purses, who has sealed, the last round."""
        return {"course": self.course.to_json(), "round": self.round, "phase": self.phase(),
                "squares": list(self.squares), "chips": list(self.chips),
                "sealed": [bet is not None for bet in self.bets],
                "slipstream": self.slipstream_runners(), "last": self.last}

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
                             "slipstream": r in view["slipstream"]}
                            for r in range(self.num_players)],
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
        state.squares = _numbers(data["squares"], "squares", state.num_players)
        state.chips = _numbers(data["chips"], "chips", state.num_players)
        if type(data["round"]) is not int or not 1 <= data["round"] <= state.course.rounds:
            raise SaveFormatError(f"twindash round must be 1 to {state.course.rounds}")
        state.round = data["round"]
        if not isinstance(data["bets"], list) or len(data["bets"]) != state.num_players:
            raise SaveFormatError("twindash bets must be a list of one a player")
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
                            f"{self.chips[r]} chips{sealed[r]}"
                            for r in range(self.num_players))
        return f"round {self.round}/{self.course.rounds}  {runners}"


def _numbers(value: Any, what: str, count: int) -> list[int]:
    if not (isinstance(value, list) and len(value) == count
            and all(type(v) is int and v >= 0 for v in value)):
        raise SaveFormatError(f"twindash {what} must be {count} whole numbers from 0")
    return list(value)


def _bet(value: Any, course: Course, chips: int) -> Bet:
    if not isinstance(value, Mapping) or set(value) != {"runner", "stake"}:
        raise SaveFormatError("a twindash bet has a runner and a stake")
    bet = Bet(runner=value["runner"], stake=value["stake"])
    if bet == NO_BET:
        return bet
    if bet.runner not in range(course.players) or type(bet.stake) is not int \
            or not 1 <= bet.stake <= min(course.max_stake, chips):
        raise SaveFormatError(f"twindash bet {value} is not one the rules allow")
    return bet
