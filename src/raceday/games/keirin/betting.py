"""Tickets, prices and settlement for bets on the first three of a race (pure; no prompts).

Nothing here is KEIRIN-specific beyond the bet types on the first three places, so another
racing game can reuse it: give it the race's exact probabilities (for fixed odds) or just
the tickets (for a pool) and the finishing order.

Money is kept in whole cents (``int``) so that settlement is exact.

Fixed odds
    A combination with probability ``p`` is offered at decimal odds ``(1 - margin) / p``,
    quoted to two decimals and rounded down (the house keeps the fraction of a cent of
    odds). A winning ticket returns ``stake * odds`` (stake included), rounded down to the
    cent. Combinations that cannot happen (``p == 0``) are not offered.
Pari-mutuel pools (totalisator)
    Every bet type has its own pool of all stakes. The takeout (``margin``) is removed and the
    rest is shared by the tickets holding the winning combination in proportion to their
    stakes (each return rounded down to the cent). If nobody holds the winning combination,
    every stake in that pool is refunded in full (no takeout).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from raceday.core.digits import ascii_int
from raceday.core.errors import BetError as BetError  # its old home: still importable here
from raceday.core.errors import refusal
from raceday.core.events import Message

KINDS: dict[str, tuple[int, bool]] = {  # name -> (riders named, order matters)
    "win": (1, True),
    "exacta": (2, True),
    "quinella": (2, False),
    "trifecta": (3, True),
    "trio": (3, False),
}
ALIASES = {"w": "win", "ex": "exacta", "q": "quinella", "qu": "quinella",
           "tri": "trifecta", "tf": "trifecta", "tr": "trio"}
MODES = ("fixed", "pool")
MAX_STAKE_CENTS = 10**13  # a hundred billion: beyond this a typo is likelier than a bet


# --- money --------------------------------------------------------------------------------------
# One strict grammar for amounts: ASCII digits, optional thousands commas (1,000), at most
# two decimals. No underscores, exponents, signs, other scripts' digits or superscripts.
_AMOUNT = re.compile(r"(?:[0-9]+|[0-9]{1,3}(?:,[0-9]{3})+)(?:\.[0-9]{1,2})?")
_AMOUNT_LIKE = re.compile(r"[0-9,]+(?:\.[0-9]+)?")


def parse_money(text: str, *, limit: int | None = MAX_STAKE_CENTS) -> int:
    """``"12.5"`` -> 1250 cents. Positive, ASCII digits, at most two decimals; at most
    ``limit`` cents (None: no upper limit, the caller checks it)."""
    cleaned = text.strip()
    if cleaned.startswith("-") and _AMOUNT.fullmatch(cleaned[1:]):
        raise refusal(BetError, "keirin.refusal.amount_zero", got=repr(cleaned))
    if not _AMOUNT.fullmatch(cleaned):
        if _AMOUNT_LIKE.fullmatch(cleaned) and "." in cleaned and "," not in cleaned:
            raise refusal(BetError, "keirin.refusal.amount_cents", got=repr(cleaned))
        raise refusal(BetError, "keirin.refusal.amount_not", got=repr(cleaned))
    cents = int(Decimal(cleaned.replace(",", "")) * 100)
    if cents <= 0:
        raise refusal(BetError, "keirin.refusal.amount_zero", got=repr(cleaned))
    if limit is not None and cents > limit:
        raise refusal(BetError, "keirin.refusal.amount_large", got=repr(cleaned),
                      limit=format_money(limit))
    return cents


def format_money(cents: int) -> str:
    """1234550 -> ``"12,345.50"`` (negative with a leading minus)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole:,}.{part:02d}"


def format_odds(hundredths: int) -> str:
    return format_money(hundredths)


# --- tickets ------------------------------------------------------------------------------------
def canonical(kind: str, riders: Sequence[int]) -> tuple[int, ...]:
    """The selection as stored: in order for win/exacta/trifecta, ascending otherwise."""
    ordered = KINDS[kind][1]
    return tuple(riders) if ordered else tuple(sorted(riders))


def selection_text(kind: str, selection: Sequence[int]) -> str:
    return ("-" if KINDS[kind][1] else "=").join(str(r) for r in selection)


