"""KEIRIN's betting night as one protocol game: the conformance harness, its phases, what
each seat may see, and sessions saved before the night was a protocol state."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from raceday.core.errors import BetError, GameNotOverError, IllegalActionError, OptionsError
from raceday.core.events import Event
from raceday.core.protocol import HOST
from raceday.core.record import parse_record, replay
from raceday.games.keirin.betting import Account
from raceday.games.keirin.game import GAME as RACE
from raceday.games.keirin.night import (
    CLOSE_BETTING,
    DONE,
    END_NIGHT,
    NIGHT,
    PHASE_OVER,
    PHASE_RACE,
    PHASE_TICKETS,
    NightState,
)
from raceday.games.keirin.saved_night import BetSession
from raceday.present import describe_event, render
from raceday.store.sessions import SessionStore
from raceday.testing import check_random_games

SAVES = Path(__file__).parents[2] / "fixtures" / "saves" / "keirin"


def night(**options: Any) -> NightState:
    return NIGHT.new_state({"players": ["Ann", "Bob"], "riders": 6, **options})


def run_race(state: NightState, seed: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    events = []
    while state.phase == PHASE_RACE:
        draw = state.sample_chance(rng)
        events.extend(state.apply_action(draw.outcome, draw.detail))
    return events


def test_the_night_passes_the_conformance_harness() -> None:
    assert check_random_games(NIGHT, games=4, full_games=2) == 4 * len(NIGHT.harness_configs)


def test_players_bet_in_any_order_then_the_race_runs_and_pays() -> None:
    state = night(races=2)
    assert state.phase == PHASE_TICKETS and state.acting_players() == [0, 1]
    state.apply_action_for(1, state.ticket_from_text(1, "win 2 50"))  # Bob before Ann
    state.apply_action_for(1, DONE)
    assert state.acting_players() == [0] and state.current_player() == 0
    assert state.legal_actions_for(1) == []
    with pytest.raises(IllegalActionError, match="not player 1's turn"):
        state.apply_action_for(1, DONE)
    events = state.apply_action_for(0, DONE)
    assert [e.kind for e in events] == ["done_betting", "betting_closed"]
    assert state.phase == PHASE_RACE and state.is_chance_node()
    assert state.accounts[1].bankroll == 1_000_000 - 5000  # the stake is taken
    kinds = [e.kind for e in run_race(state, 4)]
    assert kinds[-2:] == ["settled", "betting_open"]
    assert state.phase == PHASE_TICKETS and state.settled == 1
    with pytest.raises(GameNotOverError):
        state.outcome()
    state.apply_action_for(HOST, CLOSE_BETTING)  # the host closes an empty race
    kinds = [e.kind for e in run_race(state, 5)]
    assert kinds[-2:] == ["settled", "finished"] and state.phase == PHASE_OVER
    outcome = state.outcome()
    assert outcome.termination == "money"
    assert set(outcome.winning_players) <= {0, 1} and outcome.ranking[0] in (0, 1)
    assert "most money" in render(outcome.message or "", game="keirin")


def test_the_race_game_too_refuses_an_outcome_before_the_end() -> None:
    with pytest.raises(GameNotOverError):
        RACE.new_state({}).outcome()


def test_the_host_acts_through_the_state_only_while_betting_is_open() -> None:
    state = night()
    assert state.legal_actions_for(HOST) == [CLOSE_BETTING, END_NIGHT]
    assert HOST not in state.acting_players() and CLOSE_BETTING not in state.legal_actions()
    assert render(state.action_message(END_NIGHT), game="keirin").startswith("end the night")
    assert state.action_to_string(CLOSE_BETTING) == "close betting"
    events = state.apply_action_for(HOST, CLOSE_BETTING)
    assert [e.kind for e in events] == ["betting_closed"] and state.phase == PHASE_RACE
    assert state.legal_actions_for(HOST) == []
    with pytest.raises(IllegalActionError, match="only while betting is open"):
        state.apply_action_for(HOST, END_NIGHT)


def test_ending_the_night_early_withdraws_the_open_tickets() -> None:
    state = night()
    state.apply_action_for(0, state.ticket_from_text(0, "exacta 1-2 10"))
    events = state.apply_action_for(HOST, END_NIGHT)
    assert events[0].kind == "finished" and events[0]["withdrawn"] == 1
    assert state.is_terminal() and [a.bankroll for a in state.accounts] == [1_000_000] * 2


def test_a_seats_tickets_and_purse_never_reach_another_seat() -> None:
    plain, bought = night(), night()
    bought.apply_action_for(0, bought.ticket_from_text(0, "trifecta 1-2-3 250"))
    bought.apply_action_for(0, bought.ticket_from_text(0, "win 4 99.5"))
    for seat in (1, None):
        assert bought.observation(seat) == plain.observation(seat)
    mine = bought.observation(0)["me"]
    assert [t["label"] for t in mine["tickets"]] == ["1-2-3", "4"]
    assert mine["purse"] == 1_000_000 - 25_000 - 9_950
    bought.apply_action_for(0, DONE)
    bought.apply_action_for(1, DONE)  # the race starts: stakes are taken
    plain.apply_action_for(HOST, CLOSE_BETTING)
    public = bought.observation(None)
    assert public["players"][0]["purse"] == 1_000_000  # as it was before the stakes
    assert public == plain.observation(None)
    assert "trifecta" not in json.dumps(bought.observation(1))


def test_a_pool_is_sealed_until_the_close_then_shows_totals_but_never_who_bet() -> None:
    state = night(mode="pool", margin=0.2)
    state.apply_action_for(0, state.ticket_from_text(0, "win 3 100"))
    state.apply_action_for(1, state.ticket_from_text(1, "win 3 50"))
    for player in (None, 0, 1):
        assert state.observation(player)["tote"] is None
    state.apply_action_for(HOST, CLOSE_BETTING)
    tote = state.observation(None)["tote"]["win"]
    assert tote["pool"] == 15_000 and tote["tickets"] == 2
    assert "Ann" not in json.dumps(state.observation(None)["tote"])


def test_tickets_follow_the_rules_of_the_terminal_night() -> None:
    state = night(bankroll=10_000, max_tickets=2)
    with pytest.raises(BetError, match=r"more than the 100\.00 left"):
        state.ticket_from_text(0, "win 1 100.01")
    with pytest.raises(BetError, match="unknown rider '7'"):
        state.ticket_from_text(0, "win 7 1")
    state.apply_action_for(0, state.ticket_from_text(0, "win 1 1"))
    state.apply_action_for(0, state.ticket_from_text(0, "win 2 1"))
    with pytest.raises(BetError, match="at most 2 tickets"):
        state.ticket_from_text(0, "win 3 1")
    assert state.legal_actions_for(0) == [DONE, state.cancel_action(0), state.cancel_action(1)]
    assert state.action_to_string(state.cancel_action(0)) == "take back ticket 1"
    undo = state.apply_action_for(0, state.cancel_action(0))
    assert undo == [Event("ticket_withdrawn", {})]  # sealed: not which bet was taken back
    assert [t.selection for t in state.mine(0)] == [(2,)]
    with pytest.raises(IllegalActionError, match="no such ticket"):
        state.apply_action_for(0, state.cancel_action(1))
    with pytest.raises(OptionsError, match="player names must differ"):
        NIGHT.new_state({"players": ["Ann", "Ann"]})


def test_actions_have_unique_names_and_messages() -> None:
    state = night(margin=0.1)
    legal = state.legal_actions_for(0)
    names = [state.action_to_string(a) for a in legal]
    assert len(set(names)) == len(names) and names[0] == "done"
    action = state.ticket_action("exacta", (1, 2), 1234)  # any stake, not only the menu's
    assert action not in legal and state.ticket_of(action) == ("exacta", (1, 2), 1234)
    text = render(state.action_message(action), game="keirin")
    assert text.startswith("exacta 1-2 for 12.34 at ")
    assert state.string_to_action(names[5]) == legal[5]
    for event in state.apply_action_for(0, action):
        assert describe_event("keirin", event, "ja")


def test_a_saved_night_round_trips_and_refuses_garbage() -> None:
    state = night(mode="pool")
    state.apply_action_for(0, state.ticket_from_text(0, "trio 1=2=3 5"))
    state.apply_action_for(HOST, CLOSE_BETTING)
    again = NightState.from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.observation(0) == state.observation(0)
    broken = state.to_json()
    broken["race"] = None
    from raceday.core.errors import SaveFormatError

    with pytest.raises(SaveFormatError, match="corrupt"):
        NightState.from_json(broken)


# --- sessions saved by the code before the night was a protocol state ----------------------
@pytest.fixture
def old_store(tmp_path: Path) -> SessionStore:
    copy = tmp_path / "old.sqlite"
    shutil.copy(SAVES / "sessions_before_night.sqlite", copy)
    return SessionStore(copy)


def old_account(account: Account) -> dict[str, int]:
    """An account as the old code saved it: it kept no winnings apart from returns."""
    return {k: v for k, v in account.to_json().items() if k != "winnings"}


def test_old_sessions_load_and_pay_the_next_race_as_the_old_code_did(
        old_store: SessionStore) -> None:
    expected = json.loads((SAVES / "sessions_before_night.json").read_text())
    assert sorted(old_store.names("keirin")) == sorted(expected)
    for name, saved in expected.items():
        session = BetSession.load(old_store, name)
        doc = saved["document"]
        assert session.races == doc["races"] and session.seed == doc["seed"]
        assert {n: old_account(a) for n, a in session.players.items()} == dict(doc["players"])
        assert all(a.winnings == a.returned for a in session.players.values())
        assert (session.pending is None) == (doc["pending"] is None)
        if "next_race" not in saved:
            continue
        want = saved["next_race"]
        if session.pending is None:  # the same tickets the old code was given
            for ticket in want["tickets"]:
                text = f"{ticket['kind']} {'-'.join(map(str, ticket['selection']))} " \
                       f"{ticket['stake'] / 100}"
                seat = session.seat(ticket["player"])
                session.state.apply_action_for(seat, session.state.ticket_from_text(seat, text))
        session.lock(old_store)
        settlement = session.settle(old_store, session.run_race())
        assert [t.to_json() for t in settlement.tickets] == want["tickets"]
        assert settlement.returns == want["returns"]
        assert settlement.ranking == want["ranking"] and settlement.derny == want["derny"]
        assert {n: old_account(a) for n, a in session.players.items()} == want["bankrolls"]
        # saved as a record now (#47): the old night its Start, then the race's moves
        again = BetSession.load(old_store, name)
        assert again.state.to_json() == session.state.to_json() and again.seed == doc["seed"]
        document, _ = old_store.load("keirin", name)
        record = parse_record(document["record"])
        assert record.tags["Seed"] == doc["seed"] and "Start" in record.tags
        assert replay(record).state.to_json() == session.state.to_json()


BOX = str.maketrans("", "", "┏┳┓┃┡╇┩│└┴┘━─")
# What #33 changed on purpose in these screens: the words below, and the odds board before
# the first ticket prompt (compact now; its prices are compared with the old tables').
REWORDED = (("wins.", "wins!"), ("no winner: stakes refunded", "no winner: refunded"),
            ("after 1 race(s)", "after 1 race"), ("race(s)", "races"))


def _screens(text: str) -> tuple[list[str], list[list[str]]]:
    """The transcript's lines without the odds boards (box drawing and runs of blanks
    ignored: a table's width follows its words), and each board's lines."""
    lines, boards, board = [], [], None
    for line in text.splitlines():
        if "odds board:" in line:  # its heading: which race (the pool's words changed)
            board = []
            boards.append(board)
            lines.append(line.split("odds board:")[0].strip("─ "))
            continue
        if board is not None and "ticket (Enter = done, help)>" not in line:
            board.append(line)
            continue
        board = None
        for old, new in REWORDED:
            line = line.replace(old, new)
        # every game's one resume line (#43)
        line = re.sub(r"^Session saved\. Resume it with: (raceday keirin play --resume (\S+).*)",
                      r"Saved as '\2'; continue with: \1", line)
        lines.append(" ".join(line.translate(BOX).split()))
    return lines, boards


def _win_prices(board: list[str]) -> dict[str, str]:
    """Rider -> win odds, from an old win table or from a compact board's win block."""
    prices = {}
    for line in board:
        words = line.translate(BOX).split()
        if words and words[0].isdigit() and len(words[0]) == 1:
            prices[words[0]] = words[2] if "%" in words[1] else words[1]
        if line.startswith("quinella"):  # the old board's next table
            break
    return prices


