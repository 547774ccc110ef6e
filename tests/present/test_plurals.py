"""Wording in English: a count of one reads in the singular ("1 pt", "1 square to go",
"1 win"), never "1 pts" nor "win(s)" (Japanese has no plural and reads the same); a command
in a sentence is quoted, not in literal backticks."""

from __future__ import annotations

import re

import pytest

from raceday.present import render, table
from raceday.present.messages import PLACEHOLDER

# (key, game, parameters besides the count) → English for 1 and for 2
WORDS = [
    ("pi_points_n", "pistard", {}, "1 pt", "2 pts"),
    ("term.points", "pistard", {}, "(1 pt)", "(2 pts)"),
    ("lines.past", "pistard", {}, "1 square past it", "2 squares past it"),
    ("kr_say_bell", "keirin", {}, "The bell! 1 square to go!", "The bell! 2 squares to go!"),
    ("kr_tickets_n", "keirin", {}, "1 ticket", "2 tickets"),
    ("wv_before", "wielersim", {}, "At the start: 1 square to go.",
     "At the start: 2 squares to go."),
    ("wv_award_pts", "wielersim", {}, "1 point", "2 points"),
    ("finale.luckiest_detail", "derby", {"horse": "d6"}, "the d6, 1 win", "the d6, 2 wins"),
    ("gp_open_places", "hairpin", {}, "1 human place not taken", "2 human places not taken"),
    ("tool.rooms.count", None, {"playing": 0}, "1 room, 0 being played",
     "2 rooms, 0 being played"),
    ("kr_night", "keirin", {"riders": 9, "mode": "fixed odds", "bankroll": "10,000"},
     "1 race, 9 riders", "2 races, 9 riders"),
    ("award.hits", "keirin", {"won": 1}, "1 of 1 ticket came in", "1 of 2 tickets came in"),
    ("kr_pool_line", "keirin", {"pool": "900"}, "pool 900 · 1 ticket", "pool 900 · 2 tickets"),
    ("hp_rule_win", "hairpin", {}, "First to 1 lap wins.", "First to 2 laps wins."),
    ("ticker.break_alone", "wielersim", {"riders": "34", "time": "0'06\""},
     "At the front: alone (34), 1 square", "At the front: alone (34), 2 squares"),
]


# Counted by a parameter other than n: (key, game, the count, other parameters) → 1 and 2
NAMED = [
    ("event.cross.several", "keirin", "past", {"turn": 9, "riders": [3, 5]},
     "Across the line in turn 9: riders 3, 5, by 1 square.",
     "Across the line in turn 9: riders 3, 5, by 2 squares."),
    ("event.lineup", "keirin", "to_go", {}, "Rider 1 lines up 1 square from the finish.",
     "Rider 1 lines up 2 squares from the finish."),
    ("road.group_behind", "wielersim", "behind", {"size": 3, "to_go": 40, "riders": "#1",
                                                 "more": ""},
     "Group of 3 1 square behind (40 to go): #1", "Group of 3 2 squares behind (40 to go): #1"),
    ("event.result", "pistard", "rounds", {}, "the race is over after 1 turn",
     "the race is over after 2 turns"),
    ("refusal.rooms_per_address", None, "max", {}, "this address already holds 1 room;",
     "this address already holds 2 rooms;"),
    ("refusal.ticket_limit", "derby", "held", {"name": "Aki", "limit": 3,
                                              "kind": {"key": "derby.what.kind_win"}},
     "Aki already holds 1 win ticket;", "Aki already holds 2 win tickets;"),
]


@pytest.mark.parametrize(("key", "game", "count", "params", "one", "two"), NAMED)
def test_a_count_named_otherwise_reads_in_the_singular(
        key: str, game: str | None, count: str, params: dict[str, object], one: str,
        two: str) -> None:
    """"by 1 square", "1 square behind": the forms "<key>.one@past" are chosen by the
    count they name (Japanese reads the same for both)."""
    assert render(key, "en", game, {**params, count: 1}).startswith(one)
    assert render(key, "en", game, {**params, count: 2}).startswith(two)
    assert render(key, "en", game, {**params, count: 1.0}).startswith(one)
    ja = [render(key, "ja", game, {**params, count: n}) for n in (1, 2)]
    assert ja[0] == ja[1].replace("2", "1") and key not in ja[0]


# "{count} <noun>": a number before a counted noun (an optional word between), which needs
# plural forms chosen by that count unless the parameter is no count or never 1.
COUNTED = re.compile(
    r"\{(\w+)\}(?:\s+(?:more|human|other|stage|simulated))?\s+(squares|points|pts|laps|"
    r"riders|races|turns|rounds|seconds|tickets|wins|places|players|stages|games|moves|"
    r"loans|bidders|racers|rooms|hours|minutes|teams|bids|groups|positions|throws|bumps|"
    r"seats|horses|days|lengths|plies|sprints|steps|records|replays|nights|falls)\b")
NOT_COUNTS = {"horse", "rider", "who", "player", "winner", "team", "kind", "time", "leader",
              "out", "game", "name", "tour", "route", "variant", "loser", "side", "agent",
              "title", "classification", "place", "race", "round", "stage"}
