"""Hosting in public (docs/usage/hosting.md and the deploy/ folder): Caddy reads the example
Caddyfile; the guide shows the example files as they are; every raceday command line in
the guide and the systemd units is accepted by this version's options (values checked
too); ``raceday serve --idle-close`` reaches the app; and the whole chain runs: the
example Caddyfile (made local: plain HTTP on a free port, raceday's free port) in front
of a server started as the guide says, where pages and sockets work through the proxy,
join links name the public URL, each guest is counted by their own address, and an
``X-Forwarded-For`` a client forges does not change the address it is counted by.

Caddy runs with HOME and its XDG folders in the test's temporary folder, so it writes
nothing outside it; its admin endpoint is off. Limits are counted with a frozen clock."""

from __future__ import annotations

import http.client
import json
import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from raceday.cli.main import GameGroup, app, run
from raceday.web.app import create_app
from raceday.web.server import background_server, free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
GUIDE = ROOT / "docs" / "usage" / "hosting.md"
CADDY = shutil.which("caddy") or "/usr/bin/caddy"
START_GUARD = 30.0  # seconds Caddy may take to start on a busy machine (a hang guard)


def _need_caddy() -> None:
    if Path(CADDY).exists():
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{CADDY} is missing: install Debian's caddy package (make browser)")
    pytest.skip(f"{CADDY} is missing")


def _caddy_env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "caddy-home"
    home.mkdir(exist_ok=True)
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data")}


def _adapt(path: Path, tmp_path: Path) -> dict[str, Any]:
    done = subprocess.run([CADDY, "adapt", "--config", str(path), "--adapter", "caddyfile"],
                          capture_output=True, text=True, timeout=60,
                          env=_caddy_env(tmp_path), check=False)
    assert done.returncode == 0, done.stderr
    assert "not formatted" not in done.stderr  # the example is as `caddy fmt` writes it
    return dict(json.loads(done.stdout))


# --- the example files ------------------------------------------------------------------
def test_caddy_reads_the_example_caddyfile(tmp_path: Path) -> None:
    _need_caddy()
    config = _adapt(DEPLOY / "Caddyfile", tmp_path)
    (server,) = config["apps"]["http"]["servers"].values()
    assert server["listen"] == [":443"]  # TLS, by Caddy's automatic HTTPS
    (route,) = server["routes"]
    assert route["match"] == [{"host": ["party.example.org"]}]
    handlers = [h for sub in route["handle"] for r in sub["routes"] for h in r["handle"]]
    proxy = next(h for h in handlers if h["handler"] == "reverse_proxy")
    assert proxy["upstreams"] == [{"dial": "127.0.0.1:8000"}]
    assert "trusted_proxies" not in proxy  # no client's X-Forwarded-For is passed on
    assert any(h["handler"] == "encode" for h in handlers)
    assert config["apps"]["tls"]["automation"]["policies"][0]["issuers"]  # certificates


@pytest.mark.parametrize("name", ["Caddyfile", "raceday.service", "raceday-rooms.service",
                                  "raceday-rooms.timer"])
def test_the_guide_shows_each_example_file_as_it_is(name: str) -> None:
    text = (DEPLOY / name).read_text(encoding="utf-8").rstrip("\n")
    assert f"\n{text}\n```" in GUIDE.read_text(encoding="utf-8"), \
        f"deploy/{name} and its copy in docs/usage/hosting.md differ"


def _guide_lines() -> list[str]:
    lines, inside = [], False
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = not inside
        elif inside and line.startswith("raceday "):
            lines.append(line)
    return lines


def _unit_lines() -> list[str]:
    found = []
    for unit in sorted(DEPLOY.glob("*.service")):
        for line in unit.read_text(encoding="utf-8").splitlines():
            if line.startswith("ExecStart="):
                found.append(re.sub(r"^ExecStart=\S*/raceday ", "raceday ", line))
    return found


COMMAND_LINES = _guide_lines() + _unit_lines()


def test_the_guide_and_units_run_raceday() -> None:
    assert len(_unit_lines()) == 2 and all(u.startswith("raceday ") for u in _unit_lines())
    assert {shlex.split(line)[1] for line in COMMAND_LINES} == {"serve", "rooms"}


@pytest.mark.parametrize("line", COMMAND_LINES)
def test_every_command_line_is_accepted_with_its_values(line: str) -> None:
    """Parsed by the command it names, every option's own check run on its value (a
    public URL, a proxy's address, hours, days), without running the command."""
    root = typer.main.get_command(app)
    assert isinstance(root, GameGroup)
    words = shlex.split(line)[1:]
    command: Any = root._load(words[0])
    rest = words[1:]
    while hasattr(command, "commands"):
        command = command.commands[rest.pop(0)]
    command.make_context(" ".join(words[:1]), rest)  # raises on any bad option or value


