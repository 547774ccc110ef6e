"""``raceday serve``: the party server for phones and a big screen (see docs/usage/party.md).

Options are checked before anything is opened; the database is then opened (a bad one is
refused with one line), the URL(s) and a QR code of the landing page are printed, and
uvicorn serves until Ctrl-C, while a low-priority ``raceday warm-up`` process beside it
compiles the computer players if numba's cache does not hold them yet (it says so in one
line, and ends with the server). Rooms are saved after every accepted action, so stopping
and starting the server again continues every room where it was. FastAPI and uvicorn are
imported only when the command runs (``raceday --help`` stays light).
"""

from __future__ import annotations

import errno
import ipaddress
import math
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from raceday.core.errors import OptionsError, SaveFormatError
from raceday.terminal import common
from raceday.terminal.common import console, err_console, in_range
from raceday.terminal.groups import option_group

if TYPE_CHECKING:
    from raceday.core.record import Record

HELP = "Host a party in the browser: a big screen plus phones on your network."

app = typer.Typer(help=HELP, add_completion=False)

HostOpt = Annotated[
    str,
    typer.Option("--host", help="Address to listen on: 127.0.0.1 (this computer only) or "
                 "0.0.0.0 (phones on your home network)."),
]
PortOpt = Annotated[
    int, typer.Option("--port", metavar="1..65535",
                      callback=in_range(1, 65_535, "(a TCP port)"), help="TCP port.")
]


def _addresses(flag: str, metavar: str, reads: Callable[[str], object], expected: str,
               describe: str) -> Any:
    """A repeatable option ``flag`` whose values are read by the server's own parser
    ``reads`` (which raises ValueError or returns nothing for a bad one) before anything is
    opened; the first bad one is refused in one line saying it must be ``expected``."""

    def check(values: list[str] | None) -> list[str]:
        for value in values or []:
            try:
                if not reads(value):
                    raise ValueError(value)
            except ValueError:
                raise typer.BadParameter(f"must be {expected}, got {value!r}") from None
        return list(values or [])

    return typer.Option(flag, metavar=metavar, callback=check, help=describe)


def _origin(value: str) -> object:
    """An origin as :class:`raceday.web.guard.Origins` reads it (a URL stands for its
    origin)."""
    from raceday.web.guard import Origins

    return Origins(None, [value]).allowed


def _network(value: str) -> object:
    """An IP address or network as :func:`raceday.web.guard.parse_networks` reads it."""
    from raceday.web.guard import parse_networks

    return parse_networks([value])


AllowOriginOpt = Annotated[list[str] | None, _addresses(
    "--allow-origin", "URL", _origin, "an http(s) origin such as https://party.example.org",
    "Also allow pages from this origin (such as https://party.example.org, the address of a "
    "reverse proxy) to open sockets and send requests, besides this server's own address; "
    "repeat for more.")]


def check_public_url(value: str | None) -> str | None:
    """``--public-url``: an http(s) address with a host, no query or fragment; returned
    ending in '/' (the join links and QR code are built on it)."""
    if value is None:
        return None
    from urllib.parse import urlsplit

    from raceday.web.guard import normal_origin

    text = value.strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        parts = None
    if (parts is None or normal_origin(text) is None or parts.query or parts.fragment
            or len(text) > 200 or not text.isprintable()):
        raise typer.BadParameter(
            "must be the http(s) address people open, such as https://party.example.org/ "
            f"(no query or fragment), got {value!r}")
    return text if text.endswith("/") else text + "/"


PublicUrlOpt = Annotated[
    str | None,
    typer.Option("--public-url", metavar="URL", callback=check_public_url,
                 help="The address phones and the big screen use when it is not the one "
                      "this server listens on (a reverse proxy, a host name with TLS): join "
                      "links and the QR code name it, and pages from it may open sockets."),
]
TrustedProxyOpt = Annotated[list[str] | None, _addresses(
    "--trusted-proxy", "ADDRESS", _network,
    "an IP address or network such as 10.0.0.2 or 172.16.0.0/12",
    "A reverse proxy's IP address or network (such as 127.0.0.1 or 10.0.0.0/8) whose "
    "X-Forwarded-For header names the client for the rate limits; repeat for more. None by "
    "default.")]


