"""Compile ahead: every numba kernel of every game, into numba's on-disk cache.

The compiled engines (:mod:`raceday.games.hairpin.fast` and ``.search``, PISTARD's ``fast``,
``search`` and ``sprint_solver``, WielerSIM's ``fast``, KEIRIN's ``fast`` and the shared
:mod:`raceday.core.fastrng`) are numba functions with ``cache=True``: the first call in a
process either loads the machine code from the cache or compiles it, which on a fresh
install took 20-40 s before a computer player's first move. :func:`warm_engine` calls an
engine's real entry points on tiny inputs of the same types as the real calls (each
:class:`Engine`'s ``warm``), so the cache holds exactly the signatures the games ask for;
:func:`cold_kernels` says which kernels are not in the cache yet (the one test of "cold"
that ``raceday warm-up``, ``raceday serve`` and the play commands share).
:func:`start_background` runs the warm-up beside the server, :func:`preload` loads a
cached engine while a person thinks (:func:`preload_after`: in the server, once warm), and
:func:`announce_if_cold` prints :data:`COLD_LINE`.

Dice Derby has no compiled engine (its sampler is plain numpy): nothing to warm.

numba is imported only when a function here runs, never when this module is imported.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

COLD_LINE = "preparing the computer players (first use only)…"


@dataclass(frozen=True)
class Engine:
    """One game's compiled engine: the modules that hold its kernels and how to warm them."""

    name: str
    title: str
    modules: tuple[str, ...]
    warm: Callable[[], None]


# --- the warm-up calls: the real entry points on tiny inputs -------------------------------
def _warm_hairpin() -> None:
    from raceday.games.hairpin import agents, fast, search
    from raceday.games.hairpin.game import GAME

    rng = np.random.default_rng(0)
    state = GAME.new_state({"variant": "standard"})
    # the expert (search.search_root_frames and principal_variation), as ThinkingAgent
    agents.think(state, 0.01, table=search.Table())
    # hard and expert-old (fast.search_root), a few nodes
    agents.AlphaBetaAgent(node_budget=50).choose(state, rng)
    # easy and the MCTS agents (fast.playout, fast.guided_playout)
    agents.fast_rollout(state, rng)
    agents.guided_rollout(state, rng)
    # the research helpers (perft, many playouts, the move list the interop uses)
    fast.perft(state.position, state.rules, 1)
    fast.random_playouts(state.position, state.rules, rng, 1)
    fast.apply_fast(state.position, state.rules, fast.legal_moves_fast(state.position,
                                                                       state.rules)[0][0])
    fast.frame_moves_list(state.position, state.rules)
    st = fast.encode(state.position)
    rules = fast.encode_rules(state.rules)
    fast.winner(st, rules)
    fast.evaluate_fast(st, rules, 0)
    frames = fast.new_frames(2)
    fast.frame_load(st, rules, frames, 0)
    fast.frame_store(frames, 0, st.copy())
    search.evaluate_frame(frames, 0, search.WEIGHTS)


def _warm_pistard() -> None:
    from raceday.games.pistard import agents, fast, search
    from raceday.games.pistard.game import GAME

    rng = np.random.default_rng(0)
    state = GAME.new_state({"variant": "scratch"})
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng).outcome)
    # hard and expert (search.ranked, search.rollouts; expert on two threads), tuned
    agents.FastSearchRider("hard", rollouts=2, candidates=2, budget=0.01).choose(state, rng)
    agents.TunedRider().choose(state, rng)
    engine = fast.Engine.of(state)
    st = fast.encode(state)
    engine.step(st.copy(), engine.legal(st)[0])
    engine.random_races(st, rng, 1)
    search.greedy_match(st, engine.params, engine.grid, search.HARD_WEIGHTS,
                        search.MEDIUM_WEIGHTS, 1, 1)


