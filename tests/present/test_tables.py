"""The message tables: both languages have the same keys (shared and every game's), every
slot is a plain name, and a game's short page keys reach exactly one game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from raceday.core.discovery import asset_folder, game_packages
from raceday.present import LANGUAGES, table
from raceday.present.messages import PLACEHOLDER, SHARED

BRACES = re.compile(r"\{[^{}]*\}?|\}")


def _tables() -> dict[str, Path]:
    """Each table's folder, by owner ("shared" or a game's name)."""
    folders = {"shared": SHARED}
    for game in game_packages():
        folder = asset_folder(game, "messages")
        if folder is not None:
            folders[game] = folder
    return folders


def _load(folder: Path, lang: str) -> dict[str, str]:
    data = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("owner", sorted(_tables()))
def test_english_and_japanese_have_the_same_keys(owner: str) -> None:
    folder = _tables()[owner]
    en, ja = _load(folder, "en"), _load(folder, "ja")
    assert sorted(set(en) - set(ja)) == [], f"{owner}: missing in ja.json"
    assert sorted(set(ja) - set(en)) == [], f"{owner}: missing in en.json"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_slot_is_a_plain_name(lang: str) -> None:
    bad = {key: text for key, text in table(lang).entries.items()
           if any(not PLACEHOLDER.fullmatch(b) for b in BRACES.findall(text))}
    assert bad == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_slot_of_one_language_is_a_slot_of_the_other(lang: str) -> None:
    other = table("ja" if lang == "en" else "en").entries
    differ = {key: text for key, text in table(lang).entries.items()
              if set(PLACEHOLDER.findall(text)) - set(PLACEHOLDER.findall(other.get(key, "")))}
    assert differ == {}


def test_the_games_words_are_in_their_own_tables() -> None:
    entries = table("en").entries
    assert entries["hairpin.hp_laps"] == "laps {n}/{of}"
    assert entries["derby.ev_lot"] == "The {horse} goes to {name} for {price}"
    assert "hp_laps" not in entries and "ev_lot" not in entries
    assert entries["seat_taken"].startswith("This seat was opened on another device")


def test_a_short_page_key_belongs_to_one_game_only() -> None:
    """The pages call a game's own word by its short key (i18n.js finds the game that has
    it), so a short key without a dot is in one game's table at most and not shared."""
    entries = table("en").entries
    owners: dict[str, set[str]] = {}
    for key in entries:
        game, dot, short = key.partition(".")
        if dot and game in game_packages() and "." not in short:
            owners.setdefault(short, set()).add(game)
    clashes = {short: games for short, games in owners.items()
               if len(games) > 1 or short in entries}
    assert clashes == {}
