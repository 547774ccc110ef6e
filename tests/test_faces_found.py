"""Every registry site lists exactly the games that carry the face, found by discovery: a
game (built in or installed beside raceday) appears by carrying its own module, and no
list of games lives anywhere else."""

from __future__ import annotations

from typing import Any, get_args

from raceday.core.discovery import face, game_packages, games_with
from raceday.core.registry import all_games


def test_research_adapters_are_the_games_adapter_faces() -> None:
    from raceday.interop.adapters import adapters

    found = adapters()
    for game in games_with("adapter"):
        module = face(game, "adapter")
        assert module is not None and found[game] is module.ADAPTER, game
    for name, adapter in found.items():
        assert adapter.name == name and name in game_packages()
        low, high = adapter.player_range
        assert 0 <= low <= high, name


def test_openspiel_player_ranges_are_the_adapters_declarations() -> None:
    from raceday.interop.adapters import adapters
    from raceday.interop.openspiel import load_game

    for name, adapter in adapters().items():
        kind = load_game(name).get_type()
        assert (kind.min_num_players, kind.max_num_players) == adapter.player_range, name


def test_print_catalog_is_the_games_printing_faces() -> None:
    from raceday.printing.catalog import games

    found = games()
    assert list(found) == games_with("printing")
    for name, info in found.items():
        assert info.credit.game == name
        fields = set(info.model.model_fields) - {"paper"}
        assert set(info.options) <= fields, name
        for part in info.parts:
            assert callable(info.builder(part)), (name, part.name)
        assert set(info.model.checked_by) <= fields, name


def test_numbers_jobs_are_the_games_numbers_faces() -> None:
    from raceday.web.numbers import FACES, LIMITS

    assert list(FACES) == games_with("numbers") == list(LIMITS)
    for name, module in FACES.items():
        assert get_args(module.Body.model_fields["game"].annotation) == (name,)
        assert LIMITS[name]["races"] >= 1
        assert callable(module.plan)


def test_warm_up_engines_are_the_games_warm_faces() -> None:
    from raceday.terminal.warm import engines, room_engines

    declared: list[Any] = []
    for game in games_with("warm"):
        module = face(game, "warm")
        assert module is not None
        declared += module.ENGINES
        for engine in module.ENGINES:  # a game warms its own modules (and the shared RNG)
            package = game_packages()[game]
            assert all(m.startswith(f"{package}.") for m in engine.modules), engine.name
    assert list(engines()) == declared
    assert len({e.name for e in declared}) == len(declared)
    assert room_engines() == [e.name for e in declared if e.room_players]


def test_the_pages_list_of_games_is_the_registry(tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from raceday.web.app import create_app

    with TestClient(create_app(tmp_path / "rooms.db")) as client:
        listed = client.get("/api/games").json()
        assert [g["game"] for g in listed] == [g.name for g in all_games()]
        for card in listed:
            assert card["numbers"] == (card["game"] in games_with("numbers"))
            assert card["prints"] == (card["game"] in games_with("printing"))
            if card["setup"]:
                url = f"/games/{card['game']}/static/setup.js"
                assert client.get(url).status_code == 200, url
            if card["page"]:  # a game's own page, served by its watch face
                assert card["game"] in games_with("watch")
                assert client.get(f"/{card['game']}").status_code == 200, card["game"]
        offered = client.get("/api/numbers/games").json()
        assert [g["game"] for g in offered] == games_with("numbers")


def test_text_pictures_are_the_games_picture_faces() -> None:
    from raceday.present.pictures import text_picture

    drawn = games_with("picture")
    assert {"hairpin", "keirin", "pistard", "wielersim"} <= set(drawn)
    for game in (g for g in all_games() if g.name in drawn):
        state = game.new_state(seed=1)
        module = face(game.name, "picture")
        assert module is not None
        assert text_picture(state) == module.text_picture(state), game.name
