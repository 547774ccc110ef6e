"""WielerSIM in the terminal, line by line (piped or --plain): the road keeps terrain and
riders apart and explains every mark, the tables fit 80 columns without cutting a number,
the words are right (plurals, an imported climb, the prologue's odds), the stage race's
question understands help, ?, undo and quit, --resume NAME and --list work,
and Japanese comes from the message tables."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.cli.main import run as run_main
from raceday.games.wielersim import cli
from raceday.games.wielersim.model import CLIMBER, COBBLES, SPRINTER, UPHILL
from raceday.games.wielersim.predict import predict
from raceday.games.wielersim.render import (
    ROUGH_GLYPHS,
    draw_road,
    group_summary,
    road_legend,
    road_squares,
    road_text,
    window,
)
from raceday.games.wielersim.rules import WielersimState, peloton_spec, route_spec
from raceday.terminal import common
from tests.games.wielersim.positions import peloton, route, state

PEL = peloton([
    [(1, "Ann", "leader"), (2, "Bo", "sprinter"), (3, "Cy", "helper")],
    [(4, "Di", "leader"), (15, "Ed", "sprinter"), (6, "Fa", "helper")],
    [(7, "Gus", "leader"), (8, "Hal", "sprinter"), (9, "Ida", "helper")],
])
HIER = ["leader", "sprinter", "helper", "climber"]
TERRAIN = set(ROUGH_GLYPHS.values()) | {"·"}


def known_state() -> WielersimState:
    """A road with flat, cobbles, a categorised climb, a sprint and the finish, and riders
    on each kind of square (none moved: the turn counts as played)."""
    spec = route([{"length": 20, "colour": "helper"},
                  {"length": 8, "colour": "leader", "road": "cobbles"},
                  {"length": 12, "colour": "climber", "road": "uphill", "category": "2",
                   "max_steepness": 4},
                  {"length": 10, "colour": "sprinter"}], HIER, sprints=[15])
    s = state(spec, PEL)
    s.setup({1: (47, 2), 2: (46, 0), 3: (35, 1), 4: (34, 0), 15: (23, 1), 6: (22, 3),
             7: (10, 5), 8: (9, 5)}, play_turn=False)
    return s


def cells_of(line: str, label: int) -> list[str]:
    body = line[label:]
    return [body[i:i + 3] for i in range(0, len(body), 3)]


def test_no_rider_number_shares_a_cell_with_a_terrain_mark() -> None:
    s = known_state()
    squares = 45
    start, end = window(s, squares)
    assert (start, end) == (7, 51)  # ends four squares past the front rider (47)
    lines = road_text(s, squares).plain.split("\n")
    ruler, marks, colours, terrain, *lanes = lines
    assert ruler.split()[0:2] == ["to", "go"]
    assert len(lanes) == 6 and terrain.startswith("road ")
    label = len(lanes[0]) - 3 * squares  # the lanes' labels
    seen: dict[int, tuple[int, int]] = {}
    for lane, line in enumerate(lanes):
        for i, cell in enumerate(cells_of(line, label)):
            text = cell.strip()
            if text.isdigit():  # a rider: nothing else in the cell
                seen[int(text)] = (start + i, lane)
            else:  # a free square (or off the road): only terrain glyphs, never a digit
                assert not any(ch.isdigit() for ch in cell), (lane, i, cell)
                assert set(text) <= TERRAIN, (lane, i, cell)
                p = start + i
                if text and s.route.road[p] == COBBLES:
                    assert text[0] in "░▒▓█", (p, lane, cell)
    placed = {s.num(r): (s.pos[r], s.lane[r]) for r in s.on_road()}
    assert seen == placed  # every rider drawn where he is, and nothing else as a number
    terrain_cells = cells_of(terrain, label)
    for i, cell in enumerate(terrain_cells):
        p = start + i
        if s.route.road[p] == UPHILL:
            assert cell == f"/{s.route.steepness[p]}".rjust(3), (p, cell)
        elif s.route.road[p] == COBBLES:
            assert cell == " ##", (p, cell)
        else:
            assert cell.strip() == "", (p, cell)
    assert "^2" in marks and " S " in marks and " F " in marks
    assert set(colours.strip()) == {"▀"}


def test_the_legend_explains_every_mark_on_the_road() -> None:
    s = known_state()
    legend = road_legend(s, 45).plain
    for mark, words in (("12", "bib (team colour)"), ("·", "free square"),
                        ("/4", "climb: steepness, taken off a throw"),
                        ("##", "cobbles: ░▒▓█ roughness 1-4"), ("S", "sprint"),
                        ("^2", "top of the"), ("F", "finish")):
        assert f"{mark} {words}" in legend, (mark, legend)
    for kind in ("leader", "climber", "sprinter", "helper"):
        assert kind in legend
    assert "who may accelerate" in legend
    # a flat stretch explains only what it draws
    flat = road_legend(s, 10).plain  # squares 42 to 51: flat, the finish, riders
    assert "##" not in flat and "/4" not in flat and "^2" not in flat and "F finish" in flat


def test_the_road_and_its_legend_fit_80_columns_in_both_languages() -> None:
    s = known_state()
    for lang in ("en", "ja"):
        out = Console(file=io.StringIO(), width=80, color_system=None)
        out.print(draw_road(s, road_squares(80, lang), lang))
        text = out.file.getvalue()  # type: ignore[attr-defined]
        assert max(cell_len(line) for line in text.splitlines()) <= 80, text
        assert "…" not in text
    assert road_squares(80) == 24 and road_squares(120) == 37


def test_groups_are_worded_without_wrong_plurals() -> None:
    s = known_state()
    lines = group_summary(s, limit=2)
    assert lines[0] == "Group of 2 at the front (3 to go): 1, 2"
    assert lines[1].startswith("Group of 2 12 squares behind")
    assert lines[2] == "... and 4 riders in 2 groups further back"
    lines = group_summary(s, limit=4)
    assert lines[3] == "Group of 2 37 squares behind (40 to go): 7, 8"
    assert not any("Alone of" in line or "1 riders" in line or "1 groups" in line
                   for line in group_summary(s, limit=1) + lines)
    alone = state(route([{"length": 60, "colour": "helper"}], HIER), PEL)
    alone.setup({1: (40, 0), 2: (30, 0), 3: (20, 0)}, play_turn=False)
    lines = group_summary(alone, limit=2)
    assert lines == ["Alone at the front (20 to go): 1",
                     "Alone 10 squares behind (30 to go): 2",
                     "... and 1 rider alone further back"]
    assert group_summary(alone, limit=1)[1] == "... and 2 riders in 2 groups further back"
    alone.setup({1: (40, 0), 2: (30, 0), 3: (29, 0)}, play_turn=False)
    assert group_summary(alone, limit=1)[1] == "... and a group of 2 further back"


@pytest.fixture
def narrow(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """The terminal's console at 80 columns (no colour), read back as text."""
    buffer = io.StringIO()
    monkeypatch.setattr(common, "console", Console(file=buffer, width=80, color_system=None))
    return buffer