@dataclass(frozen=True)
class BehindProxy:
    """The options of a server reached through a reverse proxy: the address people open,
    the other origins whose pages may connect, and the proxies whose X-Forwarded-For
    header names the client."""

    public_url: PublicUrlOpt = None
    allow_origin: AllowOriginOpt = None
    trusted_proxy: TrustedProxyOpt = None


NO_PROXY: Any = None
"""The default to write for ``serve``'s :class:`BehindProxy` parameter (``option_group``
fills it)."""


def check_shard(value: str | None) -> str | None:
    """``--shard K/N``: this process is shard K of N (raceday.web.shards); refused in one
    line unless 0 <= K < N <= 20."""
    if value is None:
        return None
    from raceday.web.shards import Shard

    try:
        return str(Shard.parse(value))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


ShardOpt = Annotated[
    str | None,
    typer.Option("--shard", metavar="K/N", callback=check_shard,
                 help="Run as shard K of N processes behind a proxy that routes each room "
                      "to its shard (raceday caddyfile writes one; see "
                      "docs/usage/scale-out.md): this process keeps only the rooms whose "
                      "code is shard K's."),
]


IDLE_CLOSE_DEFAULT = 12.0  # hours; the same as raceday.web.lifecycle.IDLE_CLOSE_HOURS


def check_idle_close(value: float | None) -> float | None:
    """``--idle-close HOURS``: 0 (rooms never close) up to a year of hours."""
    if value is not None and not 0 <= value <= 8760:
        raise typer.BadParameter(f"must be a number of hours from 0 to 8760, got {value}")
    return value


# the allowances of raceday.web.app.create_app a host may change (its defaults are the
# app's; docs/usage/party.md "Limits and refusals" has them in a table)
LIMITS = ("lookup-burst", "lookup-rate", "rest-burst", "rest-rate", "create-burst",
          "create-rate", "max-sockets", "handshake-burst", "handshake-rate", "burst", "rate",
          "max-rooms", "rooms-per-address",
          "seats-per-address", "reclaim-after", "max-campaigns", "campaigns-per-address")
WHOLE = ("max-sockets", "max-rooms", "rooms-per-address", "seats-per-address",
         "max-campaigns", "campaigns-per-address", "heavy-workers", "heavy-share",
         "heavy-queue", "heavy-cache-mb", "numbers-share")  # counts: whole numbers
MAX_LIMIT = 1_000_000
# the heavy work's limits (raceday.web.heavy.HeavyLimits: print pages, PDFs, race films,
# numbers jobs), by the field each sets; docs/usage/hosting.md "Heavy work" has them
HEAVY_LIMITS = {"heavy-workers": "workers", "heavy-burst": "burst", "heavy-rate": "rate",
                "heavy-share": "per_address", "heavy-queue": "queue",
                "heavy-cache-mb": "cache_bytes", "numbers-share": "numbers_per_address"}
MAX_WORKERS = 64  # heavy-work processes at most


def parse_limit(text: str) -> tuple[str, float]:
    """``NAME=VALUE`` of :data:`LIMITS` or :data:`HEAVY_LIMITS` as (create_app's keyword,
    or ``heavy-...``'s own with ``_``, value); a ValueError in one line naming the
    problem. A burst and a count are at least 1 (below it nothing could be done at all),
    a rate more than 0; counts are whole; at most :data:`MAX_WORKERS` heavy workers."""
    name, equals, value = text.partition("=")
    name = name.strip().lower()
    if not equals or (name not in LIMITS and name not in HEAVY_LIMITS):
        raise ValueError(f"a limit is NAME=VALUE with NAME one of "
                         f"{', '.join((*LIMITS, *HEAVY_LIMITS))}; got {text!r}")
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {value.strip()!r}") from None
    rate = name.endswith("rate")
    if not (math.isfinite(number) and (number > 0 if rate else number >= 1)
            and number <= MAX_LIMIT):
        raise ValueError(f"{name} must be {'more than 0' if rate else 'at least 1'} "
                         f"and at most {MAX_LIMIT:,}, got {value.strip()}")
    if name in WHOLE:
        if number != int(number):
            raise ValueError(f"{name} must be a whole number, got {value.strip()}")
        number = int(number)
    if name == "heavy-workers" and number > MAX_WORKERS:
        raise ValueError(f"heavy-workers must be at most {MAX_WORKERS}, got {value.strip()}")
    return name.replace("-", "_"), number