def winning_selection(kind: str, result: Sequence[int]) -> tuple[int, ...]:
    """The winning combination of a bet type for a finishing order."""
    size = KINDS[kind][0]
    if len(result) < size:
        raise ValueError(f"a {kind} needs the first {size} places, got {list(result)}")
    return canonical(kind, result[:size])


@dataclass(frozen=True)
class Ticket:
    """One bet: who, which type, which riders, how much, and (fixed odds) the odds taken."""

    player: str
    kind: str
    selection: tuple[int, ...]
    stake: int  # cents
    odds: int | None = None  # hundredths (fixed odds); None in a pool

    def describe(self) -> str:
        at = f" at {format_odds(self.odds)}" if self.odds is not None else ""
        return (f"{self.kind} {selection_text(self.kind, self.selection)} "
                f"for {format_money(self.stake)}{at}")

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "selection": list(self.selection),
                "stake": self.stake, "odds": self.odds}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ticket:
        try:
            kind = str(data["kind"])
            selection = tuple(int(r) for r in data["selection"])
            odds = data.get("odds")
            ticket = cls(str(data["player"]), kind, selection, int(data["stake"]),
                         None if odds is None else int(odds))
        except (KeyError, TypeError, ValueError) as exc:
            raise BetError(f"malformed ticket {data!r}: {exc}") from None
        if kind not in KINDS or len(selection) != KINDS[kind][0] or ticket.stake <= 0:
            raise BetError(f"malformed ticket {data!r}")
        return ticket


_RIDER = re.compile(r"[0-9]+")
_JOIN = "-=,/"


def _selection_tokens(text: str) -> list[str]:
    """Split the riders part on the joiners and spaces, keeping every token (an empty
    token means two joiners in a row or a joiner at an end, which is an error)."""
    return [t for t in re.split(r"\s*[-=,/]\s*|\s+", text.strip())]


def parse_ticket(
    text: str, riders: int, *, stake_limit: int | None = MAX_STAKE_CENTS
) -> tuple[str, tuple[int, ...], int]:
    """``"exacta 3-4 50"`` -> ("exacta", (3, 4), 5000).

    The grammar: ``TYPE RIDERS STAKE`` where TYPE is a bet type (or its short name), RIDERS
    are rider numbers in ASCII digits joined by one of ``- = , /`` or by spaces, and STAKE an
    amount (see :func:`parse_money`). Anything else is refused with the bad token named.
    """
    words = text.strip().split()
    if len(words) < 3:
        raise refusal(BetError, "keirin.refusal.ticket_grammar", got=repr(text.strip()))
    name = words[0].lower()
    kind = ALIASES.get(name, name)
    if kind not in KINDS:
        raise refusal(BetError, "keirin.refusal.unknown_kind", got=repr(words[0]),
                      kinds=", ".join(KINDS))
    size, _ = KINDS[kind]
    parts = _selection_tokens(" ".join(words[1:-1]))
    for p in parts:
        if p == "":
            raise refusal(BetError, "keirin.refusal.joiner", got=repr(" ".join(words[1:-1])),
                          riders=riders)
        number = ascii_int(p) if _RIDER.fullmatch(p) else None
        if number is None or not 1 <= number <= riders:
            raise refusal(BetError, "keirin.refusal.unknown_rider", got=repr(p), riders=riders)
    if len(parts) != size:
        raise refusal(BetError, "keirin.refusal.rider_count" + ("_one" if size == 1 else ""),
                      kind=Message(f"keirin.kr_{kind}"), size=size, got=len(parts))
    picked = [int(p) for p in parts]  # each checked above: ASCII digits, 1 to riders
    if len(set(picked)) != len(picked):
        raise refusal(BetError, "keirin.refusal.rider_twice", kind=Message(f"keirin.kr_{kind}"),
                      riders="-".join(parts))
    stake = parse_money(words[-1], limit=stake_limit)
    return kind, canonical(kind, picked), stake


