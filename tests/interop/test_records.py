"""Every game the research faces play is a record (#47): ``raceday arena --save FILE``
writes each match (several games in one file) and the file passes ``check_text``, each
record replaying to the match's result; a Gymnasium, PettingZoo or OpenSpiel episode's
``record()`` replays through the rules to the environment's own state."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from raceday.cli.main import run
from raceday.core.record import check_text, parse_record, replay
from raceday.interop.adapters import adapter
from raceday.interop.arena import run_arena


def test_arena_save_writes_every_match_as_a_record_that_checks(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "matches.txt"
    code = run(["arena", "--game", "hairpin", "--option", "variant=short", "--games", "4",
                "--seed", "11", "--save", str(saved), "--lang", "en"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert f"4 games written as records to {saved}" in out.out
    checked = check_text(saved.read_text(encoding="utf-8"))
    assert len(checked) == 4
    same = run_arena("hairpin", "random", "random", 4, seed=11, params={"variant": "short"})
    for k, (done, game) in enumerate(zip(checked, same.records, strict=True)):
        tags = done.record.tags
        assert tags["Face"] == "arena" and tags["Round"] == k + 1 and tags["Seed"] == [11, k]
        assert "Start" not in tags  # the game's own first position for its Options
        assert done.state.is_terminal() and len(done.record.moves) == game.steps
        utilities = adapter("hairpin").utilities(done.state)
        a, b = utilities[game.a_seat], utilities[1 - game.a_seat]
        assert (a, b) == (game.a_utility, game.b_utility)


@pytest.mark.parametrize("game", ["pistard", "derby", "keirin"])
def test_arena_records_of_every_game_with_players_replay_to_its_end(game: str) -> None:
    result = run_arena(game, "random", "random", 1, seed=3, records=True)
    (match,) = result.matches
    done = replay(parse_record(match.text()))
    assert done.state.is_terminal() and len(match.moves) == result.records[0].steps
    assert match.result == match.tags["Result"] != "*"


def test_arena_save_refuses_a_file_that_exists_before_playing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "kept.txt"
    saved.write_text("mine\n", encoding="utf-8")
    code = run(["arena", "--games", "2", "--seed", "1", "--save", str(saved)])
    err = capsys.readouterr().err
    assert code == 2 and "exists" in err and "--force" in err
    assert saved.read_text(encoding="utf-8") == "mine\n"
    code = run(["arena", "--games", "1", "--seed", "1", "--save",
                str(tmp_path / "no" / "x.txt")])
    assert code == 2 and "does not exist" in capsys.readouterr().err


@pytest.mark.parametrize(("game", "params"), [("hairpin", {"variant": "short"}),
                                              ("derby", {}), ("pistard", {})])
def test_a_gymnasium_episode_record_replays_to_the_environment_state(
        game: str, params: dict[str, str]) -> None:
    from raceday.interop.gym import RacedayEnv

    env = RacedayEnv(game, opponents="random", **params)
    env.reset(seed=21)
    rng = np.random.default_rng(0)
    for _ in range(30):  # part of an episode, then its record
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if env.finished:
            break
    record = env.record()
    assert record.tags["Face"] == "research" and record.tags["Seed"] == 21
    assert record.tags["Seats"][0] == {"name": "learner", "player": "learner"}
    read = parse_record(record.text())
    assert replay(read).state.to_json() == env.state.to_json()
    env.reset(seed=22)  # a new episode, a new record
    again = env.record()
    assert again.tags["Seed"] == 22 and len(again.moves) < len(record.moves) + 1
    assert replay(again).state.to_json() == env.state.to_json()


def test_a_pettingzoo_episode_record_replays_to_the_environment_state() -> None:
    from raceday.interop.pettingzoo import RacedayAEC

    env = RacedayAEC("hairpin", variant="short")
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    record = env.record()
    assert record.tags["Seed"] == 4 and record.result != "*"
    assert replay(parse_record(record.text())).state.to_json() == env.state_.to_json()


@pytest.mark.parametrize("game", ["hairpin", "pistard", "keirin"])
def test_an_openspiel_state_record_replays_to_its_position(game: str) -> None:
    pytest.importorskip("pyspiel")
    from raceday.interop import openspiel

    os_game = openspiel.load_game(game)
    state = os_game.new_initial_state()
    rng = np.random.default_rng(2)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    record = openspiel.episode_record(state)
    assert record.tags["Face"] == "research"
    assert len(record.moves) == len(state.history())
    done = replay(parse_record(record.text()))
    engine = getattr(state, "engine", None)
    if engine is not None:  # raceday's own OpenSpiel state: the same engine position
        assert done.state.to_json() == engine.to_json()
    if isinstance(state, openspiel.RacedayState):
        assert state.record().moves == record.moves
    assert done.state.is_terminal() == state.is_terminal()
    clone = state.clone()  # a clone has the same record
    assert openspiel.episode_record(clone).moves == record.moves
