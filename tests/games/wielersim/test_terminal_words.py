"""WielerSIM's terminal words come from its message tables: the result, stage and
classification tables, the prediction tables, the stage-race sentences and a watched
stage's commentary render in Japanese with every slot filled and no raw key; the English
is the text the terminal always printed."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.cells import cell_len
from rich.console import Console

from raceday.games.wielersim import cli
from raceday.games.wielersim.campaign import new_campaign, open_store, predict_tour
from raceday.games.wielersim.game import new_race
from raceday.games.wielersim.model import RIDER_TYPES
from raceday.games.wielersim.picture import draw_road
from raceday.games.wielersim.predict import predict
from raceday.games.wielersim.render import result_table, stage_result_table, standings_tables
from raceday.games.wielersim.rules import WielersimState, peloton_spec, route_spec
from raceday.games.wielersim.stage import resolve_tour
from raceday.present import table
from raceday.present.messages import plain_key
from raceday.terminal import common
from raceday.terminal.surface import LineSurface
from tests.games.wielersim.test_messages import ridden_tour

SOURCES = [Path(cli.__file__), Path(cli.__file__).with_name("render.py")]
SLOT = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
# what a message key left unrendered looks like: "col.rider", "table.teams", "wv_gc"
RAW_KEY = re.compile(r"\b(?:col|cell|table|surface|tour|watch|import|road|turn|ticker|"
                     r"weather|stage|standings|progress|interrupt)\.[a-z_]+|\bwv_[a-z_]+")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def shown(*things: Any) -> str:
    """What the terminal shows of rich tables and texts (wide, no colour)."""
    out = Console(file=io.StringIO(), width=200, color_system=None)
    for thing in things:
        out.print(thing)
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(text, str)
    return text


def clean(text: str) -> None:
    assert SLOT.search(text) is None, SLOT.search(text)
    assert RAW_KEY.search(text) is None, RAW_KEY.search(text)


def finished_race() -> WielersimState:
    state = new_race({"route": "flanders", "peloton": "small"})
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        draw = state.sample_chance(rng)
        state.apply_action(draw.outcome, draw.detail)
    return state


def test_every_key_the_terminal_names_has_english_and_japanese_words() -> None:
    named = set()
    for source in SOURCES:
        text = source.read_text(encoding="utf-8")
        named |= set(re.findall(r"\b(?:say|word)\(\s*\"([a-z_.]+)\"", text))
        named |= {f"col.{c}" for c in re.findall(r"[\[(,]\s*\(?\"([a-z_0-9]+)\"", text)
                  if f"wielersim.col.{c}" in table("en").entries}
    named |= {f"wv_type_{t}" for t in RIDER_TYPES}
    named |= {f"surface.{s}" for s in ("flat", "cobbles", "uphill")}
    assert len(named) > 40  # the scan found the keys
    for lang in ("en", "ja"):
        keys = {plain_key(key) for key in table(lang).entries}
        missing = {k for k in named if f"wielersim.{k}" not in keys}
        assert not missing, (lang, missing)


def test_the_result_table_in_japanese_and_in_the_english_it_always_had() -> None:
    state = finished_race()
    ja = shown(result_table(state, lang="ja"))
    clean(ja)
    assert "結果" in ja and "選手" in ja and "番号" in ja and "タイム差" in ja
    assert any(word in ja for word in ("エース", "クライマー", "スプリンター", "アシスト"))
    english = result_table(state)
    assert english.title == f"{state.route.name}: result (pts: sprint points, mtn: mountain " \
                            "points)"
    en = shown(english)
    assert re.search(r"#\s+rider\s+bib\s+team\s+type\s+gap\s+pts\s+mtn", en)
    assert not JAPANESE.search(en)


def test_stage_and_classification_tables_in_japanese() -> None:
    _, peloton, records, standings = ridden_tour()
    japanese = [stage_result_table(peloton, records[1], lang="ja"),
                *standings_tables(peloton, standings, lang="ja")]
    ja = shown(*japanese) + "\n".join(str(t.title) for t in japanese)  # titles wrap when shown
    clean(ja)
    for word in ("ステージ結果", "総合順位", "イエロー", "ポイント賞", "山岳賞",
                 "チーム（総合タイム上位", "ボーナス"):
        assert word in ja, word
    english = [stage_result_table(peloton, records[1]), *standings_tables(peloton, standings)]
    assert [t.title for t in english] == [f"{records[1]['name']}: stage result",
                                          "General classification", "Points", "Mountains",
                                          "Teams (best 3 GC times)"]
    assert "0'00\" (yellow)" in shown(*english)


def test_prediction_tables_in_japanese() -> None:
    spec = peloton_spec("small")
    one = predict(route_spec("ardennes"), spec, 20, seed=1, workers=1)
    two = predict(route_spec("flanders"), spec, 20, seed=1, workers=1)
    tour = predict_tour(resolve_tour("ronde-van-belgie"), spec, 4, seed=2, workers=1)
    ja = shown(cli._prediction_table(one, 5, "ja"), cli._type_table(one, "ja"),
               cli._compare_table([one, two], ["A", "B"], 5, "ja"),
               cli._gc_places_table(tour, 5, "ja"), *cli._tour_chance_tables(tour, 5, "ja"),
               cli._seed_line(7, "ja"))
    clean(ja)
    for word in ("シミュレーション", "選手タイプ別", "表彰台", "レース", "平均順位",
                 "最終総合順位", "獲得の確率", "1レースあたり", "シード 7"):
        assert word in ja, word
    compared = cli._compare_table([one, two], ["A", "B"], 5)
    assert compared.title == "A against B: 20 simulated races each (95% intervals)"
    en = shown(cli._type_table(one), compared)
    assert "By rider type" in en and "podium places" in en and "per race" in en
    for race in ("A", "B"):  # a row for each race under each rider
        assert re.search(rf"│ {race}\s+│\s+\d+\.\d% │", en), race


def test_the_imported_route_sections_in_japanese() -> None:
    sections = [{"name": "Berg", "length": 5, "road": "uphill", "colour": "climber",
                 "category": 2, "max_steepness": 4},
                {"name": "Kasseien", "length": 3, "road": "cobbles", "colour": "leader"},
                {"name": "Vlak", "length": 4, "colour": "sprinter"}]
    ja = shown(cli._sections_table(12, sections, "ja"))
    clean(ja)
    for word in ("区間", "上り", "石畳", "平坦", "クライマー", "2級、最大勾配4"):
        assert word in ja, word
    en = shown(cli._sections_table(12, sections))
    assert "cat. 2, steepest 4" in en and "cobbles" in en and "sprinter" in en
    assert "-4" not in en  # a steepness is not a negative number


def console_output(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """Send the terminal's console to a buffer (wide, no colour) for this test."""
    buffer = io.StringIO()
    monkeypatch.setattr(common, "console", Console(file=buffer, width=160, color_system=None))
    return buffer


