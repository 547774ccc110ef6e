"""`raceday serve --allow-origin/--trusted-proxy`: a bad value is one line and exit 2 before
anything is printed or opened; good ones reach create_app (captured: nothing is served)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from raceday.cli.main import run


class Captured(Exception):
    """Raised by the stand-in create_app: the options arrived, the server is not started."""


@pytest.fixture
def create_app_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def fake_create_app(db_path: Any, **kwargs: Any) -> None:
        calls.append({"db_path": db_path, **kwargs})
        raise Captured

    monkeypatch.setattr("raceday.web.app.create_app", fake_create_app)
    return calls


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(("argv", "message"), [
    (["--allow-origin", "ftp://files.example"],
     "Invalid value for '--allow-origin': must be an http(s) origin such as "
     "https://party.example.org, got 'ftp://files.example'"),
    (["--allow-origin", "party.example.org"], "got 'party.example.org'"),
    (["--allow-origin", "https://ok.example", "--allow-origin", "http://:80"],
     "got 'http://:80'"),
    (["--trusted-proxy", "proxy.lan"],
     "Invalid value for '--trusted-proxy': must be an IP address or network such as "
     "10.0.0.2 or 172.16.0.0/12, got 'proxy.lan'"),
    (["--trusted-proxy", "10.0.0.1", "--trusted-proxy", "10.0.0.0/33"], "got '10.0.0.0/33'"),
    (["--trusted-proxy", " "], "got ' '"),
    (["--allow-origin", ""], "--allow-origin': must be an http(s) origin"),
])
def test_bad_values_are_one_line_and_exit_2_before_anything(
        argv: list[str], message: str, tmp_path: Path, create_app_calls: list[dict[str, Any]],
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "party.sqlite"
    code = run(["serve", "--port", str(free_port()), "--db", str(db), *argv])
    out, err = capsys.readouterr()
    assert code == 2
    assert message in err and "try 'raceday serve --help'" in err
    assert err.strip().count("\n") == 0  # one line
    assert out == ""  # no banner, no address, no QR code
    assert create_app_calls == [] and not db.exists()


def test_good_values_reach_create_app(tmp_path: Path, create_app_calls: list[dict[str, Any]],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    with pytest.raises(Captured):
        run(["serve", "--port", str(port), "--db", str(tmp_path / "party.sqlite"),
             "--allow-origin", "https://party.example.org",
             "--allow-origin", "http://192.168.1.20:8080/play/ABCD",
             "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8",
             "--trusted-proxy", "::1"])
    [call] = create_app_calls
    assert call["db_path"] == tmp_path / "party.sqlite"
    assert call["public_url"] == f"http://127.0.0.1:{port}/"
    assert list(call["allowed_origins"]) == ["https://party.example.org",
                                             "http://192.168.1.20:8080/play/ABCD"]
    assert list(call["trusted_proxies"]) == ["127.0.0.1", "10.0.0.0/8", "::1"]
    # what the CLI accepted, the server reads the same way (the same parsers)
    from raceday.web.guard import Origins, parse_networks

    assert Origins(None, call["allowed_origins"]).allowed == {
        "https://party.example.org", "http://192.168.1.20:8080"}
    assert len(parse_networks(call["trusted_proxies"])) == 3


def test_without_the_options_none_are_passed(tmp_path: Path,
                                             create_app_calls: list[dict[str, Any]]) -> None:
    with pytest.raises(Captured):
        run(["serve", "--port", str(free_port()), "--db", str(tmp_path / "party.sqlite")])
    [call] = create_app_calls
    assert not call["allowed_origins"] and not call["trusted_proxies"]


def test_the_help_names_both_options(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert run(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    for words in ("--allow-origin", "URL", "https://party.example.org", "--trusted-proxy",
                  "ADDRESS", "X-Forwarded-For", "repeat for more"):
        assert words in out, words


def test_public_url_names_the_join_links_and_is_an_allowed_origin(
        tmp_path: Path, create_app_calls: list[dict[str, Any]]) -> None:
    with pytest.raises(Captured):
        run(["serve", "--port", str(free_port()), "--db", str(tmp_path / "party.sqlite"),
             "--public-url", "https://party.example.org"])
    [call] = create_app_calls
    assert call["public_url"] == "https://party.example.org/"
    from raceday.web.guard import Origins

    assert Origins(call["public_url"], call["allowed_origins"]).allowed == {
        "https://party.example.org"}


@pytest.mark.parametrize("value", ["party.example.org", "ftp://x.example/", "https://",
                                   "https://p.example/?a=1", "https://p.example/#x"])
def test_a_bad_public_url_is_one_line_and_exit_2(
        value: str, tmp_path: Path, create_app_calls: list[dict[str, Any]],
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "party.sqlite"
    code = run(["serve", "--port", str(free_port()), "--db", str(db), "--public-url", value])
    out, err = capsys.readouterr()
    assert code == 2 and "--public-url" in err and err.strip().count("\n") == 0
    assert out == "" and create_app_calls == [] and not db.exists()


def test_the_banner_and_qr_name_the_public_url(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from raceday.cli.serve import serve_command

    serve_command("127.0.0.1", free_port(), tmp_path / "party.sqlite",
                  public_url="https://party.example.org/", run=False)
    out = capsys.readouterr().out
    assert "open https://party.example.org/" in out