def test_the_terminal_night_prints_what_it_printed_before(tmp_path: Path) -> None:
    """The same scripted nights give the same screens as the code before the change, but
    for the odds board (compact since #33, with the same win prices) and a few words."""
    before = json.loads((SAVES / "cli_transcripts_before_night.json").read_text())
    old_db = "/work/main/tests/fixtures/saves/keirin/sessions_before_night.sqlite"
    db = tmp_path / "s.sqlite"
    scripts = {
        "fixed": (["--save", "fixed-two", "-p", "Ann", "-p", "Bob", "--seed", "31",
                   "--margin", "0.1"],
                  "win 1 100\nexacta 1-2 50\n\ntrio 1=2=3 20\n\ny\nwin 2 200\n\n"
                  "quinella 1=3 30\n\nn\n"),
        "pool": (["--save", "pool-one", "-p", "Ann,Bob,Chie", "--seed", "7", "--pool",
                  "--margin", "0.2", "--riders", "7", "--length", "100", "--bankroll", "500"],
                 "win 1 100\ntrifecta 1-2-3 10\n\nwin 1 50\nwin 2 50\n\nquinella 1=2 25\n\nn\n"),
        "debt": (["--save", "debt-one", "-p", "Dan", "--seed", "99", "--allow-debt",
                  "--bankroll", "10", "--derny", "12"], "win 1 50\n\nn\n"),
    }
    for label, (args, stdin) in scripts.items():
        run = subprocess.run(
            [sys.executable, "-m", "raceday", "keirin", "play", "--db", str(db), "--delay",
             "0", *args], input=stdin, text=True, capture_output=True, check=True)
        now, boards = _screens(run.stdout.replace(str(db), old_db))
        then, old_boards = _screens(before[label])
        assert now == then, label
        assert len(boards) == len(old_boards) >= 1, label
        heading = next(line for line in run.stdout.splitlines() if "odds board:" in line)
        assert "…" not in heading and len(heading) <= 80  # said whole at 80 columns
        if label == "pool":
            assert "the pools keep 20%" in heading
        for board, old in zip(boards, old_boards, strict=True):
            assert _win_prices(board) == _win_prices(old) != {}, label
            assert len(board) <= 12  # the column names, 9 riders, the last line


