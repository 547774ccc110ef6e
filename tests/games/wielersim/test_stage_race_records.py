"""A stage race is saved as records, one per ridden stage (issue #47): ridden partly at
the terminal, saved, exported, checked, replayed and resumed from its file, it ends as the
same stage race ridden without stopping, stage by stage and throw by throw; a campaign
saved before records opens, converts and rides on to the standings it would have had; a
damaged record file is refused with its line."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.cli.main import run as run_main
from raceday.core.events import event_log_text
from raceday.core.play import play_game
from raceday.core.record import Recorder, check_text, parse_records, replay
from raceday.games.wielersim.campaign import (
    campaign_from_text,
    load_campaign,
    new_campaign,
    open_store,
    stage_result,
)
from raceday.games.wielersim.prologue import PROLOGUE
from raceday.games.wielersim.replay import _stage_again, record_terminal_steps, terminal_steps
from raceday.games.wielersim.rules import peloton_spec
from raceday.games.wielersim.stage import resolve_tour, ride_stage, stage_rng
from raceday.store.sessions import SessionStore

runner = CliRunner()
FIXTURE = Path(__file__).parents[2] / "fixtures" / "saves" / "wielersim-stage-race.json"
SOURCE = Path(__file__).parents[3] / "src" / "raceday" / "games" / "wielersim"
TOUR = ["wielersim", "tour", "ronde-van-belgie", "small", "--seed", "47", "--plain",
        "--delay", "0"]
VOLATILE = ("Started", "Saved", "Name", "Raceday")  # the tags two rides may differ in


def cli(*args: str, input: str | None = None) -> str:
    out = runner.invoke(app, list(args), input=input)
    assert out.exit_code == 0, out.output
    return out.output


def standings(db: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(cli("wielersim", "standings", name, "--db", str(db),
                                          "--json"))
    data.pop("name")
    return data


def exported(db: Path, name: str) -> str:
    """The stage race's record text, as saved (what an export writes)."""
    document, _ = SessionStore(db).load("wielersim", name)
    text = document["record"]
    assert isinstance(text, str)
    assert text == load_campaign(SessionStore(db), name).text()
    return text


def comparable(text: str) -> list[tuple[dict[str, Any], list[str]]]:
    """Each record's tags (those two rides of the same stage race share) and move lines."""
    return [({k: v for k, v in r.tags.items() if k not in VOLATILE},
             [m.text() for m in r.moves]) for r in parse_records(text)]


def event_logs(text: str) -> list[str]:
    return [event_log_text(e for step in replay(r).events for e in step)
            for r in parse_records(text)]


@pytest.mark.parametrize("seed", [0, 1, 47])
def test_the_prologue_game_throws_as_a_stage_race_rides_its_prologue(seed: int) -> None:
    tour, pel = resolve_tour("ronde-van-belgie"), peloton_spec("classics")
    options = {"peloton": pel, "prologue_type": tour["prologue_type"]}
    state = PROLOGUE.new_state(options)
    recorder = Recorder("wielersim_prologue", options)
    recorder.follow(state)
    play_game(state, [], stage_rng(seed, 0))
    assert state.stage_record() == ride_stage(tour, pel, 0, [], seed)
    record = recorder.record()
    assert len(record.moves) == 2 * len(pel["riders"])  # a throw and a lot each
    assert replay(record).state.stage_record() == state.stage_record()


def test_a_stage_race_stopped_exported_and_resumed_from_its_file_rides_as_one_whole(
        tmp_path: Path) -> None:
    whole_db, part_db, resumed_db = (tmp_path / f"{n}.sqlite" for n in ("w", "p", "r"))
    cli(*TOUR, "--save", "whole", "--auto", "--db", str(whole_db))
    # the prologue, then the first road stage watched turn by turn, then stop
    out = cli(*TOUR, "--save", "part", "--db", str(part_db), input="c\nw\ns\n")
    assert "Stopped after 2 of 6 stages" in out
    text = exported(part_db, "part")
    file = tmp_path / "part.txt"
    file.write_text(text, encoding="utf-8")

    checked = check_text(text)
    assert [r.record.tags["Round"] for r in checked] == [0, 1]
    assert [r.record.game for r in checked] == ["wielersim_prologue", "wielersim"]
    assert all(r.state.is_terminal() for r in checked)
    tour = resolve_tour("ronde-van-belgie")
    assert [stage_result(tour, i, r.state) for i, r in enumerate(checked)] == \
        [r.record.tags["Stage"] for r in checked]
    assert {r.record.tags["Event"] for r in checked} == {"Ronde van Belgie"}

    again_ridden = _stage_again(campaign_from_text(text), 1)
    assert again_ridden is not None and again_ridden == checked[1].state
    steps = record_terminal_steps(text)
    saved_steps = terminal_steps(SessionStore(part_db), "part")
    assert [(s.step, s.facts) for s in steps] == [(s.step, s.facts) for s in saved_steps]
    assert len(steps) == 2
    assert steps[1].facts["winner"] == checked[1].record.tags["Stage"]["results"][0][0]
    boards = [s.board(100, 40) for s in steps if s.board is not None]
    assert len(boards) == 2

    out = cli("wielersim", "tour", "--resume", str(file), "--save", "again", "--auto",
              "--plain", "--delay", "0", "--db", str(resumed_db))
    assert "Ronde van Belgie is over" in out
    assert standings(resumed_db, "again") == standings(whole_db, "whole")
    whole, again = exported(whole_db, "whole"), exported(resumed_db, "again")
    assert comparable(again) == comparable(whole)
    assert event_logs(again) == event_logs(whole)
    assert len(check_text(again)) == 6


