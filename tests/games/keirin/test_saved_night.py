"""Whole betting sessions driven through the CLI with scripted input, including an
interruption and a resume; every payout is checked against the odds and the race."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner, Result

from raceday.core.errors import OptionsError, SaveFormatError
from raceday.core.play import play_game
from raceday.games.keirin.cli import app
from raceday.games.keirin.odds import race_odds
from raceday.games.keirin.rules import KeirinOptions, KeirinState
from raceday.games.keirin.saved_night import GAME, BetSession
from raceday.store.sessions import SessionStore

START = 1_000_000  # 10,000.00 in cents


def _run(args: list[str], script: str) -> Result:
    return CliRunner().invoke(app, ["play", "--delay", "0", *args], input=script,
                              env={"COLUMNS": "200"})


def _text(result: Result) -> str:
    """The output with line wrapping undone."""
    return " ".join(result.output.split())


def _replayed_ranking(options: KeirinOptions, seed: int, race: int) -> list[int]:
    """The race the session promised: the reference engine on default_rng([seed, race])."""
    state = KeirinState(options)
    play_game(state, [], np.random.default_rng([seed, race]), max_steps=options.max_steps())
    return list(state.ranked)


def _wins(kind: str, selection: list[int], ranking: list[int]) -> bool:
    size = {"win": 1, "exacta": 2, "quinella": 2, "trifecta": 3, "trio": 3}[kind]
    if kind in ("quinella", "trio"):
        return set(selection) == set(ranking[:size])
    return selection == ranking[:size]


def _check_fixed_log(log: list[dict[str, Any]], options: KeirinOptions, seed: int,
                     margin: float) -> dict[str, int]:
    """Every settled race is the seeded race; every ticket took the quoted odds and
    returned stake x odds when (and only when) it won. Returns money moved per player."""
    odds = race_odds(options)
    net: dict[str, int] = {}
    for number, entry in enumerate(log, start=1):
        assert entry["race"] == number
        assert entry["ranking"] == _replayed_ranking(options, seed, number)
        for t in entry["tickets"]:
            key = tuple(t["selection"])
            p = odds.bet(t["kind"])[key]
            assert t["odds"] == int((1 - Fraction(str(margin))) * 100 / Fraction(p))
            won = _wins(t["kind"], t["selection"], entry["ranking"])
            assert t["returned"] == (t["stake"] * t["odds"] // 100 if won else 0)
            net[t["player"]] = net.get(t["player"], 0) + t["returned"] - t["stake"]
    return net


def test_fixed_odds_session_with_bad_input_interruption_and_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "bets.sqlite"
    args = ["-p", "Ann", "-p", "Bob", "--save", "friday", "--db", str(db), "--seed", "42",
            "--margin", "0.1", "--riders", "7"]
    race1 = "\n".join([
        "win 12 100",  # unknown rider
        "exacta 3 4",  # malformed: an exacta names two riders (the 4 is the stake)
        "win 3 20000",  # more than the bankroll
        "help",
        "win 3 100",
        "exacta 3-4 50",
        "undo",
        "exacta 4-3 50",
        "",  # Ann done
        "quinella 4=5 20.5",
        "trio 3 4 5 10",
        "trifecta 5-4-3 1",
        "",  # Bob done: the race runs
        "y",
    ])
    race2 = "\n".join(["win 4 1000", "", "trio 3=4=6 30", "", "n"])

    real_settle = BetSession.settle

    def settle_then_crash(self: BetSession, store: SessionStore, state: KeirinState) -> Any:
        if self.races == 2:  # saving race 2, paid in memory: the program dies first
            raise KeyboardInterrupt
        return real_settle(self, store, state)

    monkeypatch.setattr(BetSession, "settle", settle_then_crash)
    first = _run(args, race1 + "\n" + race2 + "\n")
    assert first.exit_code == 130  # Ctrl-C while race 2 was being settled
    out = _text(first)
    assert "unknown rider '12'" in out and "names 2 riders" in out
    assert "more than the 10,000.00 left" in out and "taken back: exacta 3-4" in out

    store = SessionStore(db)
    saved = BetSession.load(store, "friday")
    assert saved.races == 1 and saved.pending is not None  # race 2's tickets were locked
    assert [t.describe().split(" at ")[0] for t in saved.pending] == [
        "win 4 for 1,000.00", "trio 3=4=6 for 30.00"]
    assert len(store.log(GAME, "friday")) == 1

    monkeypatch.setattr(BetSession, "settle", real_settle)
    resumed = _run(["--resume", "friday", "--db", str(db)], "")  # EOF at the next prompt
    assert resumed.exception is None, resumed.output
    assert "running that race now with its 2 tickets." in _text(resumed)
    assert "Standings after 2 races" in _text(resumed)

    log = store.log(GAME, "friday")
    assert [e["race"] for e in log] == [1, 2]  # race 2 settled once, nothing lost
    options = KeirinOptions(riders=7)
    net = _check_fixed_log(log, options, 42, 0.1)
    final = BetSession.load(store, "friday")
    assert final.pending is None and final.races == 2
    for name in ("Ann", "Bob"):
        assert final.players[name].bankroll == START + net[name]
    assert [len(e["tickets"]) for e in log] == [5, 2]

    # Resuming again settles nothing twice: the log keeps its two races.
    again = _run(["--resume", "friday", "--db", str(db)], "n\n")
    assert again.exception is None
    assert [e["race"] for e in store.log(GAME, "friday")] == [1, 2]


def test_eof_while_betting_withdraws_the_tickets_and_resume_reopens_the_race(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.sqlite"
    run = _run(["-p", "Cy", "--save", "eof", "--db", str(db), "--seed", "3"], "win 1 500\n")
    assert run.exception is None
    assert "withdrawn, no money moved" in _text(run)
    store = SessionStore(db)
    s = BetSession.load(store, "eof")
    assert s.races == 0 and s.pending is None and s.players["Cy"].bankroll == START
    back = _run(["--resume", "eof", "--db", str(db)], "win 1 500\n\nn\n")
    assert back.exception is None and "Race 1 settled" in _text(back)
    assert len(store.log(GAME, "eof")) == 1


def test_pool_session_pays_from_the_pools(tmp_path: Path) -> None:
    db = tmp_path / "pool.sqlite"
    script = "\n".join([
        "win 3 100", "win 4 100", "exacta 3-4 10", "", "win 3 300", "win 5 100", "",
        "y",
        "win 1 50", "", "win 2 50", "", "n",
    ])
    result = _run(["-p", "Ann", "-p", "Bob", "--save", "tote", "--db", str(db),
                   "--seed", "7", "--pool", "--margin", "0.2", "--riders", "6"], script + "\n")
    assert result.exception is None, result.output
    store = SessionStore(db)
    log = store.log(GAME, "tote")
    assert len(log) == 2
    options = KeirinOptions(riders=6)
    totals = {"Ann": START, "Bob": START}
    for number, entry in enumerate(log, start=1):
        ranking = _replayed_ranking(options, 7, number)
        assert entry["ranking"] == ranking
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for t in entry["tickets"]:
            assert t["odds"] is None
            by_kind.setdefault(t["kind"], []).append(t)
        for tickets in by_kind.values():
            pool = sum(t["stake"] for t in tickets)
            winners = [t for t in tickets if _wins(t["kind"], t["selection"], ranking)]
            stake_on_winner = sum(t["stake"] for t in winners)
            for t in tickets:
                if not winners:
                    expected = t["stake"]  # nobody held the winning combination: refund
                elif t in winners:
                    expected = int(Fraction(t["stake"] * pool * 8, 10 * stake_on_winner))
                else:
                    expected = 0
                assert t["returned"] == expected
                totals[t["player"]] += t["returned"] - t["stake"]
    final = BetSession.load(store, "tote")
    assert {n: a.bankroll for n, a in final.players.items()} == totals


def test_stale_copy_cannot_settle_a_race_twice(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "x.sqlite")
    s = BetSession.new("dup", ["Ann"], KeirinOptions(riders=6), seed=5)
    s.save(store)
    s.state.apply_action_for(0, s.state.ticket_from_text(0, "win 1 1"))
    s.lock(store)
    stale = BetSession.load(store, "dup")
    state = s.run_race()
    s.settle(store, state)
    with pytest.raises(SaveFormatError, match="changed since"):
        stale.settle(store, stale.run_race())
    assert len(store.log(GAME, "dup")) == 1
    assert BetSession.load(store, "dup").players["Ann"].bankroll == s.players["Ann"].bankroll


def test_a_race_stopped_at_its_finish_leaves_the_night_locked_and_runs_again(
        tmp_path: Path) -> None:
    """The session runs the race in the night itself; a player who quits as the last
    throw is shown (full screen: Quit from the pause) finds the night as it was locked."""
    store = SessionStore(tmp_path / "q.sqlite")
    s = BetSession.new("quit", ["Ann"], KeirinOptions(riders=6), seed=8)
    s.save(store)
    s.state.apply_action_for(0, s.state.ticket_from_text(0, "win 2 5"))
    s.lock(store)
    locked = s.state.to_json()

    class Stop(Exception):
        pass

    def stop_at_the_finish(race: Any, events: list[Any]) -> None:
        assert not {e.kind for e in events} & {"settled", "betting_open"}  # the race's only
        if race.is_terminal():
            raise Stop

    with pytest.raises(Stop):
        s.run_race(stop_at_the_finish)
    assert s.state.to_json() == locked and s.races == 0
    race = s.run_race()
    settlement = s.settle(store, race)
    assert settlement.ranking == _replayed_ranking(KeirinOptions(riders=6), 8, 1)
    assert BetSession.load(store, "quit").races == 1


def test_allow_debt_lets_a_player_go_below_zero(tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    result = _run(["-p", "Dee", "--save", "debt", "--db", str(db), "--seed", "1",
                   "--bankroll", "10", "--allow-debt"], "trifecta 1-2-3 500\n\nn\n")
    assert result.exception is None and "accepted: trifecta 1-2-3 for 500.00" in _text(result)


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--save", "a"], OptionsError),  # no player
        (["-p", "A", "-p", "A", "--save", "b"], OptionsError),
        (["-p", "A", "--save", "c", "--margin", "1.5"], OptionsError),  # the model's
        (["-p", "A", "--save", "d", "--bankroll", "lots"], OptionsError),
        (["--resume", "nobody"], SaveFormatError),
    ],
)
def test_bad_session_options(tmp_path: Path, args: list[str], error: type[Exception]) -> None:
    result = _run([*args, "--db", str(tmp_path / "e.sqlite")], "")
    assert isinstance(result.exception, error)


def test_existing_session_name_needs_resume(tmp_path: Path) -> None:
    db = str(tmp_path / "f.sqlite")
    assert _run(["-p", "A", "--save", "same", "--db", db], "").exception is None
    assert isinstance(_run(["-p", "B", "--save", "same", "--db", db], "").exception,
                      OptionsError)


def test_corrupt_session_document(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "g.sqlite")
    store.save(GAME, "bad", {"version": 1, "options": {}, "mode": "fixed"})
    with pytest.raises(SaveFormatError):
        BetSession.load(store, "bad")


def test_board_shows_the_odds_the_ticket_gets(tmp_path: Path) -> None:
    result = _run(["-p", "Ann", "--save", "board", "--db", str(tmp_path / "b.sqlite"),
                   "--margin", "0.1", "--seed", "1"], "win 4 100\n")
    # the compact board: the win block first (rider, chance, odds), then the other blocks
    rows = [line.split() for line in result.output.splitlines() if line.startswith("4 ")]
    board_price = rows[0][2]
    assert f"accepted: win 4 for 100.00 at {board_price}" in _text(result)
    p = race_odds(KeirinOptions()).first[3]
    assert board_price == f"{int(Fraction(9, 10) * 100 / Fraction(float(p))) / 100:.2f}"


def test_list_shows_saved_sessions(tmp_path: Path) -> None:
    db = str(tmp_path / "l.sqlite")
    assert "No saved keirin sessions" in _text(_run(["--list", "--db", db], ""))
    _run(["-p", "Ann", "--save", "monday", "--db", db], "")
    listing = _text(_run(["--list", "--db", db], ""))
    assert "monday" in listing and "Ann 10,000.00" in listing
