"""Refusals in words from the tables: a refusal's text is its English, it carries the
message for a page to word in its reader's language, every refusal key has English and
Japanese with the same slots, and the server sends the words with its 4xx answers and its
WebSocket errors (nested messages as JSON)."""

from __future__ import annotations

import re
from pathlib import Path

from raceday.core.events import Message
from raceday.present import refusal, render, table
from raceday.rooms import RoomError
from tests.web.conftest import Client, join, serving

SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def test_a_refusal_is_english_text_carrying_its_message() -> None:
    error = refusal(RoomError, "refusal.room_full", max=8)
    assert isinstance(error, RoomError)
    assert str(error) == "the room is full (8 players); watch with the spectator link"
    assert error.message == Message("refusal.room_full", {"max": 8})
    assert render(error.message, "ja") == "ルームは満員です（8人）。観戦用リンクからご覧ください"
    started = refusal(RoomError, "refusal.already_started", noun=Message("noun.race"))
    assert str(started) == "the race has already started"
    assert render(started.message.to_json(), "ja") == "レースはもう始まっています"


def test_every_refusal_has_both_languages_with_the_same_slots() -> None:
    english, japanese = table("en").entries, table("ja").entries
    keys = [k for k in english if k.split(".")[-2:-1] == ["refusal"] or k.startswith(
        ("refusal.", "noun."))]
    assert len(keys) > 30
    for key in keys:
        assert key in japanese, key
        assert set(SLOT.findall(english[key])) == set(SLOT.findall(japanese[key])), key
        assert japanese[key] != english[key] or key.startswith("noun."), key


def test_the_server_sends_the_words_of_its_refusals(tmp_path: Path) -> None:
    with serving(tmp_path / "party.sqlite") as tc:
        r = tc.post("/api/rooms", json={"game": "pistard", "options": {
            "variant": "scratch", "riders_per_player": 1, "track": "short",
            "players": ["human", "human"]}})
        room = r.json()
        code = room["code"]
        aki = join(tc, code, "Aki")
        join(tc, code, "Ben")
        full = tc.post(f"/api/rooms/{code}/join", json={"name": "Chie"})
        assert full.status_code == 409
        assert full.json()["words"] == {"key": "refusal.places_taken", "params": {}}
        missing = tc.post("/api/rooms/ZZZZ/join", json={"name": "Chie"})
        assert missing.status_code == 404
        assert render(missing.json()["words"], "ja") == \
            "ルーム'ZZZZ'はありません。コードをお確かめください"
        phone = Client(tc, code, aki["token"])
        answer = phone.send({"type": "undo"})
        assert answer["type"] == "error"
        assert answer["message"] == "a player cannot send 'undo' in PISTARD"
        assert answer["words"]["params"]["who"] == {"key": "refusal.who_player", "params": {}}
        assert render(answer["words"], "ja") == "プレイヤーはPISTARDで'undo'を送れません"
