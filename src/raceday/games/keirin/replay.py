"""Replaying a saved KEIRIN betting night: one step per settled race (order, derny,
tickets and returns, purses after it), from the session log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from raceday.core.events import Message
from raceday.core.record import Record
from raceday.games.keirin.logged import current_shape
from raceday.games.keirin.night import LAP
from raceday.present.replay import ReplayStep, room_event_message
from raceday.store.sessions import SessionStore


def money(cents: int) -> str:
    """A purse in cents as the pages print it (1,234.50)."""
    return f"{cents / 100:,.2f}"


def finished(store: SessionStore, name: str) -> bool:
    return bool(store.log("keirin", name))


def _race(entry: dict[str, Any]) -> ReplayStep:
    order = "-".join(str(r) for r in entry.get("ranking", []))
    derny = entry.get("derny")
    lines = [Message("replay.order", {"order": order}) if derny is None else
             Message("replay.order_derny", {"order": order, "derny": derny})]
    for ticket in entry.get("tickets", []):
        lines.append(Message("replay.ticket", {
            "player": ticket.get("player", "?"), "kind": ticket.get("kind", "?"),
            "riders": "-".join(str(r) for r in ticket.get("riders", ticket.get("selection", []))),
            "stake": money(int(ticket.get("stake", 0))),
            "returned": money(int(ticket.get("returned", 0)))}))
    purses = [Message("replay.purse", {"who": who, "amount": money(int(cents))})
              for who, cents in entry.get("bankrolls", {}).items()]
    if purses:
        lines.append(Message("replay.purses", {"purses": [p.to_json() for p in purses]}))
    return ReplayStep(Message("replay.race", {"race": entry.get("race", "?")}), lines)


def steps(store: SessionStore, name: str) -> list[ReplayStep]:
    return [_race(entry) for entry in store.log("keirin", name)]


def room_event(event: dict[str, Any], names: list[str]) -> Message:
    """A logged event of a KEIRIN room as ``event.<kind>`` (the variant its true facts
    pick), in today's shape (:func:`current_shape`)."""
    return room_event_message(current_shape(event), names, "keirin")


def room_frames(snapshot: Mapping[str, Any],
                rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]]
                ) -> list[dict[str, Any] | None]:
    """The track after each logged row of a KEIRIN room, as the big screen draws it
    (``track.js``'s ``Velodrome``): every rider's square from the race's logged facts (the
    line-up, each throw's and slipstream's square, each turn's positions), the derny while
    it leads the line-up out, the turn and the order once the race is over. None before
    the night starts."""
    from raceday.games.keirin.room import KeirinRoom  # the room reads this module

    night = KeirinRoom.from_json(snapshot).night  # a room saved before the kit too
    riders, finish = int(night.riders), int(night.length)
    frames: list[dict[str, Any] | None] = []
    frame: dict[str, Any] | None = None
    active: list[str] = []
    for _, events in rows:
        if frame is not None:
            frame = {**frame, "derny": None, "positions": dict(frame["positions"])}
        for e in events:
            kind = e.get("type")
            if kind == "started" or kind == "betting_open" or (
                    kind == "betting_closed" and frame is None):
                frame = {"riders": riders, "finish": finish, "lap": LAP,
                         "race": e.get("race", 1), "phase": "betting", "positions": {},
                         "derny": None, "turn": 0, "ranking": []}
            if frame is None:
                continue
            if kind == "betting_closed":
                frame["phase"] = "closed"
            elif kind == "derny":
                frame["derny"] = e.get("roll")
            elif kind in ("lineup", "turn"):
                frame["positions"] = {str(r): int(s)
                                      for r, s in enumerate(e["positions"], start=1)}
                frame["phase"] = "race"
                frame["turn"] = int(e.get("turn", 0))
            elif kind in ("throw", "slipstream", "photo_throw") and "to" in e:
                frame["positions"][str(e["rider"])] = int(e["to"])
            elif kind == "result":
                frame["phase"] = "over"
                frame["ranking"] = list(e.get("ranking", []))
            if kind == "turn":
                active = [str(r) for r in e.get("active", [])]
            elif kind == "lineup":
                active = list(frame["positions"])
        frames.append(None if frame is None else _to_go(frame, active))
    return frames


