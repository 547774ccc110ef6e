"""Fixtures and marks shared by every test directory.

``slow``: the browser tests and the modules below, the heaviest of the suite (measured
with ``pytest --durations``); ``make check`` runs the rest, for the edit-run loop, and
``make test`` runs everything.

``chromium``: Playwright against Debian's Chromium, one browser for a test process (each
test opens contexts of its own); Playwright's own browser download is not reachable. The
tests drive the build's headless shell (Debian's ``chromium-headless-shell``, the same
Chromium without a window's browser UI, which is what Playwright itself runs headless)
when it is installed: a new context there costs about a fifth of the CPU of one in the
full browser's headless mode (0.24 s against 1.25 s measured), and the browser tests
open hundreds. Without it they drive /usr/bin/chromium. Playwright's sync API keeps its
event loop marked running in the thread while it is open, and the Textual and asyncio
tests in the same process need ``asyncio.run``: the loop is marked running only while a
browser test is set up, runs and is torn down (the hooks below). With CI=true a missing
Chromium fails loudly; locally the browser tests skip only when neither is installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os

# One numba thread a test process: the workers already share the cores, and the sprint
# solver's prange otherwise spins a second thread between its many short parallel loops
# (16 % more CPU for the same tables, measured). Set before any test imports numba.
os.environ.setdefault("NUMBA_NUM_THREADS", "1")
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The cyclic garbage collector, tuned for a test process: pytest, Hypothesis, Textual,
# Playwright and the games leave a large heap of long-lived objects, and Python's default
# thresholds walked it again every few thousand allocations (a Textual and harness sample:
# 3,136 collections, 2.8 s of its 20.5 s of CPU, and 20.5 -> 15.8 s of CPU with these).
# Collections are rarer, and what exists once the suite is collected is never walked again
# (gc.freeze in pytest_collection_finish). Memory is not short: 24 GiB for three workers.
gc.set_threshold(50_000, 20, 100)

CHROMIUM = Path("/usr/bin/chromium")
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")


def browser_executable() -> Path:
    """The Chromium the browser tests launch: the headless shell when installed."""
    return HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _need_chromium() -> None:
    if browser_executable().exists():
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (make browser)")
    pytest.skip(f"{CHROMIUM} is missing")


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One Chromium for a test process, launched when its first browser test starts (each
    test opens its own contexts, closed when the test ends: see :func:`_close_contexts`).
    One a module cost a Playwright driver and a browser launched 33 times: 40 CPU-s of the
    browser tests' 436. Playwright's event loop counts as running only during the tests
    that use it (see :func:`pytest_runtest_setup`)."""
    _need_chromium()
    from playwright.sync_api import sync_playwright

    _poll_wait_for_function_every(WAIT_POLL_MS)
    with sync_playwright() as pw:
        _PLAYWRIGHT_LOOP.append(asyncio.get_running_loop())
        browser = pw.chromium.launch(executable_path=str(browser_executable()), args=ARGS)
        _still_by_default(browser)
        yield browser
        _playwright_loop(True)  # wherever the process's last teardown comes from
        browser.close()
    _PLAYWRIGHT_LOOP.clear()