def _warm_sprint_solver() -> None:
    from raceday.games.pistard import fast, search, sprint_solver
    from raceday.games.pistard.game import GAME

    state = GAME.new_state({"variant": "sprint", "tokens": 0})
    engine = fast.Engine.of(state)
    length = int(state.track.length)
    table = sprint_solver.table_for(engine.grid, length, 0)
    sprint_solver.response_table(engine.grid, length, 0, 1, search.MEDIUM_WEIGHTS)
    st = fast.encode(state)
    acts = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
    n = fast.legal_actions(st, engine.params, engine.grid, acts, info)
    sprint_solver.decision_values(table, st, engine.params, engine.grid, acts, n)


def _warm_wielersim() -> None:
    from raceday.games.wielersim import fast

    fast.warm_up()


def _warm_keirin() -> None:
    from raceday.games.keirin import fast
    from raceday.games.keirin.rules import KeirinOptions

    for _ in fast.iter_race_batches(KeirinOptions(), 1, np.random.default_rng(0)):
        pass


ENGINES: tuple[Engine, ...] = (
    Engine("hairpin", "Hairpin Racers: the computer players' search",
           ("raceday.games.hairpin.fast", "raceday.games.hairpin.search"),
           _warm_hairpin),
    Engine("pistard", "PISTARD: the hard and expert riders",
           ("raceday.games.pistard.fast", "raceday.games.pistard.search"),
           _warm_pistard),
    Engine("pistard-sprint", "PISTARD: the sprint's exact solution (benchmarks)",
           ("raceday.games.pistard.sprint_solver",), _warm_sprint_solver),
    Engine("wielersim", "WielerSIM: the compiled races of predict and simulate",
           ("raceday.games.wielersim.fast",), _warm_wielersim),
    Engine("keirin", "KEIRIN: the fast sampler of simulate",
           ("raceday.games.keirin.fast",), _warm_keirin),
)
NAMES = tuple(e.name for e in ENGINES)


def engines_named(names: Iterable[str] | None = None) -> list[Engine]:
    """The engines of ``names`` (all with None), in :data:`ENGINES`' order; ValueError
    names the first unknown one."""
    if names is None:
        return list(ENGINES)
    wanted = list(names)
    unknown = [n for n in wanted if n not in NAMES]
    if unknown:
        raise ValueError(f"unknown engine {unknown[0]!r}; choose from {', '.join(NAMES)}")
    return [e for e in ENGINES if e.name in wanted]