NEVER_ONE = {  # (table, key, parameter): why it is no count, or never 1
    ("keirin", "kr_winner", "n"): "a rider's number: 'Rider 1 wins!'",
    ("shared", "tool.arena.side", "games"): "'{wins}/{games} wins': a ratio of wins",
    ("keirin", "print.odds.described", "riders"): "KEIRIN has 6 to 9 riders",
    ("keirin", "print.odds.described", "length"): "a KEIRIN finish is 19 squares or more",
    ("keirin", "nm_title_keirin_sim", "riders"): "KEIRIN has 6 to 9 riders",
    ("keirin", "term.watch_title", "riders"): "KEIRIN has 6 to 9 riders",
    ("keirin", "term.watch_title", "length"): "a KEIRIN finish is 19 squares or more",
    ("keirin", "term.sim.title", "riders"): "KEIRIN has 6 to 9 riders",
    ("pistard", "term.sim.length", "throws"): "every race takes many throws",
    ("wielersim", "print.riders.described", "riders"): "a peloton has 2 riders or more",
    ("wielersim", "road.further_back", "riders"): "worded so for 2 groups or more",
    ("wielersim", "lesson_board.head", "riders"): "a peloton has 2 riders or more",
    ("wielersim", "wv_lesson_intro", "riders"): "a peloton has 2 riders or more",
    ("wielersim", "wv_lesson_intro", "distance"): "a route is 40 squares or more",
    ("keirin", "lesson_board.race", "riders"): "KEIRIN has 6 to 9 riders",
    ("wielersim", "road.further_back", "groups"): "worded so for 2 groups or more",
    ("wielersim", "watch.heading", "distance"): "a route is 40 squares or more",
    ("wielersim", "watch.flying_start", "to_go"): "the route's distance, 40 squares or more",
    ("hairpin", "term.analyse.searched", "nodes"): "a search sees the root and its replies",
    ("derby", "reason.races", "high"): "an evening has at most 6 races",
    ("keirin", "reason.length", "high"): "a KEIRIN finish is at most 1,000 squares",
}
FORMS = re.compile(r"\.(one|other)(@\w+)?$")


def _english_tables() -> dict[str, dict[str, str]]:
    by_owner: dict[str, dict[str, str]] = {}
    for key, text in table("en").entries.items():
        game, _, short = key.partition(".")
        owner = game if f"{game}.title" in table("en").entries else "shared"
        by_owner.setdefault(owner, {})[short if owner != "shared" else key] = text
    return by_owner


def test_every_number_before_a_counted_noun_has_plural_forms() -> None:
    """Every template of every table (shared and each game's) that puts a count before a
    counted noun ("{past} squares") has forms chosen by that count, so 1 never reads
    "1 squares"; what is left is no count or never 1, each with its reason."""
    unformed = []
    for owner, entries in _english_tables().items():
        for key, text in entries.items():
            if FORMS.search(key) or f"{key}.one" in entries:
                continue  # a plural form, or the older shape "<key>.one" beside "<key>"
            for match in COUNTED.finditer(text):
                count = match.group(1)
                if count not in NOT_COUNTS and (owner, key, count) not in NEVER_ONE:
                    unformed.append((owner, key, count, text))
    assert unformed == []


def test_what_is_left_unformed_is_still_there() -> None:
    """Each reason above names a template that still counts so (a stale entry would hide a
    new template of the same key)."""
    tables = _english_tables()
    stale = [(owner, key, count) for owner, key, count in NEVER_ONE
             if not any(count in PLACEHOLDER.findall(text)
                        for name, text in tables[owner].items()
                        if FORMS.sub("", name) == key)]
    assert stale == []


@pytest.mark.parametrize(("key", "game", "params", "one", "two"), WORDS)
def test_one_reads_in_the_singular(key: str, game: str | None, params: dict[str, str],
                                   one: str, two: str) -> None:
    count = "gap" if key.startswith("ticker.") else "n"  # the ticker names its count twice
    assert render(key, "en", game, {**params, "n": 1, count: 1}).startswith(one)
    assert render(key, "en", game, {**params, "n": 2, count: 2}).startswith(two)
    ja = [render(key, "ja", game, {**params, "n": n, count: n}) for n in (1, 2)]
    assert ja[0] == ja[1].replace("2", "1")


def test_no_game_or_terminal_word_counts_with_s_in_brackets() -> None:
    """"win(s)", "place(s)", "room(s)": a counted word has plural forms instead (the
    refusals and the print kit are worded apart)."""
    bracketed = {key: text for key, text in table("en").entries.items()
                 if "(s)" in text and "refusal." not in key and not key.startswith("pr_")}
    assert bracketed == {}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_page_word_shows_markdown_backticks(lang: str) -> None:
    """A command named in a sentence is quoted as the language quotes, not `like this` (a
    page shows the backticks as they are)."""
    ticked = {key: text for key, text in table(lang).entries.items()
              if "`" in text and "refusal." not in key and not key.startswith("pr_")}
    assert ticked == {}
