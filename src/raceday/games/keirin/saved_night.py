"""A KEIRIN betting night of the terminal, saved as its record (the terminal's persistence).

The night itself is one protocol state (:class:`~raceday.games.keirin.night.NightState`),
and :class:`BetSession` drives it with the night's own actions (tickets, the host's close
of betting, the race's throws) on the terminal's session kit
(:class:`raceday.terminal.session.GameSession`): every move is written down in the night's
record (``keirin_night``, :mod:`raceday.core.record`), and the night is saved only through
:func:`raceday.store.records.save_game` (the record, with the night's state as its cache),
under the store's ``keirin`` sessions. It is saved twice per race, each time in one
transaction:

1. when betting closes: the race's tickets are locked in the state and their stakes taken
   from the purses;
2. when the race is settled: returns paid, race counter advanced, together with the race's
   log entry.

Each race's dice come from ``numpy.random.default_rng([seed, race number])`` (the record's
``Seed``), so a session interrupted after (1) resumes by running exactly the race the
tickets were placed on, and settles it once; one interrupted before (1) simply reopens
that race's betting. The store's ``expected_revision`` guard refuses a second settlement of
the same race from a stale copy. Sessions saved before records (document version 2: the
night's state and the seed; version 1: the session's own fields, before the night was a
protocol state, read through :func:`night_document_from_v1`) open as records whose
``Start`` is the night they held (:func:`night_record`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from raceday.core.errors import BetError, OptionsError, SaveFormatError
from raceday.core.events import Event
from raceday.core.protocol import HOST, State
from raceday.core.record import FORMAT, Record, RecordError, parse_record
from raceday.games.keirin.agents import LEVELS, PASS
from raceday.games.keirin.betting import MODES, Account, Ticket
from raceday.games.keirin.night import (
    CLOSE_BETTING,
    DEFAULT_BANKROLL,
    NIGHT,
    PHASE_RACE,
    PHASE_TICKETS,
    SAVE_VERSION,
    SETTLEMENT_EVENTS,
    NightOptions,
    NightState,
)
from raceday.games.keirin.odds import KeirinOdds
from raceday.games.keirin.rules import KeirinOptions, KeirinState
from raceday.store.records import SavedGame, load_game
from raceday.store.sessions import SessionStore
from raceday.terminal.session import GameSession

GAME = "keirin"  # the sessions' key in the store
MAX_SEED = 2**63 - 1
DOC_VERSION = 2  # the last document before records; 1: the session's own fields


@dataclass
class Settlement:
    """A settled race: the order, each ticket's return, and the pools (pool mode: the
    night's public summary of each pool)."""

    race: int
    ranking: list[int]
    derny: int | None
    tickets: list[Ticket]
    returns: list[int]
    pools: dict[str, dict[str, Any]] = field(default_factory=dict)

    def log_entry(self, bankrolls: Mapping[str, int]) -> dict[str, Any]:
        return {
            "race": self.race,
            "ranking": list(self.ranking),
            "derny": self.derny,
            "tickets": [dict(t.to_json(), returned=r)
                        for t, r in zip(self.tickets, self.returns, strict=True)],
            "bankrolls": dict(bankrolls),
        }


