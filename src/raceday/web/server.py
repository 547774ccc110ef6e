"""Running the party server: in the foreground (``raceday serve``) or in a background thread
(tests, benchmarks, screenshots), always with uvicorn and the message-size cap."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from raceday.web import redact

WS_MAX_SIZE = 65_536  # frames above this are cut by uvicorn; 4 KB..64 KB get a clear error
WS_PING = 20.0
COLLECTOR_THRESHOLDS = (50_000, 20, 100)  # see settle_collector


# raise_open_files / descriptors_needed: the open files a server needs
ADDRESSES = 32  # addresses that may each hold max_sockets WebSockets at once, for the need
HEADROOM = 256  # descriptors besides the sockets: see descriptors_needed


def descriptors_needed(max_sockets: int) -> int:
    """The open files (descriptors) a party server should be allowed: ``max_sockets`` ×
    :data:`ADDRESSES` + :data:`HEADROOM`.

    Every WebSocket and every HTTP connection is one descriptor, and one address may hold
    ``max_sockets`` WebSockets open (``--limit max-sockets``); a server open to strangers
    should have room for :data:`ADDRESSES` addresses holding that many at once, so that
    some that do so leave room for everyone else (at 1,024 descriptors, 11 addresses of
    100 sockets left innocent guests with "connection reset"). The headroom is the rest:
    the listening socket, the HTTP requests of the pages (a few a guest while a page
    loads), the database with its write-ahead log and shared memory on two connections,
    the warm-up process's pipes, the log, Python's own files. Rooms need none: each is
    rows of the one database file."""
    return max_sockets * ADDRESSES + HEADROOM


def raise_open_files() -> int | None:
    """Raise this process's soft limit of open files (RLIMIT_NOFILE) to its hard limit,
    as far as the system lets it; returns the soft limit then (None where there are no
    such limits: Windows). The soft limit is often 1,024 while the hard one is far higher
    (systemd's ``LimitNOFILE=``, ``ulimit -Hn``); a server holding hundreds of sockets
    needs the higher one."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # macOS refuses RLIM_INFINITY: keep the soft one
            return int(soft)
        soft = hard
    return None if soft == resource.RLIM_INFINITY else int(soft)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def uvicorn_config(app: Any, host: str, port: int, *, log_level: str = "warning") -> Any:
    import uvicorn

    # No permessage-deflate: with it the server compresses every update once per connection
    # (each keeps its own zlib context), which was half of the server's CPU time under load
    # (bench/bench_party.py --profile), and both zlib contexts take ~40 KB a socket. The
    # cost: an update (~6-9 KB of JSON) goes out as it is instead of ~1 KB, nothing for a
    # home network (a phone gets a few updates a second).
    # No proxy_headers: uvicorn would otherwise believe X-Forwarded-For from 127.0.0.1 (its
    # default FORWARDED_ALLOW_IPS); the app decides whom to believe (create_app's
    # trusted_proxies), so the rate limits have one source of truth for a client's address.
    # lifespan on: the app's startup sets the paced steps of races saved mid-way (they go on
    # after a restart by themselves) and starts the idle rooms' sweep.
    # The logging uvicorn sets up here keeps the filter that hides keys and private intents
    # (raceday.web.redact), installed again in case the app was not made by create_app.
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            ws="websockets-sansio", ws_max_size=WS_MAX_SIZE,
                            ws_ping_interval=WS_PING, ws_ping_timeout=WS_PING,
                            ws_per_message_deflate=False, lifespan="on", access_log=False,
                            proxy_headers=False)
    redact.install()
    return config


def settle_collector() -> None:
    """Before a server process starts serving: move what it holds already (the imported
    code and the rooms it loaded) out of the garbage collector's sight (``gc.freeze``),
    so a full collection does not walk them again. Under load the full collections of a
    server holding 100 parties stalled its event loop for 100-200 ms each, once every
    10-20 s, and every update waiting then was late by as much."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


@contextmanager
def background_server(app: Any, host: str = "127.0.0.1", port: int | None = None,
                      timeout: float = 15.0, log_level: str = "warning") -> Iterator[str]:
    """Serve ``app`` from a thread; yields its base URL ``http://host:port/``."""
    import uvicorn

    port = port or free_port(host)
    server = uvicorn.Server(uvicorn_config(app, host, port, log_level=log_level))
    thread = threading.Thread(target=server.run, name="raceday-party-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the party server did not start on {host}:{port}")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout)


def main(argv: list[str] | None = None) -> None:
    """``python -m raceday.web.server DB PORT [K/N]``: serve on 127.0.0.1 (benchmarks),
    as shard K of N when given (:class:`raceday.web.shards.Shard`);
    ``RACEDAY_PARTY_TIMING=FILE`` installs the benchmark's observer
    (:class:`raceday.web.timing.Timing`), which appends the timing of each intent to FILE;
    ``RACEDAY_PARTY_ALLOWED_ORIGINS`` and ``RACEDAY_PARTY_TRUSTED_PROXIES`` (comma-separated)
    are create_app's ``allowed_origins`` and ``trusted_proxies``. The limits are the
    defaults of ``raceday serve``: the benchmark gives each party a loopback address of its
    own (one router a party), so what it measures is what a host's server does."""
    import os
    import sys

    import uvicorn

    from raceday.web.app import create_app
    from raceday.web.shards import Shard
    from raceday.web.timing import Timing

    args = sys.argv[1:] if argv is None else argv
    db, port = args[0], int(args[1])
    shard = Shard.parse(args[2]) if len(args) > 2 else None
    raise_open_files()
    timing = os.environ.get("RACEDAY_PARTY_TIMING")
    app = create_app(db, observer=Timing(timing) if timing else None,
                     allowed_origins=os.environ.get("RACEDAY_PARTY_ALLOWED_ORIGINS") or None,
                     trusted_proxies=os.environ.get("RACEDAY_PARTY_TRUSTED_PROXIES") or None,
                     shard=shard)
    settle_collector()
    uvicorn.Server(uvicorn_config(app, "127.0.0.1", port)).run()


if __name__ == "__main__":
    main()
