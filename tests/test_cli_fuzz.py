"""Every command, fed odd options, odd files and odd typed input, fails cleanly.

For each command of every game (found by walking the CLI, so a new command is fuzzed
without editing this file) hypothesis draws option values (negative, zero, huge, NaN,
infinity, unicode digits, random text), files (random bytes, empty, huge, deeply nested,
a directory, a missing path), database paths (good, foreign, corrupt, a directory, under a
regular file) and lines of interactive input. Each run must end with exit code 0 or 2,
print no traceback, finish within a time bound, and leave every session saved before it
unchanged unless the command says that it saved.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import sqlite3
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raceday.cli.main import app, run
from raceday.present.messages import LANGUAGES, render
from raceday.store.sessions import SessionStore
from tests.cli_tree import leaf_commands, time_limit

SECONDS_PER_RUN = 60  # a generous bound: every fuzzed run is small (counts are tiny)


# The whole CLI, built once for the module (every fuzzed run reuses it: Typer building it
# again for each was most of this module's time); the walk has loaded every game's commands.
ROOT = typer.main.get_command(app)
COMMANDS = dict((" ".join(path), cmd) for path, cmd in leaf_commands(ROOT))

# Commands whose smallest run still starts worker processes or plays whole games.
HEAVY = {"wielersim predict", "wielersim predict-tour", "wielersim tour", "pistard simulate",
         "hairpin match", "derby play", "pistard play", "pistard watch", "arena"}

# Options that count work to do: always given, small or invalid, so a run stays short.
COUNT_OPTIONS = {"-n", "--races", "--games", "--depth", "--computers",
                 "--laps", "--opening-plies", "--think"}

# Valid-looking values worth mixing in for options that name things.
KNOWN_VALUES: dict[str, list[str]] = {
    "route": ["flanders", "flat-stage"],
    "peloton": ["small"],
    "tour_file": ["ronde-van-belgie"],
    "--variant": ["standard", "scratch", "points", "elimination", "sprint", "ttt", "pursuit"],
    "--players": ["easy,medium", "human,easy", "Ann,Bob", "easy"],
    "--red": ["human", "greedy", "easy", "expert"],
    "--black": ["human", "easy", "hard"],
    "--track": ["default", "short"],
    "track": ["default", "short"],
    "--engine": ["fast", "reference"],
    "--bet": ["win", "quinella", "trio"],
    "--bankroll": ["10000", "0", "-5", "1e9"],
    "--margin": ["0.1", "0", "-1", "nan"],
    "--fall-rate": ["0", "0.5", "1", "2", "nan"],
}

INTS = st.one_of(
    st.sampled_from(["-1", "0", "1", "2", "3", "-999999", str(10**12), str(2**64), "nan",
                     "١٢", "³", "1_000", "1e3", "", " 7", "0x10"]),
    st.integers(-3, 12).map(str),
)
FLOATS = st.sampled_from(["nan", "inf", "-inf", "-1", "0", "0.01", "1e308", "1e-300", "٣",
                          "", "abc", "0.5"])
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
               max_size=24)
INPUT_LINE = st.one_of(
    st.sampled_from(["", "y", "n", "yes", "no", "maybe", "q", "quit", "u", "undo", "1", "2",
                     "3", "0", "-1", "٣", "³", "1_000", "99999999", "win 1 100",
                     "win ³ 5", "quinella 1 2 500", "done", "help", "all", "?"]),
    st.text(st.characters(blacklist_categories=("Cs", "Zl", "Zp", "Cc")), max_size=20),
)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Odd files, made once: random bytes, empty, huge, deeply nested, a folder, missing."""
    root = tmp_path_factory.mktemp("fuzz-files")
    made = {
        "random.toml": bytes((i * 7919 + 13) % 256 for i in range(4096)),
        "empty.csv": b"",
        "huge.csv": b"name,team,type\n" + b"x,y,z\n" * 400_000,
        "deep.toml": b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n",
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "latin1.csv": "número,équipe\n".encode("latin-1"),
    }
    paths = {}
    for name, data in made.items():
        paths[name] = root / name
        paths[name].write_bytes(data)
    paths["folder"] = root / "a-folder"
    paths["folder"].mkdir()
    paths["missing"] = root / "missing" / "nothing.toml"
    return paths