class BetSession:
    """A saved betting night: its name, its seed and the night being played on the session
    kit (see the module docstring for the save points)."""

    def __init__(self, name: str, game: GameSession) -> None:
        self.name = name
        self.game = game  # the night's state, its record and the save
        self._run: list[Ticket] | None = None  # a race run, not yet saved
        seed = game.recorder.tags.get("Seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise RecordError(f"a KEIRIN night's record needs its Seed tag (a whole number "
                              f"from 0 to {MAX_SEED}: each race's dice), got {seed!r}")
        self.seed = seed
        if not isinstance(game.state, NightState):
            raise RecordError(f"a record of {game.game}, not of a KEIRIN night")

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        name: str,
        players: Sequence[str],
        options: KeirinOptions,
        *,
        bankroll: int = DEFAULT_BANKROLL,
        mode: str = "fixed",
        margin: float = 0.0,
        allow_debt: bool = False,
        seed: int | None = None,
        computers: Mapping[int, str] | None = None,
    ) -> BetSession:
        """A new night of ``players``; ``computers`` (player -> level) are the seats a
        computer bettor plays, kept in the record's seats so a resumed night has them."""
        if not name.strip():
            raise OptionsError("a session needs a name")
        if not players or any(not p.strip() for p in players):
            raise OptionsError("name at least one player (--players NAMES: names separated by "
                               "commas, or -p repeated)")
        if seed is None:
            from raceday.terminal.common import fresh_seed

            seed = fresh_seed(None)  # fresh, then saved
        if not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise OptionsError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}")
        night = NightOptions.parse({
            "players": list(players), **options.to_json(), "races": None,
            "bankroll": bankroll, "mode": mode, "margin": margin, "allow_debt": allow_debt})
        game = GameSession.new(NIGHT.name, night.to_json(), seed=seed, name=name,
                               seats=[{"name": n, "player": (computers or {}).get(i, "human")}
                                      for i, n in enumerate(night.players)],
                               state=NIGHT.new_state(night))
        return cls(name, game)

    @classmethod
    def from_saved(cls, name: str, saved: SavedGame, store: SessionStore | None = None
                   ) -> BetSession:
        """The night of ``saved`` (a record of a KEIRIN night), to go on as the session
        ``name`` of ``store``; :class:`RecordError` names the first line the rules refuse."""
        record = saved.record
        if record.game != NIGHT.name:
            raise RecordError(f"a record of {record.game}, not of a KEIRIN betting night "
                              f"({NIGHT.name})", record.line)
        game = GameSession.from_saved(saved, store=store, name=name)
        game.recorder.tags["Name"] = name
        return cls(name, game)

    @classmethod
    def from_file(cls, path: str | Path) -> BetSession:
        """The night of a record file (any record of a KEIRIN night), not yet saved: named
        as its ``Name`` tag says (else the file's name), see :meth:`rename`. A record the
        rules refuse, or another game's, is a :class:`RecordError` naming its line."""
        from raceday.core.files import read_user_text

        text = read_user_text(path, kind="record")
        try:
            record = parse_record(text)
            if record.game == NIGHT.name and "Seed" not in record.tags:
                from raceday.terminal.common import fresh_seed

                record.tags["Seed"] = fresh_seed(None)  # the dice of the races to come
            name = record.tags.get("Name")
            named = name if isinstance(name, str) and name.strip() else Path(path).stem
            return cls.from_saved(named, SavedGame(record))
        except RecordError as exc:
            refused = RecordError(exc.problem, exc.line)  # said with the file: "FILE, line 7"
            refused.args = (f"{path}, {exc}",)
            raise refused from None

    def rename(self, name: str) -> None:
        """Save the night as the session ``name`` from now on (a night opened from a file,
        never saved yet)."""
        if self.revision is not None:
            raise OptionsError("a saved session keeps its name")
        self.name = name
        self.game.recorder.tags["Name"] = name

    # --- store -----------------------------------------------------------------------------
    @property
    def computers(self) -> dict[int, str]:
        """The seats a computer bettor plays (player -> level), as the record's seats say."""
        seats = self.game.recorder.tags.get("Seats", [])
        if not isinstance(seats, list):
            return {}
        return {i: s["player"] for i, s in enumerate(seats)
                if isinstance(s, dict) and s.get("player") in (*LEVELS, PASS)}

    @property
    def state(self) -> NightState:
        return self.game.state_as(NightState)

    @property
    def revision(self) -> int | None:
        """The store's revision as last saved or loaded (None: never saved)."""
        return self.game.revision

    def record(self) -> Record:
        """The night's record so far."""
        return self.game.record()

    @classmethod
    def load(cls, store: SessionStore, name: str) -> BetSession:
        return cls.from_saved(name, load_game(store, GAME, name, night_record), store)

    def save(self, store: SessionStore, log_entry: dict[str, Any] | None = None) -> None:
        """One transaction (:func:`raceday.store.records.save_game`); refuses to overwrite
        a newer save of the same session."""
        if self.revision is None and store.exists(GAME, self.name):
            raise OptionsError(
                f"a keirin session named {self.name!r} already exists; resume it with "
                f"--resume {self.name} or choose another --save name"
            )
        self.game.store, self.game.name = store, self.name
        self.game.save(log_entry=log_entry)

    # --- what the night says -------------------------------------------------------------
    @property
    def options(self) -> KeirinOptions:
        return self.state.options.race_options()

    @property
    def mode(self) -> str:
        return self.state.options.mode

    @property
    def margin(self) -> float:
        return self.state.options.margin

    @property
    def players(self) -> dict[str, Account]:
        """Each player's account by name (the night's own)."""
        return dict(zip(self.state.names, self.state.accounts, strict=True))

    @property
    def races(self) -> int:
        """Races settled."""
        return self.state.settled

    @property
    def pending(self) -> list[Ticket] | None:
        """The tickets locked on the race to run (None while betting is open)."""
        return list(self.state.tickets) if self.state.phase == PHASE_RACE else None

    @property
    def odds(self) -> KeirinOdds:
        return self.state.odds

    def seat(self, player: str) -> int:
        if player not in self.state.names:
            raise BetError(f"unknown player {player!r}")
        return self.state.names.index(player)

    # --- betting -----------------------------------------------------------------------------
    def ticket_from_text(self, player: str, text: str) -> Ticket:
        """Check one typed ticket for ``player`` against the night's rules (raises
        :class:`BetError` with the reason) and return it, not yet bought."""
        seat = self.seat(player)
        action = self.state.ticket_from_text(seat, text)
        ticket = self.state.ticket_of(action)
        assert ticket is not None
        kind, selection, stake = ticket
        odds = self.state.check_ticket(seat, kind, selection, stake)
        return Ticket(player, kind, selection, stake, odds)

    def lock(self, store: SessionStore) -> None:
        """Close betting (if the last player's ``done`` has not closed it already): take the
        stakes and save the tickets as locked."""
        if self.state.phase == PHASE_TICKETS:
            self.state.apply_action_for(HOST, CLOSE_BETTING)
        elif self.state.phase != PHASE_RACE or self._run is not None:
            raise ValueError("the previous race is not settled yet")
        self.save(store)

    # --- racing ----------------------------------------------------------------------------
    def race_rng(self) -> np.random.Generator:
        """The dice of the next race: fixed by the session's seed and the race number."""
        return np.random.default_rng([self.seed, self.races + 1])

    def run_race(
        self, on_events: Callable[[State, list[Event]], None] | None = None
    ) -> KeirinState:
        """Run the locked race in the night with the session's dice for that race, showing
        each throw's race events with ``on_events``; at the finish the night settles (saved
        by :meth:`settle`). Returns the race as it finished. A run stopped by ``on_events``
        (the player quits) leaves the night as it was, its tickets locked."""
        night = self.state
        race = night.race
        if night.phase != PHASE_RACE or race is None or self._run is not None:
            raise ValueError("no race to run: betting was not closed")
        locked = night.clone()
        noted = len(self.game.recorder.moves)
        self._run = list(night.tickets)
        rng = self.race_rng()
        try:
            for _ in range(NIGHT.max_steps(night.options)):
                if race.is_terminal():
                    break
                draw = night.sample_chance(rng)
                events = night.apply_action(draw.outcome, draw.detail)
                if on_events is not None:
                    on_events(race, [e for e in events if e.kind not in SETTLEMENT_EVENTS])
        except BaseException:  # the race's throws leave the night and its record
            self.game.recorder.take_back(len(self.game.recorder.moves) - noted)
            self.game.replace_state(locked)
            self._run = None
            raise
        return race

    def settle(self, store: SessionStore, state: KeirinState) -> Settlement:
        """Save the night as the race just run left it, paid, with the race's log entry."""
        night = self.state
        tickets = self._run
        last = night.last
        if tickets is None or last is None or not state.is_terminal():
            raise ValueError("no race to settle: betting was not closed")
        self._run = None
        assert last["ranking"] == list(state.ranked)
        paid = {p: [t["returned"] for t in r] for p, r in night.last_returns.items()}
        returns = [paid[night.names.index(t.player)].pop(0) for t in tickets]
        settlement = Settlement(self.races, list(last["ranking"]), last["derny"], tickets,
                                returns, dict(last["pools"]))
        entry = settlement.log_entry({n: a.bankroll for n, a in self.players.items()})
        self.save(store, log_entry=entry)
        return settlement

    def standings(self) -> list[tuple[str, Account]]:
        return sorted(self.players.items(), key=lambda kv: (-kv[1].bankroll, kv[0]))