def heavy_limits(allowances: dict[str, Any]) -> Any:
    """The ``heavy_...`` and ``numbers_share`` entries of parsed ``allowances`` taken out
    of it as the app's :class:`~raceday.web.heavy.HeavyLimits` (None: none given)."""
    from raceday.web.heavy import HeavyLimits

    chosen: dict[str, Any] = {}
    for name, field in HEAVY_LIMITS.items():
        value = allowances.pop(name.replace("-", "_"), None)
        if value is not None:
            chosen[field] = value * 2**20 if field == "cache_bytes" else value
    return HeavyLimits(**chosen) if chosen else None


def check_limits(values: list[str] | None) -> list[str]:
    for value in values or []:
        try:
            parse_limit(value)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    return list(values or [])


LimitOpt = Annotated[list[str] | None, typer.Option(
    "--limit", metavar="NAME=VALUE", callback=check_limits,
    help="Change one of the per-address and per-screen allowances (repeat for several), "
         "for a venue whose guests share one address: " + ", ".join(LIMITS)
         + ". Defaults and meanings: docs/usage/party.md, Limits and refusals. Heavy work "
         "(print pages, PDFs, race films, numbers jobs): " + ", ".join(HEAVY_LIMITS)
         + " (docs/usage/hosting.md, Heavy work).")]


SeatsPerAddressOpt = Annotated[
    int | None,
    typer.Option("--seats-per-address", metavar="1..1000", min=1, max=1000,
                 help="Seats of one lobby that phones from one address may take (default "
                      "4): raise it where guests share one public address, as in a bar "
                      "behind one router (the same as --limit seats-per-address=N)."),
]


IdleCloseOpt = Annotated[
    float,
    typer.Option("--idle-close", metavar="HOURS", callback=check_idle_close,
                 help="Close a room nobody has played or watched for this many hours (0: "
                      "never): it leaves memory, its pages say it is closed, and a "
                      "finished room's replay stays. raceday rooms prunes old ones."),
]


