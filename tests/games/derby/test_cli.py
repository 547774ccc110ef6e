"""The `raceday derby` commands, including a scripted 6-player, 5-race party with a resume
and a host-mode party with hand-entered dice."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.core.errors import SaveFormatError
from raceday.games.derby.evening import EveningState
from raceday.games.derby.odds import exact_odds
from raceday.games.derby.party import GAME
from raceday.games.derby.saved import open_party, saved_evening
from raceday.games.derby.session import PHASE_FINISHED, PHASE_RACING, Session
from raceday.store.sessions import SessionStore

runner = CliRunner()

HUMANS = "Aki,Ben,Chie"
# The three humans buy the three small dice; the computers take the rest.
AUCTION = ["1000", "0", "0", "1500", "0", "2000"]


def race_bets(race: int) -> list[str]:
    """Each human's betting lines for one race, with some refused input mixed in."""
    return [
        "win 9 100",  # no such horse: refused
        "win d20 500",
        "done",
        "q 5-6 300",
        f"quinella {1 + race % 5}-6 200",
        "q 1-2 999900",  # more than Ben holds: refused
        "",
        "tickets",
        "",
    ]


def party_args(db: Path, *extra: str) -> list[str]:
    return ["derby", "play", "--db", str(db), *extra]


def test_odds_json_is_exact_to_1e_12() -> None:
    result = runner.invoke(app, ["derby", "odds", "--json", "--fall-rate", "0.05"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == ["game", "win", "quinella"] and doc["game"] == "derby"
    exact = exact_odds("0.05")
    names = ["d4", "d6", "d8", "d10", "d12", "d20"]
    for post, name in enumerate(names, start=1):
        assert abs(doc["win"][name] - float(exact.win[post])) < 1e-12
    assert len(doc["quinella"]) == 15 and abs(sum(doc["quinella"].values()) - 1) < 1e-12


def test_odds_table_and_bad_options() -> None:
    result = runner.invoke(app, ["derby", "odds", "--simple-odds"])
    assert result.exit_code == 0 and "d20" in result.output and "Board" in result.output
    bad = runner.invoke(app, ["derby", "odds", "--fall-rate", "0.9"])
    assert bad.exit_code != 0


def test_simulate_json_agrees_with_exact_odds() -> None:
    result = runner.invoke(app, ["derby", "simulate", "-n", "50000", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {"game", "win", "quinella", "n", "seed"} and doc["n"] == 50_000
    assert doc["seed"] == 5  # the seed used, so the numbers can be replayed
    exact = exact_odds(0).to_json()
    # 4.4 standard errors (about 99.999% two-sided) for each of the 21 proportions
    for key in ("win", "quinella"):
        for name, p in exact[key].items():  # type: ignore[attr-defined]
            se = (p * (1 - p) / 50_000) ** 0.5
            assert abs(doc[key][name] - p) < 4.4 * se, (name, doc[key][name], p)


def test_simulate_table_shows_intervals() -> None:
    result = runner.invoke(app, ["derby", "simulate", "-n", "2000", "--seed", "1"])
    assert result.exit_code == 0 and "95% interval" in result.output


def test_race_reveals_furlong_by_furlong_and_replays_with_the_same_seed() -> None:
    first = runner.invoke(app, ["derby", "watch", "--seed", "3", "--delay", "0"])
    again = runner.invoke(app, ["derby", "watch", "--seed", "3", "--delay", "0"])
    assert first.exit_code == 0 and first.output == again.output
    for furlong in range(1, 6):
        assert f"Furlong {furlong}:" in first.output
    assert "The d4 shows" in first.output and "Result: 1st the" in first.output
    falls = runner.invoke(app, ["derby", "watch", "--seed", "8", "--fall-rate", "0.3",
                                "--delay", "0"])
    assert falls.exit_code == 0 and "a fall!" in falls.output


def test_scripted_party_of_six_players_and_five_races_with_a_resume(tmp_path: Path) -> None:
    bets = [line for race in range(1, 6) for line in race_bets(race)]
    settings = ["--players", HUMANS, "--computers", "3", "--seed", "42", "--races", "5",
                "--delay", "0", "--first-out-bonus"]

    # One uninterrupted party.
    whole_db = tmp_path / "whole.sqlite"
    whole = runner.invoke(app, party_args(whole_db, *settings, "--save", "night"),
                          input="\n".join(AUCTION + bets) + "\n")
    assert whole.exit_code == 0, whole.output
    assert "Race 5 of 5" in whole.output and "Final standings" in whole.output
    # the standings after every race (the ones before the last race are not printed twice)
    assert all(f"Standings after race {r}" in whole.output for r in range(1, 6))
    assert "Before the last race, the standings" not in whole.output
    assert "no horse '9'" in whole.output and "Ben holds" in whole.output
    assert "Owners' award" in whole.output

    # The same party interrupted during the betting of race 3, then resumed.
    split_db = tmp_path / "split.sqlite"
    per_race = len(race_bets(1))
    part_one = AUCTION + bets[: 2 * per_race] + ["win d20 500"]  # a race-3 ticket, then EOF
    first = runner.invoke(app, party_args(split_db, *settings, "--save", "night"),
                          input="\n".join(part_one) + "\n")
    assert first.exit_code == 0, first.output
    assert "--resume night" in first.output
    store = SessionStore(split_db)
    kept = saved_evening(store, "night").ledger
    assert kept.race == 3 and kept.phase == "betting"
    assert all(t.player != 0 for t in kept.tickets)  # the unsaved ticket is gone
    resumed = runner.invoke(app, party_args(split_db, "--resume", "night", "--delay", "0"),
                            input="\n".join(bets[2 * per_race:]) + "\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming 'night': race 3 of 5" in resumed.output

    # the same evening and the same record (its moves; not the times it was saved at)
    whole_party = open_party(SessionStore(whole_db), "night")
    split_party = open_party(store, "night")
    assert split_party.record.moves == whole_party.record.moves
    assert split_party.state().to_json() == whole_party.state().to_json()
    session = saved_evening(store, "night").ledger
    assert session.phase == PHASE_FINISHED and len(session.history) == 5
    assert len(session.players) == 6 and all(p.horse is not None for p in session.players)
    # every settled race is logged exactly once
    races = [e["race"]["race"] for e in store.log(GAME, "night") if "race" in e]
    assert races == [1, 2, 3, 4, 5]
    # the money adds up: start money - prices - stakes + payouts for every player
    for i, p in enumerate(session.players):
        stakes = sum(t.stake for r in session.history for t in r.tickets if t.player == i)
        paid = sum(x.amount for r in session.history for x in r.payouts if x.player == i)
        assert p.money == 10_000 - p.price - stakes + paid
    # resuming a finished party only shows the final standings again
    again = runner.invoke(app, party_args(split_db, "--resume", "night"))
    assert again.exit_code == 0 and "Final standings" in again.output


def test_existing_session_name_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    args = party_args(db, "--players", "A", "--save", "x", "--seed", "1")
    assert runner.invoke(app, args, input="").exit_code == 0
    again = runner.invoke(app, args, input="")
    assert again.exit_code != 0
    missing = runner.invoke(app, party_args(db, "--resume", "nope"))
    assert missing.exit_code != 0


def test_host_mode_takes_the_tables_dice_refuses_bad_numbers_and_resumes(
    tmp_path: Path,
) -> None:
    db = tmp_path / "host.sqlite"
    args = ["--players", "Aki", "--computers", "1", "--real-dice", "--seed", "3", "--races", "4",
            "--delay", "0", "--save", "table"]
    auction = ["5000"]  # Aki buys the d4 (and may bid no more); the computer bids alone
    betting = ["win 1 1000", ""]
    furlongs = [
        "1 2 3",  # too few numbers: refused
        "5 2 3 4 5 6",  # the d4 cannot show 5: refused
        "4 2 3 4 5 6",  # the d6 shows 2: lowest
        "4 F 5 6 7",  # the d8 falls in furlong 2
        "4 3 6 7",  # the d10 shows 3: lowest
        "4 F F",  # two of the last three fall: the d4 wins, the others roll off
    ]
    result = runner.invoke(app, party_args(db, *args),
                           input="\n".join(auction + betting + furlongs) + "\n")
    assert result.exit_code == 0, result.output
    assert "enter 6 numbers" in result.output
    assert "'5' is not on the d4: it shows 1 to 4" in result.output
    assert "Only the d4 stayed on: it takes place 1!" in result.output
    store = SessionStore(db)
    # input ended during the roll-off: tickets locked
    assert saved_evening(store, "table").phase == PHASE_RACING
    session = saved_evening(store, "table").ledger
    aki = session.players[0]
    assert aki.horse == 1 and aki.money == 10_000 - 5000 - 1000
    # resume: the race continues at the roll-off the host had reached; the ticket is kept
    again = runner.invoke(app, party_args(db, "--resume", "table", "--delay", "0"),
                          input="9 9\n")
    assert again.exit_code == 0, again.output
    assert "continues from round 5" in again.output
    assert "→ The d20 drops out." in again.output  # level on 9: the die with more faces drops
    session = saved_evening(store, "table").ledger
    record = session.history[0]
    assert (record.first, record.second) == (1, 5)  # the d12 wins the roll-off for 2nd
    aki = session.players[0]
    win_odds = record.tickets[0].odds
    assert aki.money == 10_000 - 5000 - 1000 + 1000 * win_odds // 10 + 2000
    assert session.race == 2 and session.phase == "betting"


def test_stale_save_cannot_settle_twice(tmp_path: Path) -> None:
    from raceday.games.derby.party import Party
    from raceday.games.derby.session import EveningOptions

    store = SessionStore(tmp_path / "t.sqlite")
    session = Session.new(EveningOptions(seed=1), [("A", "cautious")])
    store.save(GAME, "x", session.to_json())
    doc, rev = store.load(GAME, "x")
    store.save(GAME, "x", doc, expected_revision=rev)  # someone else saved meanwhile
    from raceday.terminal.common import console
    from raceday.terminal.surface import LineSurface

    party = Party(EveningState.from_json(doc), store, "x", LineSurface(console), rev)
    with pytest.raises(SaveFormatError, match="changed since"):
        party.save()


def test_names_prompt_refuses_bad_rosters_and_borrowing_works_at_the_prompt(
    tmp_path: Path,
) -> None:
    db = tmp_path / "b.sqlite"
    lines = ["Aki,aki", "Aki", "0", "0", "0", "0", "0", "0", "borrow", "win 6 15000", "borrow",
             ""]
    result = runner.invoke(
        app, party_args(db, "--save", "b", "--seed", "2", "--borrowing", "--owner-award", "net",
                        "--delay", "0"),
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "player names must be different" in result.output
    assert "Aki borrows 10000 and will repay 15000" in result.output
    assert "the limit is 1" in result.output
    aki = saved_evening(SessionStore(db), "b").ledger.players[0]
    assert aki.debt == 15_000 and aki.loans == 1


# --- verbs and seeds ------------------------------------------------------------------------
def test_help_lists_watch_and_play_and_hides_the_old_names() -> None:
    result = runner.invoke(app, ["derby", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    commands = [line.split()[1] for line in result.output.splitlines()
                if line.startswith("│ ") and len(line.split()) > 1]
    assert {"odds", "simulate", "watch", "play"} <= set(commands)
    assert "race" not in commands and "party" not in commands


def test_watch_without_a_seed_prints_a_fresh_one_that_replays_the_race() -> None:
    first = runner.invoke(app, ["derby", "watch", "--delay", "0", "--fall-rate", "0.2"])
    assert first.exit_code == 0, first.output
    seed = int(re.findall(r"seed (\d+) \(--seed", first.output)[-1])
    again = runner.invoke(app, ["derby", "watch", "--delay", "0", "--fall-rate", "0.2",
                                "--seed", str(seed)])
    assert again.output == first.output


def test_simulate_without_a_seed_puts_the_fresh_seed_in_the_json() -> None:
    fresh = json.loads(runner.invoke(app, ["derby", "simulate", "-n", "500", "--json"]).stdout)
    assert isinstance(fresh["seed"], int) and 0 <= fresh["seed"] < 2**63
    assert list(fresh)[:3] == ["game", "n", "seed"]
    replay = runner.invoke(app, ["derby", "simulate", "-n", "500", "--json", "--seed",
                                 str(fresh["seed"])])
    assert json.loads(replay.stdout) == fresh
    table = runner.invoke(app, ["derby", "simulate", "-n", "500", "--seed", "9"])
    assert "seed 9 (--seed 9 gives the same numbers again)" in table.output


def test_play_without_a_seed_saves_and_prints_the_fresh_one(tmp_path: Path) -> None:
    db = tmp_path / "fresh.sqlite"
    result = runner.invoke(app, ["derby", "play", "-p", "Aki", "--save", "f", "--db", str(db),
                                 "--delay", "0"], input="")
    assert result.exit_code == 0, result.output
    seed = int(re.search(r"\(seed (\d+)\)", result.output).group(1))  # type: ignore[union-attr]
    assert saved_evening(SessionStore(db), "f").ledger.config.seed == seed
