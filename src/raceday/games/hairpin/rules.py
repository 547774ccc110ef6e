"""Hairpin Racers (Phil Leduc, 2004/2024): the readable reference rules engine.

The board is a 3x6 grid, columns a-f and rows 1-3. Squares are numbered row by row:
a1=0 ... f1=5, a2=6 ... f2=11, a3=12 ... f3=17. A position keeps, per square, a signed
count of racers: positive for Red (player 0), negative for Black (player 1). A square
never holds both colours.

Red's track runs a1..f1, f2..a2, a3..f3 and loops back to a1; Black's is the same path
reversed. A racer's *track index* (0..17) is how far along its own track it stands.

Positions are immutable (:class:`Position`); :func:`legal_moves` and :func:`apply_move`
are pure functions of a position and the variant's :class:`Rules`. :class:`HairpinState`
wraps them in the project's :class:`~raceday.core.protocol.State` protocol and adds the
random-setup chance nodes. See docs/rules/hairpin.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, NamedTuple, Self

import numpy as np

from raceday.core.digits import is_ascii_digits
from raceday.core.errors import IllegalActionError, OptionsError, SaveFormatError, refusal
from raceday.core.events import Event, Message
from raceday.core.protocol import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceDraw,
    Outcome,
    State,
    Termination,
)
from raceday.core.serialize import Fields

RED = 0
BLACK = 1
PLAYER_NAMES = ("red", "black")
SIGN = (1, -1)

COLUMNS = "abcdef"
ROWS = 3
WIDTH = 6
SQUARES = ROWS * WIDTH  # 18
TRACK_LENGTH = SQUARES
RACERS = 5
SETUP_ROLLS = RACERS

RED_TRACK: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 11, 10, 9, 8, 7, 6, 12, 13, 14, 15, 16, 17)
BLACK_TRACK: tuple[int, ...] = tuple(reversed(RED_TRACK))
TRACKS = (RED_TRACK, BLACK_TRACK)
TRACK_INDEX: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
    tuple(track.index(sq) for sq in range(SQUARES)) for track in TRACKS
)

# Kinds of move. An action is ``origin * KINDS + kind`` where the origin is a square
# (0..17), PIT_ORIGIN for a pit entry or SKIP_ORIGIN for the v1 "no charge" skip.
CRUISE, CHARGE, CHARGE_BUMP, CHARGE_PASS, ENTER, SKIP = range(6)
KINDS = 6
KIND_NAMES = ("cruise", "charge", "charge", "charge", "enter", "skip")
MOVE_WORDS = ("cruise", "charge", "bump", "pass", "enter", "skip")  # a move's kind as a fact
DISQUALIFIED = "disqualified"  # Hairpin's own termination: the loser bumped too often
PIT_ORIGIN = SQUARES
SKIP_ORIGIN = SQUARES + 1

DEFAULT_LAPS = 5
SHORT_LAPS = 3
DERBY_QUIET_LIMIT = 100  # plies without a bump that draw a Demolition Derby

# A proven bound on the plies of any game (docs/rules/hairpin.md, "Every game ends"): at
# most 1000 plies in the derby (at most 9 bumps, each quiet stretch under 100 plies) and
# fewer than 930 in every other variant; plus 5 setup rolls.
MAX_STEPS = 1010

VARIANT_WORDS = ("standard", "short", "nobump", "derby", "v1", "random")


def square_name(square: int) -> str:
    """``0`` -> ``"a1"``; ``17`` -> ``"f3"``."""
    return f"{COLUMNS[square % WIDTH]}{square // WIDTH + 1}"


def parse_square(text: str) -> int:
    """``"d2"`` -> ``9``; raises :class:`ValueError` for anything else."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "123":
        raise ValueError(f"not a square: {text!r} (columns a-f, rows 1-3)")
    return (int(text[1]) - 1) * WIDTH + COLUMNS.index(text[0])


