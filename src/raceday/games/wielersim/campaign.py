"""Saved stage-race campaigns (SQLite via SessionStore), and stage-race predictions.

A stage race is saved as records (:mod:`raceday.core.record`), one per ridden stage, in
one text: each stage's record names the stage race (``Event``), the stage (``Round``: 0
the prologue, 1 the first road stage), the stage race's seed and its stage result as the
classifications count it (``Stage``); the first also holds the stage race itself
(``Tour``). A stage race not yet begun is its first stage's record without moves. The
text is saved with :func:`raceday.store.records.save_game` in one transaction after every
stage, guarded by its revision number, so a campaign stopped at any moment resumes from
its last completed stage and no stage is lost or counted twice. Stage ``i`` always uses
the generator spawned for ``i`` from the campaign's seed, so an interrupted campaign ends
exactly like an uninterrupted one. A campaign saved before records (a document of the
tour, the peloton, the seed and the stage results) is converted when it is opened: each
stage is ridden again from the seed, its moves written down when the ride gives the saved
result (docs/record-format.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from raceday.core.errors import OptionsError, SaveFormatError
from raceday.core.game import ProgressCallback
from raceday.core.protocol import State
from raceday.core.record import Record, Recorder, RecordError, parse_records, replay
from raceday.core.runner import run_chunks
from raceday.games.wielersim.peloton import Peloton, peloton_from_spec
from raceday.games.wielersim.stage import (
    TOUR_KEYS,
    Standings,
    classifications,
    ride_tour_fast,
    stage_count,
    stage_record,
    stage_rng,
    written_stage_name,
)
from raceday.store.records import SavedGame, load_game, save_game
from raceday.store.sessions import ReadOnlyStore, SessionStore

GAME = "wielersim"
PROLOGUE_GAME = "wielersim_prologue"  # the prologue's record (games.wielersim.prologue)
DOC_VERSION = 1  # the document of a campaign saved before records
MAX_TOUR_RACES = 100_000  # stage races in one predict-tour (an hour or two on two cores)

# Rides a stage's state on (e.g. the terminal watching it) with the stage's generator.
Rider = Callable[[State, np.random.Generator], None]


def stage_number(tour: Mapping[str, Any], index: int) -> int:
    """The ``Round`` of stage ``index``: 0 for the prologue, 1 for the first road stage."""
    return index + 1 - int(bool(tour["prologue"]))


def stage_game(tour: Mapping[str, Any], peloton_spec: Mapping[str, Any], index: int,
               jersey: int | None) -> tuple[str, dict[str, Any]]:
    """The game and options of stage ``index``'s record: the prologue's, or the race of
    its route with the jersey on the GC leader."""
    if tour["prologue"] and index == 0:
        return PROLOGUE_GAME, {"peloton": dict(peloton_spec),
                               "prologue_type": tour["prologue_type"]}
    road = index - int(bool(tour["prologue"]))
    return GAME, {"route": tour["stages"][road]["route"], "peloton": dict(peloton_spec),
                  "jersey": jersey}


def stage_result(tour: Mapping[str, Any], index: int, state: State) -> dict[str, Any]:
    """What the finished stage ``state`` adds to the classifications."""
    from raceday.games.wielersim.prologue import PrologueState
    from raceday.games.wielersim.rules import WielersimState

    if isinstance(state, PrologueState):
        return state.stage_record()
    assert isinstance(state, WielersimState)
    name = written_stage_name(tour, index)
    assert name is not None
    return stage_record(state, name, bonuses=tour["bonuses"],
                        flat_stage_race=tour["flat_stage_race"])


@dataclass
class Campaign:
    """A stage race in progress: its records (one per ridden stage; one without moves
    before the first stage) and the store revision it was loaded at."""

    name: str
    tour: dict[str, Any]
    peloton_spec: dict[str, Any]
    seed: int
    stages: list[Record]
    revision: int | None
    store: SessionStore | None
    converted: bool = False  # opened from a document saved before records
    _results: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._results = [dict(r.tags["Stage"]) for r in self.stages if "Stage" in r.tags]

    @property
    def peloton(self) -> Peloton:
        return peloton_from_spec(self.peloton_spec)

    @property
    def records(self) -> list[dict[str, Any]]:
        """The ridden stages' results (``Stage`` tags), in order."""
        return [dict(r) for r in self._results]

    @property
    def next_stage(self) -> int:
        return len(self._results)

    @property
    def finished(self) -> bool:
        return self.next_stage >= stage_count(self.tour)

    def standings(self, upto: int | None = None) -> Standings:
        return classifications(self.peloton, self._results[:upto])

    def jersey(self, index: int) -> int | None:
        """Who wears the leader's jersey in stage ``index``."""
        if index and self._results:
            return self.standings(index).leader
        jersey = self.peloton_spec.get("jersey")
        return int(jersey) if isinstance(jersey, int) else None

    def text(self) -> str:
        """The campaign's records as one text (what is saved and exported)."""
        from raceday.core.record import records_text

        return records_text(self.stages)

    # --- riding -----------------------------------------------------------------------
    def start_stage(self, index: int | None = None) -> tuple[State, Recorder]:
        """Stage ``index``'s state before its first throw (default: the next stage's), and
        a recorder following it."""
        from raceday.core.registry import record_game

        index = self.next_stage if index is None else index
        game, options = stage_game(self.tour, self.peloton_spec, index, self.jersey(index))
        state = record_game(game).new_state(options)
        tags: dict[str, Any] = {"Event": self.tour["name"],
                                "Round": stage_number(self.tour, index), "Name": self.name}
        if index == 0:
            tags["Tour"] = dict(self.tour)
        recorder = Recorder(game, options, seed=self.seed, tags=tags)
        recorder.follow(state)
        return state, recorder

    def ride(self, rider: Rider | None = None) -> dict[str, Any]:
        """Ride the next stage with its generator (``rider`` first rides it on as it likes,
        e.g. watched turn by turn), save its record and return its result."""
        from raceday.core.play import play_game

        index = self.next_stage
        state, recorder = self.start_stage(index)
        rng = stage_rng(self.seed, index)
        if rider is not None:
            rider(state, rng)
        if not state.is_terminal():
            play_game(state, [], rng)
        result = stage_result(self.tour, index, state)
        record = recorder.record()
        record.tags["Stage"] = result
        self._add(record, result)
        return result

    def add_record(self, result: dict[str, Any]) -> None:
        """Save the next stage's ``result`` (one transaction, revision-guarded): its record
        is the stage ridden again from the seed when that gives ``result``, else the result
        alone (no moves)."""
        index = self.next_stage
        record = self._found_again(index, result)
        self._add(record, result)

    def _found_again(self, index: int, result: Mapping[str, Any]) -> Record:
        from raceday.core.play import play_game

        state, recorder = self.start_stage(index)
        play_game(state, [], stage_rng(self.seed, index))
        if stage_result(self.tour, index, state) != result:
            recorder.moves = []
            recorder.state = None
        record = recorder.record()
        record.tags["Stage"] = dict(result)
        return record

    def _add(self, record: Record, result: dict[str, Any]) -> None:
        if self.store is None:
            raise SaveFormatError(f"the stage race {self.name!r} is not saved anywhere")
        index = self.next_stage
        stages = [*self.stages[:index], record]
        self.revision = save_game(self.store, GAME, self.name, stages,
                                  cache={"stages": len(stages)},
                                  expected_revision=self.revision,
                                  log_entry={"stage": index, "record": result})
        self.stages = stages
        self._results.append(dict(result))


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
    campaign = Campaign(name, dict(tour), dict(peloton), seed, [], None, store)
    campaign.stages = [campaign.start_stage(0)[1].record()]
    campaign.revision = save_game(store, GAME, name, campaign.stages, cache={"stages": 0},
                                  expected_revision=None)
    return campaign


