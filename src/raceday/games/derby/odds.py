"""Exact win and quinella probabilities of Dice Derby, and the odds boards built on them.

The probabilities are computed by dynamic programming over the set of horses still
contending (at most 2**6 sets), with every fall pattern of a round enumerated and the
"everyone fell, roll again" case removed by conditioning. All numbers are exact: the
programme runs on whole-number numerators over a known denominator per group size, and
the answers are exact Fractions.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import floor

from raceday.core.digits import plain_number
from raceday.core.errors import OptionsError, refusal
from raceday.games.derby.rules import (
    POSTS,
    faces_of,
    horse_name,
    number_refused,
    parse_fall_rate,
    shown_text,
)

Pair = tuple[int, int]
ALL_PAIRS: tuple[Pair, ...] = tuple(combinations(POSTS, 2))


def _tie_counts(h: int, g: int) -> tuple[int, ...]:
    """For each number v = 1..faces(h) that horse h shows: the faces of horse g that leave
    h to drop. A smaller die that ties leaves h to drop (it must show v or more); a larger
    die that ties drops itself (it must show more than v)."""
    n, m = faces_of(h), faces_of(g)
    smaller = m < n
    return tuple(min(m, max(0, m - v + 1)) if smaller else min(m, max(0, m - v))
                 for v in range(1, n + 1))


_TIE_COUNTS = {(h, g): _tie_counts(h, g) for h in POSTS for g in POSTS if g != h}


@cache
def _drop_counts(group: frozenset[int]) -> dict[int, int]:
    """For a round with no falls: the number of rolls, out of the product of the group's
    faces, in which each horse of ``group`` drops (lowest number; on a tie for lowest the
    die with more faces drops)."""
    members = sorted(group)
    out: dict[int, int] = {}
    for h in members:
        columns = [_TIE_COUNTS[h, g] for g in members if g != h]
        out[h] = sum(map(math.prod, zip(*columns, strict=True))) if columns else faces_of(h)
    return out


def _faces_product(group: frozenset[int]) -> int:
    product = 1
    for g in group:
        product *= faces_of(g)
    return product


@cache
def drop_distribution(group: frozenset[int]) -> dict[int, Fraction]:
    """For a round with no falls: the probability that each horse of ``group`` drops
    (lowest number; on a tie for lowest the die with more faces drops)."""
    denominator = _faces_product(group)
    return {h: Fraction(c, denominator) for h, c in _drop_counts(group).items()}


# --- the dynamic programme, in whole numbers -------------------------------------------------
# With the fall rate a/b, every branch of a round of a k-horse group has a probability with
# denominator Q_k = b**k - a**k (times the product of the faces for a drop): no falls
# (b - a)**k / Q_k, m given fallers a**m (b - a)**(k - m) / Q_k. So every chance of a
# k-horse group is a whole number over D_k = F**(k-1) * Q_2 * ... * Q_k, F the product of
# all six dice's faces (each D_j divides D_k, j < k): the programme runs on numerators
# alone, and one exact Fraction per answer is reduced at the end. This is the same exact
# result as adding Fractions branch by branch, many times faster.
_ALL_FACES = _faces_product(frozenset(POSTS))


@cache
def _scales(a: int, b: int) -> tuple[int, ...]:
    """(D_0 = D_1, D_1, ..., D_6) for the rate a/b."""
    scales = [1, 1]
    for k in range(2, len(POSTS) + 1):
        scales.append(scales[-1] * _ALL_FACES * (b**k - a**k))
    return tuple(scales)


def _branches(group: frozenset[int], a: int, b: int) -> tuple[int, list[tuple[int, int]]]:
    """For a group of k horses: the whole-number factor of its no-fall branch (applied to
    drop counts times the numerators of the k-1 groups), and per number m of fallers the
    factor applied to the numerators of the (k - m)-horse groups left (before the scale
    of the (k - m)-horse group is evened up to that of k - 1 horses)."""
    k = len(group)
    clean = (b - a) ** k * (_ALL_FACES // _faces_product(group))
    falls = [(m, _ALL_FACES * a**m * (b - a) ** (k - m)) for m in range(1, k)] if a else []
    return clean, falls


def _round_branches(group: frozenset[int], a: int, b: int
                    ) -> Iterator[tuple[int, frozenset[int], tuple[int, ...]]]:
    """Every branch of one round of ``group`` (k horses) as (whole-number factor, the
    horses left racing, the fallen): each drop, then each set of fallers, the factor evened
    up to the scale of k - 1 horses (see :func:`_branches`)."""
    scales = _scales(a, b)
    k = len(group)
    clean, falls = _branches(group, a, b)
    for d, count in _drop_counts(group).items():
        yield clean * count, group - {d}, ()
    for m, weight in falls:
        factor = weight * (scales[k - 1] // scales[k - m])
        for fallen in combinations(sorted(group), m):
            yield factor, group.difference(fallen), fallen


@cache
def _win_numerators(group: frozenset[int], a: int, b: int) -> dict[int, int]:
    """``win_probabilities(group, a/b)`` times ``_scales(a, b)[len(group)]`` (the rate as
    two whole numbers: a cheaper cache key than a Fraction)."""
    members = sorted(group)
    if len(members) == 1:
        return {members[0]: 1}
    result = dict.fromkeys(members, 0)
    for factor, rest, _ in _round_branches(group, a, b):
        for h, n in _win_numerators(rest, a, b).items():
            result[h] += factor * n
    return result


@cache
def _quinella_numerators(group: frozenset[int], a: int, b: int) -> dict[Pair, int]:
    """``quinella_probabilities(group, a/b)`` times ``_scales(a, b)[len(group)]``."""
    members = sorted(group)
    scales = _scales(a, b)
    if len(members) == 2:
        return {(members[0], members[1]): scales[2]}
    result = dict.fromkeys(combinations(members, 2), 0)
    for factor, rest, fallen in _round_branches(group, a, b):
        if len(rest) >= 2:
            for pair, n in _quinella_numerators(rest, a, b).items():
                result[pair] += factor * n
        else:  # the one left standing is 1st; the fallen roll off for 2nd (their
            # numerators are at the scale of the fallen group, not of the one left)
            (leader,) = rest
            roll_off = factor // scales[len(fallen)]
            for h, n in _win_numerators(frozenset(fallen), a, b).items():
                result[min(leader, h), max(leader, h)] += roll_off * n
    return result


@cache
def win_probabilities(group: frozenset[int], rate: Fraction) -> dict[int, Fraction]:
    """Probability that each horse of ``group`` takes the best place the group contests."""
    a, b = rate.numerator, rate.denominator
    scale = _scales(a, b)[len(group)]
    return {h: Fraction(n, scale) for h, n in _win_numerators(group, a, b).items()}


@cache
def quinella_probabilities(group: frozenset[int], rate: Fraction) -> dict[Pair, Fraction]:
    """Probability that each pair of ``group`` takes the two best places it contests."""
    if len(group) < 2:
        raise ValueError("a quinella needs at least two horses")
    a, b = rate.numerator, rate.denominator
    scale = _scales(a, b)[len(group)]
    return {pair: Fraction(n, scale)
            for pair, n in _quinella_numerators(group, a, b).items()}


@dataclass(frozen=True)
class ExactOdds:
    """Exact probabilities of a full race for one fall rate."""

    fall_rate: Fraction
    win: Mapping[int, Fraction]
    quinella: Mapping[Pair, Fraction]

    def to_json(self) -> dict[str, object]:
        """``{"game": "derby", "win": {"d4": p, ...}, "quinella": {"d4-d6": p, ...}}``."""
        return chances_json({h: float(p) for h, p in self.win.items()},
                            {pr: float(p) for pr, p in self.quinella.items()})


def chances_json(win: Mapping[int, float], quinella: Mapping[Pair, float],
                 **extra: object) -> dict[str, object]:
    """Chances of a race as JSON (exact or simulated): ``{"game": "derby", **extra, "win":
    {"d4": p, ...}, "quinella": {"d4-d6": p, ...}}``, horses and pairs in order."""
    return {
        "game": "derby",
        **extra,
        "win": {horse_name(h): p for h, p in sorted(win.items())},
        "quinella": {pair_name(pr): p for pr, p in sorted(quinella.items())},
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


MARGIN_TEXT = "a margin is a decimal or a fraction, such as 0.1 or 1/10"  # its words:
# derby.reason.margin_form


def parse_margin(value: object) -> Fraction:
    """An exact margin from ``0.1``, ``"0.1"``, ``"1/10"`` or a Fraction; must lie in
    [0, 0.5]. Text is ASCII digits with a decimal point or a slash, never an exponent (see
    :func:`raceday.games.derby.rules.parse_fall_rate`)."""
    margin = plain_number(value, signed=True)  # a minus sign: the range's message below
    if margin is None:
        raise number_refused("derby.reason.margin_form", value)
    if not 0 <= margin <= Fraction(1, 2):
        raise refusal(OptionsError, "derby.reason.margin_range",
                      got=shown_text(value, quote=False))
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