@pytest.fixture(scope="module")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding a session under every default session name a command uses."""
    path = tmp_path_factory.mktemp("fuzz-db") / "template.sqlite"
    store = SessionStore(path)
    names = {"pistard", "hairpin", "night", "party", "tour", "campaign"}
    for cmd in COMMANDS.values():
        for param in cmd.params:
            if param.name in {"save", "session", "name", "resume"} and isinstance(
                param.default, str
            ):
                names.add(param.default)
    for game in ("keirin", "derby", "hairpin", "pistard", "wielersim"):
        for name in sorted(names):
            store.save(game, name, {"kept": f"{game}/{name}", "version": 1})
    return path


def _snapshot(path: Path) -> dict[tuple[str, str], tuple[str, int]]:
    if not path.is_file():
        return {}
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT game, name, document, revision FROM sessions").fetchall()
    except sqlite3.Error:
        return {}
    finally:
        conn.close()
    return {(g, n): (d, r) for g, n, d, r in rows}


def _value_strategies(param: Any, files: dict[str, Path], db_choices: list[str]
                      ) -> tuple[Any, Any]:
    """Two strategies for one parameter: values likely valid, and odd values."""
    name = param.opts[0] if param.opts else param.name
    if name == "--db":
        return st.sampled_from(db_choices[:2]), st.sampled_from(db_choices)
    annotation = param.type_descriptor.annotation
    known = KNOWN_VALUES.get(name, KNOWN_VALUES.get(param.name or "", []))
    default = param.default if not callable(param.default) else None
    if annotation is int:
        if name in COUNT_OPTIONS:
            return st.sampled_from(["1", "2", "3"]), INTS
        likely = [str(default)] if isinstance(default, int) else ["1", "3", "7"]
        return st.sampled_from(likely), INTS
    if annotation is float:
        return st.sampled_from(["0", "0.1"]), FLOATS
    likely_values = [*known, *([default] if isinstance(default, str) else [])]
    odd = st.one_of(st.sampled_from([str(p) for p in files.values()]), TEXT)
    return (st.sampled_from(likely_values) if likely_values else odd), odd


# How often an option is left out, given a likely value, or given an odd one.
CHOICES = ("omit", "omit", "likely", "likely", "likely", "odd")


def _argv_strategy(command: str, cmd: Any, files: dict[str, Path], db_choices: list[str]
                   ) -> Any:
    parts: list[Any] = [st.just(command.split())]
    for param in cmd.params:
        opt = param.opts[0]
        if getattr(param, "is_flag", None):
            parts.append(st.sampled_from([[], [opt]]))
            continue
        likely, odd = _value_strategies(param, files, db_choices)
        if param.param_type_name == "argument":
            parts.append(st.one_of(likely, likely, odd).map(lambda v: [v]))
            continue
        omit_allowed = opt not in COUNT_OPTIONS

        def pick(choice: str, o: str = opt, lk: Any = likely, od: Any = odd,
                 may_omit: bool = omit_allowed) -> Any:
            if choice == "omit" and may_omit:
                return st.just([])
            source = od if choice == "odd" else lk
            return source.map(lambda v: [o, v])

        parts.append(st.sampled_from(CHOICES).flatmap(pick))
    return st.tuples(*parts).map(lambda groups: [a for g in groups for a in g])


def _run_once(argv: list[str], typed: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(typed)
    try:
        with redirect_stdout(out), redirect_stderr(err), time_limit(SECONDS_PER_RUN):
            code = run(argv, ROOT)
    finally:
        sys.stdin = stdin
    return code, out.getvalue() + err.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_command_survives_odd_input(
    command: str,
    files: dict[str, Path],
    template_db: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cmd = COMMANDS[command]
    data_home = tmp_path / "data-home"
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    monkeypatch.chdir(tmp_path)
    if command == "serve":  # check the options and start-up; no serving, no uvicorn
        import uvicorn  # config either (its logging set-up keeps the streams it was given)

        def started(server: uvicorn.Server) -> None:
            server.started = True

        monkeypatch.setattr("raceday.web.server.uvicorn_config", lambda *a, **k: None)
        monkeypatch.setattr(uvicorn.Server, "__init__", lambda server, config: None)
        monkeypatch.setattr(uvicorn.Server, "run", started)
    if command == "warm-up":  # check the options; compile nothing (the cache may be cold)
        monkeypatch.setattr("raceday.terminal.warm.cold_kernels", lambda names=None: [])
    good_db = tmp_path / "good.sqlite"
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS notes (text TEXT)")
    conn.close()
    db_choices = [str(good_db), str(good_db), str(files["folder"]), str(foreign),
                  str(files["random.toml"]) + "/db.sqlite", str(files["random.toml"])]
    default_db = data_home / "raceday" / "raceday.sqlite"
    examples = 6 if command in HEAVY else 20

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(argv=_argv_strategy(command, cmd, files, db_choices),
           lines=st.lists(INPUT_LINE, max_size=12))
    def check(argv: list[str], lines: list[str]) -> None:
        for path in (good_db, default_db):
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(template_db, path)
        before = {p: _snapshot(p) for p in (good_db, default_db, foreign)}
        foreign_bytes = foreign.read_bytes()
        try:
            code, output = _run_once(argv, "\n".join(lines) + ("\n" if lines else ""))
        except BaseException as exc:  # anything escaping run() is a bug
            pytest.fail(f"raceday {json.dumps(argv)} with input {lines!r} raised "
                        f"{type(exc).__name__}: {exc}")
        if __import__("os").environ.get("FUZZ_DEBUG"):
            print(code, argv, output[-150:].replace("\n", " | "), file=sys.__stdout__)
        shown = f"raceday {json.dumps(argv, ensure_ascii=False)} input={lines!r}\n{output}"
        assert code in (0, 2), f"exit code {code}: {shown}"
        assert "Traceback" not in output, shown
        assert foreign.read_bytes() == foreign_bytes, f"foreign database changed: {shown}"
        said_saved = "sav" in output.lower()
        for path, rows in before.items():
            after = _snapshot(path)
            for key, value in rows.items():
                if after.get(key) != value:
                    assert said_saved, f"session {key} in {path.name} changed silently: {shown}"

    check()


# --- the options made from a game's options model ---------------------------------------------
# Every command whose options come from a game's model (raceday.terminal.options) is fed
# random values for those options: each run either reaches the model, which accepts the
# values, or ends with exit code 2 and one line: the model's own refusal (the OptionsError
# that GivenOptions.parse raised, word for word), or, for text that is not a number at all,
# the command line's one-line type refusal. Never a traceback. The command stops as soon as
# the model has accepted, so nothing is played or saved.
MODEL_COMMANDS = {path: cmd for path, cmd in COMMANDS.items()
                  if getattr(cmd.callback, "options_model", None) is not None and not cmd.hidden}
# A valid value for the other required parameters of these commands.
REQUIRED_VALUES = {"--depth": "1", "-d": "1", "route": "flanders", "peloton": "small"}


class _Accepted(BaseException):
    """The model accepted the options (raised to stop the command there)."""


def _model_value_strategy(spec: Any, model: Any) -> Any:
    """Values for one option of the model: in and around its range, its choices, odd text."""
    from raceday.core.game import field_range

    if spec.cli_type is bool:
        on, _, off = spec.flags[0].partition("/")
        return st.sampled_from([[], [on], *([[off]] if off else [])])
    if spec.argument:
        values: Any = st.one_of(st.sampled_from(REQUIRED_VALUES.get(spec.field, "x").split()),
                                TEXT.filter(lambda t: t.strip() and not t.startswith("-")))
        return values.map(lambda v: [v])
    if spec.cli_type is int:
        low, high = field_range(model, spec.field)
        edges = [str(v) for b in (low, high) if b is not None for v in (b - 1, b, b + 1)]
        values = st.one_of(INTS, st.sampled_from(edges or ["0"]))
    elif spec.cli_type is float:
        values = FLOATS
    else:
        choices = spec.metavar.split("|") if spec.metavar and "|" in spec.metavar else []
        known = KNOWN_VALUES.get(spec.name, [])
        values = st.one_of(st.sampled_from([*choices, *known, str(spec.default)]), TEXT)
    return st.one_of(st.just([]), values.map(lambda v: [spec.name, v]))


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(MODEL_COMMANDS))
def test_model_options_are_refused_by_the_model_in_one_line(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from raceday.core.errors import OptionsError
    from raceday.terminal.options import GivenOptions, option_specs

    cmd = MODEL_COMMANDS[command]
    model = cmd.callback.options_model
    specs = option_specs(model)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))
    monkeypatch.chdir(tmp_path)
    refusals: list[str] = []
    parse = GivenOptions.parse

    def stop_at_the_model(self: Any, **supplied: Any) -> Any:
        try:
            options = parse(self, **supplied)
        except OptionsError as exc:
            refusals.append(str(exc))
            raise
        raise _Accepted(options)

    monkeypatch.setattr(GivenOptions, "parse", stop_at_the_model)
    fields = {spec.field for spec in specs}
    others = [p for p in cmd.params if p.name not in fields and p.required]
    fixed = [[v] if p.param_type_name == "argument" else [p.opts[0], v]
             for p in others for v in [REQUIRED_VALUES.get(p.opts[0] if p.opts else p.name,
                                                           REQUIRED_VALUES.get(p.name, "1"))]]

    @settings(max_examples=30, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(parts=st.tuples(*[_model_value_strategy(spec, model) for spec in specs]))
    def check(parts: tuple[list[str], ...]) -> None:
        argv = [*command.split(), *[a for group in parts for a in group],
                *[a for group in fixed for a in group]]
        refusals.clear()
        try:
            code, output = _run_once(argv, "")
        except _Accepted as accepted:
            assert isinstance(accepted.args[0], model)
            return
        shown = f"raceday {json.dumps(argv, ensure_ascii=False)}\n{output}"
        assert code == 2, shown
        assert "Traceback" not in output, shown
        lines = output.strip().splitlines()
        assert len(lines) == 1, shown
        if refusals:  # the model refused: its own line, word for word
            assert lines[0] == f"error: {refusals[-1]}", shown
        else:  # text the command line cannot read as the option's type at all: said in
            # plain words naming the option (#43), or the option's own check
            assert re.match(r"error: (Invalid value for |--[\w-]+: must be )", lines[0]), \
                shown

    check()


# --- the one vocabulary (#33) ------------------------------------------------------------------
# Every command is fed the shared options (--players/-p, --save, --resume, --list, --db,
# --seed/-s, --delay, --json, --lang, --plain, -n and the counts) under their names, with
# good and bad values (a bare --resume among the bad), plus now and then an option the
# command does not have. Each run must end with
# exit code 0 or 2 (never 1 from a crash), print no traceback, name what it refused on
# stderr (an 'error:' line naming an option or value of the command line), and leave every
# database as it was (a good one: still whole, its sessions changed only when the command
# said it saved; a foreign or corrupt one: byte for byte). Fixed seed, a few examples per
# command: the whole set stays within about a minute.

VOCAB_EXAMPLES = 4

# (good values, bad values) of the vocabulary's options, by their new names
VOCAB_VALUES: dict[str, tuple[list[str], list[str]]] = {
    "--players": (["Ann", "Ann,Bob", "random,random", "easy,random"],
                  ["", ",", "x" * 30, "Ann\tBob", "-p"]),
    "--save": (["g1", "night-2", "名前"], ["", "-x", "y" * 70, " ", "a\nb"]),
    "--resume": (["g1", "hairpin", "pistard", "tour"], ["nosuch", "--db", "", "-1"]),
    "--lang": (["en", "ja"], ["fr", "", "EN"]),
    "--seed": (["1", "2012"], ["-1", "nan", "١٢", str(2**64), "", "x"]),
    "--delay": (["0", "0.5"], ["nan", "inf", "-1", "61", "", "abc"]),
    "--port": (["8000", "8123"], ["0", "70000", "x", "-1"]),
    "--db": (["good", "good", "fresh"], ["folder", "under-file", "foreign", "corrupt"]),
}
VOCAB_COUNTS = {"-n", "--races", "--games", "--playouts"}  # always given
COUNT_VALUES = (["1", "2"], ["0", "-1", "x", "1e3", "١", "", str(2**64)])
VOCAB_FLAGS = {"--list", "--json", "--plain"}
VOCAB_INPUT = st.sampled_from([[], ["quit"], ["help", "quit"], ["?", "undo", "quit"],
                               ["1", "win 1 100", "done"], ["y", "q"]])
FOREIGN = [["--players", "Ann"], ["--save", "g1"], ["--resume", "g1"], ["--list"],
           ["--json"], ["--lang", "ja"], ["--plain"], ["-n", "2"], ["--seed", "1"]]


def _vocab_parts(command: str, cmd: Any, db_paths: dict[str, str]) -> Any:
    """The argv strategy of ``command``: its required arguments (likely values), then the
    vocabulary options it takes, each left out or given a good or a bad value (a count is
    always given), and sometimes a foreign option."""
    parts: list[Any] = [st.just(command.split())]
    for param in cmd.params:
        if param.param_type_name == "argument":
            known = KNOWN_VALUES.get(param.name or "", [])
            parts.append(st.sampled_from(known or ["x"]).map(lambda v: [v]))
    for param in cmd.params:
        if param.param_type_name != "option" or param.hidden:
            continue
        names = list(param.opts)
        key = next((n for n in param.opts if n in VOCAB_VALUES or n in VOCAB_FLAGS), None)
        counted = any(n in VOCAB_COUNTS for n in param.opts)
        if key is None and not counted:
            continue
        spelled = st.sampled_from(names)
        if key in VOCAB_FLAGS:
            parts.append(st.one_of(st.just([]), spelled.map(lambda n: [n])))
            continue
        good, bad = COUNT_VALUES if counted else VOCAB_VALUES[key or ""]
        if key == "--db":
            good, bad = [db_paths[k] for k in good], [db_paths[k] for k in bad]
        kinds = ["good", "good", "bad"] if counted else ["omit", "omit", "good", "good", "bad"]

        def pick(kind: str, spelled: Any = spelled, good: list[str] = good,
                 bad: list[str] = bad, key: str | None = key) -> Any:
            if kind == "omit":
                return st.just([])
            given = st.tuples(spelled, st.sampled_from(good if kind == "good" else bad))
            if key == "--resume" and kind == "bad":  # a bare --resume
                return st.one_of(given.map(list), st.just(["--resume"]))
            return given.map(list)

        parts.append(st.sampled_from(kinds).flatmap(pick))
    parts.append(st.sampled_from([*[[]] * (3 * len(FOREIGN)), *FOREIGN]))  # 1 in 4
    return st.tuples(*parts).map(lambda groups: [a for g in groups for a in g])


def _whole(path: Path) -> bool:
    """Whether ``path`` is an SQLite database that passes its integrity check."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            conn.close()
    except sqlite3.Error:
        return False