def load_campaign(store: SessionStore, name: str) -> Campaign:
    """Load a saved campaign, checking its records (a campaign saved before records is
    converted, see the module's docstring)."""
    saved = load_game(store, GAME, name, convert_campaign)
    return campaign_of(saved, name, store)


def campaign_of(saved: SavedGame, name: str, store: SessionStore | None, *,
                check: bool = False) -> Campaign:
    """The campaign of ``saved``'s records; with ``check`` every stage's moves are played
    through the rules and must give its ``Stage`` result (a record from a file)."""
    records = saved.records
    first = records[0]
    tour = first.tags.get("Tour")
    if first.game not in (GAME, PROLOGUE_GAME) or not isinstance(tour, dict):
        raise RecordError(f"{name!r} is a record of {first.game}, not a WielerSIM stage race "
                          "(its first record has no Tour tag)", first.line)
    if not {"name", "prologue", "stages"} <= set(tour) or set(tour) - TOUR_KEYS or \
            not isinstance(tour["stages"], list) or not tour["stages"]:
        raise RecordError("the Tour tag is not a stage race", first.line)
    seed = first.tags.get("Seed")
    peloton = first.options.get("peloton")
    if not isinstance(seed, int) or not isinstance(peloton, dict):
        raise RecordError("a stage race's first record gives its Seed and the peloton in "
                          "its Options", first.line)
    if len(records) > stage_count(tour):
        raise RecordError(f"{len(records)} stages in a stage race of {stage_count(tour)}",
                          records[stage_count(tour)].line)
    campaign = Campaign(name, dict(tour), dict(peloton), seed, [], saved.revision, store,
                        converted=saved.converted)
    for index, record in enumerate(records):
        _check_stage(campaign, index, record, len(records), check)
        if saved.converted:
            record.tags["Name"] = name  # the session's name, unknown to the converter
        campaign.stages.append(record)
        if "Stage" in record.tags:
            campaign._results.append(dict(record.tags["Stage"]))
    return campaign