# --- raceday serve --idle-close ---------------------------------------------------------
def test_serve_passes_idle_close_to_the_app(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    import raceday.web.app as web_app

    made: list[Any] = []
    real = web_app.create_app

    def spy(*args: Any, **kwargs: Any) -> Any:
        made.append(kwargs.get("idle_close"))
        return real(*args, **kwargs)

    monkeypatch.setattr(web_app, "create_app", spy)
    from raceday.cli.serve import serve_command

    port = free_port()
    serve_command("127.0.0.1", port, tmp_path / "a.sqlite", idle_close=3.5, run=False)
    assert "rooms left idle for 3.5 hours close" in capsys.readouterr().out
    serve_command("127.0.0.1", port, tmp_path / "a.sqlite", idle_close=0, run=False)
    assert "rooms left idle" not in capsys.readouterr().out
    assert made == [3.5, None]  # 0: rooms never close


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "9000", "soon", ""])
def test_serve_refuses_a_bad_idle_close(value: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["serve", "--idle-close", value]) == 2
    err = capsys.readouterr().err
    assert "--idle-close" in err and len(err.strip().splitlines()) == 1


# --- raceday serve --limit --------------------------------------------------------------
def test_serve_passes_its_limits_to_the_app(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    import raceday.web.app as web_app

    made: list[dict[str, Any]] = []
    real = web_app.create_app

    def spy(*args: Any, **kwargs: Any) -> Any:
        made.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(web_app, "create_app", spy)
    from raceday.cli.serve import serve_command

    serve_command("127.0.0.1", free_port(), tmp_path / "a.sqlite", run=False,
                  limits=["max-sockets=300", "REST-rate = 2.5", "burst=40"])
    assert "limits: max-sockets=300, rest-rate=2.5, burst=40" in capsys.readouterr().out
    assert made[0]["max_sockets"] == 300 and isinstance(made[0]["max_sockets"], int)
    assert made[0]["rest_rate"] == 2.5 and made[0]["burst"] == 40
    app = made[0]
    assert "lookup_rate" not in app  # the others keep the app's defaults


def test_every_limit_is_an_allowance_of_the_app_and_the_guide_gives_its_default() -> None:
    import inspect

    from raceday.cli.serve import LIMITS
    from raceday.web.app import create_app

    defaults = {name: p.default for name, p in inspect.signature(create_app).parameters.items()}
    guide = (ROOT / "docs" / "usage" / "party.md").read_text(encoding="utf-8")
    said = dict(re.findall(r"(\w+)=([\d.]+)", guide.split("Programs set them with", 1)[1]
                           .split(")`", 1)[0]))
    for name in LIMITS:
        keyword = name.replace("-", "_")
        assert keyword in defaults, name
        if keyword not in ("burst", "rate"):  # the per-screen pair is in the list above it
            assert float(said[keyword]) == defaults[keyword], keyword
    assert "--limit" in guide


@pytest.mark.parametrize("value", ["max-sockets=2.5", "max-sockets=0", "bogus=1", "rate",
                                   "rate=0", "rate=-1", "burst=0.5", "rate=nan",
                                   "lookup-burst=inf", "rest-rate=fast", "burst=2000000"])
def test_serve_refuses_a_bad_limit(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["serve", "--limit", value]) == 2
    err = capsys.readouterr().err
    assert "--limit" in err and len(err.strip().splitlines()) == 1, err


# --- the whole chain: Caddy in front of raceday -----------------------------------------
class Frozen:
    """A clock that never moves: allowances never refill, so refusals are counted."""

    def __call__(self) -> float:
        return 500.0


@pytest.fixture
def chain(tmp_path: Path) -> Iterator[tuple[int, str]]:
    """(Caddy's port, the public URL): the example Caddyfile on plain HTTP at a free port,
    in front of raceday started as the guide says (loopback, public URL, trusted proxy)."""
    _need_caddy()
    caddy_port = free_port()
    public = f"http://127.0.0.1:{caddy_port}/"
    server = create_app(tmp_path / "party.sqlite", public_url=public,
                        trusted_proxies=["127.0.0.1"], clock=Frozen())
    with background_server(server) as url:
        app_port = int(url.rstrip("/").rsplit(":", 1)[1])
        text = (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
        text = text.replace("party.example.org {", f"http://127.0.0.1:{caddy_port} {{")
        text = text.replace("127.0.0.1:8000", f"127.0.0.1:{app_port}")
        text = text.replace("/var/log/caddy/raceday.log", str(tmp_path / "caddy.log"))
        text = text.replace("\temail admin@example.org", "\tadmin off")
        assert f"reverse_proxy 127.0.0.1:{app_port}\n" in text and "admin off" in text
        local = tmp_path / "Caddyfile"
        local.write_text(text, encoding="utf-8")
        _adapt(local, tmp_path)
        caddy = subprocess.Popen([CADDY, "run", "--config", str(local), "--adapter",
                                  "caddyfile"], env=_caddy_env(tmp_path),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + START_GUARD
            while True:  # poll until Caddy answers (a hang guard, not a measurement)
                try:
                    if _get(caddy_port, "/", "127.0.0.1")[0] == 200:
                        break
                except OSError:
                    pass
                assert caddy.poll() is None, caddy.stderr.read() if caddy.stderr else ""
                assert time.monotonic() < deadline, "caddy did not start"
                time.sleep(0.05)
            yield caddy_port, public
        finally:
            caddy.terminate()
            try:
                caddy.wait(timeout=15)
            except subprocess.TimeoutExpired:
                caddy.kill()
                caddy.wait(timeout=15)


def _request(port: int, method: str, path: str, source: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                      source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body)
        sent = dict(headers or {})
        if data is not None:
            sent["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=sent)
        answer = conn.getresponse()
        raw = answer.read()
        kind = answer.getheader("Content-Type") or ""
        return answer.status, (json.loads(raw) if "json" in kind else {})
    finally:
        conn.close()


def _get(port: int, path: str, source: str, **headers: str) -> tuple[int, dict[str, Any]]:
    return _request(port, "GET", path, source, headers=headers)


def test_a_party_through_caddy(chain: tuple[int, str]) -> None:
    port, public = chain
    origin = {"Origin": public.rstrip("/")}
    status, room = _request(port, "POST", "/api/rooms", "127.0.0.1", {"game": "derby"},
                            origin)
    assert status == 201, room
    code = room["code"]
    assert room["join_url"] == f"{public}play/{code}"  # the QR code names the public URL
    status, seat = _request(port, "POST", f"/api/rooms/{code}/join", "127.0.0.1",
                            {"name": "Aki"}, origin)
    assert status == 201, seat
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}/ws/{code}", origin=origin["Origin"],  # type: ignore[arg-type]
                 open_timeout=30, close_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "token": seat["token"], "since": -1}))
        welcome = json.loads(ws.recv(timeout=30))
    assert welcome["type"] == "welcome"
    assert welcome["role"] == {"kind": "seat", "seat": 0}