def night_record(document: Mapping[str, Any]) -> Record:
    """The record a night saved before records stands for (document version 2: the night's
    state and the seed; version 1: see :func:`night_document_from_v1`): the night as its
    ``Start``, the seed as its ``Seed``, no moves."""
    version = document.get("version")
    try:
        if version == 1:
            saved = night_document_from_v1(document)
        elif version == DOC_VERSION:
            saved = dict(document["night"])
        else:
            raise SaveFormatError(f"a KEIRIN night of an unknown version {version!r}")
        night = NightState.from_json(saved)
        seed = document["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise SaveFormatError(f"a KEIRIN night's seed is a whole number from 0 to "
                                  f"{MAX_SEED}, got {seed!r}")
    except (KeyError, TypeError, ValueError, AttributeError, BetError) as exc:
        if isinstance(exc, SaveFormatError):
            raise
        raise SaveFormatError(f"a KEIRIN night saved before records is corrupt: {exc}") \
            from None
    return Record({"Game": NIGHT.name, "Format": FORMAT, "Face": "terminal", "Seed": seed,
                   "Options": night.options.to_json(),
                   "Seats": [{"name": n, "player": "human"} for n in night.names],
                   "Start": night.to_json()})


def night_from_v1(doc: Mapping[str, Any], **kept: Any) -> NightState:
    """A session saved before the night was a protocol state (document version 1), as a
    night that goes on the same way (see :func:`night_document_from_v1`)."""
    return NightState.from_json(night_document_from_v1(doc, **kept))


