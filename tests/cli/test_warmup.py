"""`raceday warm-up` and the "cold" detector, each run in a process of its own.

The warm cache is the checkout's own, as ``make test`` warms it (``raceday warm-up --all``,
about a second when warm; a module fixture runs it, so the tests hold after a plain
``pytest`` too). The cold side is an empty temporary numba cache (NUMBA_CACHE_DIR) in which
only KEIRIN's small engine is compiled: the detector, the command's report and the cache
files are the same for every engine, and the warm cache shows that every engine's kernels
were cached. No test asserts a duration: that the first real call after the warm-up
compiles nothing is read from numba's own dispatcher statistics (cache misses), and "cold"
from the cache's index files.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from raceday.terminal import warm
from raceday.terminal.warm import COLD_LINE, engines

pytestmark = pytest.mark.slow  # subprocesses, and a cold first move that compiles

NAMES = tuple(e.name for e in engines())  # every engine the games declare
RACEDAY = Path(sys.executable).with_name("raceday")
HANG_GUARD = 3600  # seconds: a cold warm-up on two busy cores takes minutes, never an hour


def run(argv: list[str], cache: Path | None, stdin: str = "", timeout: float = 600
        ) -> subprocess.CompletedProcess[str]:
    """``argv`` with numba's cache in ``cache`` (None: the checkout's own)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["COLUMNS"] = "200"
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env,
                          timeout=timeout)


def python(code: str, cache: Path | None) -> str:
    done = run([sys.executable, "-c", code], cache)
    assert done.returncode == 0, done.stderr
    return done.stdout


COLD = "import json; from raceday.terminal import warm; print(json.dumps(warm.cold_kernels()))"
INDEXES = """
import json, sys
from raceday.terminal import warm as warmup
print(json.dumps({label: d._cache._cache_file._index_path
                  for e in warmup.engines() if e.name in sys.argv[1:] or not sys.argv[1:]
                  for label, d in warmup.kernels(e).items()}))
"""


def indexes(cache: Path | None, *names: str) -> dict[str, str]:
    done = run([sys.executable, "-c", INDEXES, *names], cache)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def nearly_cold(cache: Path, engine: str, left_out: str) -> None:
    """Fill ``cache`` with the warm checkout's cached kernels of ``engine`` but
    ``left_out`` (an entry point: one the others do not call): the engine is cold, and
    warming it compiles that one kernel, not all of them."""
    warm_files, cold_files = indexes(None, engine), indexes(cache, engine)
    assert left_out in warm_files
    for label, index in warm_files.items():
        if label == left_out:
            continue
        source, target = Path(index), Path(cold_files[label])
        target.parent.mkdir(parents=True, exist_ok=True)
        for path in (source, *source.parent.glob(source.name.replace(".nbi", ".*.nbc"))):
            shutil.copyfile(path, target.parent / path.name)
    return left_out


@dataclass
class Cold:
    cache: Path
    cold_before: list[str]  # every engine's kernels, found cold in the empty cache
    output: str  # of `raceday warm-up --only keirin` there


