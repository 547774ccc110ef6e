"""GET /api/games/{game}/options?for=room: the model a browser room is created from (the room
declaration's ``Options``; the game's own model where it declares none), and the room is
refused by that model alone: a bad value is a 400 with the model's one line."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from raceday.core.discovery import face, game_packages, has_face
from raceday.core.errors import OptionsError
from raceday.core.registry import get_game
from raceday.games.derby.room import HostOptions
from raceday.present import render
from raceday.web.options_schema import DAYS
from tests.web.conftest import worded

ROOM_GAMES = [g for g in sorted(game_packages()) if has_face(g, "room")]


@pytest.mark.parametrize("game", ROOM_GAMES)
def test_each_room_serves_the_model_it_is_created_from(client: TestClient, game: str) -> None:
    answer = client.get(f"/api/games/{game}/options", params={"for": "room"})
    assert answer.status_code == 200
    logic = face(game, "room").LOGIC  # type: ignore[union-attr]
    model = getattr(logic, "Options", None) or get_game(game).Options
    expected = model.model_json_schema()
    if getattr(logic, "over_days", False):  # the kit's switch of a game played over days
        expected["properties"]["days"] = DAYS
    assert answer.json() == expected
    assert answer.json()["additionalProperties"] is False


def test_the_derby_room_model_is_the_evenings_house_rules_without_players_and_seed(
        client: TestClient) -> None:
    schema = client.get("/api/games/derby/options", params={"for": "room"}).json()
    fields = set(schema["properties"])
    assert "players" not in fields and "seed" not in fields and "host_dice" in fields
    assert (schema["properties"]["races"]["minimum"], schema["properties"]["races"]["maximum"],
            schema["properties"]["races"]["default"]) == (4, 6, 5)
    assert schema["properties"]["owner_award"]["enum"] == ["gross", "net"]
    defaults = {f: p["default"] for f, p in schema["properties"].items()}
    made = client.post("/api/rooms", json={"game": "derby", "options": defaults})
    assert made.status_code == 201, made.text
    evening = HostOptions.parse(defaults).evening(seed=7)
    assert evening.model_dump(exclude={"players", "seed"}) == \
        HostOptions().evening(seed=7).model_dump(exclude={"players", "seed"})


def test_a_purpose_other_than_room_is_refused(client: TestClient) -> None:
    answer = client.get("/api/games/derby/options", params={"for": "printing"})
    assert answer.status_code == 400 and "for" in answer.json()["error"]


@pytest.mark.parametrize(("options", "words"), [
    ({"races": 9}, "Dice Derby option races: must be from 4 to 6, got 9"),
    ({"colour": "red"}, "unknown Dice Derby option 'colour'"),
    ({"borrowing": "yes"}, "Dice Derby option borrowing:"),
    ({"win_limit": 101}, "Dice Derby option win_limit:"),
    ({"owner_award": "both"}, "owner-award must be 'gross' or 'net'"),
    ({"start_money": 150}, "start-money must be a multiple of the stake unit"),
    ({"margin": "1" * 40}, "margin must be a short text such as 0.05"),
])
def test_a_bad_room_option_is_the_models_one_line(client: TestClient, options: dict[str, Any],
                                                  words: str) -> None:
    with pytest.raises(OptionsError) as direct:  # the same line without the server
        HostOptions.parse(options).evening(seed=1)
    assert words in str(direct.value)
    answer = client.post("/api/rooms", json={"game": "derby", "options": options})
    assert answer.status_code == 400
    body = answer.json()
    assert worded(body) == str(direct.value)  # the line, and the same in words
    assert render(body["words"], "en") == str(direct.value)
