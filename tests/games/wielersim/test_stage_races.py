"""Stage races: prologue, bonus seconds, points, classifications and saved campaigns."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.core.errors import InputFileError, OptionsError, SaveFormatError
from raceday.games.wielersim.campaign import load_campaign, new_campaign, open_store
from raceday.games.wielersim.model import CLIMBER, HELPER, LEADER, SPRINTER
from raceday.games.wielersim.peloton import peloton_from_spec
from raceday.games.wielersim.rules import SPRINT_THROW, peloton_spec
from raceday.games.wielersim.stage import (
    classifications,
    parse_tour_text,
    prologue_record,
    prologue_rerolls,
    prologue_total,
    resolve_tour,
    stage_record,
)
from tests.games.wielersim.positions import peloton, route, state, throw

runner = CliRunner()
PEL = peloton([
    [(1, "A1", "leader"), (2, "A2", "sprinter"), (3, "A3", "helper")],
    [(4, "B1", "leader"), (5, "B2", "sprinter"), (6, "B3", "helper"), (7, "B4", "climber")],
])


def test_prologue_rerolls_ones_first_up_to_the_allowance() -> None:
    first = [1, 2, 2, 6, 6, 6, 6, 6, 6, 1]
    assert prologue_total(first, [6, 6, 6, 6], 0) == sum(first)
    assert prologue_total(first, [6, 6, 6, 6], 2) == sum(first) - 1 - 1 + 12  # the two 1s
    assert prologue_total(first, [3, 3, 3, 3], 4) == sum(first) - 6 + 12
    assert prologue_rerolls(LEADER, CLIMBER) == 4
    assert prologue_rerolls(CLIMBER, CLIMBER) == 2
    assert prologue_rerolls(SPRINTER, CLIMBER) == 0
    assert prologue_rerolls(HELPER, SPRINTER) == 0


def test_prologue_one_second_per_pip_and_no_points() -> None:
    p = peloton_from_spec(PEL)
    totals = [(0, 40), (1, 45), (2, 45), (3, 30), (4, 44), (5, 41), (6, 39)]
    rec = prologue_record(p, totals, lots=[0, 1, 2, 3, 4, 5, 6])
    assert rec["results"][:3] == [[2, 0], [3, 0], [5, 1]]
    assert rec["results"][-1] == [4, 15]
    assert rec["points"] == {} and rec["bonus"] == {}
    # equal totals (equal times) are listed by lot, not by bib
    again = prologue_record(p, totals, lots=[0, 6, 1, 2, 3, 4, 5])
    assert again["results"][:3] == [[3, 0], [2, 0], [5, 1]]
    with pytest.raises(ValueError, match="permutation"):
        prologue_record(p, totals, lots=[0, 0, 1, 2, 3, 4, 5])


def finished_flat_stage(mountain: bool = False):  # type: ignore[no-untyped-def]
    sections = [{"length": 60, "colour": "sprinter"}]
    if mountain:
        sections = [{"length": 20, "colour": "helper"},
                    {"length": 12, "colour": "climber", "road": "uphill", "category": "1",
                     "max_steepness": 1},
                    {"length": 28, "colour": "sprinter"}]
    r = route(sections, ["sprinter", "leader", "helper", "climber"])
    s = state(r, PEL)
    # everyone past the line, spread out: the race ends without throws
    s.setup({n: (62 + 2 * (7 - n), 5) for n in range(1, 8)}, play_turn=False)
    assert s.is_terminal()
    return s


def test_finish_bonuses_and_points_on_a_normal_stage() -> None:
    s = finished_flat_stage()
    rec = stage_record(s, "Stage", bonuses=True, flat_stage_race=False)
    assert [n for n, _ in rec["results"]] == [1, 2, 3, 4, 5, 6, 7]
    assert rec["bonus"] == {"1": 10, "2": 6, "3": 4, "4": 2, "5": 1}
    assert rec["points"]["1"] == 15 and rec["points"]["7"] == 4
    off = stage_record(s, "Stage", bonuses=False, flat_stage_race=False)
    assert off["bonus"] == {}


def test_mountain_stage_has_no_finish_bonus_or_points_unless_flat_stage_race() -> None:
    s = finished_flat_stage(mountain=True)
    assert s.route.is_mountain_stage
    rec = stage_record(s, "Stage", bonuses=True, flat_stage_race=False)
    assert rec["bonus"] == {} and rec["points"] == {}
    assert rec["kind"] == "mountain"
    flat_race = stage_record(s, "Stage", bonuses=True, flat_stage_race=True)
    assert flat_race["points"]["1"] == 15 and flat_race["bonus"] == {}


def test_intermediate_sprint_gives_six_four_two_seconds() -> None:
    r = route([{"length": 100, "colour": "climber"}], ["leader", "sprinter", "helper",
                                                        "climber"], sprints=[50])
    s = state(r, PEL)
    s.setup({1: (49, 5), 2: (48, 5), 3: (48, 4), 4: (30, 5)})
    throw(s, 1, "roll", 6)
    throw(s, 4, "roll", 3)
    throw(s, 1, SPRINT_THROW, 1)
    throw(s, 2, SPRINT_THROW, 9)
    throw(s, 3, SPRINT_THROW, 4)
    rec = stage_record(s, "x", bonuses=True, flat_stage_race=False)
    assert rec["bonus"] == {"2": 6, "3": 4, "1": 2}
    assert rec["points"] == {"2": 10, "3": 8, "1": 6}


def test_gc_adds_times_deducts_bonuses_and_breaks_ties_by_stage_places() -> None:
    p = peloton_from_spec(PEL)
    stage1 = {"name": "1", "results": [[1, 0], [2, 0], [3, 30], [4, 30], [5, 60], [6, 60],
                                       [7, 90]],
              "bonus": {"1": 10, "2": 6}, "points": {"1": 15, "2": 12}, "mountains": {"7": 6}}
    stage2 = {"name": "2", "results": [[2, 0], [1, 4], [4, 10], [3, 10], [5, 60], [6, 60],
                                       [7, 60]],
              "bonus": {}, "points": {"2": 15, "1": 12}, "mountains": {"3": 6}}
    st = classifications(p, [stage1, stage2])
    gc = dict(st.gc)
    assert gc[1] == -6 and gc[2] == -6  # tied on time ...
    # ... 1 has places 1+2=3, 2 has 2+1=3: the better place in the latest stage (2)
    assert [n for n, _ in st.gc[:2]] == [2, 1]
    assert gc[3] == 40 and gc[4] == 40
    assert [n for n, _ in st.gc[2:4]] == [4, 3]  # places 3+4=7 against 4+3=7: latest stage
    assert st.points[0] == (2, 27) and st.points[1] == (1, 27)  # one stage win each: GC
    assert st.mountains[0] == (3, 6)  # tied with 7 on points; 3 is higher on GC
    # teams: the best three GC times; team 0 = 1, 2, 3: -6 - 6 + 40
    assert st.teams[0] == (0, 28)
    assert st.leader == 2


def test_gc_ties_never_fall_back_on_bib_numbers() -> None:
    """Our completion: time, then the sum of places, then the latest stage's place (all
    different), so swapping two riders' results swaps their GC places whatever their bibs."""
    p = peloton_from_spec(PEL)
    rest = [[2, 50], [3, 50], [4, 60], [5, 60], [6, 60]]
    for first, second in ((1, 7), (7, 1)):
        s1 = {"name": "1", "results": [[first, 0], [second, 0], *rest], "bonus": {},
              "points": {}, "mountains": {}}
        s2 = {"name": "2", "results": [[second, 0], [first, 0], *rest], "bonus": {},
              "points": {}, "mountains": {}}
        gc = classifications(p, [s1, s2]).gc
        assert gc[0][1] == gc[1][1] == 0
        assert [gc[0][0], gc[1][0]] == [second, first]  # the latest stage's winner leads


