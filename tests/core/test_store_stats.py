"""SQLite session store and confidence intervals."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from raceday.analysis.stats import mean_interval, proportion_agrees, wilson_interval, z_value
from raceday.core.errors import SaveFormatError
from raceday.store.sessions import SessionStore


def test_save_load_and_revisions(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "db.sqlite")
    rev = store.save("keirin", "friday", {"race": 1}, log_entry={"race": 1, "winner": 4})
    assert rev == 1
    doc, rev = store.load("keirin", "friday")
    assert doc == {"race": 1}
    rev2 = store.save("keirin", "friday", {"race": 2}, expected_revision=rev)
    assert rev2 == 2 and store.names("keirin") == ["friday"]
    assert store.log("keirin", "friday") == [{"race": 1, "winner": 4}]


def test_stale_revision_refuses_double_settlement(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "db.sqlite")
    store.save("derby", "s", {"paid": 1})
    with pytest.raises(SaveFormatError, match="changed since"):
        store.save("derby", "s", {"paid": 2}, expected_revision=0)
    assert store.load("derby", "s")[0] == {"paid": 1}


def test_a_failed_transaction_keeps_the_old_document(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "db.sqlite")
    store.save("derby", "s", {"money": 5}, log_entry={"n": 1})
    # the same log sequence number again makes the transaction fail half-way
    with pytest.raises(sqlite3.IntegrityError), store._connect() as conn:
        conn.execute("UPDATE sessions SET document = '{\"money\": 99}'")
        conn.execute("INSERT INTO session_log (game, name, seq, entry) VALUES ('derby','s',1,'{}')")
    assert store.load("derby", "s")[0] == {"money": 5}


def test_missing_session_and_bad_file(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "db.sqlite")
    with pytest.raises(SaveFormatError, match="no saved keirin session named 'x'"):
        store.load("keirin", "x")
    bad = tmp_path / "bad.sqlite"
    bad.write_text("this is not sqlite" * 100)
    with pytest.raises(SaveFormatError, match="not a raceday database"):
        SessionStore(bad)


def test_wilson_interval_properties() -> None:
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.19, abs=0.01)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert proportion_agrees(500, 1000, 0.52) and not proportion_agrees(500, 1000, 0.6)


def test_mean_interval_covers_the_mean() -> None:
    values = np.random.default_rng(2).normal(3.0, 1.0, 4000)
    mean, lo, hi = mean_interval(values, 0.99)
    assert lo < 3.0 < hi and lo < mean < hi
