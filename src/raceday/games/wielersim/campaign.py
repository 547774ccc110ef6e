"""Saved stage-race campaigns (SQLite via SessionStore), and stage-race predictions.

A campaign document holds the tour, the peloton, the seed and the stage records ridden so
far. It is saved in one transaction after every stage, guarded by its revision number,
so a campaign stopped at any moment resumes from its last completed stage and no stage is
lost or counted twice. Stage ``i`` always uses the generator spawned for ``i`` from the
campaign's seed, so an interrupted campaign ends exactly like an uninterrupted one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from raceday.core.errors import OptionsError, SaveFormatError
from raceday.core.game import ProgressCallback
from raceday.core.runner import run_chunks
from raceday.games.wielersim.peloton import Peloton, peloton_from_spec
from raceday.games.wielersim.stage import (
    Standings,
    classifications,
    ride_tour_fast,
    stage_count,
)
from raceday.store.sessions import ReadOnlyStore, SessionStore

GAME = "wielersim"
DOC_VERSION = 1
MAX_TOUR_RACES = 100_000  # stage races in one predict-tour (an hour or two on two cores)


@dataclass
class Campaign:
    """A stage race in progress: its document and the store revision it was loaded at."""

    name: str
    doc: dict[str, Any]
    revision: int
    store: SessionStore

    @property
    def tour(self) -> dict[str, Any]:
        return dict(self.doc["tour"])

    @property
    def peloton_spec(self) -> dict[str, Any]:
        return dict(self.doc["peloton"])

    @property
    def peloton(self) -> Peloton:
        return peloton_from_spec(self.doc["peloton"])

    @property
    def records(self) -> list[dict[str, Any]]:
        return list(self.doc["records"])

    @property
    def seed(self) -> int:
        return int(self.doc["seed"])

    @property
    def next_stage(self) -> int:
        return len(self.doc["records"])

    @property
    def finished(self) -> bool:
        return self.next_stage >= stage_count(self.doc["tour"])

    def standings(self, upto: int | None = None) -> Standings:
        return classifications(self.peloton, self.records[:upto])

    def add_record(self, record: dict[str, Any]) -> None:
        """Save the next stage's record (one transaction, revision-guarded)."""
        index = self.next_stage
        doc = {**self.doc, "records": [*self.doc["records"], record]}
        self.revision = self.store.save(GAME, self.name, doc, expected_revision=self.revision,
                                        log_entry={"stage": index, "record": record})
        self.doc = doc


def open_store(db: str | Path | None) -> SessionStore:
    return SessionStore(db)


def read_store(db: str | Path | None) -> ReadOnlyStore:
    """The store of a command that only reads (``tour --list``, ``standings``): nothing is
    created or written, not even a missing database."""
    return ReadOnlyStore(db)


def new_campaign(store: SessionStore, name: str, tour: Mapping[str, Any],
                 peloton: Mapping[str, Any], seed: int) -> Campaign:
    """Create and save a campaign; refuses a name already in use."""
    if not name.strip():
        raise OptionsError("--name must not be empty")
    if store.exists(GAME, name):
        raise OptionsError(f"a stage race named {name!r} is already saved; resume it with "
                           f"--resume {name!r} or choose another --name")
    doc = {"version": DOC_VERSION, "tour": dict(tour), "peloton": dict(peloton), "seed": seed,
           "records": []}
    revision = store.save(GAME, name, doc, expected_revision=None)
    return Campaign(name, doc, revision, store)


def load_campaign(store: SessionStore, name: str) -> Campaign:
    """Load a saved campaign, checking its document."""
    doc, revision = store.load(GAME, name)
    if doc.get("version") != DOC_VERSION or not {"tour", "peloton", "seed", "records"} <= set(
            doc):
        raise SaveFormatError(f"saved stage race {name!r} is not a WielerSIM campaign")
    if not isinstance(doc["records"], list) or len(doc["records"]) > stage_count(doc["tour"]):
        raise SaveFormatError(f"saved stage race {name!r} has malformed stage records")
    return Campaign(name, doc, revision, store)