def night_document_from_v1(doc: Mapping[str, Any], **kept: Any) -> dict[str, Any]:
    """The night's save (``NightState.to_json()``) of a version-1 session document: its
    options, purses, records and locked tickets. The starting purse was not saved; every
    purse started at ``bankroll + staked - returned``. ``kept`` are night options the
    caller kept elsewhere (a room's races)."""
    race = KeirinOptions.parse(doc["options"])
    players = [(str(n), Account.from_json(a)) for n, a in doc["players"]]
    if not players or str(doc["mode"]) not in MODES:
        raise SaveFormatError("bad mode or no players")
    first = players[0][1]
    options = NightOptions.parse({
        "players": [n for n, _ in players], **race.to_json(), "races": None,
        "bankroll": max(1, first.bankroll + first.staked - first.returned),
        "mode": str(doc["mode"]), "margin": float(doc["margin"]),
        "allow_debt": bool(doc["allow_debt"]), **kept})
    pending = doc["pending"]
    locked = pending is not None  # betting was closed: the race runs on resume
    return {
        "game": NightState.game_name, "version": SAVE_VERSION, "options": options.to_json(),
        "phase": PHASE_RACE if locked else PHASE_TICKETS, "settled": int(doc["races"]),
        "accounts": [a.to_json() for _, a in players],
        "tickets": [Ticket.from_json(t).to_json() for t in pending or []],
        "done": list(range(len(players))) if locked else [],
        "race": KeirinState(race).to_json() if locked else None,
        "last": None, "returns": [], "withdrawn": 0,
    }


__all__ = ["DEFAULT_BANKROLL", "GAME", "BetError", "BetSession", "Settlement",
           "night_record"]