def test_tie_on_time_goes_to_the_better_sum_of_stage_places() -> None:
    p = peloton_from_spec(PEL)
    rec = {"name": "1", "results": [[5, 0], [3, 0], [1, 0], [2, 0], [4, 0], [6, 0], [7, 0]],
           "bonus": {}, "points": {}, "mountains": {}}
    assert [n for n, _ in classifications(p, [rec]).gc[:3]] == [5, 3, 1]


TOUR = """name = "Mini Tour"
prologue = true
prologue_type = "sprinter"

[[stages]]
name = "S1"
route = "flat-stage"

[[stages]]
name = "S2"
route = "ardennes"
"""


def test_tour_file_validation() -> None:
    spec = parse_tour_text(TOUR, "t.toml")
    assert spec["bonuses"] is True and len(spec["stages"]) == 2
    with pytest.raises(InputFileError, match=re.escape("t.toml:2: field 'prologue'")):
        parse_tour_text(TOUR.replace("prologue = true", "prologue = 3"), "t.toml")
    with pytest.raises(InputFileError, match=re.escape("t.toml:3: field 'prologue_type'")):
        parse_tour_text(TOUR.replace('"sprinter"', '"helper"'), "t.toml")
    with pytest.raises(InputFileError, match="stage 2"):
        parse_tour_text(TOUR.replace('"ardennes"', '"nowhere.toml"'), "t.toml")
    shipped = resolve_tour("ronde-van-belgie")
    assert shipped["prologue"] and len(shipped["stages"]) == 5