def _check_stage(campaign: Campaign, index: int, record: Record, count: int,
                 check: bool) -> None:
    """Refuse (naming the record's line) a stage record that is not stage ``index`` of
    ``campaign``: another game or stage, other options or seed, a result missing or (with
    ``check``) not the one its moves give."""
    tour = campaign.tour
    try:
        game, options = stage_game(tour, campaign.peloton_spec, index,
                                   campaign.jersey(index))
    except (KeyError, TypeError, IndexError) as exc:
        raise RecordError(f"the Tour tag is not a stage race: {exc}", record.line) from None
    if record.game != game:
        raise RecordError(f"stage {index + 1} of {tour['name']!r} is a record of {game}, "
                          f"not of {record.game}", record.line)
    if record.tags.get("Round") != stage_number(tour, index):
        raise RecordError(f"record {index + 1} of the stage race should be Round "
                          f"{stage_number(tour, index)}, not {record.tags.get('Round')}",
                          record.line)
    if record.tags.get("Seed") != campaign.seed or record.options != options:
        raise RecordError(f"Round {stage_number(tour, index)}: its Seed or Options are not "
                          "those of this stage of the stage race", record.line)
    result = record.tags.get("Stage")
    if result is None:
        if count > 1 or record.moves:
            raise RecordError(f"Round {stage_number(tour, index)} has no Stage result",
                              record.line)
        return
    if not isinstance(result, dict) or not {"results", "bonus", "points", "mountains"} <= \
            set(result) or not isinstance(result["results"], list):
        raise RecordError("the Stage tag is not a stage's result", record.line)
    if check and record.moves:
        state = replay(record).state
        if not state.is_terminal() or stage_result(tour, index, state) != result:
            raise RecordError(f"Round {stage_number(tour, index)}: its moves do not give "
                              "its Stage result", record.line)


def campaign_from_text(text: str, name: str | None = None,
                       store: SessionStore | None = None) -> Campaign:
    """The campaign of a record text (an exported stage race; ``name``: its records' Name
    by default), every stage checked through the rules; :class:`RecordError` names the
    first bad line."""
    records = parse_records(text)
    for record in records:
        if record.game not in (GAME, PROLOGUE_GAME):
            raise RecordError(f"a record of {record.game}, not of a WielerSIM stage race",
                              record.line)
    if name is None:
        name = str(records[0].tags.get("Name") or records[0].tags.get("Event") or "")
    return campaign_of(SavedGame(records[-1], records=records), name, store, check=True)


def save_new(campaign: Campaign, store: SessionStore) -> None:
    """Save ``campaign`` (read from a file) as a new session of ``store``, under its name."""
    if store.exists(GAME, campaign.name):
        raise OptionsError(f"a stage race named {campaign.name!r} is already saved")
    campaign.store = store
    campaign.revision = save_game(store, GAME, campaign.name, campaign.stages,
                                  cache={"stages": campaign.next_stage},
                                  expected_revision=None)


def convert_campaign(document: Mapping[str, Any]) -> list[Record]:
    """The records of a campaign saved before records: each saved stage ridden again from
    the seed (with its moves when the ride gives the saved result, else the result alone)."""
    if document.get("version") != DOC_VERSION or not {"tour", "peloton", "seed",
                                                      "records"} <= set(document):
        raise SaveFormatError("this saved session is not a WielerSIM stage race")
    results = document["records"]
    tour = document["tour"]
    if not isinstance(results, list) or not isinstance(tour, dict) or \
            len(results) > stage_count(tour):
        raise SaveFormatError("this saved stage race has malformed stage records")
    name = str(document.get("name", tour.get("name", "")))
    campaign = Campaign(name, dict(tour), dict(document["peloton"]), int(document["seed"]),
                        [], None, None)
    for index, result in enumerate(results):
        if not isinstance(result, dict):
            raise SaveFormatError("this saved stage race has malformed stage records")
        campaign.stages.append(campaign._found_again(index, result))
        campaign._results.append(dict(result))
    if not campaign.stages:
        campaign.stages = [campaign.start_stage(0)[1].record()]
    return campaign.stages


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
