"""KEIRIN's one wording of its events: every event of the race and of the betting night,
with every variant its true facts pick, reads as ``event.<kind>`` from the message tables
in English and Japanese (no raw key, no unfilled slot), the same through the terminal's
commentary, the room's replay and the shared describe_event; the commentary keys of old
(``commentary.*``, ``kr_ev_*``) are gone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from raceday.core.events import Event
from raceday.core.protocol import HOST
from raceday.games.keirin import replay
from raceday.games.keirin.night import DONE, END_NIGHT, NIGHT, PHASE_RACE, NightState
from raceday.games.keirin.render import commentary, describe
from raceday.games.keirin.room import KeirinRoom
from raceday.games.keirin.rules import KeirinOptions, KeirinState
from raceday.present import describe_event, render
from raceday.rooms.protocol import Actor

SLOT = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
MESSAGES = Path(__file__).parents[3] / "src" / "raceday" / "games" / "keirin" / "messages"
RACE_KINDS = {"derny", "lineup", "slipstream", "throw", "overtake", "turn", "cross",
              "photo_finish", "photo_throw", "place", "result"}
NIGHT_KINDS = {"betting_open", "ticket_sold", "ticket_withdrawn", "done_betting",
               "betting_closed", "settled", "finished"}
# each variant of the tables and the fact that picks it
VARIANTS = {("derny", "dice_known"), ("overtake", "several"), ("turn", "chasing"),
            ("turn", "level"), ("cross", "several"), ("betting_open", "open_ended")}


def _races() -> Iterator[Event]:
    """Races with dice (the derny's seen) and one without (fixed derny, no dice given)."""
    for seed in range(12):
        state = KeirinState(KeirinOptions())
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            draw = state.sample_chance(rng)
            yield from state.apply_action(draw.outcome, draw.detail)
    state = KeirinState(KeirinOptions(derny=12))
    while not state.is_terminal():
        yield from state.apply_action(state.chance_outcomes()[0][0])


def _night(races: int | None) -> Iterator[Event]:
    """A night of two players: tickets sold and one taken back, both done, the first race
    and what follows it (betting on the next, or the end: the host's ``finish`` of an
    open-ended night)."""
    state: NightState = NIGHT.new_state({"players": ["Ann", "Bob"], "riders": 6,
                                         "races": races})
    yield from state.apply_action_for(0, state.ticket_from_text(0, "win 1 100"))
    yield from state.apply_action_for(0, state.ticket_from_text(0, "exacta 1-2 50"))
    yield from state.apply_action_for(0, state.cancel_action(1))
    yield from state.apply_action_for(0, DONE)
    yield from state.apply_action_for(1, DONE)
    rng = np.random.default_rng(3)
    while state.phase == PHASE_RACE:
        draw = state.sample_chance(rng)
        yield from state.apply_action(draw.outcome, draw.detail)
    if races is None:
        yield from state.apply_action_for(HOST, END_NIGHT)


def every_event() -> list[Event]:
    """Every kind of event of the race and of the night, with every variant (also used
    by the pages' test, tests/browser/test_keirin_words_js.py)."""
    return [*_races(), *_night(2), *_night(None)]


def _worded(text: str, event: Event) -> bool:
    return not SLOT.search(text) and "event." not in text and text != event.key


def _variant(event: Event) -> tuple[str, str] | None:
    """The variant the event's facts pick (the first true fact that has one)."""
    return next(((event.kind, f) for f, v in event.params.items()
                 if v is True and (event.kind, f) in VARIANTS), None)


def test_every_event_and_every_variant_is_worded_in_both_languages() -> None:
    events = every_event()
    assert {e.kind for e in events} == RACE_KINDS | NIGHT_KINDS
    picked = {_variant(e) for e in events} - {None}
    assert picked == VARIANTS
    base = {e.kind for e in events if _variant(e) is None}
    assert {k for k, _ in VARIANTS} <= base  # and every kind's plain wording too
    for event in events:
        en, ja = (describe_event("keirin", event, lang) for lang in ("en", "ja"))
        assert _worded(en, event) and _worded(ja, event), (event, en, ja)
        assert en != ja and re.search(r"[぀-ヿ一-鿿]", ja), (en, ja)
        variant = _variant(event)
        key = f"event.{event.kind}" + (f".{variant[1]}" if variant else "")
        assert en == render(key, "en", "keirin", event.params)


def test_the_commentary_the_replay_and_describe_event_say_the_same() -> None:
    for event in every_event():
        if event.kind in RACE_KINDS - {"throw"}:
            line = describe(event, "ja")
            assert line == describe_event("keirin", event, "ja")
            assert commentary([event])[0].strip() == describe_event("keirin", event)
        logged = {"type": event.kind, **event.data}
        message = replay.room_event(json.loads(json.dumps(logged)), ["Ann", "Bob"])
        for lang in ("en", "ja"):
            assert render(message, lang, "keirin") == describe_event("keirin", event, lang)


def test_the_rooms_own_events_are_worded_as_a_keirin_night() -> None:
    room = KeirinRoom.create({"races": 1}, seed=1)
    for name in ("Aki", "Ben"):
        room.add_seat(name)
    events = room.handle(Actor.host(), {"type": "start"}, np.random.default_rng(1))
    assert [e["type"] for e in events] == ["started", "betting_open"]
    logged_before = {"type": "started", "players": ["Aki", "Ben"]}  # before the room kit
    for started in (events[0], logged_before):
        message = replay.room_event(started, [])
        assert render(message, "en", "keirin") == "The night starts with Aki, Ben."
        assert render(message, "ja", "keirin") == "Aki、Ben で夜が始まります。"
    joined = replay.room_event({"type": "joined", "seat": 0, "name": "Aki"}, [])
    assert render(joined, "en", "keirin") == "Aki joins"


def test_old_logged_race_events_get_the_facts_their_words_need() -> None:
    """Events logged before the facts were added (the rooms_before_night fixture's shapes)
    read as today's: the distance to go, one rider or several, a place already won."""
    old = [({"type": "lineup", "positions": [10, 7, 4], "finish": 60},
            "Rider 1 lines up 50 squares from the finish."),
           ({"type": "derny", "roll": 13, "dice": [5, 2, 6]},
            "The derny throws 13 (5, 2, 6) and pulls the riders to square 13."),
           ({"type": "overtake", "turn": 7, "rider": 4, "passed": [2, 3]},
            "R4 overtakes riders 2, 3."),
           ({"type": "cross", "turn": 11, "riders": [6], "past": [2]},
            "Across the line in turn 11: R6 (+2)."),
           ({"type": "turn", "turn": 3, "positions": [5, 9, 9], "leaders": [2, 3],
             "active": [1, 2, 3]}, "After turn 3, riders 2, 3 lead side by side."),
           ({"type": "turn", "turn": 12, "positions": [70, 55, 58], "leaders": [3],
             "active": [2, 3]}, "After turn 12, the chase for place 2 is led by no. 3."),
           ({"type": "done_betting", "player": 1}, "Ben is done betting.")]
    for logged, words in old:
        assert render(replay.room_event(logged, ["Aki", "Ben"]), "en", "keirin") == words


def test_the_old_commentary_keys_are_gone_and_every_key_has_both_languages() -> None:
    tables = {lang: json.loads((MESSAGES / f"{lang}.json").read_text(encoding="utf-8"))
              for lang in ("en", "ja")}
    assert set(tables["en"]) == set(tables["ja"])
    gone = [k for k in tables["en"] if k.startswith(("commentary.", "kr_ev_"))]
    assert gone == []
    for key in tables["en"]:
        if key.startswith("event."):
            slots = {lang: set(SLOT.findall(tables[lang][key])) for lang in tables}
            assert slots["en"] == slots["ja"], key