def test_race_commentary_comes_from_the_message_tables_in_both_languages() -> None:
    from raceday.core.events import Event
    from raceday.games.keirin.render import describe

    overtake = Event("overtake", {"turn": 2, "rider": 4, "passed": [1, 2, 3], "several": True})
    assert describe(overtake) == "R4 overtakes riders 1, 2, 3."
    assert describe(overtake, "ja") == "4番が1、2、3番を抜く。"
    one = Event("overtake", {"turn": 2, "rider": 4, "passed": [1], "several": False})
    assert (describe(one), describe(one, "ja")) == ("R4 overtakes R1.", "4番が1番を抜く。")
    lineup = Event("lineup", {"positions": [-50], "finish": 101, "to_go": 151})
    assert describe(lineup) == "Rider 1 lines up 151 squares from the finish."
    assert describe(lineup) == describe_event("keirin", lineup)  # the one wording
    assert describe(Event("throw", {})) is None  # the throw line shows throws


def settled_night(mode: str, tickets: dict[int, list[str]]) -> NightState:
    """A one-race night of Ann, Bob and Chie (seat 0, 1, 2) with ``tickets`` bought, run."""
    state = night(players=["Ann", "Bob", "Chie"], races=1, mode=mode)
    for player, lines in tickets.items():
        for line in lines:
            state.apply_action_for(player, state.ticket_from_text(player, line))
    state.apply_action_for(HOST, CLOSE_BETTING)
    run_race(state, 7)
    assert state.phase == PHASE_OVER
    return state