# --- fixed odds -----------------------------------------------------------------------------
def quoted_odds(probability: float, margin: float) -> int | None:
    """Decimal odds ``(1 - margin) / p`` in hundredths, rounded down; None if ``p`` is 0."""
    if not 0 <= margin < 1:
        raise BetError(f"margin must be at least 0 and below 1, got {margin}")
    if probability <= 0:
        return None
    return int(Fraction(1 - Fraction(str(margin))) * 100 / Fraction(probability))


def fixed_return(ticket: Ticket, result: Sequence[int]) -> int:
    """What a fixed-odds ticket returns (stake included) for a finishing order, in cents."""
    if ticket.odds is None:
        raise ValueError("a fixed-odds ticket needs its odds")
    if winning_selection(ticket.kind, result) != ticket.selection:
        return 0
    return ticket.stake * ticket.odds // 100


# --- pools --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PoolResult:
    """One bet type's pool after a race."""

    kind: str
    pool: int  # all stakes, cents
    winning: tuple[int, ...]
    winning_stakes: int
    refunded: bool  # nobody held the winning combination: every stake returned
    net: Fraction  # what the winners share (pool minus takeout)

    def dividend(self) -> Fraction | None:
        """Return per unit staked on the winning combination (None if refunded or unused)."""
        if self.refunded or self.winning_stakes == 0:
            return None
        return self.net / self.winning_stakes


def settle_pools(
    tickets: Sequence[Ticket], result: Sequence[int], takeout: float
) -> tuple[list[int], dict[str, PoolResult]]:
    """Returns per ticket (same order) and each used pool's summary."""
    if not 0 <= takeout < 1:
        raise BetError(f"takeout must be at least 0 and below 1, got {takeout}")
    keep = 1 - Fraction(str(takeout))
    returns = [0] * len(tickets)
    pools: dict[str, PoolResult] = {}
    for kind in KINDS:
        idx = [i for i, t in enumerate(tickets) if t.kind == kind]
        if not idx:
            continue
        pool = sum(tickets[i].stake for i in idx)
        win = winning_selection(kind, result)
        winners = [i for i in idx if tickets[i].selection == win]
        winning_stakes = sum(tickets[i].stake for i in winners)
        if not winners:
            for i in idx:
                returns[i] = tickets[i].stake
            pools[kind] = PoolResult(kind, pool, win, 0, True, Fraction(pool))
            continue
        net = pool * keep
        for i in winners:
            returns[i] = int(tickets[i].stake * net / winning_stakes)  # floor: breakage
        pools[kind] = PoolResult(kind, pool, win, winning_stakes, False, net)
    return returns, pools


# --- accounts -------------------------------------------------------------------------------
@dataclass
class Account:
    """A player's money over a session (cents)."""

    bankroll: int
    staked: int = 0
    returned: int = 0
    tickets: int = 0
    winning_tickets: int = 0
    winnings: int = 0  # what winning tickets paid: ``returned`` without refunded stakes

    def to_json(self) -> dict[str, int]:
        return {"bankroll": self.bankroll, "staked": self.staked, "returned": self.returned,
                "tickets": self.tickets, "winning_tickets": self.winning_tickets,
                "winnings": self.winnings}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Account:
        try:
            fields = {k: int(data[k]) for k in
                      ("bankroll", "staked", "returned", "tickets", "winning_tickets")}
            # an account saved before winnings were kept apart: all it returned
            return cls(**fields, winnings=int(data.get("winnings", fields["returned"])))
        except (KeyError, TypeError, ValueError) as exc:
            raise BetError(f"malformed account {data!r}: {exc}") from None


def check_affordable(
    account: Account, pending: Iterable[Ticket], stake: int, allow_debt: bool
) -> None:
    """Refuse a stake the player cannot cover with what is left after this race's tickets."""
    if allow_debt:
        return
    left = account.bankroll - sum(t.stake for t in pending)
    if stake > left:
        raise refusal(BetError, "keirin.refusal.over_purse", stake=format_money(stake),
                      left=format_money(max(left, 0)))


def all_selections(kind: str, riders: int) -> list[tuple[int, ...]]:
    size, ordered = KINDS[kind]
    pick = itertools.permutations if ordered else itertools.combinations
    return [tuple(s) for s in pick(range(1, riders + 1), size)]
