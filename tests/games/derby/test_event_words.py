"""Every event a Dice Derby evening emits, and every event its party room logs, reads
in English and Japanese from the game's message tables: ``event.<kind>``, or the variant
``event.<kind>.<fact>`` a true fact picks. No leftover ``{slot}``, no bare ``event.`` key,
every event wording of the tables is reached, and a replay of the room's log (the
``room_event`` face) words each event as the live screens do."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from raceday.core.discovery import asset_folder
from raceday.core.events import Event
from raceday.games.derby.evening import EVENING
from raceday.games.derby.replay import room_event
from raceday.games.derby.room import DerbyRoom
from raceday.present import describe_event, render
from raceday.rooms.protocol import Actor

LANGS = ("en", "ja")
SLOT = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
SEEDS = range(6)  # with the harness configs: ties, house horses, falls, loans, roll-offs


def _evening_events() -> list[Event]:
    return [event for config in EVENING.harness_configs for seed in SEEDS
            for event in EVENING.play(config, rng=seed).events]


def _room_events() -> list[dict[str, Any]]:
    """A room's own events (the start, the host closing the bids) and the evening's, as
    the room logs them."""
    room = DerbyRoom.create({"races": 4}, seed=4)
    for name in ("Aki", "Ben"):
        room.add_seat(name)
    rng = np.random.default_rng(4)
    logged = room.handle(Actor.host(), {"type": "start", "computers": 1}, rng)
    logged += room.handle(Actor("seat", 0), {"type": "bid", "amount": 500}, rng)
    logged += room.handle(Actor.host(), {"type": "close_bids"}, rng)
    return logged


def _derby_event_keys() -> set[str]:
    folder = asset_folder("derby", "messages")
    assert folder is not None
    table = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    return {key for key in table if key.startswith("event.")}


def _words(event: Event) -> dict[str, str]:
    return {lang: describe_event("derby", event, lang) for lang in LANGS}


def test_every_event_reads_in_both_languages_and_every_event_wording_is_reached() -> None:
    room = _room_events()
    events = _evening_events() + [Event(e["type"], {k: v for k, v in e.items()
                                                    if k != "type"}) for e in room]
    assert {e["type"] for e in room} >= {"started", "bid_sealed", "bids_closed", "lot"}
    reached: set[str] = set()
    problems: set[str] = set()
    for event in events:
        for lang, text in _words(event).items():
            if SLOT.search(text) or "event." in text or not text.strip():
                problems.add(f"{lang} {event.kind}: {text!r}")
        reached.add(room_event({"type": event.kind, **event.data}, []).key)
    assert not problems, sorted(problems)
    assert reached == _derby_event_keys()


def test_a_replayed_room_event_reads_as_the_live_screens_word_it() -> None:
    for logged in _room_events():
        event = Event(logged["type"], {k: v for k, v in logged.items() if k != "type"})
        for lang in LANGS:
            assert render(room_event(logged, []), lang, "derby") == \
                describe_event("derby", event, lang)


def test_a_fact_that_changes_the_wording_picks_its_variant() -> None:
    lot = {"post": 5, "horse": "d12", "bids": [], "buyer": None, "buyer_name": None,
           "price": 0, "tied": [], "house": True, "tie": False, "offers": []}
    assert describe_event("derby", Event("lot", lot)).endswith(
        "Nobody bid: the house runs the d12 (its prizes go to nobody).")
    assert "胴元" in describe_event("derby", Event("lot", lot), "ja")
    fell = Event("round", {"round": 2, "alone": False, "fell": True, "rolloff": False,
                           "for_place": 1, "kind": "falls", "out": ["d4", "d10"],
                           "leader": None})
    assert describe_event("derby", fell) == "Out after a fall: the d4, d10."


def test_an_event_logged_before_todays_facts_gets_them_in_its_replay() -> None:
    old_lot = {"type": "lot", "post": 3, "horse": "d8", "buyer": 1, "buyer_name": "Ben",
               "price": 700, "tied": ["Aki", "Ben"], "message": {"key": "ev_lot"},
               "bids": [{"player": 0, "name": "Aki", "amount": 700},
                        {"player": 1, "name": "Ben", "amount": 700}]}
    message = room_event(old_lot, ["Aki", "Ben"])
    assert message.key == "event.lot.tie" and "message" not in message.params
    assert render(message, "en", "derby") == (
        "Bids: Aki 700, Ben 700.\nAki, Ben tie at 700: a fair draw picks Ben.\n"
        "The d8 goes to Ben for 700.")
    old_round = {"type": "round", "round": 4, "rolloff": False, "for_place": 1,
                 "kind": "rolloff", "rolls": {"d4": 3, "d6": None}, "out": ["d6"],
                 "leader": "d4"}
    assert room_event(old_round, []).key == "event.round.alone"
    old_result = {"type": "result", "order": ["d12", "d20", "d10", "d4", "d8", "d6"],
                  "places": {"d4": 4, "d6": 6, "d8": 5, "d10": 3, "d12": 1, "d20": 2},
                  "first_out": ["d6"]}
    assert "Win: post 5 (d12); quinella 5-6 (d12-d20)." in render(
        room_event(old_result, []), "en", "derby")
    sealed = room_event({"type": "bid_sealed", "player": 1, "post": 2}, ["Aki", "Ben"])
    assert render(sealed, "ja", "derby") == "Ben が d6 に封印入札。"


def test_the_quinella_has_one_japanese_name_everywhere() -> None:
    """The betting board says 馬連: so do the results, the refusals and the numbers page
    (they said 連勝複式). A typed command ('quinella 5-6 300') keeps its English word."""
    folder = asset_folder("derby", "messages")
    assert folder is not None
    en, ja = (json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
              for lang in ("en", "ja"))
    named = {key for key, text in en.items()
             if re.search(r"\bquinella\b", re.sub(r"'[^']*'", "", text), re.IGNORECASE)}
    assert {"what.quinella", "board.quinella", "refusal.quinella_two"} <= named
    assert all("馬連" in ja[key] and "連勝複式" not in ja[key] for key in named), \
        {key: ja[key] for key in named if "馬連" not in ja[key]}
    assert render("nm_table_quinella", "ja") == "馬連"  # the numbers page's table