# --- variants --------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    """The variant being played.

    ``target`` is both the number of laps that wins and the number of bumps that loses
    (5, or 3 in the short game). ``bumping`` false: a hit may only pass. ``derby``: laps
    do not end the race; bumping ``target`` opponents wins; ``quiet_limit`` plies without
    a bump draw. ``v1``: cruising only when neither player can charge. ``setup`` is
    ``"symmetric"`` or ``"random"`` (five die rolls, see :class:`HairpinState`).
    """

    target: int = DEFAULT_LAPS
    bumping: bool = True
    derby: bool = False
    v1: bool = False
    setup: str = "symmetric"
    quiet_limit: int = DERBY_QUIET_LIMIT

    def __post_init__(self) -> None:
        if self.target not in (DEFAULT_LAPS, SHORT_LAPS):
            raise OptionsError(f"target must be {DEFAULT_LAPS} or {SHORT_LAPS}, got {self.target}")
        if self.setup not in ("symmetric", "random"):
            raise OptionsError(f"setup must be 'symmetric' or 'random', got {self.setup!r}")
        if self.derby and not self.bumping:
            raise OptionsError(
                "Demolition Derby is won by bumping, so it cannot be combined with 'nobump'"
            )
        if not 2 <= self.quiet_limit <= 10_000:
            raise OptionsError(f"quiet_limit must be 2 to 10000 plies, got {self.quiet_limit}")

    @classmethod
    def from_variant(cls, variant: str, setup: str | None = None) -> Rules:
        """Rules from a variant text such as ``"standard"``, ``"short+nobump"``, ``"derby+v1"``.

        Words (joined by ``+`` or ``,``): standard, short, nobump, derby, v1, random.
        """
        parts = [w.strip() for w in variant.replace(",", "+").lower().split("+")]
        if len(parts) > 1 and "" in parts:
            raise OptionsError(
                f"variant {variant.strip()!r} has an empty word: join words with one '+' "
                "and none at the ends (e.g. short+nobump)"
            )
        words = [w for w in parts if w] or ["standard"]
        repeated = sorted({w for w in words if words.count(w) > 1})
        if repeated:
            raise refusal(OptionsError, "hairpin.reason.variant_twice", words=repeated,
                          variant=repr(variant.strip()))
        unknown = [w for w in words if w not in VARIANT_WORDS]
        if unknown:
            raise refusal(OptionsError, "hairpin.reason.variant_unknown",
                          words=unknown, known=list(VARIANT_WORDS))
        if "standard" in words and len(words) > 1:
            raise refusal(OptionsError, "hairpin.reason.standard_alone")
        chosen_setup = "random" if "random" in words else "symmetric"
        if setup is not None:
            chosen_setup = setup
        return cls(
            target=SHORT_LAPS if "short" in words else DEFAULT_LAPS,
            bumping="nobump" not in words,
            derby="derby" in words,
            v1="v1" in words,
            setup=chosen_setup,
        )

    def variant_name(self) -> str:
        """The canonical variant text (inverse of :meth:`from_variant`)."""
        words = []
        if self.target == SHORT_LAPS:
            words.append("short")
        if not self.bumping:
            words.append("nobump")
        if self.derby:
            words.append("derby")
        if self.v1:
            words.append("v1")
        if self.setup == "random":
            words.append("random")
        return "+".join(words) or "standard"

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant_name(), "quiet_limit": self.quiet_limit}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        f = Fields(data, "Hairpin rules")
        try:
            base = cls.from_variant(f.get("variant", str))
            return replace(base, quiet_limit=f.get("quiet_limit", int))
        except OptionsError as exc:
            raise SaveFormatError(f"Hairpin rules: {exc}") from None


STANDARD = Rules()


# --- positions -------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """Everything the rules need: racers on squares, side to move, counters.

    ``cells[sq]`` > 0 is that many red racers, < 0 that many black. ``laps[p]`` laps scored,
    ``bumps[p]`` opponent racers bumped by player p, ``pit[p]`` p's racers waiting to
    re-enter. ``clock`` counts plies since the last bump (the derby's draw clock) and
    ``ply`` counts all plies played.
    """

    cells: tuple[int, ...]
    side: int = RED
    laps: tuple[int, int] = (0, 0)
    bumps: tuple[int, int] = (0, 0)
    pit: tuple[int, int] = (0, 0)
    clock: int = 0
    ply: int = 0

    def racers_on_board(self, player: int) -> int:
        s = SIGN[player]
        return sum(c * s for c in self.cells if c * s > 0)

    def column_count(self, square: int) -> int:
        """Racers of both colours in the column of ``square``."""
        col = square % WIDTH
        cells = self.cells
        return abs(cells[col]) + abs(cells[col + WIDTH]) + abs(cells[col + 2 * WIDTH])


def symmetric_position() -> Position:
    """Both players' five racers on the five squares nearest their start line."""
    cells = [0] * SQUARES
    for t in range(RACERS):
        cells[RED_TRACK[t]] += 1
        cells[BLACK_TRACK[t]] -= 1
    return Position(cells=tuple(cells))


def setup_position(rolls: list[int]) -> Position:
    """The random setup: roll ``k`` puts one racer of each colour ``k`` spaces from its start."""
    cells = [0] * SQUARES
    for k in rolls:
        if not 1 <= k <= RACERS:
            raise ValueError(f"setup rolls are 1 to {RACERS}, got {k}")
        cells[RED_TRACK[k - 1]] += 1
        cells[BLACK_TRACK[k - 1]] -= 1
    return Position(cells=tuple(cells))


class Move(NamedTuple):
    """A legal move: origin square (or PIT_ORIGIN/SKIP_ORIGIN), kind, destination square
    (-1 for a skip), whether it crosses the mover's finish line, and for a hit the square
    of the racer hit (-1 otherwise)."""

    origin: int
    kind: int
    dest: int
    lap: bool
    hit: int

    @property
    def action(self) -> Action:
        return self.origin * KINDS + self.kind


def move_name(move: Move) -> str:
    """The readable name: ``f2 charge d2 bump``, ``e3 cruise f3``, ``pit enter a1``, ``skip``."""
    if move.kind == SKIP:
        return "skip"
    if move.kind == ENTER:
        return f"pit enter {square_name(move.dest)}"
    if move.kind in (CHARGE_BUMP, CHARGE_PASS):
        suffix = "bump" if move.kind == CHARGE_BUMP else "pass"
        # a pass names where it comes to rest; the hit square is implied by the charge
        return f"{square_name(move.origin)} charge {square_name(move.dest)} {suffix}"
    return f"{square_name(move.origin)} {KIND_NAMES[move.kind]} {square_name(move.dest)}"


def _next_free(pos: Position, player: int, index: int) -> int:
    """The first track index >= ``index`` (unwrapped) whose square is empty or friendly."""
    track = TRACKS[player]
    s = SIGN[player]
    while pos.cells[track[index % TRACK_LENGTH]] * s < 0:
        index += 1
    return index


def entry_square(pos: Position, player: int) -> int:
    """Where a racer from ``player``'s pit re-enters: the first empty or friendly square."""
    return TRACKS[player][_next_free(pos, player, 0)]


def charge_moves(pos: Position, player: int, square: int, rules: Rules) -> list[Move]:
    """The charge (and hit) moves of the racers on ``square``."""
    track = TRACKS[player]
    s = SIGN[player]
    start = TRACK_INDEX[player][square]
    target = start + pos.column_count(square)
    dest = track[target % TRACK_LENGTH]
    occupant = pos.cells[dest] * s
    moves: list[Move] = []
    if occupant >= 0:
        moves.append(Move(square, CHARGE, dest, target >= TRACK_LENGTH, -1))
    elif occupant == -1:
        if rules.bumping:
            moves.append(Move(square, CHARGE_BUMP, dest, target >= TRACK_LENGTH, dest))
        beyond = _next_free(pos, player, target + 1)
        moves.append(Move(square, CHARGE_PASS, track[beyond % TRACK_LENGTH],
                          beyond >= TRACK_LENGTH, dest))
    return moves


def cruise_move(pos: Position, player: int, square: int) -> Move:
    """The cruise of the racers on ``square``: to the next empty or friendly square."""
    start = TRACK_INDEX[player][square]
    index = _next_free(pos, player, start + 1)
    return Move(square, CRUISE, TRACKS[player][index % TRACK_LENGTH], index >= TRACK_LENGTH, -1)


def can_charge(pos: Position, player: int, rules: Rules) -> bool:
    """Whether ``player`` has any racer on the track with a legal charge."""
    s = SIGN[player]
    return any(
        pos.cells[sq] * s > 0 and charge_moves(pos, player, sq, rules) for sq in range(SQUARES)
    )


def winner_of(pos: Position, rules: Rules) -> int | None:
    """The winner if the game is decided (None if running or drawn)."""
    if not rules.derby:
        for p in (RED, BLACK):
            if pos.laps[p] >= rules.target:
                return p
    if rules.bumping:
        for p in (RED, BLACK):
            if pos.bumps[p] >= rules.target:
                return p if rules.derby else 1 - p
    return None


def is_over(pos: Position, rules: Rules) -> bool:
    """Whether the game has ended (a win, or the derby's quiet-clock draw)."""
    if winner_of(pos, rules) is not None:
        return True
    return rules.derby and pos.clock >= rules.quiet_limit


def legal_moves(pos: Position, rules: Rules) -> list[Move]:
    """Every legal move of the side to move, sorted by action number (empty if over)."""
    if is_over(pos, rules):
        return []
    player = pos.side
    if pos.pit[player] > 0:
        return [Move(PIT_ORIGIN, ENTER, entry_square(pos, player), False, -1)]
    s = SIGN[player]
    mine = [sq for sq in range(SQUARES) if pos.cells[sq] * s > 0]
    if rules.v1:
        charges = [m for sq in mine for m in charge_moves(pos, player, sq, rules)]
        if charges:
            return charges
        if can_charge(pos, 1 - player, rules):
            return [Move(SKIP_ORIGIN, SKIP, -1, False, -1)]
        return [cruise_move(pos, player, sq) for sq in mine]
    # square by square, cruise before charges: already in action-number order
    moves = []
    for sq in mine:
        moves.append(cruise_move(pos, player, sq))
        moves.extend(charge_moves(pos, player, sq, rules))
    return moves


def apply_move(pos: Position, move: Move, rules: Rules) -> Position:
    """The position after ``move`` (assumed legal)."""
    player = pos.side
    s = SIGN[player]
    cells = list(pos.cells)
    laps = list(pos.laps)
    bumps = list(pos.bumps)
    pit = list(pos.pit)
    bumped = False
    if move.kind == ENTER:
        pit[player] -= 1
        cells[move.dest] += s
    elif move.kind != SKIP:
        cells[move.origin] -= s
        if move.kind == CHARGE_BUMP:
            cells[move.dest] = 0
            pit[1 - player] += 1
            bumps[player] += 1
            bumped = True
        cells[move.dest] += s
        if move.lap:
            laps[player] += 1
    return Position(
        cells=tuple(cells),
        side=1 - player,
        laps=(laps[0], laps[1]),
        bumps=(bumps[0], bumps[1]),
        pit=(pit[0], pit[1]),
        clock=0 if bumped else pos.clock + 1,
        ply=pos.ply + 1,
    )


# --- text form -------------------------------------------------------------------------
def position_to_text(pos: Position) -> str:
    """The compact text form, e.g. ``.bbbbb/....../rrrrr. r 0-0 0-0 0-0 0 0``.

    Rows from 3 (top) down to 1, columns a-f. A square is ``.`` (empty), ``r``/``b`` (one
    racer) or ``r3``/``b2`` (a stack). Then: side to move, laps red-black, bumps made
    red-black, racers in the pit red-black, quiet clock, ply.
    """
    rows = []
    for row in range(ROWS - 1, -1, -1):
        out = ""
        for col in range(WIDTH):
            c = pos.cells[row * WIDTH + col]
            if c == 0:
                out += "."
            else:
                out += ("r" if c > 0 else "b") + (str(abs(c)) if abs(c) > 1 else "")
        rows.append(out)
    return " ".join([
        "/".join(rows),
        "r" if pos.side == RED else "b",
        f"{pos.laps[0]}-{pos.laps[1]}",
        f"{pos.bumps[0]}-{pos.bumps[1]}",
        f"{pos.pit[0]}-{pos.pit[1]}",
        str(pos.clock),
        str(pos.ply),
    ])


def _pair(text: str, what: str) -> tuple[int, int]:
    parts = text.split("-")
    if len(parts) != 2 or not all(is_ascii_digits(p) for p in parts):
        raise OptionsError(f"position text: {what} must look like '2-1', got {text!r}")
    return int(parts[0]), int(parts[1])


def position_from_text(text: str, rules: Rules = STANDARD) -> Position:
    """Parse :func:`position_to_text` output; :class:`OptionsError` names what is wrong.

    The last two fields (clock and ply) may be left out (they default to 0).
    """
    fields = text.split()
    if len(fields) not in (5, 7):
        raise refusal(OptionsError, "hairpin.reason.position_fields")
    board_rows = fields[0].split("/")
    if len(board_rows) != ROWS:
        raise OptionsError("position text: the board needs 3 rows separated by '/' (row 3 first)")
    cells = [0] * SQUARES
    for r, row_text in enumerate(board_rows):
        row = ROWS - 1 - r
        col = 0
        i = 0
        while i < len(row_text):
            ch = row_text[i]
            i += 1
            if col >= WIDTH:
                raise OptionsError(f"position text: row {row + 1} has more than 6 squares")
            if ch == ".":
                col += 1
                continue
            if ch not in "rb":
                raise OptionsError(f"position text: unexpected {ch!r} in row {row + 1}")
            count = 1
            if i < len(row_text) and is_ascii_digits(row_text[i]):
                count = int(row_text[i])
                i += 1
                if count < 2:
                    raise OptionsError("position text: a stack count must be 2 to 5")
            cells[row * WIDTH + col] = count if ch == "r" else -count
            col += 1
        if col != WIDTH:
            raise OptionsError(f"position text: row {row + 1} must have 6 squares, got {col}")
    if fields[1] not in ("r", "b"):
        raise OptionsError("position text: side to move must be 'r' or 'b'")
    side = RED if fields[1] == "r" else BLACK
    laps = _pair(fields[2], "laps")
    bumps = _pair(fields[3], "bumps")
    pit = _pair(fields[4], "pit")
    clock = ply = 0
    if len(fields) == 7:
        if not is_ascii_digits(fields[5]) or not is_ascii_digits(fields[6]):
            raise OptionsError("position text: clock and ply must be whole numbers")
        clock, ply = int(fields[5]), int(fields[6])
    pos = Position(tuple(cells), side, laps, bumps, pit, clock, ply)
    check_position(pos, rules)
    return pos


def check_position(pos: Position, rules: Rules) -> None:
    """Raise :class:`OptionsError` unless ``pos`` is a position these rules can reach."""
    for p in (RED, BLACK):
        total = pos.racers_on_board(p) + pos.pit[p]
        if total != RACERS:
            raise OptionsError(
                f"{PLAYER_NAMES[p]} has {total} racers (board + pit); each side has {RACERS}"
            )
    limit = rules.target
    counters = [("bumps", pos.bumps)] if rules.derby else [("laps", pos.laps), ("bumps", pos.bumps)]
    for what, pair in counters:
        if any(v > limit for v in pair):
            raise OptionsError(f"{what} cannot exceed {limit} in this variant")
        if all(v >= limit for v in pair):
            raise OptionsError(f"both players cannot have reached {limit} {what}")
    if not rules.bumping and any(pos.bumps):
        raise OptionsError("bumps must be 0-0 when bumping is not allowed")
    if rules.derby and pos.clock > rules.quiet_limit:
        raise OptionsError(f"the quiet clock cannot exceed {rules.quiet_limit}")


# --- the protocol state ----------------------------------------------------------------
class HairpinState(State):
    """A game of Hairpin Racers on the project's protocol (Red = 0 moves first)."""

    game_name = "hairpin"

    def __init__(self, rules: Rules = STANDARD, position: Position | None = None) -> None:
        self.rules = rules
        self.setup_rolls: list[int] = []
        self.setting_up = False
        if position is not None:
            check_position(position, rules)
            self.position = position
        elif rules.setup == "random":
            self.position = Position(cells=(0,) * SQUARES)
            self.setting_up = True
        else:
            self.position = symmetric_position()
        self._moves: list[Move] | None = None
        self._actions: list[Action] | None = None

    @property
    def in_setup(self) -> bool:
        """True while the random setup is still rolling (chance nodes)."""
        return self.setting_up

    # --- who acts ---------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        if self.in_setup:
            return CHANCE
        if is_over(self.position, self.rules):
            return TERMINAL
        return self.position.side

    def moves(self) -> list[Move]:
        """The legal moves (cached until the next action)."""
        if self._moves is None:
            self._moves = [] if self.in_setup else legal_moves(self.position, self.rules)
        return self._moves

    def legal_actions(self) -> list[Action]:
        if self._actions is None:
            self._actions = [m.action for m in self.moves()]
        return list(self._actions)

    def move_of(self, action: Action) -> Move:
        """The legal move with this action number."""
        for m in self.moves():
            if m.action == action:
                return m
        raise IllegalActionError(action, "not among the legal actions here")

    # --- chance (random setup) --------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if not self.in_setup:
            return super().chance_outcomes()
        return [(k, Fraction(1, RACERS)) for k in range(1, RACERS + 1)]

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        """Roll a real die, re-rolling sixes, and keep the faces as detail."""
        if not self.in_setup:
            return super().sample_chance(rng)
        faces = [int(rng.integers(1, 7))]
        while faces[-1] == 6:
            faces.append(int(rng.integers(1, 7)))
        return ChanceDraw(faces[-1], {"dice": faces})

    # --- names ------------------------------------------------------------------------
    def action_to_string(self, action: Action) -> str:
        if self.in_setup:
            return f"setup roll {action}"
        for m in self.moves():
            if m.action == action:
                return move_name(m)
        origin, kind = divmod(action, KINDS)
        if kind == SKIP:
            return "skip"
        if origin >= PIT_ORIGIN:
            return "pit enter"
        return f"{square_name(origin)} {KIND_NAMES[kind]} (not legal here)"

    def string_to_action(self, text: str) -> Action:
        wanted = " ".join(text.split()).lower()
        if self.is_terminal():
            raise IllegalActionError(text, "the game is over")
        try:
            return super().string_to_action(text)
        except IllegalActionError:
            pass
        # a helpful reason for near misses: a legal origin/kind with a wrong destination
        words = wanted.split()
        if words:
            names = [move_name(m) for m in self.moves()]
            same_origin = [n for n in names if n.split()[0] == words[0]]
            if same_origin:
                raise IllegalActionError(
                    text, f"the racers on {words[0]} can play: {', '.join(same_origin)}"
                ) from None
            if self.position.pit[self.position.side] > 0:
                raise IllegalActionError(
                    text, "a racer in your pit must re-enter first (pit enter ...)"
                ) from None
            try:
                sq = parse_square(words[0])
            except ValueError:
                sq = -1
            if sq >= 0 and self.position.cells[sq] * SIGN[self.position.side] > 0:
                why = (f"the racers on {words[0]} have no legal move now"
                       + (" (v1: cruising only when neither side can charge)"
                          if self.rules.v1 else ""))
                raise IllegalActionError(text, why) from None
            if sq >= 0:
                raise IllegalActionError(text, f"you have no racer on {words[0]}") from None
        raise IllegalActionError(
            text, "not a legal action; names look like 'f2 charge d2 bump' or 'e3 cruise f3'"
        )

    # --- moving -----------------------------------------------------------------------
    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        if self.in_setup:
            return self._apply_setup(action, detail)
        move = self.move_of(action)
        before = self.position
        player = before.side
        self.position = apply_move(before, move, self.rules)
        self._moves = None
        self._actions = None
        data: dict[str, Any] = {
            "ply": before.ply + 1,
            "player": PLAYER_NAMES[player],
            "action": move_name(move),
            "how": "skip" if move.kind == SKIP else KIND_NAMES[move.kind],  # not "kind": a
        }  # fact never hides the event's kind
        if move.kind != SKIP:
            data["from"] = "pit" if move.kind == ENTER else square_name(move.origin)
            data["to"] = square_name(move.dest)
        if move.hit >= 0:
            data["hit"] = square_name(move.hit)
            data["choice"] = "bump" if move.kind == CHARGE_BUMP else "pass"
        events = [Event("move", data)]
        if move.lap:
            events.append(Event("lap", {"player": PLAYER_NAMES[player],
                                        "laps": self.position.laps[player]}))
        if move.kind == CHARGE_BUMP:
            events.append(Event("bump", {"player": PLAYER_NAMES[player],
                                         "victim": PLAYER_NAMES[1 - player],
                                         "square": square_name(move.dest),
                                         "bumps": self.position.bumps[player]}))
        if self.is_terminal():
            events.append(Event("result", self._result_data()))
        return events

    def _apply_setup(self, roll: int, detail: Mapping[str, Any] | None) -> list[Event]:
        self.setup_rolls.append(roll)
        self.setting_up = len(self.setup_rolls) < SETUP_ROLLS
        cells = list(self.position.cells)
        cells[RED_TRACK[roll - 1]] += 1
        cells[BLACK_TRACK[roll - 1]] -= 1
        self.position = replace(self.position, cells=tuple(cells))
        self._moves = None
        self._actions = None
        dice = list(detail["dice"]) if detail and "dice" in detail else [roll]
        return [Event("setup", {"roll": roll, "dice": dice,
                                "red": square_name(RED_TRACK[roll - 1]),
                                "black": square_name(BLACK_TRACK[roll - 1])})]

    # --- results ----------------------------------------------------------------------
    def _result_data(self) -> dict[str, Any]:
        out = self.outcome()
        return {
            "winner": None if out.winner is None else PLAYER_NAMES[out.winner],
            "termination": str(out.termination),
            "laps": list(self.position.laps),
            "bumps": list(self.position.bumps),
            "plies": self.position.ply,
        }

    def outcome(self) -> Outcome:
        self.require_over()
        pos, rules = self.position, self.rules
        winner = winner_of(pos, rules)
        scores = {RED: float(pos.laps[RED]), BLACK: float(pos.laps[BLACK])}
        if winner is None:
            return Outcome(ranking=(RED, BLACK), winner=None, scores=scores,
                           description=f"draw: {rules.quiet_limit} plies without a bump",
                           winning_players=(RED, BLACK), score_name="laps",
                           termination=Termination.DRAW,
                           message=Message("result.draw", {"n": rules.quiet_limit}))
        loser = 1 - winner
        if not rules.derby and pos.laps[winner] >= rules.target:
            why = f"{PLAYER_NAMES[winner]} completes {rules.target} laps"
            termination: str = Termination.LAPS
        elif rules.derby:
            why = f"{PLAYER_NAMES[winner]} bumps {rules.target} racers"
            termination = Termination.BUMPS
        else:
            why = f"{PLAYER_NAMES[loser]} bumped {rules.target} racers and is disqualified"
            termination = DISQUALIFIED
        sides = {"winner": {"key": f"side.{PLAYER_NAMES[winner]}", "params": {}},
                 "loser": {"key": f"side.{PLAYER_NAMES[loser]}", "params": {}},
                 "n": rules.target}
        return Outcome(ranking=(winner, loser), winner=winner, scores=scores, description=why,
                       winning_players=(winner,), score_name="laps", termination=termination,
                       message=Message(f"result.{termination}", sides))

    # --- what a move means, and the board as a frame ---------------------------------------
    def bump_warning(self, move: Move) -> Message | None:
        """What a bump decides when it is the player's last one allowed (None otherwise):
        ``warning.derby`` (it wins the derby), ``warning.lap_first`` (the lap counts first:
        it wins) or ``warning.disqualified`` (it loses); ``decides`` is "wins" or "loses"."""
        rules, pos = self.rules, self.position
        if move.kind != CHARGE_BUMP:
            return None
        count = pos.bumps[pos.side] + 1
        if count < rules.target:
            return None
        if rules.derby:
            why, decides = "derby", "wins"
        elif move.lap and pos.laps[pos.side] + 1 >= rules.target:
            why, decides = "lap_first", "wins"
        else:
            why, decides = DISQUALIFIED, "loses"
        return Message(f"warning.{why}", {"count": count, "decides": decides,
                                          "nth": {"key": f"nth.{count}", "params": {}}})

    def action_message(self, action: Action) -> Message:
        """A setup roll, or a move (``move.<kind>``) with its facts: ``name`` (what the
        move is typed as), ``origin`` (a square, -1 for the pit, -2 for a skip), ``dest``,
        the squares ``from`` and ``to`` by name (as the move event names them), ``kind``
        (cruise, charge, bump, pass, enter, skip), ``lap``, ``hit`` and the decisive
        bump's ``warning`` (a message) if any."""
        if self.in_setup:
            return Message("setup_roll", {"roll": action})
        move = self.move_of(action)
        warning = self.bump_warning(move)
        origin = -1 if move.origin == PIT_ORIGIN else (-2 if move.kind == SKIP else move.origin)
        kind = MOVE_WORDS[move.kind]
        return Message(f"move.{kind}", {
            "name": move_name(move), "origin": origin, "dest": move.dest,
            "from": None if origin < 0 else square_name(move.origin),
            "to": None if move.kind == SKIP else square_name(move.dest),
            "kind": kind, "lap": move.lap, "hit": move.hit,
            "warning": None if warning is None else warning.to_json()})

    def frame(self) -> dict[str, Any]:
        """The board: signed racer counts per square (Red positive, row by row), laps,
        bumps, pits, who moves, the clocks, the variant's targets, the position's text
        form and the result once over."""
        pos, rules = self.position, self.rules
        over = self.is_terminal()
        return {"game": self.game_name, "columns": COLUMNS, "rows": ROWS,
                "cells": list(pos.cells), "laps": list(pos.laps),
                "bumps": list(pos.bumps), "pit": list(pos.pit),
                "to_move": None if self.in_setup or over else pos.side,
                "in_setup": self.in_setup, "clock": pos.clock, "ply": pos.ply,
                "target": rules.target, "bumping": rules.bumping, "derby": rules.derby,
                "quiet_limit": rules.quiet_limit, "text": self.position_text(),
                "result": self._result_message() if over else None}

    def _result_message(self) -> dict[str, Any]:
        message = self.outcome().message
        assert message is not None
        return message.to_json()

    # --- text form, copies and saving -------------------------------------------------
    def __repr__(self) -> str:
        return f"<HairpinState {self.position_text()!r} ({self.rules.variant_name()})>"

    def position_text(self) -> str:
        """The compact text form of the position (see :func:`position_to_text`)."""
        return position_to_text(self.position)

    @classmethod
    def from_text(cls, text: str, rules: Rules = STANDARD) -> HairpinState:
        """A state (after any setup) at the position written as ``text``."""
        return cls(rules, position_from_text(text, rules))

    def clone(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.rules = self.rules
        twin.position = self.position
        twin.setup_rolls = list(self.setup_rolls)
        twin.setting_up = self.setting_up
        twin._moves = self._moves
        twin._actions = self._actions
        return twin

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "setup_rolls": list(self.setup_rolls),
            "setting_up": self.setting_up,
            "position": position_to_text(self.position),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        f = Fields(data, "Hairpin state")
        rules = Rules.from_json(f.get("rules", dict))
        rolls = f.int_list("setup_rolls")
        setting_up = f.get("setting_up", bool)
        text = f.get("position", str)
        if any(not 1 <= k <= RACERS for k in rolls) or len(rolls) > SETUP_ROLLS:
            raise SaveFormatError("Hairpin state: setup rolls must be up to five numbers 1-5")
        if setting_up:
            if rules.setup != "random" or len(rolls) >= SETUP_ROLLS:
                raise SaveFormatError("Hairpin state: setup in progress needs random setup")
            state = cls(rules)
            state.position = setup_position(rolls)
            state.setup_rolls = rolls
            if position_to_text(state.position) != text:
                raise SaveFormatError("Hairpin state: position does not match the setup rolls")
            return state
        try:
            position = position_from_text(text, rules)
        except OptionsError as exc:
            raise SaveFormatError(f"Hairpin state: {exc}") from None
        state = cls(rules, position)
        state.setup_rolls = rolls
        return state


# --- perft -----------------------------------------------------------------------------
def perft(pos: Position, rules: Rules, depth: int) -> int:
    """Leaf nodes of the game tree ``depth`` plies deep (each legal move one branch; a
    finished game before that depth adds nothing, as in chess perft)."""
    if depth == 0:
        return 1
    moves = legal_moves(pos, rules)
    if depth == 1:
        return len(moves)
    return sum(perft(apply_move(pos, m, rules), rules, depth - 1) for m in moves)


def perft_divide(pos: Position, rules: Rules, depth: int) -> list[tuple[str, int]]:
    """The perft count under each first move, by move name (depth >= 1)."""
    if depth < 1:
        raise OptionsError("divide needs a depth of at least 1")
    return [
        (move_name(m), perft(apply_move(pos, m, rules), rules, depth - 1))
        for m in legal_moves(pos, rules)
    ]
