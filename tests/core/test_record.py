"""The record of a game (raceday.core.record): every game written down while it is played,
read back, checked through its rules to the same state and the same events byte for
byte; a hand-corrupted record refused at its first bad line."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from raceday.core.agents import RandomAgent
from raceday.core.events import event_log_text
from raceday.core.play import play_game
from raceday.core.record import (
    Move,
    Record,
    Recorder,
    RecordError,
    check_text,
    generator_from,
    parse_record,
    parse_records,
    records_text,
    replay,
)
from raceday.core.registry import all_games, record_game

GAMES = [g.name for g in all_games()] + ["derby_evening", "keirin_night"]
# a short game of each (a night of one race: random bettors take long over three)
OPTIONS: dict[str, dict[str, Any]] = {"keirin_night": {"races": 1}}


def played(name: str, seed: int) -> tuple[Recorder, Any, str, np.random.Generator]:
    game = record_game(name)
    options = game.options(OPTIONS.get(name, {}))
    state = game.new_state(options)
    recorder = Recorder(name, options.to_json(), seed=seed)
    recorder.follow(state)
    rng = np.random.default_rng(seed)
    agent = _Brief() if name.endswith("_night") else RandomAgent()
    agents = {p: agent for p in range(-5, max(1, state.num_players))}
    play = play_game(state, _Any(agents), rng, max_steps=game.max_steps(options))
    return recorder, state, event_log_text(play.events), rng


class _Any(dict[int, Any]):
    """Random choices for every seat, the host included (sealed phases ask each)."""

    def __missing__(self, key: int) -> Any:
        return RandomAgent()


class _Brief:
    """A bettor who stops half the time (a random one buys hundreds of tickets a race)."""

    def choose(self, state: Any, rng: np.random.Generator) -> int:
        legal = state.legal_actions()
        return int(min(legal) if rng.random() < 0.5 else rng.choice(legal))


@pytest.mark.parametrize("name", GAMES)
def test_a_played_game_replays_from_its_record_byte_for_byte(name: str) -> None:
    recorder, final, log, rng = played(name, 7)
    assert recorder.moves, "every move is written down"
    text = recorder.record(rng).text()
    again = replay(parse_record(text))
    assert again.state.to_json() == final.to_json()
    assert event_log_text([e for step in again.events for e in step]) == log
    assert parse_record(text).text() == text  # read and written back unchanged
    assert generator_from(parse_record(text)).random() == rng.random()


def test_a_clone_writes_nothing() -> None:
    game = record_game("hairpin")
    state = game.new_state({})
    recorder = Recorder("hairpin", {})
    recorder.follow(state)
    probe = state.clone()
    probe.apply_action(probe.legal_actions()[0])
    assert recorder.moves == []
    state.apply_action(state.legal_actions()[0])
    assert len(recorder.moves) == 1 and recorder.moves[0].player == 0


def test_several_games_in_one_text() -> None:
    first, _, _, _ = played("hairpin", 1)
    second, _, _, _ = played("keirin", 2)
    text = records_text([first.record(), second.record()])
    records = parse_records(text)
    assert [r.game for r in records] == ["hairpin", "keirin"]
    assert [len(r.moves) for r in records] == [len(first.moves), len(second.moves)]
    assert len(check_text(text)) == 2


def test_a_corrupted_move_is_refused_at_its_line() -> None:
    recorder, _, _, _ = played("hairpin", 3)
    lines = recorder.record().text().splitlines()
    header = lines.index("") + 1
    bad = header + 4
    who = lines[bad].split(":")[0]
    lines[bad] = f"{who}: fly to the moon"
    with pytest.raises(RecordError) as refused:
        check_text("\n".join(lines))
    assert refused.value.line == bad + 1
    assert str(refused.value).startswith(f"line {bad + 1}: ")


@pytest.mark.parametrize(("text", "line", "words"), [
    ('[Game "hairpin"]\n[Format 1]\n[Options {}\n', 3, "tag is written"),
    ('[Game "hairpin"]\n[Format 1]\n[Options {nope}]\n', 3, "not JSON"),
    ('p1: a\n', 1, "before any header"),
    ('[Game "hairpin"]\n[Format 1]\n[Options {}]\n\nred charges\n', 5, "a move is written"),
    ('[Game "hairpin"]\n[Format 1]\n[Options {}]\n\nchance: 3 {oops}\n', 5, "detail"),
    ('[Game "hairpin"]\n[Format 1]\n[Format 1]\n', 3, "given twice"),
    ('[Game "hairpin"]\n[Format 9]\n[Options {}]\n', 1, "format 9"),
    ('[Game "hairpin"]\n[Format 1]\n', 1, "no Options tag"),
    ('[Game "chess"]\n[Format 1]\n[Options {}]\n', 1, "unknown game"),
    ('[Game "hairpin"]\n[Format 1]\n[Options {"variant": "nope"}]\n', 1, "Options"),
    ('[Game "keirin"]\n[Format 1]\n[Options {}]\n\np1: go\n', 5, "a draw (chance) comes here"),
])
def test_a_malformed_record_is_refused_by_line(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as refused:
        check_text(text)
    assert refused.value.line == line
    assert words in str(refused.value)


def test_a_move_that_cannot_be_written_is_refused() -> None:
    with pytest.raises(RecordError):
        Record({"Game": "x", "Format": 1, "Options": {}}, [Move(0, "a {b}")]).text()
