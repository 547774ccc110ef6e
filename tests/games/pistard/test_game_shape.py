"""PISTARD in the one Game shape: options model, registered Game, one meaning of the
outcome and returns, copies, text picture, cheap chance checks and the `watch` command."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.core.agents import RandomAgent
from raceday.core.errors import IllegalActionError, OptionsError
from raceday.core.play import play_game
from raceday.core.protocol import CHANCE
from raceday.core.registry import get_game
from raceday.games.pistard import GAME, PistardOptions, PistardState
from raceday.games.pistard.agents import SearchView, shaped_returns
from raceday.games.pistard.state import position_state
from raceday.games.pistard.variants import VARIANTS
from raceday.present.pictures import text_picture
from raceday.store.sessions import SessionStore

runner = CliRunner()


def _finished(options: dict[str, object], seed: int) -> PistardState:
    state = GAME.new_state(options)
    play_game(state, [RandomAgent() for _ in range(state.num_players)],
              np.random.default_rng(seed), max_steps=GAME.max_steps(options))
    return state


def test_the_game_is_registered_with_thousands_of_harness_games_over_its_variants() -> None:
    assert get_game("pistard") is GAME
    # 250 a set find a defect in 1.2 % of a set's races with 95 % probability
    assert GAME.harness_games >= 250
    assert GAME.harness_games * len(GAME.harness_configs) >= 2500
    seen: dict[str, set[int]] = {}
    for config in GAME.harness_configs:
        options = GAME.options(config)
        seen.setdefault(options.variant, set()).add(options.num_players)
    assert set(seen) == set(VARIANTS)
    assert seen["scratch"] == {2, 3, 4, 5}
    for variant in ("points", "elimination"):
        assert len(seen[variant]) >= 2, variant


def test_options_are_a_checked_model_that_round_trips() -> None:
    options = PistardOptions.parse({"variant": "points", "players": 3, "laps": 4,
                                    "lap_points": [3, 2, 1]})
    assert PistardOptions.parse(options.to_json()) == options
    assert options.to_json()["lap_points"] == [3, 2, 1]
    with pytest.raises(OptionsError, match="tokens"):
        PistardOptions.parse({"tokens": 21})
    with pytest.raises(OptionsError, match="players"):
        PistardOptions.parse({"players": True})
    with pytest.raises(OptionsError, match="exactly 1 player"):
        PistardOptions.parse({"variant": "ttt", "players": 2})


@pytest.mark.parametrize("options", [
    {}, {"variant": "points", "players": 3, "riders_per_player": 2, "laps": 2},
    {"variant": "elimination", "players": 3, "riders_per_player": 1},
    {"variant": "sprint"}, {"variant": "ttt", "riders_per_player": 3},
    {"variant": "pursuit", "riders_per_player": 3},
])
def test_the_winning_players_share_a_return_of_one(options: dict[str, object]) -> None:
    for seed in range(3):
        state = _finished(options, seed)
        out = state.outcome()
        returns = state.returns()
        assert out.winning_players and sum(returns) == pytest.approx(1.0)
        for p, value in enumerate(returns):
            assert value == (pytest.approx(1 / len(out.winning_players))
                             if p in out.winning_players else 0.0)
        if out.winner is not None:
            assert out.ranking[0] == out.winner


def test_a_rider_race_names_the_winning_riders_player() -> None:
    state = _finished({"players": 3, "riders_per_player": 2}, 4)
    out = state.outcome()
    winner = next(r for r in state.riders if r.ident == out.winner)
    assert out.winning_players == (winner.owner,)
    assert out.scores == {} and out.score_name == ""


def test_the_team_time_trial_ranks_its_one_team_by_its_time() -> None:
    state = _finished({"variant": "ttt", "riders_per_player": 3}, 2)
    out = state.outcome()
    assert out.ranking == (0,) and out.winner == 0 and out.winning_players == (0,)
    assert out.scores == {0: state.team_time()} and "rounds" in out.score_name


def test_a_tied_pursuit_is_shared_by_both_teams() -> None:
    state = _finished({"variant": "pursuit", "riders_per_player": 3}, 0)
    state.ranking = []  # a tie, as the variant records it
    out = state.outcome()
    assert out.winner is None and out.winning_players == (0, 1)
    assert state.returns() == [0.5, 0.5]


def test_the_search_keeps_the_finer_value_of_a_finished_race() -> None:
    """The shaped value moved from returns() to the agents: 1 for the winner's player,
    0.5 * (count - 1 - place) / (count - 1) for the others' best rider."""
    state = _finished({"players": 2, "riders_per_player": 2}, 1)
    owners = [state.riders[i].owner for i in state.ranking]
    shaped = shaped_returns(state)
    assert shaped[owners[0]] == 1.0
    loser = 1 - owners[0]
    best = owners.index(loser)
    assert shaped[loser] == pytest.approx(0.5 * (3 - best) / 3)
    ttt = _finished({"variant": "ttt", "riders_per_player": 3}, 2)
    assert shaped_returns(ttt) == [pytest.approx(10 / (10 + ttt.team_time()))]