@pytest.fixture(scope="module")
def warmed() -> None:
    """The checkout's own cache, warm (a no-op after ``make test``'s warm-up)."""
    done = run([str(RACEDAY), "warm-up", "--all", "--quiet"], None, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def cold(tmp_path_factory: pytest.TempPathFactory) -> Cold:
    cache = tmp_path_factory.mktemp("numba-keirin")
    everything = "cold_kernels(optional=True)"
    cold_before = json.loads(python(COLD.replace("cold_kernels()", everything), cache))
    done = run([str(RACEDAY), "warm-up", "--only", "keirin"], cache, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    return Cold(cache, cold_before, done.stdout)


@pytest.fixture
def cold_cache(tmp_path: Path) -> Iterator[Path]:
    cache = tmp_path / "numba-cold"
    cache.mkdir()
    yield cache


def test_the_detector_says_cold_before_and_warm_after(cold: Cold, warmed: None) -> None:
    assert sorted(cold.cold_before) == sorted(indexes(cold.cache))  # every kernel was cold
    both = COLD.replace("warm.cold_kernels()",
                        "[warm.cold_kernels(['keirin']), warm.cold_kernels()]")
    keirin, others = json.loads(python(both, cold.cache))  # one process asks both
    assert keirin == []  # the one warmed is warm now
    assert others  # and the others are still cold
    assert json.loads(python(COLD.replace("cold_kernels()", "cold_kernels(optional=True)"),
                             None)) == []  # every engine of the warmed checkout


def test_warm_up_reports_the_engine_and_leaves_cache_files_for_each_kernel(
        cold: Cold, warmed: None) -> None:
    assert "✓ keirin" in cold.output and "compiled in" in cold.output
    assert "The computer players and simulators are ready." in cold.output
    for label, index in indexes(cold.cache, "keirin").items():
        path = Path(index)
        assert cold.cache in path.parents  # in NUMBA_CACHE_DIR, not in the checkout
        assert list(path.parent.glob(path.name.replace(".nbi", ".*.nbc"))), label
    found = indexes(None)
    assert {label.rsplit(".", 1)[0] for label in found} >= {
        "raceday.games.hairpin.fast", "raceday.games.hairpin.search",
        "raceday.games.pistard.fast", "raceday.games.pistard.search",
        "raceday.games.pistard.sprint_solver", "raceday.games.wielersim.fast",
        "raceday.games.keirin.fast", "raceday.core.fastrng"}
    for label, index in found.items():
        path = Path(index)
        assert path.is_file(), f"no cache index for {label}"
        assert list(path.parent.glob(path.name.replace(".nbi", ".*.nbc"))), label


def test_a_second_warm_up_finds_everything_warm(warmed: None) -> None:
    done = run([str(RACEDAY), "warm-up", "--all"], None)
    assert done.returncode == 0, done.stderr
    for name in NAMES:
        assert f"✓ {name}" in done.stdout
    assert done.stdout.count("already warm") == len(NAMES)
    assert "compiled in" not in done.stdout
    quiet = run([str(RACEDAY), "warm-up", "--quiet"], None)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


def test_the_benchmarks_engine_is_warmed_only_when_asked(warmed: None) -> None:
    """No computer player calls the exact sprint solution: a plain warm-up leaves it to
    ``--all`` (make test) or its first use; every other engine is in the plain one."""
    optional = {e.name for e in engines() if e.optional}
    assert optional == {"pistard-sprint"}
    assert {e.name for e in warm.engines_named()} == set(NAMES) - optional
    assert {e.name for e in warm.engines_named(optional=True)} == set(NAMES)
    plain = run([str(RACEDAY), "warm-up"], None)
    assert "pistard-sprint" not in plain.stdout and "✓ pistard " in plain.stdout


class FakeProcess:
    """A warm-up worker that has finished at once, as :func:`warm.warm_in_parallel` reads it."""

    def __init__(self, name: str, log: list[tuple[str, str]]) -> None:
        self.name, self.log = name, log
        log.append(("start", name))

    def poll(self) -> int:
        self.log.append(("end", self.name))
        return 0

    def communicate(self) -> tuple[str, None]:
        return json.dumps({"compiled": True, "seconds": 0.0, "kernels": 1,
                           "missing": []}), None


def test_the_parallel_warm_up_waits_for_the_engines_an_engine_comes_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    log: list[tuple[str, str]] = []
    running: list[int] = []
    monkeypatch.setattr(warm, "_start_one",
                        lambda engine, nice: FakeProcess(engine.name, log))

    def engine(name: str, *after: str) -> warm.Engine:
        return warm.Engine(name, name, (), lambda: None, after=after)

    chosen = [engine("a"), engine("b", "a"), engine("c"), engine("d", "b")]
    results = warm.warm_in_parallel(
        chosen, 2, started=lambda e: running.append(sum(1 for k, _ in log if k == "start")
                                                    - sum(1 for k, _ in log if k == "end")))
    assert [r.engine.name for r in results] == ["a", "b", "c", "d"]  # chosen's order
    starts = [n for k, n in log if k == "start"]
    ends = [n for k, n in log if k == "end"]
    assert starts.index("b") > ends.index("a") and starts.index("d") > ends.index("b")
    assert starts[:2] == ["a", "c"]  # b waits for a, so c goes beside a
    assert max(running) <= 2


def test_the_parallel_warm_up_reports_a_failed_process(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(FakeProcess):
        def communicate(self) -> tuple[str, None]:
            return "Traceback ...", None

    monkeypatch.setattr(warm, "_start_one", lambda engine, nice: Broken(engine.name, []))
    [result] = warm.warm_in_parallel([warm.Engine("x", "x", (), lambda: None)], 2)
    assert result.missing == (warm.WORKER_FAILED,)


def test_the_first_real_calls_after_the_warm_up_compile_nothing(warmed: None) -> None:
    """The warm-up cached the signatures the games use: numba's statistics of every kernel
    show no cache miss (a compilation) after a real move, decision and prediction."""
    code = """
import json
import numpy as np
from raceday.terminal import warm as warmup
from raceday.core.play import play_game
from raceday.games.hairpin.agents import make_agent as hairpin_agent
from raceday.games.hairpin.game import GAME as HAIRPIN
from raceday.games.keirin.rules import KeirinOptions
from raceday.games.keirin.simulate import simulate
from raceday.games.pistard.agents import make_agent as pistard_agent
from raceday.games.pistard.game import GAME as PISTARD
from raceday.games.wielersim.predict import predict
from raceday.games.wielersim.rules import peloton_spec, route_spec

rng = np.random.default_rng(5)
state = HAIRPIN.new_state({})
for level in ("expert:0.05s", "hard", "easy"):
    state.apply_action(hairpin_agent(level).choose(state, rng))
race = PISTARD.new_state({"variant": "sprint"})
play_game(race, [pistard_agent("hard", 4), pistard_agent("expert", 4)], rng)
predict(route_spec("flanders"), peloton_spec("flanders"), 20, seed=1, workers=1)
simulate(KeirinOptions(), 100, rng)
misses = {label: sum(d.stats.cache_misses.values())
          for e in warmup.engines() for label, d in warmup.kernels(e).items()}
hits = sum(sum(d.stats.cache_hits.values())
           for e in warmup.engines() for d in warmup.kernels(e).values())
print(json.dumps({"misses": {k: v for k, v in misses.items() if v}, "hits": hits}))
"""
    got = json.loads(python(code, None))
    assert got["misses"] == {}
    assert got["hits"] > 0


def test_hairpin_play_says_it_is_preparing_only_when_cold(warmed: None, cold_cache: Path,
                                                          tmp_path: Path) -> None:
    argv = [str(RACEDAY), "hairpin", "play", "--black", "easy", "--seed", "1",
            "--delay", "0"]
    nearly_cold(cold_cache, "hairpin", "raceday.games.hairpin.fast.search_root")
    for cache, expected in ((cold_cache, True), (None, False)):
        db = tmp_path / f"games-{expected}.sqlite"
        done = run([*argv, "--db", str(db)], cache, stdin="1\n")
        assert done.returncode == 0, done.stderr
        assert "Black (easy) plays" in done.stdout  # the computer did move
        assert (COLD_LINE in done.stdout) is expected
        assert done.stdout.count(COLD_LINE) <= 1
        if expected:  # before the computer's first move, after the person's
            assert done.stdout.index("Red (human) plays") < done.stdout.index(COLD_LINE) \
                < done.stdout.index("Black (easy) plays")


def test_pistard_play_with_a_warm_cache_says_nothing_of_preparing(warmed: None,
                                                                  tmp_path: Path) -> None:
    done = run([str(RACEDAY), "pistard", "play", "--players", "hard,human", "--variant",
                "sprint", "--seed", "1", "--delay", "0", "--db",
                str(tmp_path / "races.sqlite")], None)
    assert done.returncode == 0, done.stderr
    assert "Input ended. Saved as" in done.stdout  # the computer placed its rider, then input ended
    assert COLD_LINE not in done.stdout


def test_the_background_warm_up_speaks_only_when_there_is_something_to_compile(
        warmed: None, cold_cache: Path) -> None:
    quiet = run([str(RACEDAY), "warm-up", "--background"], None)
    assert (quiet.returncode, quiet.stdout) == (0, "")
    keirin = run([str(RACEDAY), "warm-up", "--background", "--only", "keirin"], cold_cache)
    assert keirin.returncode == 0, keirin.stderr
    assert keirin.stdout.splitlines() == [COLD_LINE, "the computer players are ready"]
    assert json.loads(python(COLD.replace("cold_kernels()", "cold_kernels(['keirin'])"),
                             cold_cache)) == []


def test_serve_starts_the_warm_up_beside_it_when_cold(cold_cache: Path,
                                                      tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cold_cache), "COLUMNS": "200"}
    server = subprocess.Popen(
        [str(RACEDAY), "serve", "--port", str(port), "--db", str(tmp_path / "p.sqlite")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(server.stdout or []), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 300  # a hang guard, not a measurement
        while not any(COLD_LINE in line for line in lines) and time.monotonic() < deadline \
                and server.poll() is None:
            time.sleep(0.2)
        assert any(COLD_LINE in line for line in lines), lines
    finally:
        server.send_signal(signal.SIGINT)  # stops the server, which ends the warm-up
        server.wait(timeout=60)
    assert server.returncode == 0
    assert server.stderr is not None and "server stopped" in server.stderr.read()


def test_an_unknown_engine_is_refused_in_one_line(cold_cache: Path) -> None:
    done = run([str(RACEDAY), "warm-up", "--only", "derby"], cold_cache)
    assert done.returncode == 2
    assert "unknown engine 'derby'" in done.stderr
    assert done.stderr.strip().count("\n") == 0
    assert not any(cold_cache.iterdir())  # nothing was compiled


def test_the_server_loads_the_rooms_players_once_the_warm_up_has_ended(warmed: None) -> None:
    """preload_after waits for the background warm-up, then loads each engine in this
    process from the cache (signatures present, nothing compiled)."""
    code = """
import json, threading
from raceday.terminal import warm as warmup

class Process:  # the background warm-up, still running until ended
    def __init__(self): self.ended = threading.Event()
    def wait(self): self.ended.wait(600)

process = Process()
thread = warmup.preload_after(process, ["hairpin"])
thread.join(0.5)
waiting = thread.is_alive()
hairpin = warmup.engines_named(["hairpin"])[0]
loaded_before = sum(len(d.signatures) for d in warmup.kernels(hairpin).values())
process.ended.set()
thread.join(600)
print(json.dumps({
    "waiting": waiting, "loaded_before": loaded_before, "alive": thread.is_alive(),
    "loaded": sum(len(d.signatures) for d in warmup.kernels(hairpin).values()),
    "misses": sum(sum(d.stats.cache_misses.values())
                  for d in warmup.kernels(hairpin).values())}))
"""
    got = json.loads(python(code, None))
    assert got["waiting"] and got["loaded_before"] == 0
    assert not got["alive"] and got["loaded"] > 0 and got["misses"] == 0