def _to_go(frame: dict[str, Any], active: list[str]) -> dict[str, Any]:
    """The frame with the squares and laps the front rider still racing has to go, as the
    big screen's infield says them (None before the line-up)."""
    fronts = [frame["positions"][r] for r in active if r in frame["positions"]]
    to_go = None if not frame["positions"] else max(0, frame["finish"] - max(
        fronts or frame["positions"].values()))
    return {**frame, "to_go": to_go, "laps_to_go": None if to_go is None else -(-to_go // LAP)}


# --- the terminal's replay (``raceday replay``) --------------------------------------------
def _track_width(width: int) -> int:
    """Cells of the track in a board ``width`` columns wide (its rider and gap columns
    take the rest)."""
    return max(20, min(width - 16, 120))


def _race_again(night: Any, seed: int, race: int) -> Any:
    """Race ``race`` of a saved night ridden again by the rules: a fresh race of the night's
    options with that race's dice (``default_rng([seed, race])``, as the session rides it)."""
    import numpy as np

    from raceday.games.keirin.night import NIGHT
    from raceday.games.keirin.rules import KeirinState

    state = KeirinState(night.options.race_options())
    rng = np.random.default_rng([seed, race])
    for _ in range(NIGHT.max_steps(night.options)):
        if state.is_terminal():
            break
        draw = state.sample_chance(rng)
        state.apply_action(draw.outcome, draw.detail)
    return state


def finished_races(record: Record) -> dict[int, Any]:
    """Each race a night's record ran to its finish, by its number: the race as it
    finished, rebuilt by playing the record's moves through the rules (a night converted
    from a save made before records has none before its ``Start``)."""
    from raceday.core.record import apply_move, start_state

    _, night = start_state(record)
    races: dict[int, Any] = {}
    for move in record.moves:
        race = getattr(night, "race", None)
        apply_move(night, move)
        if race is not None and getattr(night, "race", None) is not race and \
                race.is_terminal():
            races[int(getattr(night, "settled", 0))] = race
    return races


def terminal_steps(store: SessionStore, name: str, lang: str = "en") -> list[Any]:
    """A saved night in the terminal: each settled race (:func:`steps`) with the track at
    its finish. The night is read as its record (:func:`raceday.store.records.load_game`;
    a save from before records converted): a race whose throws the record holds is
    rebuilt from them, one from before (a converted save) is ridden again by the rules
    from the record's seed; a race that does not finish in the logged order has no
    board."""
    from raceday.core.record import start_state
    from raceday.games.keirin.render import render_track, track_words
    from raceday.games.keirin.saved_night import GAME, night_record
    from raceday.present.terminal_replay import LazyBoard, TerminalStep
    from raceday.store.records import load_game

    record = load_game(store, GAME, name, night_record).record
    seed = record.tags.get("Seed")
    rebuilt: dict[int, Any] | None = None

    def race_at(number: int) -> Any:
        nonlocal rebuilt
        if rebuilt is None:
            rebuilt = finished_races(record)
        if number in rebuilt or not isinstance(seed, int):
            return rebuilt.get(number)
        return _race_again(start_state(record)[1], seed, number)

    out = []
    for entry, step in zip(store.log(GAME, name), steps(store, name), strict=True):
        def make(width: int, height: int, entry: dict[str, Any] = entry) -> Any:
            race = race_at(int(entry.get("race", 0)))
            if race is None or list(race.ranked) != list(entry.get("ranking", [])):
                return None
            return render_track(race, _track_width(width), track_words(lang))
        out.append(TerminalStep(step.to_json(), LazyBoard(make),
                                {"race": entry.get("race"), "ranking": entry.get("ranking")}))
    return out


class _Track:
    """A race as a room's frame holds it, in the shape the track picture reads."""

    def __init__(self, frame: Mapping[str, Any], active: list[str]) -> None:
        from types import SimpleNamespace

        riders = int(frame["riders"])
        self.options = SimpleNamespace(riders=riders, length=int(frame["finish"]))
        self.positions = [int(frame["positions"].get(str(r), 0)) for r in range(1, riders + 1)]
        self.ranked = [int(r) for r in frame.get("ranking", [])]
        self._active = [int(r) for r in active] or [r for r in range(1, riders + 1)
                                                   if r not in self.ranked]

    def active_riders(self) -> list[int]:
        return self._active


def room_boards(snapshot: Mapping[str, Any],
                rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]],
                lang: str = "en") -> list[Any]:
    """The track after each logged row of a KEIRIN room as the terminal draws it, from the
    frames the big screen's replay draws (:func:`room_frames`), with each rider's place as
    the logged ``place`` events gave it and the riders still racing as the last ``turn``
    said; None before the line-up."""
    from raceday.games.keirin.render import render_track, track_words

    boards: list[Any] = []
    places: dict[int, int] = {}
    active: list[str] = []
    for (_, events), frame in zip(rows, room_frames(snapshot, rows), strict=True):
        for e in events:
            kind = e.get("type")
            if kind in ("started", "betting_open", "lineup"):
                places, active = {}, []
            elif kind == "place" and isinstance(e.get("rider"), int):
                places[int(e["rider"])] = int(e.get("place", 0))
            elif kind == "turn":
                active = [str(r) for r in e.get("active", [])]
        if frame is None or not frame.get("positions"):
            boards.append(None)
            continue
        ranking = frame.get("ranking") or sorted(places, key=lambda r: places[r])
        racing = active or [r for r in frame["positions"] if int(r) not in ranking]
        track = _Track({**frame, "ranking": ranking},
                       [r for r in racing if int(r) not in ranking])
        boards.append(lambda width, height, track=track: render_track(
            track, _track_width(width), track_words(lang)))
    return boards