def test_predict_compare_at_80_columns_cuts_no_interval(narrow: io.StringIO) -> None:
    spec = peloton_spec("classics")
    one = predict(route_spec("flanders"), spec, 200, seed=1, workers=1)
    two = predict(route_spec("ardennes"), spec, 200, seed=1, workers=1)
    common.console.print(cli._compare_table([one, two], ["Ronde van Vlaanderen", "Waalse Pijl"],
                                            6))
    common.console.print(cli._prediction_table(one, 6))
    common.console.print(cli._type_table(one))
    text = narrow.getvalue()
    assert "…" not in text  # nothing is cut
    assert max(cell_len(line) for line in text.splitlines()) <= 80
    intervals = re.findall(r"\[(\d+\.\d)-(\d+\.\d)\]", text)
    # compare: 6 riders x 2 races x 3 chances; prediction: 6 x 3; by type: 4
    assert len(intervals) == 6 * 2 * 3 + 6 * 3 + 4, len(intervals)
    assert all(float(lo) <= float(hi) for lo, hi in intervals)
    assert text.count("│ A ") == 6 and text.count("│ B ") == 6  # a row for each race
    assert "A: Ronde van Vlaanderen, B: Waalse Pijl" in " ".join(text.split())


def test_every_prediction_command_fits_80_columns() -> None:
    runner = CliRunner()
    for argv in (["predict", "flanders", "classics", "-n", "60", "--seed", "2", "--top", "5"],
                 ["predict", "flanders", "classics", "--races", "60", "--seed", "2",
                  "--top", "5", "--compare", "route=ardennes"],
                 ["predict-tour", "ronde-van-belgie", "small", "-n", "8", "--seed", "2",
                  "--top", "5"]):
        result = runner.invoke(app, ["wielersim", *argv], env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.output
        assert "…" not in result.output, result.output
        assert max(cell_len(line) for line in result.output.splitlines()) <= 80


def test_route_import_words_a_climb_by_its_steepest_square(narrow: io.StringIO) -> None:
    sections = [{"name": "Muur", "length": 12, "road": "uphill", "colour": "climber",
                 "category": "3", "max_steepness": 3},
                {"name": "Vlak", "length": 40, "colour": "sprinter"}]
    common.console.print(cli._sections_table(52, sections))
    text = narrow.getvalue()
    assert "cat. 3, steepest 3" in text
    assert "top -3" not in text and "-3" not in text


def test_the_prologue_odds_name_each_type_once_with_its_exact_chance(tmp_path: Path) -> None:
    from raceday.games.wielersim.campaign import new_campaign, open_store
    from raceday.games.wielersim.stage import prologue_win_chances, resolve_tour

    campaign = new_campaign(open_store(tmp_path / "db.sqlite"), "p",
                            resolve_tour("ronde-van-belgie"), peloton_spec("classics"), 5)
    line = cli.prologue_odds(campaign)
    assert line.startswith("Prologue, exact odds to win: each leader ")
    favoured = CLIMBER if campaign.tour["prologue_type"] == "climber" else SPRINTER
    chances = prologue_win_chances(campaign.peloton, favoured)
    shown = {f"{float(c):.1%}" for c in chances.values()}
    assert set(re.findall(r"\d+\.\d%", line)) == shown
    assert sum(float(c) for c in chances.values()) == pytest.approx(1.0)
    assert cli.prologue_odds(campaign, "ja").startswith("プロローグの優勝確率")


def tour(db: Path, *args: str, answers: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["wielersim", "tour", *args, "--db", str(db),
                                      "--delay", "0"], input=answers,
                                env={"COLUMNS": "80"})
    return result.exit_code, result.stdout, result.stderr


def test_the_stage_race_question_understands_help_undo_and_quit(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    code, out, _ = tour(db, "ronde-van-belgie", "small", "--seed", "3", "--save", "rvb",
                        answers="?\nundo\nx\nc\nquit\n")
    assert code == 0, out
    assert "c (or just Enter) rides the next stage" in out  # the question's own help
    assert "At any prompt: help or ?" in out  # and the universal words
    assert "A ridden stage cannot be taken back" in out
    assert "Refused: answer c, w or s (not 'x')." in out
    assert "Prologue: stage result" in out  # 'c' rode the prologue
    resume = f"raceday wielersim tour --resume rvb --db {db}"
    assert "Stopped after 1 of 6 stages; every ridden stage is saved." in out
    assert f"\nSaved as 'rvb'; continue with: {resume}\n" in out  # on one line, to copy
    code, out, _ = tour(db, "--resume", "rvb", answers="\n\ns\n")
    assert code == 0, out
    assert "Resuming 'rvb': 1 of 6 stages done." in out
    assert f"Stopped after 3 of 6 stages.\nSaved as 'rvb'; continue with: {resume}" in out
    code, out, _ = tour(db, "--list")
    assert code == 0 and "rvb: Ronde van Belgie, 3 of 6 stages ridden" in out


def test_resume_refuses_an_option_as_its_name_and_lists_nothing_when_empty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    assert run_main(["wielersim", "tour", "--resume", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "--resume" in err and "'--db'" in err and not db.exists()
    assert run_main(["wielersim", "tour", "--list", "--db", str(db)]) == 0
    assert "No stage race is saved yet." in capsys.readouterr().out


def test_save_names_the_stage_race(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    code, out, err = tour(db, "ronde-van-belgie", "small", "--seed", "4", "--save", "old",
                          "--auto")
    assert code == 0, out
    assert "saved as 'old'" in out and "Final standings saved as 'old'." in out
    assert err == ""
    help_text = CliRunner().invoke(app, ["wielersim", "tour", "--help"],
                                   env={"COLUMNS": "100"}).stdout
    assert "--save" in help_text and "--name" not in help_text
    assert "[TOUR] [PELOTON]" in help_text


def test_watch_and_a_stage_race_in_japanese(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["wielersim", "watch", "flanders", "small", "--seed", "3",
                                      "--delay", "0", "--lang", "ja"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    for words in ("フライングスタート", "ターン1：残り", "レーン0", "路面", "空きマス",
                  "加速できるタイプ", "が優勝！"):
        assert words in out, words
    assert not re.search(r"\bTurn \d|\blane \d|free square|Flying start", out)
    code, out, _ = tour(tmp_path / "t.sqlite", "ronde-van-belgie", "small", "--seed", "3",
                        "--save", "ja", "--lang", "ja", answers="?\nu\nc\nq\n")
    assert code == 0, out
    for words in ("プロローグの優勝確率", "次：プロローグ。c：続ける",
                  "走ったステージは取り消せません", "プロローグ：ステージ結果", "総合順位",
                  "で中断。走ったステージはすべて保存済み"):
        assert words in out, words


def test_watch_line_by_line_draws_the_legend_under_every_road() -> None:
    result = CliRunner().invoke(app, ["wielersim", "watch", "flanders", "small", "--seed", "3",
                                      "--delay", "0", "--plain"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    roads = out.count("\nlane 5 ")
    assert roads > 5 and out.count("accelerate\n") == roads  # the legend's last words
    assert max(cell_len(line) for line in out.splitlines()) <= 80
    assert not re.search(r"(?m)^lane \d.*-\d", out)  # no '-3' in a lane any more