def test_copies_share_the_track_and_move_independently() -> None:
    state = position_state([(11, 10, 2), (21, 9, 3)], mover=11, dice=(6, 2, 4, 3))
    twin = state.clone()
    assert twin == state and twin.track is state.track and twin is not state
    twin.apply_action(twin.legal_actions()[0])
    assert twin != state and state.dice == [6, 2, 4, 3]
    assert copy.deepcopy(state) == state
    view = SearchView.of(state, 2)
    assert isinstance(view, SearchView) and view.horizon_round == state.rounds_total + 2
    view.apply_action(view.legal_actions()[0])
    assert state.dice == [6, 2, 4, 3] and state.riders[0].dist == 10
    assert copy.deepcopy(view).horizon_round == view.horizon_round
    with pytest.raises(TypeError):
        hash(state)


def test_the_board_as_plain_text_and_a_short_repr() -> None:
    state = position_state([(11, 10, 2), (21, 9, 3)], mover=11, dice=(6, 2, 4, 3))
    text = text_picture(state)
    assert "\x1b" not in text and "lane 4" in text and "11" in text
    assert "rider 21: lane 3" in text
    assert repr(state) == "<PistardState scratch, heat 1 round 1: player 0 to act>"


def test_a_throw_is_checked_without_listing_the_outcomes() -> None:
    state = position_state([(11, 10, 2), (21, 9, 3)], mover=11)
    assert state.current_player() == CHANCE
    for bad in (-1, 1296, 3.5):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)  # type: ignore[arg-type]
    events = state.apply_action(np.int64(1295))  # type: ignore[arg-type]
    assert events[0].kind == "throw" and events[0]["dice"] == [6, 6, 6, 6]
    assert all(type(d) is int for d in events[0]["dice"])


def test_watch_shows_a_race_of_computers_and_resumes_under_its_own_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "s.sqlite"
    result = runner.invoke(app, ["pistard", "watch", "--riders-per-player", "1", "--seed",
                                 "5", "--delay", "0", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "seed 5" in result.output and "round 1" in result.output
    assert "wins the scratch" in result.output
    assert SessionStore(db).log("pistard", "pistard")
    assert run(["pistard", "watch", "--players", "human,easy", "--db", str(db)]) == 2
    assert "computers only" in capsys.readouterr().err

    from raceday.terminal.surface import LineSurface

    def interrupt(_surface: LineSurface, _seconds: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(LineSurface, "pause", interrupt)
    assert run(["pistard", "watch", "--seed", "3", "--delay", "0", "--db", str(db),
                "--save", "w"]) == 130
    err = capsys.readouterr().err
    assert "resume with: raceday pistard watch --resume w --db" in err