# --- predictions -------------------------------------------------------------------------------
@dataclass
class TourPrediction:
    """How often each rider won each classification in ``n`` simulated stage races."""

    n: int
    numbers: list[int]
    names: list[str]
    counts: np.ndarray  # (3, riders): GC, points, mountains
    positions: np.ndarray  # (riders, places): how often each rider ended GC in each place

    def to_json(self) -> dict[str, Any]:
        """Chances per rider name (riders who never won left out), highest first, and
        each rider's distribution of final GC places (best mean place first)."""
        out: dict[str, Any] = {"game": GAME, "n": self.n}
        for row, key in enumerate(("gc", "points", "mountains")):
            out[key] = {self.names[i]: float(self.counts[row, i]) / self.n
                        for i in self.order(row) if self.counts[row, i]}
        out["gc_places"] = {
            self.names[i]: {"mean": self.mean_place(i),
                            "chances": [float(c) / self.n for c in self.positions[i]]}
            for i in self.place_order()}
        return out

    def mean_place(self, i: int) -> float:
        """Rider ``i``'s mean final GC place (1 is the winner)."""
        places = np.arange(1, self.positions.shape[1] + 1)
        return float((self.positions[i] * places).sum()) / self.n

    def place_order(self) -> list[int]:
        """Rider indices by mean final GC place, best first."""
        return sorted(range(len(self.names)), key=lambda i: (self.mean_place(i), i))

    def order(self, row: int) -> list[int]:
        """Rider indices by chance to win classification ``row``, highest first."""
        return sorted(range(len(self.names)), key=lambda i: (-self.counts[row, i], i))


TOUR_CHUNK = 20  # stage races per chunk of work


def _tour_chunk(tour: Mapping[str, Any], peloton: Mapping[str, Any], n: int,
                seed: np.random.SeedSequence) -> tuple[np.ndarray, np.ndarray]:
    """One chunk for the runner: how often each rider won GC, points and mountains, and
    how often he ended GC in each place."""
    rng = np.random.default_rng(seed)
    numbers = [r["number"] for r in peloton["riders"]]
    index = {num: i for i, num in enumerate(numbers)}
    counts = np.zeros((3, len(numbers)), dtype=np.int64)
    positions = np.zeros((len(numbers), len(numbers)), dtype=np.int64)
    for _ in range(n):
        st = ride_tour_fast(tour, peloton, rng)
        for place, (number, _) in enumerate(st.gc):
            positions[index[number], place] += 1
        counts[0, index[st.gc[0][0]]] += 1
        if st.points:
            counts[1, index[st.points[0][0]]] += 1
        if st.mountains:
            counts[2, index[st.mountains[0][0]]] += 1
    return counts, positions


def predict_tour(tour: Mapping[str, Any], peloton: Mapping[str, Any], n: int, seed: int = 0,
                 workers: int | None = 1, progress: ProgressCallback | None = None,
                 chunk: int = TOUR_CHUNK, scheduler: str | None = None) -> TourPrediction:
    """Simulate ``n`` stage races; count the winners of GC, points and mountains and the
    final GC places; ``progress(done, n)`` as chunks finish (workers and scheduler as in
    :func:`raceday.games.wielersim.predict.predict`)."""
    if not 1 <= n <= MAX_TOUR_RACES:
        raise OptionsError(f"-n must be 1 to {MAX_TOUR_RACES:,} stage races, got {n:,}")
    numbers = [r["number"] for r in peloton["riders"]]
    total = np.zeros((3, len(numbers)), dtype=np.int64)
    places = np.zeros((len(numbers), len(numbers)), dtype=np.int64)
    for counts, positions in run_chunks(_tour_chunk, (dict(tour), dict(peloton)), n,
                                        seed=seed, chunk_size=chunk, workers=workers,
                                        progress=progress, scheduler=scheduler):
        total += counts
        places += positions
    return TourPrediction(n, numbers, [r["name"] for r in peloton["riders"]], total, places)