def test_a_campaign_saved_before_records_opens_converts_and_rides_on(tmp_path: Path
                                                                     ) -> None:
    old = json.loads(FIXTURE.read_text(encoding="utf-8"))
    db = tmp_path / "old.sqlite"
    SessionStore(db).save("wielersim", old["name"], old["document"], expected_revision=None)
    campaign = load_campaign(SessionStore(db), old["name"])
    assert campaign.converted and campaign.next_stage == 3
    assert campaign.records == old["document"]["records"]
    # every stage was found again from the seed: its moves are written down
    assert all(r.moves for r in campaign.stages)
    again = campaign_from_text(campaign.text())  # checked through the rules
    assert again.records == campaign.records
    mid = standings(db, old["name"])
    expected = dict(old["standings_json"])
    expected.pop("name")
    assert mid == expected
    cli("wielersim", "tour", "--resume", old["name"], "--auto", "--plain", "--delay", "0",
        "--db", str(db))
    final = dict(old["finished_standings_json"])
    final.pop("name")
    assert standings(db, old["name"]) == final
    document, _ = SessionStore(db).load("wielersim", old["name"])
    assert set(document) == {"record", "cache"}  # saved as records from the first stage on
    assert [r.tags["Round"] for r in parse_records(document["record"])] == list(range(6))


def _refused(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    bad = tmp_path / "bad.txt"
    bad.write_text(text, encoding="utf-8")
    db = tmp_path / "refused.sqlite"
    code = run_main(["wielersim", "tour", "--resume", str(bad), "--auto", "--plain",
                     "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    assert not SessionStore(db).names("wielersim") if db.exists() else True
    return " ".join(err.split())


def test_a_damaged_or_foreign_record_file_is_refused_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = open_store(tmp_path / "s.sqlite")
    campaign = new_campaign(store, "rvb", resolve_tour("ronde-van-belgie"),
                            peloton_spec("small"), 5)
    campaign.ride()
    campaign.ride()
    text = campaign.text()
    lines = text.splitlines()

    # a throw the dice cannot show
    at = next(i for i, line in enumerate(lines) if line.startswith("chance: #") and
              " total " in line)
    damaged = [*lines]
    damaged[at] = re.sub(r"total \d+", "total 99", damaged[at])
    assert f"line {at + 1}:" in _refused(tmp_path, "\n".join(damaged) + "\n", capsys)

    # a throw of the road stage left out: the throw after it is refused at its line
    # (which is the left-out line's number now); the last throw left out: the stage is
    # not ridden to its result, and its header line is named
    second = next(i for i, line in enumerate(lines) if line == '[Game "wielersim"]')
    moves = [i for i, line in enumerate(lines) if i > second and line.startswith("chance:")]
    for left_out, named in ((moves[len(moves) // 2], moves[len(moves) // 2] + 1),
                            (moves[-1], second + 1)):
        damaged = [line for i, line in enumerate(lines) if i != left_out]
        said = _refused(tmp_path, "\n".join(damaged) + "\n", capsys)
        assert f"line {named}:" in said, said

    # a Stage result that its moves do not give: the record's header line is named
    tampered = text.replace('"results": [[', '"results": [[99, 0], [', 1)
    assert "line 1:" in _refused(tmp_path, tampered, capsys)

    # another game's record
    hairpin = Recorder("hairpin", {}).record().text()
    said = _refused(tmp_path, hairpin, capsys)
    assert "line 1:" in said and "hairpin" in said


def test_stage_races_are_saved_only_through_save_game() -> None:
    for path in SOURCE.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"store\.save\(|\.save\(GAME", source), path.name


def test_a_stage_race_not_yet_begun_is_its_first_stage_without_moves(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite")
    campaign = new_campaign(store, "fresh", resolve_tour("ronde-van-belgie"),
                            peloton_spec("small"), 9)
    (only,) = parse_records(campaign.text())
    assert only.game == "wielersim_prologue" and not only.moves and only.result == "*"
    assert only.tags["Round"] == 0 and "Stage" not in only.tags and "Tour" in only.tags
    assert len(check_text(campaign.text())) == 1
    opened = campaign_from_text(campaign.text())
    assert opened.next_stage == 0 and opened.name == "fresh"
    # ridden from the file's seed, its first stage is the one the saved campaign rides
    assert load_campaign(store, "fresh").ride() == ride_stage(
        opened.tour, opened.peloton_spec, 0, [], opened.seed)