def check_host(value: str) -> str:
    """An IP address to bind (IPv4 or IPv6) or 'localhost'."""
    text = value.strip()
    if text == "localhost":
        return "127.0.0.1"
    try:
        ipaddress.ip_address(text)
    except ValueError:
        raise typer.BadParameter(
            f"must be an IP address such as 127.0.0.1 or 0.0.0.0, got {value!r}") from None
    return text


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address = str(s.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


def urls_for(host: str, port: int) -> tuple[str, list[str]]:
    """(the URL phones should use, every URL worth printing)."""
    def url(h: str) -> str:
        return f"http://[{h}]:{port}/" if ":" in h else f"http://{h}:{port}/"

    if host in ("0.0.0.0", "::"):
        lan = lan_address()
        local = url("127.0.0.1")
        return (url(lan), [url(lan), local]) if lan else (local, [local])
    return url(host), [url(host)]


def port_problem(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (one line), or None if it can.

    Binds a socket the way uvicorn's listener will (asyncio sets SO_REUSEADDR on POSIX, so
    a port left in TIME_WAIT by an earlier server is free; IPv6 only for an IPv6 host) and
    closes it at once: a port another program listens on, a port below 1024 without the
    rights for it, or an address this computer does not have is found before anything is
    printed or opened."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if os.name == "posix":
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and hasattr(socket, "IPV6_V6ONLY"):
            probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        try:
            probe.bind((host, port))
        except PermissionError:
            return (f"port {port} on {host} needs administrator rights (ports below 1024); "
                    "choose another with --port")
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)):
                return f"port {port} on {host} is in use; choose another with --port"
            if exc.errno == errno.EADDRNOTAVAIL:
                return (f"{host} is not an address of this computer; use 127.0.0.1 or "
                        "0.0.0.0 with --host")
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def serve_command(host: str = "127.0.0.1", port: int = 8000, db: Path | None = None,
                  *, public_url: str | None = None, allow_origins: Sequence[str] = (),
                  trusted_proxies: Sequence[str] = (), run: bool = True,
                  shard: str | None = None,
                  idle_close: float = IDLE_CLOSE_DEFAULT,
                  limits: Sequence[str] = (), lang: str = "en",
                  record: Path | None = None) -> None:
    """Open the database, print the addresses and a QR code, and serve until Ctrl-C; its
    lines in ``lang``. With ``record``, a room is opened whose game goes on from that
    record file (checked before anything is opened: a bad record, a party's or a finished
    game's, is refused in one line naming the problem and its line; exit 2).

    A port that cannot be listened on is refused in one line (exit 2) before anything is
    printed or opened, as is a database that cannot be written (create_app checks). The
    soft limit of open files is raised to the hard one first, and a limit below what the
    socket caps need (:func:`raceday.web.server.descriptors_needed`) is said in one line.
    The rooms are loaded once the server answers (a line says when all are); the last
    line says whether every room was saved at the stop, or how many the database
    refused."""
    from rich.markup import escape

    from raceday.present import render

    def say(key: str, **params: object) -> str:
        """``tool.serve.<key>`` in ``lang``, as markup."""
        return escape(render(f"tool.serve.{key}", lang, params=params))

    def say_bold(key: str, name: str, value: str) -> str:
        """``tool.serve.<key>`` as markup, its parameter ``name`` (``value``) in bold."""
        mark = "\x00"  # stands for the bold part while the words are escaped
        return say(key, **{name: mark}).replace(mark, f"[bold]{escape(value)}[/]")

    problem = port_problem(host, port)
    if problem is not None:
        raise OptionsError(problem)
    opened = None if record is None else record_to_open(record)
    import segno

    from raceday.store.sessions import default_db_path
    from raceday.web.app import create_app

    path = db if db is not None else default_db_path()
    public, urls = urls_for(host, port)
    if public_url is not None:
        public, urls = public_url, [public_url, *(u for u in urls if u != public_url)]
    from raceday.web.shards import Shard

    part = None if shard is None else Shard.parse(shard)
    try:
        allowances: dict[str, Any] = dict(parse_limit(text) for text in limits)
    except ValueError as exc:
        raise OptionsError(str(exc)) from None
    from raceday.web.server import ADDRESSES, descriptors_needed, raise_open_files

    open_files = raise_open_files()
    shown = dict(allowances)
    heavy = heavy_limits(allowances)
    web_app = create_app(path, public_url=public, allowed_origins=list(allow_origins),
                         trusted_proxies=list(trusted_proxies),
                         idle_close=idle_close or None, heavy=heavy,
                         shard=part, **allowances)  # a bad database: one line
    kept = web_app.state.rooms.count()
    console.print("[bold]raceday party[/] — " + say("database", path=str(path), n=kept))
    sockets = int(web_app.state.max_sockets)
    if open_files is not None and open_files < descriptors_needed(sockets):
        err_console.print(say("descriptors", limit=open_files, need=descriptors_needed(sockets),
                              addresses=ADDRESSES, sockets=sockets), soft_wrap=True)
    if kept:
        def loaded(n: int, seconds: float) -> None:
            console.print("  " + say("loaded", n=n, seconds=f"{seconds:.1f}"))

        web_app.state.on_loaded = loaded
    if part is not None:
        console.print("  " + say("shard", shard=str(part), letters=part.letters))
    if idle_close:
        console.print("  " + say("idle_close", hours=f"{idle_close:g}"))
    if shown:
        console.print("  " + say("limits", limits=", ".join(
            f"{name.replace('_', '-')}={value:g}" for name, value in shown.items())))
    for u in urls:
        console.print("  " + say_bold("open", "url", u))
    if opened is not None and record is not None:
        room, token = web_app.state.rooms.create_from_record(opened)
        console.print("  " + say("record_room", code=room.code, file=str(record),
                                 moves=len(opened.moves),
                                 host=f"{public}host/{room.code}#host={token}",
                                 join=f"{public}play/{room.code}"), soft_wrap=True)
    if host in ("127.0.0.1", "::1") and public_url is None:
        console.print("  " + say_bold("local_only", "command",
                                      f"raceday serve --host 0.0.0.0 --port {port}"))
    qr = segno.make(public, error="m")
    qr.terminal(compact=True, border=1)
    console.print(say("scan"))
    if not run:
        return
    import uvicorn

    from raceday.terminal.warm import (
        preload_after,
        room_engines,
        start_background,
        stop_background,
    )
    from raceday.web.server import settle_collector, uvicorn_config

    settle_collector()
    server = uvicorn.Server(uvicorn_config(web_app, host, port, log_level="warning"))
    warming = start_background()  # compiles the computer players beside the server
    preload_after(warming, room_engines())  # then loads the rooms' players here
    try:
        server.run()
    except KeyboardInterrupt:  # pragma: no cover - uvicorn handles the signal itself
        pass
    except SystemExit:  # uvicorn exits when it cannot bind the address
        pass
    finally:
        stop_background(warming)
    if not server.started:
        err_console.print(say("cannot_listen", host=host, port=port, next=port + 1))
        raise typer.Exit(2)
    report = web_app.state.stop_report
    if report is not None and report.failed:
        err_console.print(say("stopped_unsaved", failed=report.failed, n=report.rooms,
                              refused=report.refused), soft_wrap=True)
    else:
        err_console.print(say("stopped"))