def test_a_watched_stage_is_told_in_japanese(monkeypatch: pytest.MonkeyPatch) -> None:
    buffer = console_output(monkeypatch)
    state = new_race({"route": "flanders", "peloton": "classics"})
    cli.watch_race(LineSurface(common.console, "ja"), state, np.random.default_rng(3), delay=0,
                   width=40)
    text = buffer.getvalue()
    clean(text)
    for word in ("フライングスタート", "ターン1：残り", "レーン0", "先頭", "が優勝！"):
        assert word in text, word
    assert not re.search(r"\bTurn \d|\blane \d|ATTACK|Flying start", text)  # no English left


def test_a_whole_stage_race_is_told_in_japanese(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    buffer = console_output(monkeypatch)
    campaign = new_campaign(open_store(tmp_path / "db.sqlite"), "t", resolve_tour(
        "ronde-van-belgie"), peloton_spec("small"), 4)
    cli._ride_campaign(LineSurface(common.console, "ja"), campaign, auto=True, delay=0,
                       resume_command="r")
    text = buffer.getvalue()
    clean(text)
    for word in ("プロローグの優勝確率", "プロローグ：ステージ結果", "総合順位", "は終了。",
                 "最終順位を 't' として保存しました。"):
        assert word in text, word
    assert "Prologue" not in text and "stage result" not in text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_road_picture_keeps_its_columns_in_both_languages(lang: str) -> None:
    state = new_race({"route": "flanders", "peloton": "small"})
    rng = np.random.default_rng(2)
    for _ in range(200):
        draw = state.sample_chance(rng)
        state.apply_action(draw.outcome, draw.detail)
    lines = draw_road(state, 20, lang).plain.rstrip("\n").split("\n")
    ruler, *rest = lines
    widths = {cell_len(line) for line in rest}
    assert len(widths) == 1 and cell_len(ruler) + 1 == widths.pop(), lines
    assert lines[-1].startswith("レーン5" if lang == "ja" else "lane 5 ")