# --- which kernels are cached --------------------------------------------------------------
def kernels(engine: Engine) -> dict[str, Any]:
    """The engine's compiled functions that run on their own (``module.name`` → numba
    dispatcher), those its modules import from elsewhere (the random numbers of
    :mod:`raceday.core.fastrng`) included; functions inlined into others
    (``inline="always"``) are never compiled alone and have no cache of their own."""
    from numba.core.registry import CPUDispatcher

    found: dict[str, Any] = {}
    for name in engine.modules:
        module = importlib.import_module(name)
        if name == "raceday.games.wielersim.fast":
            module._kernel()  # wraps the functions with numba (compiles nothing)
        for obj in vars(module).values():
            if (isinstance(obj, CPUDispatcher)
                    and obj.targetoptions.get("inline", "never") != "always"):
                found[f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"] = obj
    return found


def cpu_codegen() -> Any:
    """numba's code generator for this CPU (its ``magic_tuple`` is part of a cache key)."""
    from numba.core.registry import cpu_target

    return cpu_target.target_context.codegen()


def is_cached(dispatcher: Any, codegen: Any = None) -> bool:
    """Whether numba's cache holds machine code of ``dispatcher`` that this process would
    load instead of compiling: a fresh index (same numba, same source file) with an entry
    for this CPU and this function's code, and that entry's data file."""
    try:
        cache = dispatcher._cache
        cache_file = cache._cache_file
        # numba's key: (signature, this CPU, hashes of the function's code)
        wanted = cache._index_key(None, codegen or cpu_codegen())[1:]
        return any(tuple(key[1:]) == wanted
                   and os.path.exists(cache_file._data_path(data_name))
                   for key, data_name in cache_file._load_index().items())
    except Exception:  # numba's private layout changed: judge by the file
        index = getattr(getattr(getattr(dispatcher, "_cache", None), "_cache_file", None),
                        "_index_path", None)
        return isinstance(index, str) and os.path.exists(index)


def cold_kernels(names: Iterable[str] | None = None) -> list[str]:
    """The kernels of the named engines (all with None) that numba's cache does not hold
    for this machine: empty when they are warm. This is the one test of "cold" (the
    warm-up command, the server and the play commands use it). It imports numba and the
    engines' modules and compiles nothing."""
    codegen = cpu_codegen()
    cold: list[str] = []
    for engine in engines_named(names):
        for label, dispatcher in kernels(engine).items():
            if label not in cold and not is_cached(dispatcher, codegen):
                cold.append(label)
    return cold


def is_cold(names: Iterable[str] | None = None) -> bool:
    """Whether a first call of the named engines would compile (see :func:`cold_kernels`)."""
    return bool(cold_kernels(names))


def announce_if_cold(engine: str, say: Callable[[str], object]) -> bool:
    """Before a computer player's first move in a game a person plays: ``say``
    :data:`COLD_LINE` if the engine's kernels are not cached (the move will wait for the
    compiler). Returns whether they were cold."""
    cold = is_cold([engine])
    if cold:
        say(COLD_LINE)
    return cold


def preload(engine: str) -> threading.Thread:
    """Load a warm engine's machine code in a background thread, while a person thinks
    about their first move (the prompt releases the GIL): numba's own start-up (about a
    second) and the loading are then done before the computer's first move. Does nothing
    when the engine is cold: the computer's first move compiles only what it needs."""
    def load() -> None:
        with contextlib.suppress(Exception):  # a failure here only loses the head start
            if not is_cold([engine]):
                engines_named([engine])[0].warm()

    thread = threading.Thread(target=load, name=f"raceday-preload-{engine}", daemon=True)
    thread.start()
    return thread


def preload_after(process: Any, names: Iterable[str]) -> threading.Thread:
    """In a server: once the background warm-up ``process`` (anything with ``wait()``, or
    None) has ended, load each named engine's machine code in this process, so the first
    computer move a room asks for does not also pay numba's start-up (about a second).
    Runs in a daemon thread; a cold engine is left to the move that needs it."""
    def run() -> None:
        if process is not None:
            with contextlib.suppress(Exception):
                process.wait()
        for name in names:
            preload(name).join()

    thread = threading.Thread(target=run, name="raceday-preload-server", daemon=True)
    thread.start()
    return thread


def start_background() -> subprocess.Popen[bytes] | None:
    """Start ``raceday warm-up --background`` beside a server: a process of its own (the
    compiler would hold the server's GIL for minutes), at low priority, in a session of its
    own (the terminal's Ctrl-C is the server's). It prints :data:`COLD_LINE` when something
    is cold and a line when it is done; the caller ends it with :func:`stop_background`
    (numba writes each cache file whole, by renaming, so stopping it halfway is safe).
    None if it cannot start."""
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "raceday", "warm-up", "--background"],
            stdin=subprocess.DEVNULL, start_new_session=os.name == "posix")
    except OSError:
        return None
    if hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, process.pid, 10)  # the server's players first
    return process


def stop_background(process: subprocess.Popen[bytes] | None) -> None:
    """End a background warm-up that is still running."""
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()


@dataclass(frozen=True)
class Result:
    """What warming one engine did."""

    engine: Engine
    compiled: bool  # False: it was warm already
    seconds: float
    kernels: int
    missing: tuple[str, ...]  # kernels still not cached afterwards (should be none)


def warm_engine(engine: Engine) -> Result:
    """Warm one engine unless its kernels are all cached already."""
    start = time.perf_counter()
    before = cold_kernels([engine.name])
    count = len(kernels(engine))
    if not before:
        return Result(engine, False, time.perf_counter() - start, count, ())
    engine.warm()
    after = cold_kernels([engine.name])
    return Result(engine, True, time.perf_counter() - start, count, tuple(after))
