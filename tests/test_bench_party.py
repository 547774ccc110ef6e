"""bench/bench_party.py: a tiny sweep really plays (one and two rooms of two phones at the
fastest pace, on loopback), prints one table row a run, and the delta protocol sends fewer
bytes an update than full views. Counts and bytes are checked, never times."""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[1] / "bench" / "bench_party.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_party", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_room_has_its_own_loopback_address() -> None:
    bench = _bench()
    addresses = [bench.source_address(k) for k in range(200)]
    assert len(set(addresses)) == 200
    assert all(a.startswith("127.") and a != "127.0.0.1" for a in addresses)


def test_sweep_counts_are_bounded() -> None:
    bench = _bench()
    assert bench.sweep_counts("20,50,100,200") == [20, 50, 100, 200]
    for bad in ("", "0", "201", "a,b", ",".join(["5"] * (bench.MAX_SWEEP + 1))):
        with pytest.raises(argparse.ArgumentTypeError):
            bench.sweep_counts(bad)
    assert bench.think_times("0.2,1.2") == (0.2, 1.2)
    for bad in ("", "1", "a,b", "1,0.5", "-1,1", "1,11", "1,2,3"):
        with pytest.raises(argparse.ArgumentTypeError):
            bench.think_times(bad)


@pytest.mark.timeout(900)
def test_a_small_sweep_plays_every_room_with_deltas() -> None:
    # two short runs (hang guard: the bench's own --deadline, and the timeout above)
    out = subprocess.run(
        [sys.executable, str(BENCH), "--sweep", "1,2", "--phones", "2", "--procs", "1",
         "--stagger", "0", "--pace", "0.2", "--think", "0.02,0.1", "--deadline", "300"],
        capture_output=True, text=True, timeout=800)
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [line for line in out.stdout.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == 2, out.stdout
    for rooms, row in zip((1, 2), rows, strict=True):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[0] == str(rooms) and cells[1] == str(rooms * 3)
        assert cells[6] == f"{rooms}/{rooms}", row  # every room finished
        assert cells[7] == "0", row  # no errors (no 429 from one address a room)
        sent, full = re.fullmatch(r"(\d+) \((\d+)\)", cells[8]).groups()  # type: ignore[union-attr]
        assert 0 < int(sent) * 2 < int(full), row  # a patch weighs well under a full view
    assert "deltas, one source address a room" in out.stdout


@pytest.mark.timeout(900)
def test_two_server_processes_share_the_rooms() -> None:
    # each party is created on its shard and played there; the target line is not checked
    out = subprocess.run(
        [sys.executable, str(BENCH), "--rooms", "2", "--shards", "2", "--phones", "2",
         "--procs", "1", "--stagger", "0", "--pace", "0.2", "--think", "0.02,0.1",
         "--deadline", "300"],
        capture_output=True, text=True, timeout=800)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "2 server processes" in out.stdout
    assert "rooms finished 2/2" in out.stdout and "errors 0" in out.stdout, out.stdout


class _Wire:
    """A transport that keeps what is written."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.out += data

    def close(self) -> None:
        self.closed = True


def _frame(opcode: int, payload: bytes, final: bool = True, masked: bool = False) -> bytes:
    size = len(payload)
    head = bytes([(0x80 if final else 0) | opcode])
    if size < 126:
        head += bytes([(0x80 if masked else 0) | size])
    elif size < 65536:
        head += bytes([(0x80 if masked else 0) | 126]) + size.to_bytes(2, "big")
    else:
        head += bytes([(0x80 if masked else 0) | 127]) + size.to_bytes(8, "big")
    return head + (b"\0\0\0\0" if masked else b"") + payload


def _unmask(frame: bytes) -> tuple[int, bytes]:
    """(opcode, payload) of one masked client frame."""
    assert frame[1] & 0x80, "a client's frames are masked"
    size, at = frame[1] & 0x7F, 2
    if size == 126:
        size, at = int.from_bytes(frame[2:4], "big"), 4
    mask, data = frame[at:at + 4], frame[at + 4:at + 4 + size]
    assert len(data) == size
    return frame[0] & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_the_lean_client_reads_whole_frames_however_the_bytes_arrive() -> None:
    """Frames of every length form, cut anywhere by the network, come out whole and in
    order; a ping is answered with its payload; a close frame ends the socket; a frame a
    server must not send (masked, or a fragment) ends it with the reason."""
    import asyncio

    bench = _bench()

    async def scenario() -> None:
        sock = bench.ClientSocket()
        wire = _Wire()
        sock.connection_made(wire)
        texts = [b"a", b"x" * 300, "é".encode() * 40_000]  # 7-bit, 16-bit, 64-bit lengths
        stream = (_frame(1, texts[0]) + _frame(9, b"beat") + _frame(1, texts[1])
                  + _frame(1, texts[2]) + _frame(8, (1000).to_bytes(2, "big")))
        for start in range(0, len(stream), 7):  # seven bytes at a time
            sock.data_received(stream[start:start + 7])
        assert [await sock.recv() for _ in texts] == texts
        assert await sock.recv() is None and await sock.recv() is None  # closed stays closed
        assert wire.closed
        opcode, payload = _unmask(bytes(wire.out[:10]))
        assert (opcode, payload) == (10, b"beat")  # the pong, sent before the close frame

        written = len(wire.out)
        sock.send("ok")
        assert len(wire.out) == written  # nothing goes out on a closed socket
        sent = bench.ClientSocket()
        sent_wire = _Wire()
        sent.connection_made(sent_wire)
        sent.send('{"type":"hello"}' * 10)
        assert _unmask(bytes(sent_wire.out)) == (1, b'{"type":"hello"}' * 10)

        for bad in (_frame(1, b"m", masked=True), _frame(1, b"part", final=False),
                    _frame(2, b"binary")):
            sock = bench.ClientSocket()
            sock.connection_made(_Wire())
            sock.data_received(bad)
            assert await sock.recv() is None and sock.error.startswith("unexpected frame")

    asyncio.run(scenario())
