"""A KEIRIN betting night in a browser room: ``raceday keirin bet``, on phones and a big screen.

The rules and the money live in the engine: :class:`~raceday.games.keirin.session.BetSession`
checks every ticket (:meth:`~BetSession.ticket_from_text`: bet type, riders, stake, purse,
offered odds), takes the stakes when betting closes (:meth:`~BetSession.lock`) and pays the
race (:meth:`~BetSession.settle`: fixed odds or pari-mutuel pools); the race itself is a
:class:`~raceday.games.keirin.rules.KeirinState` whose chance nodes are drawn with the
room's generator. This module turns intents into those calls, follows the terminal night's
order of play (:mod:`raceday.games.keirin.interactive`) and decides what each screen sees.

Flow:

* **lobby** — players join by name; the host starts the night (at least one player).
* **betting** — each phone buys secret tickets (``ticket``: all five bet types), may take
  one back (``cancel``) and says ``done``. When every player is done, or the host
  ``close_betting``, betting closes: the engine takes the stakes and the race starts.
  The host may instead ``finish`` the night (the open tickets are withdrawn, no money moves).
* **racing** — the host screen asks for the race one step at a time (``advance``): the
  derny's roll and the line-up first, then one turn of throws (or one photo-finish) per
  step, as the terminal shows it. When the race is over the engine settles it, and the next
  race's betting opens, or after the last race the night ends with the standings.

What each screen sees: the public view has the players' names, their purse *as it was
before this race's stakes* (so nobody learns the size of a secret stake), who is done
betting (never their tickets), the odds board (fixed odds) or the tote board (pool
totals per bet type and combination, never who bet what), the live race and the last
results. A seat's view adds ``me``: its own purse, its own tickets and what they returned.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar, Self, cast

import numpy as np

from raceday.core.errors import RacedayError
from raceday.games.keirin.betting import (
    KINDS,
    Ticket,
    fixed_return,
    format_money,
    quoted_odds,
    selection_text,
    settle_pools,
    winning_selection,
)
from raceday.games.keirin.odds import BET_TYPES, race_odds
from raceday.games.keirin.rules import PHASE_PHOTO, KeirinOptions, KeirinState
from raceday.games.keirin.session import BetSession
from raceday.web.logic import JSON, Actor, RoomError

FORMAT = 1
MAX_SEATS = 12
MAX_TICKETS = 30  # tickets one phone may hold on one race
MAX_TEXT = 80  # characters of a typed ticket
LAP = 100  # squares in one lap of the track (the finish is at ``length``)
TOP_ROWS = 10  # most likely combinations of each bet type shown on the big screen
STEP_BOUND = 5_000  # chance steps in one ``advance`` (a photo-finish may repeat)
PHASE_LOBBY = "lobby"
PHASE_BETTING = "betting"
PHASE_RACING = "racing"
PHASE_FINISHED = "finished"
SESSION_NAME = "party"

# options a host may set: name -> (low, high) for whole numbers
INT_OPTIONS: dict[str, tuple[int, int]] = {
    "races": (1, 12),
    "riders": (6, 9),
    "length": (19, 1000),
    "bankroll": (1, 100_000_000),  # whole money units (the engine counts cents)
}
DEFAULTS: JSON = {"races": 3, "riders": 9, "length": 50, "bankroll": 10_000, "mode": "fixed",
                  "margin": 0.0}


def _int(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoomError(f"{what} must be a whole number")
    if not low <= value <= high:
        raise RoomError(f"{what} must be from {low:,} to {high:,}")
    return value


def _event(name: str, /, **data: Any) -> JSON:
    return {"type": name, **data}


class _Ledger:
    """Stands in for the session store: the room keeps the session document in its own
    state (saved by the party server in one transaction per intent), so the engine's
    save points only count revisions here."""

    def exists(self, game: str, name: str) -> bool:
        return False

    def save(self, game: str, name: str, document: Mapping[str, Any], *,
             expected_revision: int | None = None,
             log_entry: Mapping[str, Any] | None = None) -> int:
        return (expected_revision or 0) + 1


def _key(selection: tuple[int, ...] | list[int]) -> str:
    return "-".join(str(r) for r in selection)


class KeirinRoom:
    """A KEIRIN betting night for a browser room (see the module docstring)."""

    game: ClassVar[str] = "keirin"
    max_seats: ClassVar[int] = MAX_SEATS

    def __init__(self, config: JSON, seed: int, names: list[str] | None = None) -> None:
        self.config = config
        self.seed = seed
        self.names: list[str] = list(names or [])
        self.session: BetSession | None = None
        self.tickets: list[Ticket] = []  # this race's open (or locked) tickets
        self.done: set[int] = set()
        self.race: KeirinState | None = None
        self.step: list[JSON] = []  # the events of the race's last step (throws, commentary)
        self.last: JSON | None = None  # the last settled race, public
        self.returns: dict[int, list[JSON]] = {}  # seat -> its tickets of the last race
        self.over = False
        self._tote: tuple[tuple[Ticket, ...], JSON] | None = None

    # --- creating and saving ------------------------------------------------------------
    @classmethod
    def options_of(cls, config: Mapping[str, Any]) -> KeirinOptions:
        options = {"riders": config["riders"], "length": config["length"]}
        try:
            return KeirinOptions.from_mapping(options)
        except (RacedayError, ValueError) as exc:
            raise RoomError(str(exc)) from None

    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> Self:
        if not isinstance(options, Mapping):
            raise RoomError("options must be an object")
        unknown = sorted(set(options) - set(DEFAULTS))
        if unknown:
            raise RoomError(f"unknown KEIRIN option(s): {', '.join(map(str, unknown))}")
        config = dict(DEFAULTS)
        for name, value in options.items():
            if name in INT_OPTIONS:
                config[name] = _int(value, name, *INT_OPTIONS[name])
            elif name == "mode":
                if value not in ("fixed", "pool"):
                    raise RoomError("mode is 'fixed' (fixed odds) or 'pool' (pari-mutuel)")
                config[name] = value
            else:  # margin
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise RoomError("margin is a number from 0 to below 1, such as 0.1")
                config[name] = float(value)
        cls.options_of(config)
        # the engine checks the margin and the bankroll the way the terminal night does
        try:
            BetSession.new(SESSION_NAME, ["check"], cls.options_of(config),
                           bankroll=config["bankroll"] * 100, mode=config["mode"],
                           margin=config["margin"], seed=seed)
        except RacedayError as exc:
            raise RoomError(str(exc)) from None
        return cls(config, seed)

    def to_json(self) -> JSON:
        s = self.session
        return {
            "format": FORMAT,
            "config": dict(self.config),
            "seed": self.seed,
            "names": list(self.names),
            "session": None if s is None else s.to_document(),
            "tickets": [t.to_json() for t in self.tickets],
            "done": sorted(self.done),
            "race": None if self.race is None else self.race.to_json(),
            "step": self.step,
            "last": self.last,
            "returns": [[seat, r] for seat, r in sorted(self.returns.items())],
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            if data.get("format") != FORMAT:
                raise RoomError(f"unknown KEIRIN room format {data.get('format')!r}")
            room = cls(dict(data["config"]), int(data["seed"]), [str(n) for n in data["names"]])
            if data["session"] is not None:
                room.session = BetSession.from_document(SESSION_NAME, data["session"], 1)
            room.tickets = [Ticket.from_json(t) for t in data["tickets"]]
            room.done = {int(s) for s in data["done"]}
            if data["race"] is not None:
                room.race = KeirinState.from_json(data["race"])
            room.step = list(data["step"])
            room.last = data["last"]
            room.returns = {int(seat): list(r) for seat, r in data["returns"]}
            room.over = bool(data["over"])
        except (KeyError, TypeError, ValueError, AttributeError, RacedayError) as exc:
            if isinstance(exc, RoomError):
                raise
            raise RoomError(f"malformed KEIRIN room: {exc}") from None
        return room

    # --- seats --------------------------------------------------------------------------
    def seat_names(self) -> list[str]:
        return list(self.names)

    def add_seat(self, name: str) -> int:
        if self.session is not None:
            raise RoomError("the night has started; watch with the spectator link instead")
        if len(self.names) >= MAX_SEATS:
            raise RoomError(f"the room is full ({MAX_SEATS} players)")
        if any(n.lower() == name.lower() for n in self.names):
            raise RoomError(f"someone is already called {name!r}; pick another name")
        self.names.append(name)
        return len(self.names) - 1

    def finished(self) -> bool:
        return self.over

    def phase(self) -> str:
        if self.session is None:
            return PHASE_LOBBY
        if self.over:
            return PHASE_FINISHED
        return PHASE_RACING if self.race is not None else PHASE_BETTING

    # --- intents ------------------------------------------------------------------------
    def handle(self, actor: Actor, intent: Mapping[str, Any],
               rng: np.random.Generator) -> list[JSON]:
        kind = intent.get("type")
        if not isinstance(kind, str):
            raise RoomError("an intent needs a 'type'")
        if actor.kind == "spectator":
            raise RoomError("spectators watch; join the room to play")
        handler = (HOST_INTENTS if actor.kind == "host" else SEAT_INTENTS).get(kind)
        if handler is None:
            who = "the host" if actor.kind == "host" else "a player"
            raise RoomError(f"{who} cannot send {kind!r} in KEIRIN")
        events: list[JSON] = []
        try:
            handler(self, actor, intent, rng, events)
            self._close_when_all_done(events)
        except RoomError:
            raise
        except RacedayError as exc:  # the engine's own refusal (a ticket, a stake ...)
            raise RoomError(str(exc)) from None
        return events

    def _in(self, *phases: str) -> BetSession:
        now = self.phase()
        if now == PHASE_LOBBY and PHASE_LOBBY not in phases:
            raise RoomError("the night has not started yet")
        if now not in phases:
            what = {PHASE_BETTING: "betting", PHASE_RACING: "a race", PHASE_LOBBY: "the lobby"}
            wanted = " or ".join(what.get(p, p) for p in phases)
            raise RoomError(f"that is only possible during {wanted} (now: {now})")
        assert self.session is not None
        return self.session

    def _ledger(self) -> Any:
        return cast(Any, _Ledger())

    # host intents
    def _start(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
               events: list[JSON]) -> None:
        if self.session is not None:
            raise RoomError("the night has already started")
        if not self.names:
            raise RoomError("nobody has joined yet: wait for the players' phones")
        c = self.config
        session = BetSession.new(SESSION_NAME, self.names, self.options_of(c),
                                 bankroll=c["bankroll"] * 100, mode=c["mode"],
                                 margin=c["margin"], seed=self.seed)
        session.revision = 0  # saved with the room, never in the session table
        self.session = session
        events.append(_event("started", players=list(self.names)))
        self._open_betting(events)

    def _close_betting(self, actor: Actor, intent: Mapping[str, Any],
                       rng: np.random.Generator, events: list[JSON]) -> None:
        self._in(PHASE_BETTING)
        self.done = set(range(len(self.names)))

    def _advance(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                 events: list[JSON]) -> None:
        """One step of the race as the terminal shows it: the start (derny, line-up,
        slipstream), a whole turn of throws, or a whole photo-finish; then the result."""
        self._in(PHASE_RACING)
        race = self.race
        assert race is not None
        produced: list[JSON] = []
        for _ in range(STEP_BOUND):
            if race.is_terminal():
                break
            draw = race.sample_chance(rng)
            new = race.apply_action(draw.outcome, draw.detail)
            for e in new:
                data = e.to_dict()
                data["type"] = data.pop("kind")
                produced.append(data)
            photo_done = race.phase != PHASE_PHOTO and any(e.kind == "photo_throw" for e in new)
            if photo_done or any(e.kind in ("turn", "slipstream", "result") for e in new):
                break
        else:  # pragma: no cover - a photo-finish tied thousands of times in a row
            raise RoomError("the race took too many throws in one step; try again")
        self.step = produced
        events.extend(produced)
        if race.is_terminal():
            self._settle(events)

    def _finish(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                events: list[JSON]) -> None:
        s = self._in(PHASE_BETTING)
        withdrawn = len(self.tickets)
        self.tickets = []
        self.done = set()
        self.over = True
        events.append(_event("finished", races=s.races, withdrawn=withdrawn,
                             standings=self._standings()))

    # seat intents
    def _ticket(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                events: list[JSON]) -> None:
        s = self._in(PHASE_BETTING)
        seat = self._seat(actor)
        if seat in self.done:
            raise RoomError("you said you were done betting on this race")
        name = self.names[seat]
        if sum(t.player == name for t in self.tickets) >= MAX_TICKETS:
            raise RoomError(f"at most {MAX_TICKETS} tickets on one race")
        ticket = s.ticket_from_text(name, self._ticket_text(intent), self.tickets)
        self.tickets.append(ticket)
        events.append(_event("ticket_sold", kind=ticket.kind))  # never who, never how much

    @staticmethod
    def _ticket_text(intent: Mapping[str, Any]) -> str:
        """The ticket in the terminal's grammar (``exacta 3-4 50``), for the engine to parse:
        either typed (``text``) or chosen (``kind``, ``riders``, ``stake``)."""
        text = intent.get("text")
        if text is not None:
            if not isinstance(text, str) or len(text) > MAX_TEXT or "\n" in text:
                raise RoomError(f"a typed ticket is one line of at most {MAX_TEXT} characters")
            return text
        kind = intent.get("kind")
        if not isinstance(kind, str) or not kind.isascii() or not kind.isalpha() or \
                len(kind) > 12:
            raise RoomError(f"a ticket's kind is one of {', '.join(KINDS)}")
        riders = intent.get("riders")
        if not isinstance(riders, list) or not 1 <= len(riders) <= 3 or any(
                isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= 99
                for r in riders):
            raise RoomError("a ticket names its riders as a list of 1 to 3 rider numbers")
        stake = intent.get("stake")
        if isinstance(stake, int) and not isinstance(stake, bool):
            stake = str(stake)
        if not isinstance(stake, str) or not stake or len(stake) > 20 or \
                any(c.isspace() for c in stake):
            raise RoomError("a stake is an amount such as 100 or 12.50")
        return f"{kind} {'-'.join(str(r) for r in riders)} {stake}"

    def _cancel(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                events: list[JSON]) -> None:
        self._in(PHASE_BETTING)
        seat = self._seat(actor)
        if seat in self.done:
            raise RoomError("you said you were done betting on this race")
        mine = [i for i, t in enumerate(self.tickets) if t.player == self.names[seat]]
        if not mine:
            raise RoomError("you have no ticket to take back")
        index = _int(intent.get("index", len(mine) - 1), "the ticket's number", 0,
                     len(mine) - 1)
        ticket = self.tickets.pop(mine[index])
        events.append(_event("ticket_withdrawn", kind=ticket.kind))

    def _done(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
              events: list[JSON]) -> None:
        self._in(PHASE_BETTING)
        seat = self._seat(actor)
        if seat in self.done:
            raise RoomError("you are already done betting")
        self.done.add(seat)
        events.append(_event("done_betting", player=seat))

    def _seat(self, actor: Actor) -> int:
        assert actor.seat is not None
        return actor.seat

    # --- the automatic part of the flow -------------------------------------------------
    def _open_betting(self, events: list[JSON]) -> None:
        s = self.session
        assert s is not None
        self.tickets = []
        self.done = set()
        self._tote = None
        events.append(_event("betting_open", race=s.races + 1, races=self.config["races"]))

    def _close_when_all_done(self, events: list[JSON]) -> None:
        """When every player is done, betting closes: the engine takes the stakes and the
        race starts (the derny waits for the host screen's first ``advance``)."""
        s = self.session
        if self.phase() != PHASE_BETTING or s is None:
            return
        if any(i not in self.done for i in range(len(self.names))):
            return
        s.lock(self._ledger(), self.tickets)
        self.race = KeirinState(s.options)
        self.step = []
        events.append(_event("betting_closed", race=s.races + 1, tickets=len(self.tickets),
                             pool=sum(t.stake for t in self.tickets)))

    def _settle(self, events: list[JSON]) -> None:
        s = self.session
        race = self.race
        assert s is not None and race is not None
        purses_before = {n: a.bankroll + sum(t.stake for t in self.tickets if t.player == n)
                         for n, a in s.players.items()}
        settlement = s.settle(self._ledger(), race)
        self.returns = {}
        by_name = {n: i for i, n in enumerate(self.names)}
        for t, r in zip(settlement.tickets, settlement.returns, strict=True):
            self.returns.setdefault(by_name[t.player], []).append(
                dict(self._ticket_view(t), returned=r,
                     won=t.selection == winning_selection(t.kind, settlement.ranking)))
        pools = {kind: {"pool": p.pool, "winning": list(p.winning),
                        "label": selection_text(kind, p.winning), "refunded": p.refunded,
                        "dividend": None if p.dividend() is None else float(p.dividend() or 0)}
                 for kind, p in settlement.pools.items()}
        players = []
        for i, n in enumerate(self.names):
            acc = s.players[n]
            staked = sum(t.stake for t in settlement.tickets if t.player == n)
            returned = sum(r for t, r in zip(settlement.tickets, settlement.returns,
                                             strict=True) if t.player == n)
            players.append({"player": i, "name": n, "staked": staked, "returned": returned,
                            "before": purses_before[n], "purse": acc.bankroll})
        winners = {kind: list(winning_selection(kind, settlement.ranking)) for kind in BET_TYPES}
        self.last = {
            "race": settlement.race, "ranking": list(settlement.ranking),
            "derny": settlement.derny, "winners": winners,
            "labels": {k: selection_text(k, tuple(v)) for k, v in winners.items()},
            "pools": pools, "players": players, "tickets": len(settlement.tickets),
            "positions": list(race.positions),
        }
        self.race = None
        self.tickets = []
        events.append(_event("settled", **self.last))
        if s.races >= self.config["races"]:
            self.over = True
            events.append(_event("finished", races=s.races, withdrawn=0,
                                 standings=self._standings()))
        else:
            self._open_betting(events)

    # --- views --------------------------------------------------------------------------
    def _ticket_view(self, t: Ticket) -> JSON:
        out: JSON = {"kind": t.kind, "riders": list(t.selection),
                     "label": selection_text(t.kind, t.selection), "stake": t.stake,
                     "stake_text": format_money(t.stake), "odds": t.odds}
        if t.odds is not None:  # what it returns if it wins, as the engine pays it
            rest = [r for r in range(1, self.config["riders"] + 1) if r not in t.selection]
            out["pays"] = fixed_return(t, [*t.selection, *rest])
        return out

    def board(self) -> JSON:
        """The odds board of this room's options (see :func:`odds_board`)."""
        c = self.config
        return odds_board(c["riders"], c["length"], c["mode"], c["margin"])

    def tote(self) -> JSON:
        """Pari-mutuel: each pool's total, its ticket count, the stakes on each combination
        and what a unit would return if it won now (the engine's own pool settlement on
        the tickets so far). Never who holds a ticket."""
        key = tuple(self.tickets)
        if self._tote is not None and self._tote[0] == key:
            return self._tote[1]
        margin = self.config["margin"]
        riders = self.config["riders"]
        out: JSON = {}
        for kind in BET_TYPES:
            mine = [t for t in self.tickets if t.kind == kind]
            stakes: dict[tuple[int, ...], int] = {}
            for t in mine:
                stakes[t.selection] = stakes.get(t.selection, 0) + t.stake
            if kind == "win":
                for r in range(1, riders + 1):
                    stakes.setdefault((r,), 0)
            combos = []
            order = sorted(stakes) if kind == "win" else sorted(
                stakes, key=lambda sel: (-stakes[sel], sel))
            for sel in order[:riders if kind == "win" else TOP_ROWS]:
                stake = stakes[sel]
                pays = None
                if stake:
                    rest = [r for r in range(1, riders + 1) if r not in sel]
                    _, pools = settle_pools(mine, [*sel, *rest], margin)
                    div = pools[kind].dividend()
                    pays = None if div is None else float(div)
                combos.append({"key": _key(sel), "riders": list(sel), "stake": stake,
                               "pays": pays})
            out[kind] = {"pool": sum(stakes.values()), "tickets": len(mine),
                         "combinations": len([v for v in stakes.values() if v]),
                         "combos": combos}
        self._tote = (key, out)
        return out

    def _standings(self) -> list[JSON]:
        s = self.session
        assert s is not None
        purses = [(self._public_purse(i), i) for i in range(len(self.names))]
        order = sorted(purses, key=lambda x: (-x[0], x[1]))
        out: list[JSON] = []
        for pos, (purse, i) in enumerate(order):
            rank = out[-1]["rank"] if out and out[-1]["purse"] == purse else pos + 1
            name = self.names[i]
            acc = s.players[name]
            locked = [t.stake for t in self._locked() if t.player == name]
            out.append({"rank": rank, "player": i, "name": name, "purse": purse,
                        "won": acc.winning_tickets, "tickets": acc.tickets - len(locked),
                        "net": acc.returned - acc.staked + sum(locked)})
        return out

    def _public_purse(self, seat: int) -> int:
        """A purse without this race's locked stakes: what everyone saw before the race."""
        s = self.session
        assert s is not None
        name = self.names[seat]
        return s.players[name].bankroll + sum(t.stake for t in self._locked() if t.player == name)

    def _locked(self) -> list[Ticket]:
        """The tickets whose stakes the engine has taken for the race now running."""
        return self.tickets if self.race is not None else []

    def _live(self) -> JSON | None:
        race = self.race
        if race is None:
            return None
        length = race.options.length
        active = race.active_riders()
        positions = {str(r): race.positions[r - 1] for r in range(1, race.options.riders + 1)} \
            if race.positions else {}
        front = max((race.positions[r - 1] for r in active), default=length) \
            if race.positions else None
        to_go = None if front is None else max(0, length - front)
        return {
            "phase": race.phase, "turn": race.turn, "derny": race.derny,
            "positions": positions, "ranked": list(race.ranked),
            "photo": [list(g) for g in race.photo_groups] if race.phase == PHASE_PHOTO else [],
            "finish": length, "lap": LAP, "to_go": to_go,
            "laps_to_go": None if to_go is None else -(-to_go // LAP),
            "step": self.step,
        }

    def view(self, actor: Actor) -> JSON:
        c = self.config
        out: JSON = {"game": self.game, "phase": self.phase(), "seats": list(self.names),
                     "max_seats": MAX_SEATS,
                     "config": {**c, "bankroll_cents": c["bankroll"] * 100, "lap": LAP,
                                "kinds": {k: {"riders": n, "ordered": o}
                                          for k, (n, o) in KINDS.items()}}}
        s = self.session
        if s is not None:
            out.update(self._public(s))
        if actor.kind == "seat" and actor.seat is not None:
            out["me"] = self._me(actor.seat)
        return out

    def _public(self, s: BetSession) -> JSON:
        phase = self.phase()
        out: JSON = {
            "race": s.races + (0 if self.over else 1), "races": self.config["races"],
            "settled": s.races,
            "players": [{"index": i, "name": n, "purse": self._public_purse(i),
                         "done": i in self.done} for i, n in enumerate(self.names)],
            "live": self._live(), "last": self.last, "standings": self._standings(),
        }
        if phase in (PHASE_BETTING, PHASE_RACING):
            out["board"] = self.board()  # pool mode: fair chances as a guide, no odds
            if s.mode == "pool":
                out["tote"] = self.tote()
        return out

    def _me(self, seat: int) -> JSON:
        s = self.session
        name = self.names[seat] if seat < len(self.names) else ""
        if s is None:
            return {"seat": seat, "name": name}
        acc = s.players[name]
        mine = [t for t in self.tickets if t.player == name]
        staked = sum(t.stake for t in mine)
        betting = self.phase() == PHASE_BETTING
        return {
            "seat": seat, "name": name,
            "purse": acc.bankroll - (staked if betting else 0),  # left to bet now
            "bankroll": acc.bankroll + (0 if betting or self.race is None else staked),
            "staked": staked, "may_bet": betting and seat not in self.done,
            "done": seat in self.done,
            "tickets": [self._ticket_view(t) for t in mine],
            "last": self.returns.get(seat, []),
            "record": {"tickets": acc.tickets, "won": acc.winning_tickets,
                       "staked": acc.staked, "returned": acc.returned},
        }


@lru_cache(maxsize=32)
def odds_board(riders: int, length: int, mode: str, margin: float) -> JSON:
    """Every combination's chance and (fixed odds) offered odds in hundredths, by bet type:
    ``odds[kind][key]`` for a phone's quote (key ``3-4``, riders ascending for quinella and
    trio) and ``top[kind]``, the most likely combinations first, for the big screen. The
    odds depend only on the options, so a room computes them once."""
    table = race_odds(KeirinOptions.from_mapping({"riders": riders, "length": length}))
    odds: JSON = {}
    top: JSON = {}
    for kind in BET_TYPES:
        chances = table.bet(kind)
        if mode == "fixed":
            odds[kind] = {_key(sel): quoted_odds(p, margin) for sel, p in chances.items()}
        ranked = sorted(chances.items(), key=lambda kv: (-kv[1], kv[0]))
        top[kind] = [{"key": _key(sel), "riders": list(sel), "chance": round(p, 6),
                      "odds": quoted_odds(p, margin) if mode == "fixed" else None}
                     for sel, p in ranked[:riders if kind == "win" else TOP_ROWS]]
    return {"odds": odds, "top": top}


_Handler = Any
HOST_INTENTS: dict[str, _Handler] = {
    "start": KeirinRoom._start,
    "close_betting": KeirinRoom._close_betting,
    "advance": KeirinRoom._advance,
    "finish": KeirinRoom._finish,
}
SEAT_INTENTS: dict[str, _Handler] = {
    "ticket": KeirinRoom._ticket,
    "cancel": KeirinRoom._cancel,
    "done": KeirinRoom._done,
}

LOGIC = KeirinRoom

__all__ = ["LOGIC", "MAX_SEATS", "KeirinRoom"]
