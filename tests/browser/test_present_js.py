"""present.js renders exactly as raceday.present.render: the same messages, rendered by
Python and by Chromium from the served tables (and from small made-up tables for the
fallbacks), give the same text; and i18n.js finds a game's word by its short key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from raceday.core.events import Event
from raceday.present import messages as present
from raceday.present.messages import MessageTable
from raceday.web.app import create_app
from raceday.web.server import background_server

NESTED = {"key": "hp_laps", "params": {"n": 2, "of": 3}}

# (message, game) pairs rendered in both languages with the real tables.
REAL: list[tuple[dict[str, Any], str | None]] = [
    ({"key": "hp_laps", "params": {"n": 2, "of": 3}}, "hairpin"),
    ({"key": "hp_laps", "params": {"n": 2}}, "hairpin"),  # a slot without a value stays
    ({"key": "hp_laps", "params": {"n": 2, "of": 3}}, None),  # the shared table has none
    ({"key": "error", "params": {"message": NESTED}}, "hairpin"),  # a nested message
    ({"key": "derby.event.lot.tie", "params": {
        "horse": "d4", "tied": ["Aki", "Ben"], "buyer_name": "Aki", "price": 300,
        "offers": [{"key": "derby.sum", "params": {"name": "Aki", "amount": 300}}]}}, None),
    ({"key": "event.lot", "params": {"horse": "Grey", "buyer_name": None, "price": 2.0,
                                     "offers": []}}, "derby"),
    ({"key": "event.roll", "params": {"horse": "Bay", "value": 2.5}}, "derby"),
    ({"key": "room", "params": {"code": True}}, None),
    ({"key": "room", "params": {"code": {"a": 1, "b": [1, "é"], "c": None}}}, None),
    ({"key": "waiting_for", "params": {"names": [NESTED, "x", 7, False]}}, "derby"),
    ({"key": "termination.laps", "params": {}}, None),
    ({"key": "no.such.key", "params": {"n": 1}}, None),
]

# Made-up tables: a key only in English, a game's own key before the shared one.
MADE_UP = {
    "en": {"a": "A {x} and {y}", "only_en": "English {n}", "g.a": "game A {x}",
           "list": "{items}", "pts.one": "{n} point", "pts.other": "{n} points",
           "g.pts.one": "{n} lap", "by.one@past": "by {past} square",
           "by.other@past": "by {past} squares"},
    "ja": {"a": "ア {x}、{y}", "list": "{items}", "pts": "{n}点", "by.one@past": "{past}マス差",
           "by.other@past": "{past}マス差"},
}
# Keys a page asks whether a table words (a key counted by another parameter has only its
# plural forms, "by.one@past"): (key, language, game).
KNOWN = [("by", "en", None), ("by", "ja", None), ("pts", "en", None), ("pts", "en", "g"),
         ("gone", "en", "g"), ("only_en", "ja", None), ("a", "ja", None)]
MADE_UP_CASES: list[tuple[dict[str, Any], str | None]] = [
    ({"key": "a", "params": {"x": 1, "y": [1, 2]}}, None),
    ({"key": "a", "params": {"x": {"key": "only_en", "params": {"n": 3}}}}, "g"),
    ({"key": "only_en", "params": {"n": 4}}, None),
    ({"key": "list", "params": {"items": [{"key": "a", "params": {"x": "q"}}, "r"]}}, "g"),
    ({"key": "gone", "params": {}}, "g"),
    # plural forms chosen by the count n (a game's own first; none in Japanese)
    ({"key": "pts", "params": {"n": 1}}, None),
    ({"key": "pts", "params": {"n": 0}}, None),
    ({"key": "pts", "params": {"n": 1.5}}, None),
    ({"key": "pts", "params": {"n": "1"}}, None),
    ({"key": "pts", "params": {"n": 1}}, "g"),
    ({"key": "pts", "params": {"n": 2}}, "g"),
    ({"key": "list", "params": {"items": [{"key": "pts", "params": {"n": 1}}]}}, None),
    # forms chosen by another named count ("<key>.one@past"), n first where it has forms
    ({"key": "by", "params": {"past": 1}}, None),
    ({"key": "by", "params": {"past": 2}}, None),
    ({"key": "by", "params": {"n": 1, "past": 2}}, None),
    ({"key": "pts", "params": {"past": 1, "n": 2}}, None),
    ({"key": "by", "params": {"past": "1,200"}}, None),  # a number's text counts
    ({"key": "by", "params": {"past": "x"}}, None),  # no count: the other form
    ({"key": "pts", "params": {"n": True}}, None),
]

# Events ({kind, ...facts}) described in both languages: the plain key, and a true fact
# that has its own wording ("event.roll.fall") before one that has none.
EVENTS: list[tuple[str, dict[str, Any]]] = [
    ("derby", {"kind": "roll", "horse": "d8", "value": 3, "fall": False}),
    ("derby", {"kind": "roll", "horse": "d8", "value": 1, "other": True, "fall": True}),
    ("derby", {"kind": "lot", "horse": "d8", "buyer_name": "Ben", "price": 700,
               "tied": ["Aki", "Ben"], "house": False, "tie": True,
               "offers": [{"key": "derby.sum", "params": {"name": "Aki", "amount": 700}},
                          {"key": "derby.sum", "params": {"name": "Ben", "amount": 700}}]}),
    ("hairpin", {"kind": "move", "player": 0, "frm": [0, 1], "to": [0, 2]}),
    ("pistard", {"kind": "no_such_kind", "flag": True}),
    # a true fact's wording that comes only in forms counted by another parameter
    ("keirin", {"kind": "cross", "turn": 9, "riders": [3, 5], "several": True, "past": 1}),
    ("keirin", {"kind": "cross", "turn": 9, "riders": [3, 5], "several": True, "past": 2}),
]

SCRIPT = """async ({real, madeUp, cases, events, known: KNOWN}) => {
  const p = await import("/static/js/present.js");
  await Promise.all([p.loadTable("en"), p.loadTable("ja")]);
  const out = {real: [], madeUp: [], events: [], known: []};
  for (const lang of ["en", "ja"])
    for (const [m, game] of real) out.real.push(p.render(m, lang, game));
  for (const lang of ["en", "ja"])
    for (const [game, e] of events) out.events.push(p.describeEvent(game, e, lang));
  for (const [lang, entries] of Object.entries(madeUp)) p.setTable(lang, entries);
  for (const lang of ["en", "ja"])
    for (const [m, game] of cases) out.madeUp.push(p.render(m, lang, game));
  out.known = KNOWN.map(([key, lang, game]) => p.known(key, lang, game));
  return out;
}"""


def _python(cases: list[tuple[dict[str, Any], str | None]]) -> list[str]:
    return [present.render(present.Message(m["key"], m["params"]), lang, game)
            for lang in ("en", "ja") for m, game in cases]


def test_python_and_javascript_render_alike(chromium: Any, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = chromium.new_page()
        page.goto(f"{base}replay")
        short = page.evaluate("""async () => {
          const i18n = await import("/static/js/i18n.js");
          const words = [i18n.t("hp_laps", {n: 1, of: 3}), i18n.t("seat_taken")];
          const counted = () => [i18n.t("pi_points_n", {n: 1}), i18n.t("pi_points_n", {n: 2}),
                                 i18n.t("kr_squares_to_go", {n: 1, turn: 4})];
          const en = counted();
          await i18n.setLanguage("ja");
          return words.concat([i18n.t("hp_laps", {n: 1, of: 3}), i18n.t("no_such_word")],
                              en, counted());
        }""")
        got = page.evaluate(SCRIPT, {"real": REAL, "madeUp": MADE_UP, "cases": MADE_UP_CASES,
                                         "events": EVENTS, "known": KNOWN})
        page.close()
    expected_real = _python(REAL)
    assert "laps 2/3" in expected_real and "laps 2/{of}" in expected_real
    assert got["real"] == expected_real
    described = [present.describe_event(
        game, Event(e["kind"], {k: v for k, v in e.items() if k != "kind"}), lang)
        for lang in ("en", "ja") for game, e in EVENTS]
    assert described[1] != described[0] and "event." not in described[1]
    assert got["events"] == described
    assert described[5:7] == ["Across the line in turn 9: riders 3, 5, by 1 square.",
                              "Across the line in turn 9: riders 3, 5, by 2 squares."]
    monkeypatch.setattr(present, "table", lambda lang: MessageTable(lang, MADE_UP[lang]))
    # a page and the server agree on which keys a table words, plural forms included
    assert got["known"] == [MessageTable(lang, MADE_UP[lang]).has(f"{game}.{key}" if game and
                            f"{game}.{key}" in MADE_UP[lang] else key)
                            for key, lang, game in KNOWN]
    assert got["known"] == [True, True, True, True, False, False, True]
    expected = _python(MADE_UP_CASES)
    assert expected[1] == "game A English 3"
    ja = len(MADE_UP_CASES)  # where the Japanese renderings begin
    assert expected[ja:ja + 2] == ["ア 1、1、2", "ア English 3、{y}"]
    assert "English 4" in expected and "gone" in expected
    assert expected[5:12] == ["1 point", "0 points", "1.5 points", "1 point", "1 lap",
                              "2 points", "1 point"]
    assert expected[ja + 5] == "1点"
    assert expected[12:19] == ["by 1 square", "by 2 squares", "by 2 squares", "2 points",
                               "by 1,200 squares", "by x squares", "yes points"]
    assert got["madeUp"] == expected
    assert short[0] == "laps 1/3" and short[2] == "周回 1/3"
    assert short[1].startswith("This seat was opened") and short[3] == "no_such_word"
    # a game's plural word is found by its short key, in its form for the count
    assert short[4:7] == ["1 pt", "2 pts", "1 square to the line · turn 4"]
    assert short[7:] == ["1点", "2点", "ゴールまで1マス・ターン4"]