def record_to_open(path: Path) -> Record:
    """The record file ``path``, checked as a room would open it (a SaveFormatError naming
    the file and the first bad line, or a RoomError saying why no room can go on from it)."""
    from raceday.core.files import read_user_text
    from raceday.core.record import RecordError, parse_record
    from raceday.rooms.record import room_from_record

    try:
        record = parse_record(read_user_text(path, kind="record"))
        room_from_record(record)  # the rules play it through; a party or a finished game
    except RecordError as exc:
        where = "" if exc.line is None else f" line {exc.line}:"
        raise SaveFormatError(f"{path}:{where} {exc.problem}") from None
    return record


RecordOpt = Annotated[Path | None, typer.Option(
    "--record", metavar="FILE",
    help="open a room that goes on from this record (a game begun with 'raceday hairpin "
         "play --name', exported with 'raceday record export'); its code and links are "
         "printed")]


@app.command()
@option_group(BehindProxy)
def serve(
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    db: common.DbOpt = None,
    proxy: BehindProxy = NO_PROXY,
    shard: ShardOpt = None,
    idle_close: IdleCloseOpt = IDLE_CLOSE_DEFAULT,
    limit: LimitOpt = None,
    seats_per_address: SeatsPerAddressOpt = None,
    lang: common.LangOpt = None,
    record: RecordOpt = None,
) -> None:
    """Start the party server: open the printed address on the big screen."""
    limits = list(limit or [])
    if seats_per_address is not None:
        limits.append(f"seats-per-address={seats_per_address}")
    serve_command(check_host(host), port, db, public_url=proxy.public_url,
                  allow_origins=proxy.allow_origin or [],
                  trusted_proxies=proxy.trusted_proxy or [], shard=shard,
                  idle_close=idle_close, limits=limits, lang=common.resolve_lang(lang),
                  record=record)
