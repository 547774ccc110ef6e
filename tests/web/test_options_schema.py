"""GET /api/games/{game}/options: each discovered game's options model as JSON Schema (the
setup forms are built from it); an unknown game is a 404 with a JSON error."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from raceday.core.discovery import game_packages
from raceday.core.registry import get_game


@pytest.mark.parametrize("game", sorted(game_packages()))
def test_every_discovered_game_serves_its_models_schema(client: TestClient, game: str) -> None:
    answer = client.get(f"/api/games/{game}/options")
    assert answer.status_code == 200
    schema = answer.json()
    assert schema == get_game(game).Options.model_json_schema()
    assert schema["additionalProperties"] is False  # the model refuses unknown options


def test_the_schema_carries_bounds_choices_and_defaults(client: TestClient) -> None:
    keirin = client.get("/api/games/keirin/options").json()["properties"]
    assert (keirin["riders"]["minimum"], keirin["riders"]["maximum"]) == (6, 9)
    assert keirin["riders"]["default"] == 9
    pistard = client.get("/api/games/pistard/options").json()["properties"]
    assert pistard["variant"]["enum"][0] == "scratch" and "pursuit" in pistard["variant"]["enum"]


@pytest.mark.parametrize("name", ["chess", "KEIRIN", "x" * 300])
def test_an_unknown_game_is_a_404_json_error(client: TestClient, name: str) -> None:
    answer = client.get(f"/api/games/{name}/options")
    assert answer.status_code == 404
    error = answer.json()["error"]
    assert error.startswith("unknown game") and "keirin" in error and len(error) < 200
