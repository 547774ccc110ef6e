"""Every event of every game reads as words in English and Japanese: no bare key, no
unfilled {slot} (issue #31, item 2). Games are played with random agents and fixed seeds,
so the same events are checked on every run."""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Iterator

import pytest

from raceday.core.discovery import asset_folder
from raceday.core.events import Event
from raceday.core.game import AnyGame
from raceday.core.registry import all_games
from raceday.present import describe_event

LANGS = ("en", "ja")
SLOT = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
SEED = 7


PARTY_GAMES = (("raceday.games.derby.evening", "EVENING", "derby"),
               ("raceday.games.keirin.night", "NIGHT", "keirin"))


def _party_games() -> list[tuple[AnyGame, str]]:
    """The party games played through the protocol beside the registered races, each with
    the game whose message table words it: Dice Derby's evening and, where it exists,
    KEIRIN's betting night."""
    found = []
    for module, attribute, words in PARTY_GAMES:
        try:
            found.append((getattr(importlib.import_module(module), attribute), words))
        except (ImportError, AttributeError):
            continue
    return found


def _games() -> list[tuple[AnyGame, str]]:
    return [*((game, game.name) for game in all_games()), *_party_games()]


def _cases() -> Iterator[tuple[str, AnyGame, str, int]]:
    for game, words in _games():
        for index in range(len(game.harness_configs)):
            yield f"{game.name}-{index}", game, words, index


CASES = list(_cases())


def _unworded(game: str, event: Event) -> list[str]:
    problems = []
    for lang in LANGS:
        text = describe_event(game, event, lang)
        if text == event.key or text.startswith(f"{game}.event.") or SLOT.search(text):
            problems.append(f"{lang} {event.kind}: {text!r}")
    return problems


def test_the_games_and_party_games_are_found() -> None:
    names = {game.name for game in all_games()}
    assert {"derby", "keirin"} <= names
    assert "derby_evening" in {game.name for game, _ in _party_games()}


@pytest.mark.parametrize(("game", "words", "index"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_every_event_of_a_played_game_is_worded(game: AnyGame, words: str, index: int) -> None:
    record = game.play(game.harness_configs[index], rng=SEED)
    assert record.events, "a played game produced no events to check"
    problems = sorted({p for event in record.events for p in _unworded(words, event)})
    assert not problems, problems


def test_the_check_catches_an_unworded_event_and_an_unfilled_slot() -> None:
    assert _unworded("derby", Event("no_such_kind", {}))
    assert _unworded("derby", Event("roll", {"value": 3}))  # {horse} left unfilled


@pytest.mark.parametrize("name", sorted({words for _, words in _games()}))
def test_every_english_key_of_a_game_has_a_japanese_one(name: str) -> None:
    folder = asset_folder(name, "messages")
    assert folder is not None
    en = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    ja = json.loads((folder / "ja.json").read_text(encoding="utf-8"))
    missing = sorted(set(en) - set(ja))
    assert not missing, f"{name}: keys without Japanese: {missing}"
