"""Every refusal of the server's own (the JSON API, the guard, the WebSocket's frames, the
Numbers jobs) carries its words: a key both languages' tables have, whose English is the
refusal's text, so a page shows it in its reader's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from raceday.present import render, table
from tests.web.conftest import Client, new_room, serving, worded


def same_words(body: dict[str, Any], text_key: str = "error") -> str:
    """The refusal's key, checked: its English is the text sent, and Japanese has it."""
    words = body["words"]
    assert render(words, "en") == body[text_key]
    assert table("ja").has(words["key"])
    assert render(words, "ja") != render(words, "en")
    return str(words["key"])


def test_the_api_and_the_guard_refuse_in_words(client: TestClient) -> None:
    answers = {
        "unknown page": client.get("/api/nothing-here"),
        "method": client.delete("/api/rooms"),
        "body type": client.post("/api/rooms", content=b"{}",
                                 headers={"content-type": "text/plain"}),
        "too large": client.post("/api/rooms", content=b" " * 5000,
                                 headers={"content-type": "application/json"}),
        "bad JSON": client.post("/api/rooms", content=b"{nope",
                                headers={"content-type": "application/json"}),
        "origin": client.post("/api/rooms", json={"game": "derby"},
                              headers={"origin": "http://evil.example"}),
        "no job": client.get("/api/numbers/nosuchjob"),
        "options of no game": client.get("/api/games/nosuchgame/options"),
    }
    keys = {what: same_words(r.json()) for what, r in answers.items() if worded(r.json())}
    assert keys == {
        "unknown page": "refusal.not_found", "method": "refusal.method",
        "body type": "refusal.json_only", "too large": "refusal.too_large",
        "bad JSON": "refusal.json_invalid", "origin": "refusal.origin",
        "no job": "refusal.no_job", "options of no game": "refusal.unknown_game_options",
    }
    assert [r.status_code for r in answers.values()] == [404, 405, 415, 413, 400, 403, 404,
                                                         404]


def test_a_validation_error_has_words_by_its_kind(client: TestClient) -> None:
    room = new_room(client)
    cases = [
        ({"game": "derby", "colour": "red"}, "/api/rooms", "refusal.unknown_fields"),
        ({}, f"/api/rooms/{room['code']}/join", "refusal.field_missing"),
        ({"name": 5}, f"/api/rooms/{room['code']}/join", "refusal.field_type"),
        ({"name": "x" * 500}, f"/api/rooms/{room['code']}/join", "refusal.field_long"),
    ]
    for body, path, key in cases:
        r = client.post(path, json=body)
        assert r.status_code == 400, r.text
        worded(r.json())
        assert r.json()["words"]["key"] == key, r.text
        assert render(r.json()["words"], "ja") != render(r.json()["words"], "en")
    r = client.post("/api/rooms", headers={"content-type": "application/json"})
    assert worded(r.json()) and r.json()["words"]["key"] == "refusal.body_needed"


def test_websocket_refusals_carry_words(db: Path) -> None:
    with serving(db) as tc:
        room = new_room(tc)
        host = Client(tc, room["code"], room["host_token"])
        frames = [host.send_raw("{nope"), host.send_raw("[1, 2]"),
                  host.send_raw('{"type": "hello", "token": null}'),
                  host.send_raw("x" * 5000)]
        assert [f["words"]["key"] for f in frames] == [
            "refusal.json_invalid", "refusal.message_object", "refusal.already_connected",
            "refusal.message_large"]
        for frame in frames:
            same_words(frame, "message")
        stranger = Client(tc, room["code"], "not-a-token-of-this-room")
        assert stranger.welcome["fatal"] is True
        assert same_words(stranger.welcome, "message") == "refusal.not_a_seat"