VOCAB_COMMANDS = sorted(path for path, cmd in COMMANDS.items() if not cmd.hidden)


@pytest.mark.parametrize("command", VOCAB_COMMANDS)
def test_the_vocabulary_is_refused_or_taken_cleanly(
    command: str, files: dict[str, Path], template_db: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cmd = COMMANDS[command]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("RACEDAY_PLAIN", "1")
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    monkeypatch.chdir(tmp_path)
    if command == "serve":  # options and start-up only: no serving
        import uvicorn

        def started(server: uvicorn.Server) -> None:
            server.started = True

        monkeypatch.setattr("raceday.web.server.uvicorn_config", lambda *a, **k: None)
        monkeypatch.setattr(uvicorn.Server, "__init__", lambda server, config: None)
        monkeypatch.setattr(uvicorn.Server, "run", started)
    if command == "warm-up":
        monkeypatch.setattr("raceday.terminal.warm.cold_kernels", lambda names=None: [])
    good = tmp_path / "good.sqlite"
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS notes (text TEXT)")
    conn.close()
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(files["random.toml"].read_bytes())
    fresh = tmp_path / "fresh" / "new.sqlite"
    db_paths = {"good": str(good), "fresh": str(fresh), "folder": str(files["folder"]),
                "under-file": str(files["random.toml"]) + "/db.sqlite",
                "foreign": str(foreign), "corrupt": str(corrupt)}
    untouched = {p: p.read_bytes() for p in (foreign, corrupt)}

    @settings(max_examples=VOCAB_EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(argv=_vocab_parts(command, cmd, db_paths), lines=VOCAB_INPUT)
    def check(argv: list[str], lines: list[str]) -> None:
        shutil.copyfile(template_db, good)
        shutil.rmtree(fresh.parent, ignore_errors=True)
        fresh.parent.mkdir()
        before = _snapshot(good)
        out, err = io.StringIO(), io.StringIO()
        stdin = sys.stdin
        sys.stdin = io.StringIO("".join(f"{line}\n" for line in lines))
        try:
            with redirect_stdout(out), redirect_stderr(err), time_limit(SECONDS_PER_RUN):
                code = run(argv, ROOT)
        except BaseException as exc:  # anything escaping run() is a bug
            pytest.fail(f"raceday {json.dumps(argv)} raised {type(exc).__name__}: {exc}")
        finally:
            sys.stdin = stdin
        said = out.getvalue() + err.getvalue()
        shown = f"raceday {json.dumps(argv, ensure_ascii=False)} input={lines!r}\n{said}"
        if __import__("os").environ.get("FUZZ_DEBUG"):
            print(code, argv, err.getvalue()[-120:].replace("\n", " | "), file=sys.__stdout__)
        assert code in (0, 2), f"exit code {code}: {shown}"
        assert "Traceback" not in said, shown
        if code == 2:
            # the prefix in the command line's language ('error:' or 'エラー：')
            prefixes = tuple(render("terminal.cli.error", lang) for lang in LANGUAGES)
            errors = [line for line in err.getvalue().splitlines()
                      if line.startswith(prefixes)]
            assert errors, f"refused without an error line: {shown}"
            words = [a for a in argv if a.strip()]
            assert any(w in errors[0] or (w.startswith("--") and w[2:] in errors[0])
                       for w in words) or re.search(
                r"(?<![\w-])--?[A-Za-z]|'[^']*'", errors[0]), \
                f"the refusal names no option, value or file: {shown}"
        for path, data in untouched.items():
            assert path.read_bytes() == data, f"{path.name} changed: {shown}"
        assert _whole(good), f"good.sqlite is no longer whole: {shown}"
        if fresh.exists():
            assert _whole(fresh), f"a new database was left half-written: {shown}"
        if "sav" not in said.lower():
            after = _snapshot(good)
            assert all(after.get(k) == v for k, v in before.items()), \
                f"a session changed silently: {shown}"

    check()
