"""Replaying a saved Dice Derby party: one step per sold horse and per settled race
(places, first out, payouts), from the session log; the party itself (its players, its
seed) is read from its record (:mod:`raceday.games.derby.saved`), whatever version saved
it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from raceday.core.errors import SaveFormatError
from raceday.core.events import Message
from raceday.core.record import Record, RecordError, apply_move
from raceday.games.derby.evening import EveningState, lot_facts, quinella_paid_facts
from raceday.games.derby.rules import POSTS, horse_name, parse_horse, result_facts
from raceday.present.replay import ReplayStep, room_event_message
from raceday.store.sessions import SessionStore


def finished(store: SessionStore, name: str) -> bool:
    return bool(store.log("derby", name))


def _saved(store: SessionStore, name: str) -> tuple[EveningState | None, list[str]]:
    """The saved party's evening (from its record, whatever version saved it) and its
    players' names; a document that is no record and no evening (a party's books in part)
    gives the names it holds and no evening."""
    from raceday.games.derby.saved import saved_evening

    try:
        evening = saved_evening(store, name)
    except SaveFormatError:
        doc, _ = store.load("derby", name)
        if "record" in doc:
            raise
        books = doc.get("ledger", doc)  # an evening keeps its sheets in its ledger
        return None, [str(p.get("name", "?")) for p in books.get("players", [])]
    return evening, [p.name for p in evening.ledger.players]


def steps(store: SessionStore, name: str) -> list[ReplayStep]:
    """A saved party's steps: each logged lot and settled race."""
    _, players = _saved(store, name)
    return entry_steps(store.log("derby", name), players)


def record_entries(record: Record) -> list[dict[str, Any]]:
    """What a party logs of the evening of ``record`` (each sold or passed lot as
    ``{"auction": ...}``, each settled race as ``{"race": ...}``), found by playing its
    moves through the rules: the same entries the party saved beside its record."""
    from raceday.core.record import start_state

    _, state = start_state(record)
    if not isinstance(state, EveningState):
        raise RecordError(f"not a Dice Derby evening: {record.game}", record.line)
    lots, races = len(state.ledger.lots), len(state.ledger.history)
    out: list[dict[str, Any]] = []
    for move in record.moves:
        apply_move(state, move)
        ledger = state.ledger
        out += [{"auction": lot.to_json()} for lot in ledger.lots[lots:]]
        out += [{"race": race.to_json()} for race in ledger.history[races:]]
        lots, races = len(ledger.lots), len(ledger.history)
    return out


def record_steps(record: Record) -> list[ReplayStep]:
    """The steps of a Dice Derby evening's record (a file, an export): as :func:`steps`
    shows the saved party."""
    from raceday.core.record import start_state

    _, start = start_state(record)
    assert isinstance(start, EveningState)
    return entry_steps(record_entries(record), [p.name for p in start.ledger.players])


def entry_steps(entries: Sequence[Mapping[str, Any]], players: Sequence[str]
                ) -> list[ReplayStep]:
    """A step for each logged lot and settled race (``entries`` as the party logs them)."""

    def who(p: Any) -> Any:
        if isinstance(p, int) and 0 <= p < len(players):
            return players[p]
        return Message("replay.house").to_json()

    out = []
    for entry in entries:
        if "auction" in entry:
            lot = entry["auction"]
            facts = {"post": lot["post"], "horse": horse_name(int(lot["post"]))}
            line = (Message("replay.no_bid", facts) if lot.get("buyer") is None else
                    Message("replay.bought", {**facts, "buyer": who(lot["buyer"]),
                                              "price": f"{lot['price']:,}"}))
            out.append(ReplayStep(Message("replay.auction", facts), [line]))
        elif "race" in entry:
            race = entry["race"]
            lines = [Message("replay.first_second", {
                "first": horse_name(int(race["first"])),
                "second": horse_name(int(race["second"]))})]
            if race.get("first_out"):
                lines.append(Message("replay.first_out", {
                    "horses": [horse_name(int(h)) for h in race["first_out"]]}))
            lines += [Message("replay.payout", {"who": who(pay["player"]), "what": pay["what"],
                                                "amount": f"{pay['amount']:,}"})
                      for pay in race.get("payouts", [])]
            out.append(ReplayStep(Message("replay.race", {"race": race.get("race", "?")}),
                                  lines))
    return out


