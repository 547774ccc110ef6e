"""PISTARD movement: the dice, how actions are numbered, and which moves are legal.

Geometry. A rider stands at a *distance* (columns travelled from his own start line; riders
start behind it at distances -1 .. -START_ZONE) and a *lane* (1 = inner .. 4 = outer). The
square he physically occupies is column ``(distance + offset) mod length`` of the track, where
``offset`` is 0 except for the second team of a team pursuit (half a lap). Two riders can
never share a physical square, whatever their lap.

A turn of one rider: he throws the four coloured dice (a chance node with 6^4 ordered
outcomes), then chooses one die (optionally raised by one with an energy token). A die of
value v moves him through v pips of forward steps: straight (1 pip), diagonally inwards
(1 pip) or diagonally outwards (2 pips), all lane changes in one direction, never through or
onto an occupied square. The move must end on a square of the die's colour or directly
behind another rider. Moves are named by destination, so the decision after the throw is
one action per (destination, token spent) pair.

The functions here know nothing of variants: they take the track, the rider's square and
the occupied squares, and return what is reachable.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from raceday.core.protocol import Action
from raceday.games.pistard.track import COLOURS, LANES, Track

START_ZONE = 6  # columns behind the line where riders may be placed
DICE = 4
FACES = 6
THROWS = FACES**DICE

# Action encoding (stable across chance, so the open-loop search can share statistics).
# A move is RIDER_BASE * rider id + code, code = TOKEN_FLAG * token + 10 * columns ahead +
# destination lane, or STAY: so one rider's moves never share a number with another's (the
# open-loop search keys its statistics by action number).
RIDER_BASE = 1000
STAY = 0  # code of standing still: sur place (sprint) or declining a move that needs a token
TOKEN_FLAG = 100
PLACE_BASE = 100_000  # placement = PLACE_BASE + 10 * columns behind the line + lane
CHOOSE_BASE = 200_000  # team variants: CHOOSE_BASE + rider id = "this rider throws next"

Square = tuple[int, int]  # (physical column, lane)
SQUARE_BASE = 8  # the move generator numbers a square column * SQUARE_BASE + lane


def dice_from_action(action: Action) -> tuple[int, int, int, int]:
    """The four dice (yellow, green, blue, red) of a throw outcome 0..1295."""
    if not 0 <= action < THROWS:
        raise ValueError(f"throw outcome must be 0 to {THROWS - 1}, got {action}")
    return (action // 216 + 1, action // 36 % 6 + 1, action // 6 % 6 + 1, action % 6 + 1)


def action_from_dice(dice: Sequence[int]) -> Action:
    """The throw outcome for dice (yellow, green, blue, red), each 1..6."""
    if len(dice) != DICE or any(not 1 <= d <= FACES for d in dice):
        raise ValueError(f"a throw is four dice 1..6 (yellow, green, blue, red), got {dice}")
    y, g, b, r = (d - 1 for d in dice)
    return y * 216 + g * 36 + b * 6 + r


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(f"{COLOURS[i]} {v}" for i, v in enumerate(dice))


@cache
def throw_names() -> tuple[str, ...]:
    """The name of every throw outcome ("throw yellow 1 green 2 blue 3 red 4"), built once."""
    return tuple("throw " + dice_text(dice_from_action(a)) for a in range(THROWS))


def die_options(dice: Sequence[int], token: bool) -> list[tuple[int, int]]:
    """(colour, value) pairs a rider may play: the dice as thrown, or with ``token`` each die
    raised by one where that stays at most 6 (the energy-token rule)."""
    if not token:
        return [(c, v) for c, v in enumerate(dice)]
    return [(c, v + 1) for c, v in enumerate(dice) if v < FACES]


def move_action(ident: int, ahead: int, lane: int, token: bool) -> Action:
    """The action number of rider ``ident``'s move to ``ahead`` columns on in ``lane``."""
    return RIDER_BASE * ident + TOKEN_FLAG * int(token) + 10 * ahead + lane


def place_action(back: int, lane: int) -> Action:
    """The action placing the rider ``back`` columns behind his line in ``lane``."""
    return PLACE_BASE + 10 * back + lane


def placement_of(action: Action) -> tuple[int, int]:
    """(columns behind the line, lane) of a placement action (the inverse of
    :func:`place_action`): the one decoding of placements, for the state and the agents."""
    back, lane = divmod(action - PLACE_BASE, 10)
    return back, lane


def action_kind(action: Action) -> str:
    """What a decision action numbers: ``"choose"`` (a team's next rider), ``"place"``
    (a placement behind the line) or ``"move"`` (a rider's move or standing still)."""
    if action >= CHOOSE_BASE:
        return "choose"
    return "place" if action >= PLACE_BASE else "move"


def move_parts(action: Action) -> tuple[int, int]:
    """(rider ident, move code) of a move action: the code is ``TOKEN_FLAG * token + 10 *
    columns ahead + lane``, or :data:`STAY`."""
    ident, code = divmod(action, RIDER_BASE)
    return ident, code


