"""KEIRIN's refusals are message keys (#32): every one raised under games/keirin has its
words in English and Japanese, and a refused ticket carries its message, so a phone words
it in its reader's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from raceday.games.keirin import betting
from raceday.games.keirin.room import KeirinRoom
from raceday.present import render
from raceday.present.messages import plain_key
from raceday.rooms import Actor, RoomError

PACKAGE = Path(betting.__file__).parent
KEY = re.compile(r'"keirin\.(refusal\.[a-z_]+)"')
FAMILIES = re.compile(r'f"keirin\.(refusal\.[a-z_]+)_\{')


def table(lang: str) -> dict[str, str]:
    """KEIRIN's own table, a key's plural forms under the key they belong to."""
    entries = json.loads((PACKAGE / "messages" / f"{lang}.json").read_text("utf-8"))
    return {plain_key(key): text for key, text in entries.items()}


def raised_keys() -> set[str]:
    keys: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        text = path.read_text("utf-8")
        keys |= set(KEY.findall(text))
    return keys


def test_every_refusal_raised_has_words_in_both_languages() -> None:
    keys = raised_keys()
    assert {"refusal.over_purse", "refusal.only_during", "refusal.unknown_rider"} <= keys
    en, ja = table("en"), table("ja")
    for key in keys | {"refusal.rider_count_one", "refusal.during_betting",
                       "refusal.during_racing", "refusal.now_racing",
                       "refusal.now_finished", "refusal.now_betting"}:
        assert key in en and key in ja, key
        assert set(re.findall(r"\{(\w+)\}", en[key])) == set(re.findall(r"\{(\w+)\}", ja[key]))
    # no BetError or RoomError a player can meet is raised with an English sentence any
    # more; what is left is a corrupt save's or a bad option's (checked by the options model
    # first), told to a developer
    for name in ("betting.py", "night.py", "room.py"):
        text = (PACKAGE / name).read_text("utf-8")
        english = re.findall(r"raise (?:BetError|RoomError)\(f?\"([a-z]+)", text)
        assert set(english) <= {"malformed", "margin", "takeout"}, (name, english)


def started() -> tuple[KeirinRoom, np.random.Generator]:
    room = KeirinRoom.create({"races": 1, "riders": 7, "bankroll": 100}, 3)
    room.add_seat("Aki")
    rng = np.random.default_rng(3)
    room.handle(Actor.host(), {"type": "start"}, rng)
    return room, rng


@pytest.mark.parametrize(("intent", "key", "japanese"), [
    ({"type": "ticket", "kind": "win", "riders": [1], "stake": "500"},
     "keirin.refusal.over_purse", "賭け金 500.00 は残りの 100.00 を超えています"),
    ({"type": "ticket", "text": "win 8 10"}, "keirin.refusal.unknown_rider", "選手 '8' はいません"),
    ({"type": "ticket", "text": "trio 1-2 10"}, "keirin.refusal.rider_count", "3連複は選手を3人"),
    ({"type": "ticket", "kind": "win", "riders": [1], "stake": "1.234"},
     "keirin.refusal.amount_cents", "小数点以下2桁"),
    ({"type": "cancel"}, "keirin.refusal.no_ticket", "取り消せる車券がありません"),
])
def test_a_refused_ticket_carries_its_words(intent: dict[str, object], key: str,
                                            japanese: str) -> None:
    room, rng = started()
    with pytest.raises(RoomError) as refused:
        room.handle(Actor.player(0), intent, rng)
    message = refused.value.message
    assert message is not None and message.key == key
    words = render(message, "ja", "keirin")
    assert japanese in words, words
    assert str(refused.value) == render(message, "en", "keirin")


def test_a_phase_refusal_words_the_phases() -> None:
    room, rng = started()
    with pytest.raises(RoomError) as refused:
        room.handle(Actor.host(), {"type": "advance"}, rng)
    assert str(refused.value) == "that is only possible during a race (now: betting)"
    message = refused.value.message
    assert message is not None
    assert render(message, "ja", "keirin") == "それはレースの間だけできます（いまは発売中）"