def test_each_guest_is_counted_by_their_own_address_through_caddy(
        chain: tuple[int, str]) -> None:
    port, public = chain
    status, room = _request(port, "POST", "/api/rooms", "127.0.0.1", {"game": "derby"},
                            {"Origin": public.rstrip("/")})
    assert status == 201
    guesser = "127.0.0.2"
    answers = []
    while len(answers) < 500 and 429 not in answers:  # guessing codes until refused
        answers.append(_get(port, "/api/rooms/QQQQ", guesser)[0])
    assert answers[-1] == 429, "500 misses from one address were never refused"
    assert answers[0] == 404 and set(answers) == {404, 429}  # the first misses answered
    # the guesser cannot pass as someone else: Caddy replaces the header it forges
    assert _get(port, f"/api/rooms/{room['code']}", guesser,
                **{"X-Forwarded-For": "203.0.113.9"})[0] == 429
    # a guest at another address is not held back by the guesser's refusals
    assert _get(port, f"/api/rooms/{room['code']}", "127.0.0.3")[0] == 200


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@pytest.mark.parametrize("doc", ["hosting.md", "party.md"])
def test_the_guides_links_lead_somewhere(doc: str) -> None:
    folder = GUIDE.parent
    text = (folder / doc).read_text(encoding="utf-8")
    links = re.findall(r"\]\(([\w.-]*\.md)?(#[\w-]+)?\)", text)
    assert links
    for target, anchor in links:
        page = folder / (target or doc)
        assert page.is_file(), f"{doc} links to {target}, which is not there"
        if anchor:
            headings = [_slug(line.lstrip("#")) for line in
                        page.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
            assert anchor[1:] in headings, f"{doc} links to {target}{anchor}: no such heading"
