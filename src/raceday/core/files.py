"""Reading files people name on the command line: the one gate every game's readers use.

A path a person types may name anything: a named pipe (whose ``open()`` waits for a writer
forever), a device such as ``/dev/zero`` (endless) or ``/dev/tty``, a socket, a directory, a
file of gigabytes, or bytes that are not text. :func:`read_user_bytes` looks at the path
with ``os.stat`` *before* opening it and reads only a regular file no larger than the
caller's limit. It opens the file without blocking (``O_NONBLOCK``) and checks the opened
file again with ``os.fstat``, so a path swapped for a pipe between the look and the
opening is refused too, and it never reads more than the limit plus one byte (a file that
grows meanwhile is refused, not read to the end). :func:`read_user_text` also decodes
UTF-8 (a leading byte-order mark is dropped) and refuses NUL bytes.

Every refusal is one :class:`~raceday.core.errors.InputFileError` whose message names the
path and the problem; the CLI prints it on one line and exits with code 2.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from raceday.core.errors import InputFileError
from raceday.core.events import Message

DEFAULT_MAX_BYTES = 5_000_000
WHATS = {"a directory": "directory", "a named pipe (FIFO)": "fifo", "a device": "device",
         "a socket": "socket"}  # what a path is instead of a file → its words (file_what.*)
FILE_KINDS = ("route", "peloton", "track", "record")  # named in words (file_kind.*)
"""The default limit: far beyond any route, peloton, track or stage-race file."""

_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _size(limit: int) -> str:
    """``limit`` bytes for a message: '1 MB (1,000,000 bytes)'."""
    return f"{limit / 1_000_000:g} MB ({limit:,} bytes)"


def not_regular(mode: int) -> str | None:
    """What a file of this mode is, if it is not a regular file (else None): "a directory",
    "a named pipe (FIFO)", "a device", "a socket" or "something else"."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "something else"


def _kind(kind: str) -> Message | str:
    """The kind of file in words where the tables have them ("route", "コース")."""
    return Message(f"file_kind.{kind}") if kind in FILE_KINDS else kind


def _refused(text: str, key: str, /, **params: object) -> InputFileError:
    """An :class:`InputFileError` with its English ``text`` (said as it is, even where no
    tables are loaded) and the same refusal as words, for a reader of another language."""
    error = InputFileError(text)
    error.message = Message(key, params)
    return error


def _refuse(path: str | Path, kind: str, what: str) -> InputFileError:
    return _refused(f"{path}: cannot read the {kind} file: it is {what}, not a regular file",
                    "file.not_regular", path=str(path), kind=_kind(kind),
                    what=Message(f"file_what.{WHATS.get(what, 'other')}"))


def read_user_bytes(path: str | Path, *, kind: str, max_bytes: int = DEFAULT_MAX_BYTES
                    ) -> bytes:
    """The bytes of the regular file at ``path``, at most ``max_bytes`` of them.

    ``kind`` names the file for messages ("route", "track", ...). Anything else (a missing
    path, a directory, a pipe, a device, a socket, a file larger than ``max_bytes``, one
    that cannot be opened) raises :class:`InputFileError` naming ``path`` and the problem,
    without ever waiting on the file.
    """
    if max_bytes < 0:
        raise ValueError(f"max_bytes must be at least 0, got {max_bytes}")
    if not str(path).strip():
        raise _refused(f"{kind} file: give a file path, not an empty text",
                       "file.empty", kind=_kind(kind))
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise _refused(f"{path}: cannot read the {kind} file: no such file",
                       "file.missing", path=str(path), kind=_kind(kind)) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise _refused(f"{path}: cannot read the {kind} file ({reason})", "file.unreadable",
                       path=str(path), kind=_kind(kind), reason=reason) from None
    what = not_regular(info.st_mode)
    if what is not None:
        raise _refuse(path, kind, what)
    if info.st_size > max_bytes:
        raise InputFileError(f"{path}: larger than {_size(max_bytes)}, too big for a {kind} "
                             "file; is it the right file?")
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read the {kind} file "
                             f"({exc.strerror or exc})") from None
    try:
        what = not_regular(os.fstat(fd).st_mode)
        if what is not None:  # swapped for something else since the look
            raise _refuse(path, kind, what)
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read the {kind} file "
                             f"({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise InputFileError(f"{path}: larger than {_size(max_bytes)}, too big for a {kind} "
                             "file; is it the right file?")
    return data


def read_user_text(path: str | Path, *, kind: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The UTF-8 text of the regular file at ``path`` (see :func:`read_user_bytes`); bytes
    that are not UTF-8, or NUL bytes, raise :class:`InputFileError` naming the path."""
    data = read_user_bytes(path, kind=kind, max_bytes=max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{path}: not a text file (byte {data[exc.start]:#04x} at offset "
                             f"{exc.start:,} is not UTF-8); a {kind} file is UTF-8 "
                             "text") from None
    if "\x00" in text:
        raise InputFileError(f"{path}: not a text file (it contains NUL bytes); a {kind} file "
                             "is UTF-8 text")
    return text.removeprefix("\ufeff")


def check_output_file(path: Path, option: str, *, force: bool = False) -> Path:
    """A file a command is about to write (checked before any work): not a folder, in a
    folder that exists, and not an existing file unless ``force``; :class:`OptionsError`
    naming ``option`` (``--out``, ``--save``) otherwise."""
    from raceday.core.errors import OptionsError

    if path.is_dir():
        raise OptionsError(f"{option} {path} is a directory")
    if path.exists() and not force:
        raise OptionsError(f"{option} {path} exists; give --force to overwrite it")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise OptionsError(f"{option}: the folder {parent} does not exist")
    return path