def lesson_frame(state: Any) -> dict[str, Any]:
    """One position as the replay board (``static/frame.js``'s velodrome) draws it, in the
    shape of a room's frame (:func:`room_frames`): the board of a lesson step
    (``/learn/keirin``). A race shows every rider's square (before the derny's throw the
    riders queued behind the derny on square 0), a betting night's window its race's track
    while it is run, else the empty track of the race on sale."""
    from raceday.games.keirin.night import NightState
    from raceday.games.keirin.rules import PHASE_DERNY, PHASE_OVER
    from raceday.games.keirin.track import SPACING

    race = state.race if isinstance(state, NightState) else state
    number = state.race_number if isinstance(state, NightState) else 1
    if race is None:  # tickets on sale: the track, nobody on it yet
        options = state.options
        return _to_go({"riders": options.riders, "finish": options.length, "lap": LAP,
                       "race": number, "phase": "betting", "positions": {}, "derny": None,
                       "turn": 0, "ranking": []}, [])
    riders = race.options.riders
    frame: dict[str, Any] = {"riders": riders, "finish": race.options.length, "lap": LAP,
                             "race": number, "derny": None, "turn": race.turn,
                             "ranking": list(race.ranked)}
    if race.phase == PHASE_DERNY:
        frame.update(phase="betting", derny=0,
                     positions={str(r): -SPACING * r for r in range(1, riders + 1)})
        return _to_go(frame, [])
    frame["positions"] = {str(r): int(s) for r, s in enumerate(race.positions, start=1)}
    frame["phase"] = "over" if race.phase == PHASE_OVER else "race"
    return _to_go(frame, [str(r) for r in race.active_riders()])