def _still_by_default(browser: Any) -> None:
    """Open every context with reduced motion unless a test asks for motion
    (``reduced_motion="no-preference"``): pages that slide and fade for people are tested
    for what they show, and the tests of motion ask for it."""
    original = browser.new_context

    def new_context(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("reduced_motion", "reduce")
        return original(*args, **kwargs)

    browser.new_context = new_context


# How often a page's wait_for_function tries its condition while a test waits for it.
# Playwright's default tries it on every animation frame, which makes Chromium run 60
# frames a second on every page a test waits on (races at the server's pace take seconds).
WAIT_POLL_MS = 100


def _poll_wait_for_function_every(ms: int) -> None:
    """Make ``polling=ms`` the default of Page and Frame ``wait_for_function``."""
    from playwright.sync_api import Frame, Page

    for cls in (Page, Frame):
        original = cls.wait_for_function
        if getattr(original, "polls_every", None) == ms:
            continue

        def wait_for_function(self: Any, expression: str, *, arg: Any = None,
                              timeout: float | None = None, polling: float | str = ms,
                              _original: Any = original) -> Any:
            return _original(self, expression, arg=arg, timeout=timeout, polling=polling)

        wait_for_function.polls_every = ms  # type: ignore[attr-defined]
        cls.wait_for_function = wait_for_function  # type: ignore[method-assign]


# Playwright's sync API keeps its event loop "running" in the thread that started it (its
# dispatcher waits in a greenlet), so with one Chromium for the whole process every later
# ``asyncio.run`` of a test (Textual's pilot, the bench's clients) would be refused. The loop
# is marked running while a browser test is set up, runs and is torn down, and not between.
_PLAYWRIGHT_LOOP: list[asyncio.AbstractEventLoop] = []


def _playwright_loop(running: bool) -> None:
    if _PLAYWRIGHT_LOOP:
        asyncio.events._set_running_loop(_PLAYWRIGHT_LOOP[0] if running else None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    _playwright_loop("chromium" in getattr(item, "fixturenames", ()))
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    # the last test of the process also tears the browser down
    _playwright_loop("chromium" in getattr(item, "fixturenames", ()) or nextitem is None)
    yield
    _playwright_loop(False)


@pytest.fixture(autouse=True)
def _close_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test that used Chromium, close the contexts it opened: a page left open
    keeps its room's WebSocket and draws every frame of races that go on without it, on
    the cores the rest of the suite needs. Torn down after the test's own fixtures (a
    failing test's screenshots are taken first)."""
    yield
    if "chromium" in request.fixturenames:
        browser = request.getfixturevalue("chromium")
        for context in list(browser.contexts):
            with contextlib.suppress(Exception):  # a context the test closed itself
                context.close()


# The heaviest modules (paths under tests/): whole games in subprocesses and full-screen
# terminals, statistical matches, fuzzing, servers on loopback, the invariant harness.
SLOW_MODULES = frozenset((
    "cli/test_ascii_output.py",
    "cli/test_pty_reflexes.py",
    "cli/test_replay.py",
    "cli/test_startup_help.py",
    "cli/test_vocabulary.py",
    "cli/test_warmup.py",
    "core/test_runner_sizing.py",
    "games/derby/test_evening.py",
    "games/derby/test_odds.py",
    "games/derby/test_terminal_full.py",
    "games/derby/test_terminal_line.py",
    "games/hairpin/test_agents.py",
    "games/hairpin/test_cli.py",
    "games/hairpin/test_fast.py",
    "games/hairpin/test_properties.py",
    "games/hairpin/test_terminal_full.py",
    "games/hairpin/test_terminal_line.py",
    "games/hairpin/test_terminal_snapshots.py",
    "games/keirin/test_cli.py",
    "games/keirin/test_hardening.py",
    "games/keirin/test_night.py",
    "games/keirin/test_odds.py",
    "games/keirin/test_quick.py",
    "games/keirin/test_session.py",
    "games/keirin/test_terminal_line.py",
    "games/keirin/test_terminal_screen.py",
    "games/pistard/test_agents.py",
    "games/pistard/test_cli.py",
    "games/pistard/test_cli_hardening.py",
    "games/pistard/test_replay_terminal.py",
    "games/pistard/test_sprint_solver.py",
    "games/pistard/test_terminal_tui.py",
    "games/wielersim/test_cli.py",
    "games/wielersim/test_compiled.py",
    "games/wielersim/test_dask.py",
    "games/wielersim/test_fast_path.py",
    "games/wielersim/test_input_files.py",
    "games/wielersim/test_stage_races.py",
    "games/wielersim/test_terminal_line.py",
    "games/wielersim/test_terminal_tui.py",
    "interop/test_openspiel.py",
    "printing/test_fuzz.py",
    "terminal/test_tui.py",
    "terminal/test_whole_text.py",
    "test_bench_party.py",
    "test_cli_fuzz.py",
    "test_invariants.py",
    "test_sixth_game.py",
    "web/test_delta.py",
    "web/test_durability.py",
    "web/test_heavy.py",
    "web/test_open_files.py",
    "web/test_replay_frames.py",
    "web/test_scale_out.py",
    "web/test_schemathesis.py",
    "web/test_snapshots.py",
    "web/test_unwritable_db.py",
))


# Seconds each module took in a whole run (tools/suite_durations.py writes it).
DURATIONS = Path(__file__).with_name("durations.json")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Leave everything loaded so far (the modules, the collected tests) out of every later
    garbage collection."""
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the browser tests and :data:`SLOW_MODULES`'s ``slow`` (``make check`` leaves
    them out), and order the suite so that its workers finish together."""
    root = Path(__file__).parent
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        module = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) \
            else ""
        modules.setdefault(module, []).append(item)
        if module.startswith("browser/") or module in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
    seconds: dict[str, float] = {}
    if DURATIONS.exists():
        seconds = json.loads(DURATIONS.read_text(encoding="utf-8"))
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    items[:] = [item for part in balanced_parts(modules, seconds, workers) for item in part]


def balanced_parts(modules: dict[str, list[pytest.Item]], seconds: dict[str, float],
                   workers: int) -> list[list[pytest.Item]]:
    """The suite cut into one part per worker, each part's modules longest first.

    pytest-xdist's worksteal hands each worker an equal count of tests from the front of
    the order, and an idle worker later takes half of a busy one's queue from its end. So
    each part gets exactly that count, the modules go to the part with the fewest seconds
    so far (the longest first; a module's tests stay together, but for one that no longer
    fits its part's count), and within a part the longest start first: the run ends on
    short tests, not with one core idle beside a long module. ``seconds`` comes from
    tests/durations.json (tools/suite_durations.py); a module it does not know counts as
    short, and a stale file costs time, never a result.
    """
    order = sorted(modules, key=lambda m: -seconds.get(m, 0.0))
    left = sum(len(tests) for tests in modules.values())
    room = []
    for part in range(workers):
        room.append(left // (workers - part))
        left -= room[-1]
    parts: list[list[tuple[str, list[pytest.Item]]]] = [[] for _ in range(workers)]
    spent = [0.0] * workers
    for module in order:
        tests = modules[module]
        per_test = seconds.get(module, 0.0) / len(tests)
        while tests:
            open_parts = [p for p in range(workers) if room[p]]
            part = min(open_parts, key=lambda p: (spent[p], -room[p]))
            taken, tests = tests[:room[part]], tests[room[part]:]
            parts[part].append((module, taken))
            room[part] -= len(taken)
            spent[part] += per_test * len(taken)
    return [[item for module, tests in sorted(part, key=lambda mt: -seconds.get(mt[0], 0.0))
             for item in tests] for part in parts]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The sixth game (Twin Dice Dash) installed once per test process and importable for a
    module's tests, forgotten after (a module that wants it installed only defines its own)."""
    from tests.sixth_game_install import installed, on_path

    folder = installed(tmp_path_factory)
    with on_path(folder):
        yield folder