def _old_facts(kind: Any, e: dict[str, Any]) -> dict[str, Any]:
    """The facts an event of this kind has today, from one a room logged before they
    did: the horse of a sealed bid or of the closed bids, which way a lot and a round went,
    who collected on the quinella, the quinella's name, and the rest of a race's result."""
    if kind in ("bid_sealed", "bids_closed") and "post" in e:
        return {"horse": horse_name(int(e["post"])), **e}
    if kind == "lot":
        return {**lot_facts(int(e["post"]), e["bids"], e["buyer"], e["buyer_name"],
                            int(e["price"]), e["tied"]), **e}
    if kind == "round" and "alone" not in e:  # alone and fell word it before rolloff
        return {"round": e.get("round"), "alone": e.get("kind") == "rolloff",
                "fell": e.get("kind") == "falls", **e}
    if kind == "quinella_paid":
        return {**quinella_paid_facts(e["pair"], e["payouts"]), **e}
    if kind == "quinella" and "quinella" not in e:
        return {**e, "quinella": "-".join(str(h) for h in e["pair"])}
    if kind == "result" and "winner" not in e:
        places = {parse_horse(str(h)): int(n) for h, n in e["places"].items()}
        return {**result_facts([parse_horse(str(h)) for h in e["order"]], places,
                               [parse_horse(str(h)) for h in e.get("first_out", [])]), **e}
    return e


def room_event(event: dict[str, Any], names: list[str]) -> Message:
    """A logged event of the party room as its message ``event.<kind>`` (or the variant
    a true fact picks): events logged before today's facts get them first (the words they
    carried then, ``message``, are not kept)."""
    facts = {k: v for k, v in event.items() if k != "message"}
    return room_event_message(_old_facts(event.get("type"), facts), names, "derby")


def room_frames(snapshot: Mapping[str, Any],
                rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]]
                ) -> list[dict[str, Any] | None]:
    """The track after each logged row of a Dice Derby room, as the TV draws it (the
    view's ``live``, drawn by ``static/track.js``): each race from its logged facts (the
    rounds as the evening records them, each horse's furlongs counted by the evening's own
    rule, the places), with the horses' owners and their racing colours from the auction.
    None before the first race's betting."""
    from raceday.games.derby import room as derby_room

    photo = getattr(derby_room, "photo_finish", None)
    palette: tuple[str, ...] = getattr(derby_room, "OWNER_COLOURS", ())
    owners: dict[str, str] = {}
    colours: dict[str, str] = {}
    frames: list[dict[str, Any] | None] = []
    frame: dict[str, Any] | None = None
    for _, events in rows:
        for e in events:
            kind = e.get("type")
            if kind == "lot" and e.get("buyer_name"):
                owners[str(e["horse"])] = str(e["buyer_name"])
                if isinstance(e.get("buyer"), int) and palette:
                    colours[str(e["horse"])] = palette[e["buyer"] % len(palette)]
            elif kind == "race_start" or (kind == "betting_open" and frame is None):
                frame = _fresh_track(int(e.get("race", 1)), owners)
            elif frame is None:
                continue
            elif kind == "roll":
                frame = {**frame, "round": e.get("round", frame["round"]),
                         "rolls": {**frame["rolls"], str(e["horse"]): e.get("value")}}
            elif kind == "round":
                rounds = [*frame["rounds"], {k: e.get(k) for k in (
                    "round", "rolloff", "rolls", "out", "leader", "kind")}]
                frame = {**frame, "rounds": rounds, "rolls": {},
                         "furlongs": _furlongs(rounds)}
            elif kind == "place":
                frame = {**frame, "places": {**frame["places"],
                                             **{str(h): int(e["place"]) for h in e["horses"]}}}
            elif kind == "result":
                frame = {**frame, "finished": True,
                         "places": {str(h): int(p) for h, p in e["places"].items()},
                         "photo": None if photo is None else photo(frame["rounds"])}
        frames.append(None if frame is None
                      else {**frame, "owners": dict(owners), "colours": dict(colours)})
    return frames


class _Rounds:
    """The evening's rounds alone, for the evening's own furlong count."""

    def __init__(self, rounds: list[dict[str, Any]]) -> None:
        self.rounds = rounds


def _furlongs(rounds: list[dict[str, Any]]) -> dict[str, int]:
    """Each horse's furlongs after ``rounds``, counted by the evening's own rule."""
    return EveningState._furlongs(cast(EveningState, _Rounds(rounds)))


def _fresh_track(race: int, owners: Mapping[str, str]) -> dict[str, Any]:
    """The track before race ``race``: every horse at the start."""
    return {"race": race, "round": 0, "rolloff": False, "rolls": {}, "places": {},
            "furlongs": {horse_name(p): 0 for p in POSTS}, "rounds": [],
            "finished": False, "photo": None, "owners": dict(owners)}


