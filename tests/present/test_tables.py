"""The message tables: both languages have the same keys (shared and every game's), every
slot is a plain name, and a game's short page keys reach exactly one game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from raceday.core.discovery import asset_folder, game_packages
from raceday.present import LANGUAGES, table
from raceday.present.messages import PLACEHOLDER, PLURALS, SHARED

BRACES = re.compile(r"\{[^{}]*\}?|\}")
PAGE_KEY = re.compile(r'(?:\bt\(|data-i18n(?:-label)?=)"([A-Za-z_][\w.]*)"')
STATIC = Path(__file__).parents[2] / "src" / "raceday" / "web" / "static"
PLURAL = re.compile(r"\.(one|other)(@[A-Za-z_]\w*)?$")  # "<key>.one", "<key>.one@past"


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
    assert entries["derby.event.roll"] == "The {horse} shows {value}."
    assert "hp_laps" not in entries and "event.roll" not in entries
    assert entries["seat_taken"].startswith("This seat was opened on another device")


def _page_words() -> dict[str, set[str]]:
    """The keys the pages name literally (``t("key")``, ``data-i18n="key"``), by file."""
    folders = [STATIC] + [f for g in game_packages()
                          if (f := asset_folder(g, "static")) is not None]
    found: dict[str, set[str]] = {}
    for folder in folders:
        for path in [*folder.rglob("*.js"), *folder.rglob("*.html")]:
            if path.name in ("i18n.js", "present.js"):  # the machinery, not a page
                continue
            text = path.read_text(encoding="utf-8")
            for key in PAGE_KEY.findall(text):
                found.setdefault(key, set()).add(path.name)
    return found


def _owners(entries: dict[str, str]) -> dict[str, set[str]]:
    """A game's short key (without a dot, but for a plural form) → the games that have it
    (as i18n.js reads it)."""
    owners: dict[str, set[str]] = {}
    words = {PLURAL.sub("", key) for key in entries}
    for key in entries:
        game, dot, short = key.partition(".")
        short = PLURAL.sub("", short)
        if dot and "." not in short and short not in words:
            owners.setdefault(short, set()).add(game)
    return owners


def test_every_word_a_page_names_is_in_the_tables() -> None:
    """i18n.js's t(key) finds a shared key, or the one game whose table has the short key;
    so each key a page names is one of them (else the page would show the key)."""
    entries = table("en").entries
    owners = _owners(entries)
    words = _page_words()
    assert len(words) > 300
    plain = {PLURAL.sub("", key) for key in entries}
    missing = {key: files for key, files in words.items()
               if key not in plain and len(owners.get(key, ())) != 1}
    assert missing == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_key_with_plural_forms_has_both_and_counts_n(lang: str) -> None:
    """A key with a ``.one`` form has its ``.other`` (or, the older shape, a plain key for
    every other count); a pair names the count that chooses between them (``n``, or the
    parameter after ``@``: ``<key>.one@past``), and has no plain key beside it."""
    entries = table(lang).entries
    ones = {key.removesuffix(".one") for key in entries if key.endswith(".one")}
    assert sorted(k for k in ones if f"{k}.other" not in entries and k not in entries) == []
    pairs = {k for k in ones if f"{k}.other" in entries}
    assert len(pairs) > 20
    assert sorted(pairs & set(entries)) == []
    uncounted = [f"{key}.{form}" for key in pairs for form in ("one", "other")
                 if "n" not in PLACEHOLDER.findall(entries[f"{key}.{form}"])]
    assert uncounted == []
    named = {key.partition(".one@") for key in entries if ".one@" in key}
    assert len(named) > 20
    unpaired = [key + ".one@" + count for key, _, count in named
                if f"{key}.other@{count}" not in entries or key in entries]
    assert unpaired == []
    uncounted = [f"{key}.{form}@{count}" for key, _, count in named for form in PLURALS
                 if count not in PLACEHOLDER.findall(entries[f"{key}.{form}@{count}"])]
    assert uncounted == []