def test_the_biggest_return_counts_winnings_not_refunded_stakes() -> None:
    """docs/rules/keirin.md, our completion 13: Ann's win pool pays her (she holds every
    rider); Bob's lone trifecta misses and its 50.00 comes back, which is no return."""
    state = settled_night("pool", {0: [f"win {r} 1" for r in range(1, 7)],
                                   1: ["trifecta 6-5-4 50"]})
    assert state.last is not None and state.last["pools"]["trifecta"]["refunded"]
    assert state.accounts[1].returned == 5_000 and state.accounts[1].winnings == 0
    awards = {a["award"]: a for a in state.awards()}
    assert awards["biggest_return"] == {"award": "biggest_return", "players": [0],
                                        "value": 600, "tickets": [6]}
    assert awards["boldest"]["players"] == [1] and awards["sharpest"]["players"] == [0]


def test_an_award_shared_is_told_as_a_tie() -> None:
    """The same completion: Ann and Bob hold the same six win tickets at fixed odds, so they
    tie on every award; Chie, who bought nothing, is on none."""
    every_rider = [f"win {r} 1" for r in range(1, 7)]
    state = settled_night("fixed", {0: every_rider, 1: every_rider})
    awards = state.awards()
    assert [a["award"] for a in awards] == ["biggest_return", "boldest", "sharpest"]
    assert all(a["players"] == [0, 1] for a in awards)
    assert awards[1]["value"] == 600 and awards[2]["value"] == 1


def test_an_account_saved_before_winnings_counts_all_it_returned() -> None:
    saved = {"bankroll": 900, "staked": 200, "returned": 100, "tickets": 2,
             "winning_tickets": 0}
    assert Account.from_json(saved).winnings == 100
    assert Account.from_json({**saved, "winnings": 0}).winnings == 0
