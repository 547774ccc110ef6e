"""Every refusal an options model or a game's own option check gives is worded by message
keys, so a Japanese reader reads no English in it (#46): for each game's options models,
bad values of every option (the wrong kind, out of range, unknown words, too long) are
refused in Japanese with no English word beyond the Japanese pages' allow-list, and the
codes the reader typed or must type (the option's name, a quoted choice, true and false,
the value given back); the server's refusal of a room's options carries the same words."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from raceday.core.errors import OptionsError
from raceday.core.game import GameOptions
from raceday.core.registry import all_games
from raceday.present import render
from raceday.web.app import create_app
from tests.browser.test_japanese_pages import ALLOWED, ALLOWED_WORD, WORD

MODELS = [
    "raceday.games.derby.rules:DerbyOptions", "raceday.games.derby.session:EveningOptions",
    "raceday.games.derby.room:HostOptions", "raceday.games.hairpin.game:HairpinOptions",
    "raceday.games.keirin.rules:KeirinOptions", "raceday.games.keirin.night:NightOptions",
    "raceday.games.keirin.room:RoomOptions", "raceday.games.pistard.options:PistardOptions",
    "raceday.games.wielersim.game:WielersimOptions",
    "raceday.games.wielersim.prologue:PrologueOptions",
    "raceday.games.wielersim.room:WatchOptions",
]
# Left in English for now: the inner format of a route table (a file's or the API's),
# worded by the route checker's many messages; and what the system says of a path it
# cannot open ("File name too long"), shown as it says it.
LONG = "a" * 500
LEFT = {"WielersimOptions": {("route", "{'a': 1}"), ("route", LONG), ("peloton", LONG)},
        "PrologueOptions": {("peloton", LONG)}}
BAD: list[Any] = ["zz", "", -1, 10**9, 0.37, -0.5, 1.5, True, None, [], ["zz"], [1] * 30,
                  {"a": 1}, LONG]
# codes, not words: a quoted value ('fixed'), JSON's true and false, the value given back
CODES = re.compile(r"'[^']*'|\"[^\"]*\"|「[^」]*」|\btrue\b|\bfalse\b|（入力：.*?）")


def _model(spec: str) -> type[GameOptions]:
    module, name = spec.split(":")
    model: type[GameOptions] = getattr(importlib.import_module(module), name)
    return model


def english_words(text: str, options: list[str], given: object = None) -> list[str]:
    """The English words of a Japanese refusal (the options' names, as the API and the
    command line spell them, are codes, and so is the text the reader gave, a path)."""
    shown = CODES.sub(" ", text)
    if isinstance(given, str) and given:
        shown = shown.replace(given, " ")
    for option in options:
        for name in (option, option.replace("_", "-")):
            shown = re.sub(rf"\b{re.escape(name)}\b", " ", shown)
    return [w for w in WORD.findall(shown) if not (
        w.lower() in ALLOWED or ALLOWED_WORD.match(w) or len(w) == 1)]


def test_every_games_options_model_is_checked() -> None:
    models = {_model(spec) for spec in MODELS}
    for game in all_games():
        assert game.Options in models, game.name


@pytest.mark.parametrize("spec", MODELS, ids=[m.split(":")[1] for m in MODELS])
def test_every_bad_option_is_refused_in_japanese(spec: str) -> None:
    model = _model(spec)
    refused = 0
    leaks: dict[str, list[str]] = {}
    for option in model.model_fields:
        for bad in BAD:
            try:
                model.parse({option: bad})
            except OptionsError as exc:
                refused += 1
                assert exc.message is not None, (option, bad, str(exc))
                ja = render(exc.message, "ja")
                assert render(exc.message, "en") == str(exc)  # one refusal, two languages
                found = english_words(ja, list(model.model_fields), bad)
                if (option, str(bad)) in LEFT.get(model.__name__, ()):
                    continue
                if found:
                    leaks[f"{option}={bad!r:.20}"] = [ja]
    assert refused >= 2 * len(model.model_fields) - 2  # the bad values were refused
    assert leaks == {}


def test_the_kinds_pydantic_words_in_english_have_japanese_words() -> None:
    from raceday.games.keirin.night import NightOptions

    for raw, ja in (({"mode": "tote"}, "'fixed'、'pool' のいずれかで指定してください"),
                    ({"margin": 2}, "0以上1未満で指定してください"),
                    ({"players": "Aki"}, "名前のリストで指定してください")):
        with pytest.raises(OptionsError) as caught:
            NightOptions.parse(raw)
        assert caught.value.message is not None
        assert ja in render(caught.value.message, "ja")
        assert render(caught.value.message, "ja").startswith("競輪 投票ナイトの設定")


def test_the_server_refuses_a_rooms_options_in_the_readers_words(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    with TestClient(create_app(tmp_path / "rooms.sqlite")) as tc:
        for game, options in (("keirin", {"mode": "tote"}), ("derby", {"fall_rate": "lots"}),
                              ("pistard", {"variant": "zz"})):
            answer = tc.post("/api/rooms", json={"game": game, "options": options})
            assert answer.status_code == 400, answer.text
            words = answer.json()["words"]
            option = next(iter(options))
            ja = render(words, "ja")
            assert english_words(ja, [option]) == [], ja
            assert render(words, "en") == answer.json()["error"]
