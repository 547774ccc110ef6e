"""A second, deliberately naive move generator written straight from the rule text.

It shares no code or tables with the engine: racers walk the board square by square
(right along row 1, up, left along row 2, up, right along row 3, then back to a1 for
Red; the reverse for Black), and the board is a dict from (column, row) to a list of
colours. It only serves to pin perft counts from an independent implementation.
"""

from __future__ import annotations

from dataclasses import dataclass

Square = tuple[int, int]  # (column 0-5, row 0-2)


def step_red(sq: Square) -> tuple[Square, bool]:
    c, r = sq
    if r == 0:
        return ((c + 1, 0), False) if c < 5 else ((5, 1), False)
    if r == 1:
        return ((c - 1, 1), False) if c > 0 else ((0, 2), False)
    return ((c + 1, 2), False) if c < 5 else ((0, 0), True)  # f3 -> a1 crosses the line


def step_black(sq: Square) -> tuple[Square, bool]:
    c, r = sq
    if r == 2:
        return ((c - 1, 2), False) if c > 0 else ((0, 1), False)
    if r == 1:
        return ((c + 1, 1), False) if c < 5 else ((5, 0), False)
    return ((c - 1, 0), False) if c > 0 else ((5, 2), True)  # a1 -> f3 crosses the line


@dataclass
class Naive:
    board: dict[Square, list[str]]  # colour letters 'r'/'b'
    side: str
    laps: dict[str, int]
    bumps: dict[str, int]
    pit: dict[str, int]

    def copy(self) -> Naive:
        return Naive({k: list(v) for k, v in self.board.items()}, self.side,
                     dict(self.laps), dict(self.bumps), dict(self.pit))


def from_text(text: str) -> Naive:
    fields = text.split()
    board: dict[Square, list[str]] = {(c, r): [] for c in range(6) for r in range(3)}
    for i, row_text in enumerate(fields[0].split("/")):
        r = 2 - i
        c = 0
        k = 0
        while k < len(row_text):
            ch = row_text[k]
            k += 1
            if ch == ".":
                c += 1
                continue
            n = 1
            if k < len(row_text) and row_text[k].isdigit():
                n = int(row_text[k])
                k += 1
            board[(c, r)] = [ch] * n
            c += 1
    lr, lb = (int(x) for x in fields[2].split("-"))
    br, bb = (int(x) for x in fields[3].split("-"))
    pr, pb = (int(x) for x in fields[4].split("-"))
    return Naive(board, fields[1], {"r": lr, "b": lb}, {"r": br, "b": bb}, {"r": pr, "b": pb})


def _other(colour: str) -> str:
    return "b" if colour == "r" else "r"


def moves(g: Naive, target: int = 5, bumping: bool = True) -> list[Naive]:
    """Every position reachable in one move (one entry per distinct legal action)."""
    me = g.side
    them = _other(me)
    step = step_red if me == "r" else step_black
    start: Square = (0, 0) if me == "r" else (5, 2)
    if g.laps["r"] >= target or g.laps["b"] >= target:
        return []
    if g.bumps["r"] >= target or g.bumps["b"] >= target:
        return []

    def hostile(sq: Square) -> bool:
        return them in g.board[sq]

    out: list[Naive] = []
    if g.pit[me]:
        sq = start
        while hostile(sq):
            sq, _ = step(sq)
        new = g.copy()
        new.pit[me] -= 1
        new.board[sq].append(me)
        new.side = them
        out.append(new)
        return out

    def finish(origin: Square, dest: Square, lapped: bool, bump: bool) -> Naive:
        new = g.copy()
        new.board[origin].pop()
        if bump:
            new.board[dest] = []
            new.pit[them] += 1
            new.bumps[me] += 1
        new.board[dest].append(me)
        if lapped:
            new.laps[me] += 1
        new.side = them
        return new

    for origin in sorted(g.board):
        if me not in g.board[origin]:
            continue
        # cruise: one step at least, then on over opponent squares
        sq, lapped = step(origin)
        while hostile(sq):
            sq, crossed = step(sq)
            lapped = lapped or crossed
        out.append(finish(origin, sq, lapped, False))
        # charge: as many steps as racers in the column
        count = sum(len(g.board[(origin[0], r)]) for r in range(3))
        sq, lapped = origin, False
        for _ in range(count):
            sq, crossed = step(sq)
            lapped = lapped or crossed
        n_them = g.board[sq].count(them)
        if n_them == 0:
            out.append(finish(origin, sq, lapped, False))
        elif n_them == 1:
            if bumping:
                out.append(finish(origin, sq, lapped, True))
            past, past_lap = step(sq)
            past_lap = past_lap or lapped
            while hostile(past):
                past, crossed = step(past)
                past_lap = past_lap or crossed
            out.append(finish(origin, past, past_lap, False))
    return out


def perft(g: Naive, depth: int, target: int = 5, bumping: bool = True) -> int:
    if depth == 0:
        return 1
    children = moves(g, target, bumping)
    if depth == 1:
        return len(children)
    return sum(perft(c, depth - 1, target, bumping) for c in children)
