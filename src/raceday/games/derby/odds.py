"""Exact win and quinella probabilities of Dice Derby, and the odds boards built on them.

The probabilities are computed by dynamic programming over the set of horses still
contending (at most 2**6 sets), with every fall pattern of a round enumerated and the
"everyone fell, roll again" case removed by conditioning. All numbers are exact Fractions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import floor

from raceday.core.errors import OptionsError
from raceday.games.derby.rules import POSTS, faces_of, horse_name, parse_fall_rate

Pair = tuple[int, int]
ALL_PAIRS: tuple[Pair, ...] = tuple(combinations(POSTS, 2))


@cache
def drop_distribution(group: frozenset[int]) -> dict[int, Fraction]:
    """For a round with no falls: the probability that each horse of ``group`` drops
    (lowest number; on a tie for lowest the die with more faces drops).

    Counted in whole numbers over the common denominator (the product of the faces), with
    one exact Fraction per horse at the end: the same exact result, several times faster."""
    members = sorted(group)
    denominator = 1
    for g in members:
        denominator *= faces_of(g)
    out: dict[int, Fraction] = {}
    for h in members:
        n = faces_of(h)
        others = [(faces_of(g), faces_of(g) < n) for g in members if g != h]
        total = 0
        for v in range(1, n + 1):
            # a smaller die that ties leaves h to drop (it must show v or more); a larger
            # die that ties drops itself (it must show more than v)
            term = 1
            for m, smaller in others:
                term *= min(m, max(0, m - v + 1)) if smaller else min(m, max(0, m - v))
                if not term:
                    break
            total += term
        out[h] = Fraction(total, denominator)
    return out


def _fall_patterns(
    group: frozenset[int], rate: Fraction
) -> Iterator[tuple[frozenset[int], Fraction]]:
    """Every non-empty set of fallers that is not the whole group, with its probability
    conditioned on the round not being rolled again."""
    k = len(group)
    keep = 1 - rate**k
    members = sorted(group)
    for m in range(1, k):
        p = rate**m * (1 - rate) ** (k - m) / keep
        for fallen in combinations(members, m):
            yield frozenset(fallen), p


@cache
def win_probabilities(group: frozenset[int], rate: Fraction) -> dict[int, Fraction]:
    """Probability that each horse of ``group`` takes the best place the group contests."""
    if len(group) == 1:
        return {next(iter(group)): Fraction(1)}
    result = dict.fromkeys(sorted(group), Fraction(0))
    clean = (1 - rate) ** len(group) / (1 - rate ** len(group))
    for d, pd in drop_distribution(group).items():
        for h, ph in win_probabilities(group - {d}, rate).items():
            result[h] += clean * pd * ph
    if rate:
        for fallen, p in _fall_patterns(group, rate):
            rest = group - fallen
            for h, ph in win_probabilities(rest, rate).items():
                result[h] += p * ph
    return result


@cache
def quinella_probabilities(group: frozenset[int], rate: Fraction) -> dict[Pair, Fraction]:
    """Probability that each pair of ``group`` takes the two best places it contests."""
    if len(group) < 2:
        raise ValueError("a quinella needs at least two horses")
    if len(group) == 2:
        a, b = sorted(group)
        return {(a, b): Fraction(1)}
    result: dict[Pair, Fraction] = {}

    def add(pair: Pair, p: Fraction) -> None:
        key = (min(pair), max(pair))
        result[key] = result.get(key, Fraction(0)) + p

    clean = (1 - rate) ** len(group) / (1 - rate ** len(group))
    for d, pd in drop_distribution(group).items():
        for pair, pp in quinella_probabilities(group - {d}, rate).items():
            add(pair, clean * pd * pp)
    if rate:
        for fallen, p in _fall_patterns(group, rate):
            rest = group - fallen
            if len(rest) >= 2:
                for pair, pp in quinella_probabilities(rest, rate).items():
                    add(pair, p * pp)
            else:  # the one left standing is 1st; the fallen roll off for 2nd
                (leader,) = rest
                for h, ph in win_probabilities(fallen, rate).items():
                    add((leader, h), p * ph)
    return {pair: result.get(pair, Fraction(0)) for pair in combinations(sorted(group), 2)}


@dataclass(frozen=True)
class ExactOdds:
    """Exact probabilities of a full race for one fall rate."""

    fall_rate: Fraction
    win: Mapping[int, Fraction]
    quinella: Mapping[Pair, Fraction]

    def to_json(self) -> dict[str, object]:
        """``{"game": "derby", "win": {"d4": p, ...}, "quinella": {"d4-d6": p, ...}}``."""
        return {
            "game": "derby",
            "win": {horse_name(h): float(p) for h, p in sorted(self.win.items())},
            "quinella": {pair_name(pr): float(p) for pr, p in sorted(self.quinella.items())},
        }


def pair_name(pair: Pair) -> str:
    """``"d4-d6"``: the two dice in ascending order."""
    a, b = sorted(pair)
    return f"{horse_name(a)}-{horse_name(b)}"


def exact_odds(fall_rate: object = 0) -> ExactOdds:
    """Win and quinella probabilities of a race with the given fall rate."""
    rate = parse_fall_rate(fall_rate)
    everyone = frozenset(POSTS)
    return ExactOdds(
        rate, win_probabilities(everyone, rate), quinella_probabilities(everyone, rate)
    )


# --- the odds board ------------------------------------------------------------------------

EASY_ODDS_TENTHS: tuple[int, ...] = tuple(
    int(x * 10)
    for x in (1.1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80,
              100, 150, 200, 300, 500, 1000, 2000, 5000, 10000)
)
MIN_ODDS_TENTHS = 11  # every board pays at least 1.1 times the stake
FIRST_OUT_FACTOR = Fraction(3, 2)


def parse_margin(value: object) -> Fraction:
    """An exact margin from ``0.1`` or ``"1/10"``; must lie in [0, 0.5]."""
    try:
        margin = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise OptionsError(f"margin must be a number such as 0.1, got {value!r}") from None
    if not 0 <= margin <= Fraction(1, 2):
        raise OptionsError(f"margin must be between 0 and 0.5, got {value}")
    return margin


def round_tenths(x: Fraction) -> int:
    """``x`` rounded half-up to one decimal place, in tenths."""
    return floor(x * 10 + Fraction(1, 2))


def simplify_tenths(tenths: int) -> int:
    """The easy number a party board shows: the largest easy value not above ``tenths``
    (beyond 10000, whole ten-thousands)."""
    if tenths >= EASY_ODDS_TENTHS[-1]:
        return tenths // EASY_ODDS_TENTHS[-1] * EASY_ODDS_TENTHS[-1]
    best = EASY_ODDS_TENTHS[0]
    for easy in EASY_ODDS_TENTHS:
        if easy <= tenths:
            best = easy
    return best


def board_tenths(probability: Fraction, margin: Fraction, simple: bool = False) -> int:
    """Board odds for an event of this probability: fair odds times (1 - margin), to 0.1
    (at least 1.1), snapped down to an easy number on a simplified board."""
    if probability <= 0:
        raise ValueError("no odds for an impossible event")
    tenths = max(MIN_ODDS_TENTHS, round_tenths((1 - margin) / probability))
    return simplify_tenths(tenths) if simple else tenths


def format_odds(tenths: int) -> str:
    """``"12.5"`` for 125 tenths."""
    return f"{tenths // 10}.{tenths % 10}"


@dataclass(frozen=True)
class OddsBoard:
    """The odds shown before a race, in tenths.

    A win ticket on post ``h`` pays ``stake * win[h] / 10``; a quinella ticket on
    ``(a, b)`` pays ``stake * quinella[(a, b)] / 10``.
    """

    win: Mapping[int, int]
    quinella: Mapping[Pair, int]
    bonus: Mapping[int, int] = field(default_factory=dict)  # first-out bonuses applied per post

    def payout(self, stake: int, tenths: int) -> int:
        """The amount paid back on a winning stake (stake included), rounded down."""
        return stake * tenths // 10


def make_board(
    odds: ExactOdds,
    margin: Fraction,
    *,
    simple: bool = False,
    first_out_counts: Mapping[int, int] | None = None,
) -> OddsBoard:
    """The board for a race: every win and quinella price, with the optional first-out
    bonus (win odds times 1.5 for every earlier race the horse dropped first in)."""
    counts = {h: c for h, c in (first_out_counts or {}).items() if c > 0}
    win: dict[int, int] = {}
    for h in POSTS:
        base = max(MIN_ODDS_TENTHS, round_tenths((1 - margin) / odds.win[h]))
        if counts.get(h):
            base = floor(base * FIRST_OUT_FACTOR ** counts[h] + Fraction(1, 2))
        win[h] = simplify_tenths(base) if simple else base
    quinella = {pr: board_tenths(odds.quinella[pr], margin, simple) for pr in ALL_PAIRS}
    return OddsBoard(win, quinella, counts)