def move_from_parts(ident: int, code: int) -> Action:
    """The move action of rider ``ident`` with move ``code`` (the inverse of
    :func:`move_parts`)."""
    return RIDER_BASE * ident + code


def chosen_rider(action: Action) -> int:
    """The rider ident a team's "this rider throws next" action names."""
    return action - CHOOSE_BASE


def choose_action(ident: int) -> Action:
    """The action choosing rider ``ident`` to throw next (team races)."""
    return CHOOSE_BASE + ident


@dataclass(frozen=True)
class MoveInfo:
    """What a move action does: destination and the die (canonical choice) that allows it."""

    ahead: int
    lane: int
    token: bool
    colour: int
    value: int
    behind: bool  # ends directly behind a rider (rather than, or as well as, on its colour)




class Reach:
    """Where a rider can get with forward steps from his square, for every die value.

    Going inwards (or straight) every step costs one pip; going outwards every diagonal
    step costs two. All lane changes go one way, and no step may pass through or end on an
    occupied square. One sweep per direction answers every die value at once: ``shifts[t]``
    is the set of lane changes reachable after ``t`` forward steps.
    """

    def __init__(self, occ: Collection[int], start_col: int, lane0: int, length: int,
                 max_value: int = FACES + 1) -> None:
        self.lane0 = lane0
        self.inwards = _sweep(occ, start_col, lane0, -1, lane0 - 1, max_value, length)
        self.outwards = _sweep(occ, start_col, lane0, +1, LANES - lane0, max_value, length)
        self._cache: dict[int, list[tuple[int, int]]] = {}

    def destinations(self, value: int) -> list[tuple[int, int]]:
        """(columns ahead, lane) a move of exactly ``value`` pips can reach: straight and
        inwards first (fewest lane changes first), then outwards."""
        found = self._cache.get(value)
        if found is not None:
            return found
        lane0 = self.lane0
        found = [(value, lane0 - k) for k in sorted(self.inwards[value])]
        outwards = self.outwards
        for k in range(1, min(value // 2, LANES - lane0) + 1):
            if k in outwards[value - k]:
                found.append((value - k, lane0 + k))
        self._cache[value] = found
        return found


def _sweep(occ: Collection[int], start_col: int, lane0: int, direction: int, max_shift: int,
           steps: int, length: int) -> list[set[int]]:
    reach = {0}
    table = [reach]
    for t in range(1, steps + 1):
        col = (start_col + t) % length
        base = col * SQUARE_BASE + lane0
        nxt = set()
        for j in reach:
            if base + direction * j not in occ:
                nxt.add(j)
            if j < max_shift and base + direction * (j + 1) not in occ:
                nxt.add(j + 1)
        reach = nxt
        table.append(reach)
    return table


def moves_for(track: Track, ident: int, start_col: int, occ: Collection[int], reach: Reach,
              options: Iterable[tuple[int, int]], token: bool) -> dict[Action, MoveInfo]:
    """Legal moves of rider ``ident`` standing in column ``start_col`` with the given
    (colour, value) dice: each destination must be of the die's colour or directly behind
    a rider (``occ`` holds the other riders' squares as column * SQUARE_BASE + lane). The
    first die (in colour order) that allows a destination names it."""
    length = track.length
    grid = track.grid
    moves: dict[Action, MoveInfo] = {}
    base = move_action(ident, 0, 0, token)
    for colour, value in options:
        for ahead, lane in reach.destinations(value):
            action = base + 10 * ahead + lane
            if action in moves:
                continue
            col = (start_col + ahead) % length
            behind = ((col + 1) % length) * SQUARE_BASE + lane in occ
            if behind or grid[lane][col] == colour:
                moves[action] = MoveInfo(ahead, lane, token, colour, value, behind)
    return moves


def legal_moves(track: Track, ident: int, start_col: int, lane0: int, occ: Collection[int],
                dice: Sequence[int], has_token: bool,
                ) -> tuple[dict[Action, MoveInfo], bool, bool]:
    """Every legal move with the thrown ``dice``: plain moves first, then the destinations
    only a token (a die raised by one) reaches. Also says whether there was any plain move
    and any token move (the variants decide from that whether standing still is allowed)."""
    reach = Reach(occ, start_col, lane0, track.length, max(dice) + int(has_token))
    plain = moves_for(track, ident, start_col, occ, reach, die_options(dice, False), False)
    if not has_token:
        return plain, bool(plain), False
    taken = {(m.ahead, m.lane) for m in plain.values()}
    boosted = {a: m for a, m in moves_for(track, ident, start_col, occ, reach,
                                           die_options(dice, True), True).items()
               if (m.ahead, m.lane) not in taken}
    return {**plain, **boosted}, bool(plain), bool(boosted)


def placement_actions(offset: int, occ: Collection[Square], length: int) -> list[Action]:
    """Free start squares (1..START_ZONE columns behind a line at ``offset``)."""
    return [place_action(back, lane)
            for back in range(1, START_ZONE + 1) for lane in range(1, LANES + 1)
            if ((offset - back) % length, lane) not in occ]