# --- the terminal's replay (``raceday replay``) --------------------------------------------
def track_board(frame: Mapping[str, Any], lang: str = "en") -> Any:
    """The track as the terminal draws it: one row per horse (post, die, owner), its
    furlongs run as a bar and its place once it has one; from a frame in the shape of
    :func:`room_frames` (``furlongs``, ``places``, ``owners``, ``rolls``)."""
    from rich.table import Table
    from rich.text import Text

    from raceday.games.derby.render import words
    from raceday.games.derby.rules import place_message
    from raceday.present import render

    table = Table(title=words("replay.race", lang, race=frame.get("race", "?")), box=None,
                  pad_edge=False, title_justify="left")
    for column, justify in (("post", "right"), ("horse", "left"), ("player", "left"),
                            ("furlongs", "left"), ("rank", "right")):
        table.add_column(words(f"column.{column}", lang), justify=justify,  # type: ignore[arg-type]
                         no_wrap=True)
    house = words("replay.house", lang)
    places = frame.get("places") or {}
    rolls = frame.get("rolls") or {}
    for post in POSTS:
        horse = horse_name(post)
        run = int((frame.get("furlongs") or {}).get(horse, 0))
        bar = Text("▰" * run, style="bold green")
        if horse in rolls:
            bar.append(" ⚀" if rolls[horse] is None else f" {rolls[horse]}", style="bold")
        place = places.get(horse)
        table.add_row(str(post), horse, str((frame.get("owners") or {}).get(horse, house)),
                      bar, "" if place is None else render(
                          Message(str(place_message(int(place))["key"]),
                                  place_message(int(place))["params"]), lang))
    return table


def _owners(lots: Sequence[Mapping[str, Any]], players: Sequence[str]) -> dict[str, str]:
    """Each sold horse's owner by name, from the auction's lots as the ledger keeps them."""
    out: dict[str, str] = {}
    for lot in lots:
        buyer = lot.get("buyer")
        if isinstance(buyer, int) and 0 <= buyer < len(players):
            out[horse_name(int(lot["post"]))] = players[buyer]
    return out


def _race_again(seed: int, fall_rate: Any, race: int) -> tuple[Any, list[dict[str, Any]]]:
    """Race ``race`` of a saved party ridden again by the rules: a fresh race with the
    evening's fall rate and that race's dice (``default_rng([seed, race])``, as the party
    rolls them), with its rounds as the evening records them."""
    import numpy as np

    from raceday.games.derby.rules import STEP_BOUND, DerbyOptions, DerbyState

    state = DerbyState(DerbyOptions(fall_rate))
    rng = np.random.default_rng([seed, race])
    rounds: list[dict[str, Any]] = []
    for _ in range(STEP_BOUND):
        if state.is_terminal():
            break
        draw = state.sample_chance(rng)
        for e in state.apply_action(draw.outcome, draw.detail):
            if e.kind == "round":
                rounds.append({**{k: e.get(k) for k in ("round", "rolloff", "rolls", "out",
                                                        "leader")}, "kind": e.get("ending")})
    return state, rounds


def terminal_steps(store: SessionStore, name: str, lang: str = "en") -> list[Any]:
    """A saved party in the terminal: each step of :func:`steps` with the track. A sold
    horse shows who owns what so far; a race is ridden again by the rules from the party's
    seed (its first and second must be the logged ones) and shows every horse's furlongs
    and place. A party whose dice the host typed in cannot be ridden again: its races show
    the owners and the logged places."""
    from raceday.present.terminal_replay import LazyBoard, TerminalStep

    evening, players = _saved(store, name)
    seed = None if evening is None else evening.options.seed
    fall_rate = None if evening is None else evening.options.fall_rate
    host = evening is not None and bool(evening.options.host)
    lots: list[Mapping[str, Any]] = []
    out = []
    for entry, step in zip(store.log("derby", name), steps(store, name), strict=True):
        if "auction" in entry:
            lots.append(entry["auction"])
            owners = _owners(lots, players)
            frame: dict[str, Any] = {"race": 1, "furlongs": {}, "places": {},
                                     "owners": owners}
            out.append(TerminalStep(step.to_json(), _drawn(frame, lang),
                                    {"auction": int(entry["auction"]["post"])}))
            continue
        race = entry.get("race", {})
        owners = _owners(lots, players)

        def make(width: int, height: int, race: Mapping[str, Any] = race,
                 owners: dict[str, str] = owners) -> Any:
            number = int(race.get("race", 0))
            if seed is None or host:
                return None
            state, rounds = _race_again(seed, fall_rate, number)
            order = sorted(state.places, key=lambda p: state.places[p])
            if order[:2] != [int(race["first"]), int(race["second"])]:
                return None  # not the logged race (another version's dice)
            return track_board({"race": number, "furlongs": _furlongs(rounds),
                                "places": {horse_name(p): n for p, n in state.places.items()},
                                "owners": owners}, lang)
        out.append(TerminalStep(step.to_json(), LazyBoard(make),
                                {"race": race.get("race"), "first": race.get("first"),
                                 "second": race.get("second")}))
    return out


def _drawn(frame: Mapping[str, Any], lang: str) -> Any:
    """The track of ``frame`` as a board (drawn when shown)."""
    def board(width: int, height: int) -> Any:
        return track_board(frame, lang)
    return board


def room_boards(snapshot: Mapping[str, Any],
                rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]],
                lang: str = "en") -> list[Any]:
    """The track after each logged row of a Dice Derby room as the terminal draws it, from
    the frames the TV's replay draws (:func:`room_frames`); None before the first race."""
    return [None if frame is None else _drawn(frame, lang)
            for frame in room_frames(snapshot, rows)]