def standings_json(db: Path, name: str) -> dict[str, object]:
    out = runner.invoke(app, ["wielersim", "standings", name, "--db", str(db), "--json"])
    assert out.exit_code == 0, out.output
    data: dict[str, object] = json.loads(out.output)
    return data


def test_interrupted_campaign_resumes_to_the_same_final_standings(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    tour = tmp_path / "t.toml"
    tour.write_text(TOUR)
    whole = runner.invoke(app, ["wielersim", "tour", str(tour), "small", "--seed", "21",
                                "--save", "whole", "--db", str(db), "--auto"])
    assert whole.exit_code == 0, whole.output
    part = runner.invoke(app, ["wielersim", "tour", str(tour), "small", "--seed", "21",
                               "--save", "parts", "--db", str(db)], input="c\nw\n")
    assert part.exit_code == 0, part.output  # EOF at the third question: saved, stopped
    assert "Stopped after 2 of 3 stages" in part.output
    mid = standings_json(db, "parts")
    assert mid["stages_done"] == 2
    again = runner.invoke(app, ["wielersim", "tour", "--resume", "parts", "--db", str(db)],
                          input="maybe\nc\n")
    assert again.exit_code == 0, again.output
    assert "Refused: answer c, w or s" in again.output
    a, b = standings_json(db, "whole"), standings_json(db, "parts")
    assert a["stages_done"] == b["stages_done"] == 3
    for key in ("gc", "points", "mountains", "teams"):
        assert a[key] == b[key]
    # a finished campaign resumed does nothing and counts nothing twice
    runner.invoke(app, ["wielersim", "tour", "--resume", "parts", "--db", str(db)])
    assert standings_json(db, "parts")["gc"] == a["gc"]


def test_a_stale_campaign_cannot_save_a_stage_twice(tmp_path: Path) -> None:
    store = open_store(tmp_path / "c.sqlite")
    tour = parse_tour_text(TOUR, "t.toml")
    camp = new_campaign(store, "x", tour, peloton_spec("small"), 1)
    twin = load_campaign(store, "x")
    rec = {"name": "Prologue", "results": [], "bonus": {}, "points": {}, "mountains": {}}
    camp.add_record(rec)
    with pytest.raises(SaveFormatError):
        twin.add_record(rec)
    assert len(load_campaign(store, "x").records) == 1
    with pytest.raises(OptionsError):
        new_campaign(store, "x", tour, peloton_spec("small"), 1)


def test_standings_plot_and_predict_tour(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    tour = tmp_path / "t.toml"
    tour.write_text(TOUR)
    runner.invoke(app, ["wielersim", "tour", str(tour), "small", "--seed", "2", "--save", "p",
                        "--db", str(db), "--auto"])
    png = tmp_path / "gc.png"
    out = runner.invoke(app, ["wielersim", "standings", "p", "--db", str(db), "--plot",
                              str(png)])
    assert out.exit_code == 0, out.output
    assert png.stat().st_size > 1000 and "General classification" in out.output
    out = runner.invoke(app, ["wielersim", "predict-tour", str(tour), "small", "-n", "12",
                              "--json", "--workers", "1"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["n"] == 12 and abs(sum(data["gc"].values()) - 1) < 1e-9


def test_prologue_distribution_is_exact_and_matches_the_sampler() -> None:
    from itertools import product

    import numpy as np

    from raceday.analysis.stats import proportion_agrees
    from raceday.games.wielersim.peloton import peloton_from_spec
    from raceday.games.wielersim.stage import prologue_distribution, ride_prologue

    # brute force on four dice with two re-rolls, against the exact formula
    counts: dict[int, int] = {}
    for first in product(range(1, 7), repeat=4):
        for again in product(range(1, 7), repeat=2):
            v = prologue_total(first, again, 2)
            counts[v] = counts.get(v, 0) + 1
    exact = prologue_distribution(2, dice_count=4)
    assert all(exact[v] * 6 ** 6 == c for v, c in counts.items())
    # the sampler used by stage races, at 99 % confidence (fixed seed): leaders (4
    # re-rolls) reach 40 pips as often as the exact distribution says
    p = peloton_from_spec(PEL)
    rng = np.random.default_rng(99)
    hits = trials = 0
    for _ in range(1500):
        for i, total in ride_prologue(p, CLIMBER, rng):
            if p.riders[i].kind == LEADER:
                trials += 1
                hits += total >= 40
    expected = float(prologue_distribution(4).probability(lambda v: v >= 40))
    assert proportion_agrees(hits, trials, expected, confidence=0.99)
    assert prologue_distribution(4).mean() > prologue_distribution(2).mean() > \
        prologue_distribution(0).mean() == 35


def test_exact_prologue_win_chances_sum_to_one_and_agree_with_simulation() -> None:
    import numpy as np

    from raceday.analysis.stats import proportion_agrees
    from raceday.games.wielersim.peloton import peloton_from_spec
    from raceday.games.wielersim.stage import draw_lots, prologue_win_chances, ride_prologue

    p = peloton_from_spec(PEL)
    chances = prologue_win_chances(p, SPRINTER)
    assert sum(chances.values()) == 1
    assert chances[1] > chances[2] > chances[3]  # leader 4 re-rolls, sprinter 2, helper 0
    assert chances[1] == chances[4]  # same type, same chance: ties are drawn by lot
    assert chances[2] == chances[5] and chances[3] == chances[6] == chances[7]
    rng = np.random.default_rng(5)
    n, leader_wins = 4000, 0
    for _ in range(n):
        rec = prologue_record(p, ride_prologue(p, SPRINTER, rng), draw_lots(7, rng))
        leader_wins += rec["results"][0][0] in (1, 4)
    assert proportion_agrees(leader_wins, n, float(chances[1] + chances[4]), confidence=0.99)


def test_prologue_ties_are_won_fairly_and_reproducibly() -> None:
    """Tied prologue totals are ordered by lots from the stage's generator: over 6000 seeded
    prologues, whenever two helpers (no re-rolls) tie, the lower bib is listed first about
    half the time (Wilson interval at 99.9 % confidence contains 1/2); the same seed gives
    the same order."""
    from raceday.analysis.stats import proportion_agrees
    from raceday.games.wielersim.stage import ride_stage

    tour = {"name": "T", "prologue": True, "prologue_type": "climber", "bonuses": True,
            "flat_stage_race": False, "stages": []}
    helpers = peloton([[(1, "H1", "helper"), (2, "L2", "leader"), (3, "S3", "sprinter")],
                       [(4, "H4", "helper"), (5, "L5", "leader"), (6, "S6", "sprinter")]])
    ties = first = 0
    for seed in range(6000):
        rec = ride_stage(tour, helpers, 0, [], seed)
        gaps = dict((n, g) for n, g in rec["results"])
        if gaps[1] == gaps[4]:
            order = [n for n, _ in rec["results"]]
            ties += 1
            first += order.index(1) < order.index(4)
    assert ties > 300
    assert proportion_agrees(first, ties, 0.5, confidence=0.999)
    assert 0 < first < ties
    assert ride_stage(tour, helpers, 0, [], 77) == ride_stage(tour, helpers, 0, [], 77)
