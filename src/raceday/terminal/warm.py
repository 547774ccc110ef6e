"""Compile ahead: every numba kernel of every game, into numba's on-disk cache.

A game with compiled code declares its engines in its ``warm`` face (``ENGINES``, a
tuple of :class:`Engine`; e.g. Hairpin's ``fast`` and ``search``, with the shared
:mod:`raceday.core.fastrng` they import). They are numba functions with
``cache=True``: the first call in a process either loads the machine code from the cache
or compiles it, which on a fresh install took 20-40 s before a computer player's first
move. :func:`warm_engine` calls an engine's real entry points on tiny inputs of the same
types as the real calls (each :class:`Engine`'s ``warm``), so the cache holds exactly the
signatures the games ask for; :func:`cold_kernels` says which kernels are not in the cache
yet (the one test of "cold" that ``raceday warm-up``, ``raceday serve`` and the play
commands share). :func:`start_background` runs the warm-up beside the server,
:func:`preload` loads a cached engine while a person thinks (:func:`preload_after`: in the
server, once warm), and :func:`announce_if_cold` prints :data:`COLD_LINE`.

A game without compiled code (Dice Derby's sampler is plain numpy) declares nothing.

numba is imported only when a function here runs, never when this module is imported.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

COLD_LINE = "preparing the computer players (first use only)…"
WORKER_FAILED = "the warm-up process failed"  # the one "missing kernel" of a crashed worker


@dataclass(frozen=True)
class Engine:
    """One game's compiled engine: the modules that hold its kernels and how to warm them."""

    name: str
    title: str
    modules: tuple[str, ...]
    warm: Callable[[], None]
    wrap: Callable[[], object] | None = None  # wraps a module's functions with numba lazily
    room_players: bool = False  # the computers of the game's browser room: a server loads it
    # compiled only by ``raceday warm-up --all`` (or on first use): an engine no computer
    # player or simulator calls, such as one only the benchmarks use
    optional: bool = False
    # engines whose kernels this one calls: warmed first, so that two processes of a
    # parallel warm-up do not compile the same kernels
    after: tuple[str, ...] = ()


# --- the engines, declared by the games -----------------------------------------------------
def engines() -> tuple[Engine, ...]:
    """Every game's compiled engines: the ``ENGINES`` of each game package's ``warm`` face
    (found by :mod:`raceday.core.discovery`; a game without compiled code has none), in
    the games' order."""
    from raceday.core.discovery import face, games_with

    found: list[Engine] = []
    for game in games_with("warm"):
        module = face(game, "warm")
        if module is not None:
            found += module.ENGINES
    return tuple(found)


def room_engines() -> list[str]:
    """The engines of the rooms' computer players, which a server loads once they are warm
    (see :func:`preload_after`)."""
    return [e.name for e in engines() if e.room_players]


def engines_named(names: Iterable[str] | None = None, *, optional: bool = False
                  ) -> list[Engine]:
    """The engines of ``names`` in :func:`engines`' order; with None every engine that a
    computer player or simulator uses (and the optional ones too with ``optional``).
    ValueError names the first unknown one."""
    every = engines()
    if names is None:
        return [e for e in every if optional or not e.optional]
    known = tuple(e.name for e in every)
    wanted = list(names)
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise ValueError(f"unknown engine {unknown[0]!r}; choose from {', '.join(known)}")
    return [e for e in every if e.name in wanted]


# --- which kernels are cached --------------------------------------------------------------
def kernels(engine: Engine) -> dict[str, Any]:
    """The engine's compiled functions that run on their own (``module.name`` → numba
    dispatcher), those its modules import from elsewhere (the random numbers of
    :mod:`raceday.core.fastrng`) included; functions inlined into others
    (``inline="always"``) are never compiled alone and have no cache of their own."""
    from numba.core.registry import CPUDispatcher

    found: dict[str, Any] = {}
    if engine.wrap is not None:
        engine.wrap()  # wraps the functions with numba (compiles nothing)
    for name in engine.modules:
        module = importlib.import_module(name)
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


def cold_kernels(names: Iterable[str] | None = None, *, optional: bool = False) -> list[str]:
    """The kernels of the named engines (with None those of :func:`engines_named`) that
    numba's cache does not hold for this machine: empty when they are warm. This is the one
    test of "cold" (the warm-up command, the server and the play commands use it). It
    imports numba and the engines' modules and compiles nothing."""
    codegen = cpu_codegen()
    cold: list[str] = []
    for engine in engines_named(names, optional=optional):
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


def stop_background(process: subprocess.Popen[Any] | None) -> None:
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


def _result_of(engine: Engine, found: dict[str, Any]) -> Result:
    return Result(engine, bool(found["compiled"]), float(found["seconds"]),
                  int(found["kernels"]), tuple(found["missing"]))


def warm_in_parallel(chosen: list[Engine], jobs: int, *, nice: int = 0,
                     started: Callable[[Engine], object] | None = None,
                     finished: Callable[[Result], object] | None = None) -> list[Result]:
    """Warm ``chosen`` engines, up to ``jobs`` at a time, each in a process of its own
    (numba compiles under one lock per process: threads would not share the cores). An
    engine waits for the engines it comes ``after`` that are also being warmed. ``nice``
    lowers the processes' priority (a warm-up beside something a person watches).
    ``started`` and ``finished`` are told of each engine. A process that fails gives a
    result with every kernel missing. Returns the results in ``chosen``'s order."""
    names = {e.name for e in chosen}
    waiting = list(chosen)
    running: dict[str, tuple[Engine, subprocess.Popen[str]]] = {}
    done: dict[str, Result] = {}
    jobs = max(1, jobs)
    try:
        while waiting or running:
            for engine in list(waiting):
                if len(running) >= jobs:
                    break
                if any(dep in names and dep not in done for dep in engine.after):
                    continue
                waiting.remove(engine)
                running[engine.name] = (engine, _start_one(engine, nice))
                if started is not None:
                    started(engine)
            for name, (engine, process) in list(running.items()):
                if process.poll() is None:
                    continue
                del running[name]
                out, _ = process.communicate()
                try:
                    result = _result_of(engine, json.loads(out.strip().splitlines()[-1]))
                except (ValueError, IndexError, KeyError):
                    result = Result(engine, True, 0.0, 0, (WORKER_FAILED,))
                done[name] = result
                if finished is not None:
                    finished(result)
            if running:
                time.sleep(0.05)
    finally:
        for _, process in running.values():
            stop_background(process)
    return [done[e.name] for e in chosen]


def _start_one(engine: Engine, nice: int) -> subprocess.Popen[str]:
    process = subprocess.Popen([sys.executable, "-m", "raceday.terminal.warm", engine.name],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    if nice and hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, process.pid, nice)
    return process


def _main(argv: list[str]) -> int:
    """``python -m raceday.terminal.warm ENGINE``: warm one engine here and print what it
    did as one JSON line (the worker of :func:`warm_in_parallel`)."""
    result = warm_engine(engines_named(argv[:1])[0])
    print(json.dumps({"compiled": result.compiled, "seconds": result.seconds,
                      "kernels": result.kernels, "missing": list(result.missing)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
