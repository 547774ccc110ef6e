"""Wording in English: a count of one reads in the singular ("1 pt", "1 square to go",
"1 win"), never "1 pts" nor "win(s)" (Japanese has no plural and reads the same); a command
in a sentence is quoted, not in literal backticks."""

from __future__ import annotations

import pytest

from raceday.present import render, table

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
    ("ticker.break_alone", "wielersim", {"riders": "34", "time": "0'06\""},
     "At the front: alone (34), 1 square", "At the front: alone (34), 2 squares"),
]


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
