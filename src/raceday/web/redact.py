"""Keys and private intents kept out of the party server's logs, at every level.

At uvicorn's ``debug`` level its WebSocket protocol logs every frame (the start and the end
of its text), and at ``trace`` every ASGI scope (with the query string): a guest's hello
carries the seat's key (``token``), an intent a sealed bid or a stake. :class:`Redact`, a
:class:`logging.Filter` that :func:`install` puts on the uvicorn, websockets and raceday
loggers (once; :func:`raceday.web.app.create_app` does), rewrites each record before any
handler sees it:

* a WebSocket frame in a record's arguments is logged as its kind, the ``type`` of its
  message and its size (``TEXT type='bid' [42 bytes]``), never its text;
* in the line that results, and in its traceback, the value of every field named in
  :data:`FIELDS` (a JSON member, a Python dict item or a URL query parameter: ``"token":
  "…"``, ``'amount': 3000``, ``?token=…``) becomes ``<redacted>``;
* the one thing a client can make uvicorn log with a traceback, a text frame that is not
  UTF-8, is one line without it.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

# the keys, and the fields of intents whose values are private to a seat (bids, stakes,
# tickets, picks): over-redacting a log line costs nothing
FIELDS = ("host_token", "token", "key", "amount", "stake", "stakes", "bid", "bids",
          "ticket", "tickets", "text", "values", "horses", "riders")
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "websockets",
           "websockets.server", "websockets.protocol", "raceday", "raceday.web")
HIDDEN = "<redacted>"
_VALUE = r"""("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|\[[^\]]*\]?|\{[^}]*\}?|[^\s,&;}\])]+)"""
_FIELD = re.compile(rf"""(["']?)\b({"|".join(FIELDS)})\1(\s*[:=]\s*){_VALUE}""",
                    re.IGNORECASE)
BAD_UTF8 = "Invalid UTF-8 sequence received from client."


def redact(text: str) -> str:
    """``text`` with the value of every field of :data:`FIELDS` replaced."""
    return _FIELD.sub(lambda m: f"{m[1]}{m[2]}{m[1]}{m[3]}{HIDDEN}", text)


def _frame_summary(frame: Any) -> str:
    """A WebSocket frame as its kind, its message's ``type`` and its size."""
    data = bytes(getattr(frame, "data", b""))
    opcode = getattr(getattr(frame, "opcode", None), "name", "FRAME")
    kind = ""
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        message = None
    if isinstance(message, dict) and isinstance(message.get("type"), str):
        kind = f" type={message['type'][:20]!r}"
    return f"{opcode}{kind} [{len(data)} bytes]"


def _is_frame(value: Any) -> bool:
    kind = type(value)
    return kind.__name__ == "Frame" and kind.__module__.startswith("websockets")


class Redact(logging.Filter):
    """Rewrites a record so that no key or private intent field is logged (the module's
    docstring); never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == BAD_UTF8 and record.exc_info:  # a client's doing: one line
            record.msg = "invalid UTF-8 in a text frame from a client; closed (1007)"
            record.args = None
            record.exc_info = None
            record.exc_text = None
            return True
        args = record.args
        if isinstance(args, tuple) and any(_is_frame(a) for a in args):
            record.args = tuple(_frame_summary(a) if _is_frame(a) else a for a in args)
        try:
            message = record.getMessage()
        except Exception:  # a broken record: logging reports it; show nothing of it
            message = str(record.msg)
        record.msg = redact(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


FILTER = Redact()


def install() -> None:
    """Put :data:`FILTER` on every logger of :data:`LOGGERS` (once; a filter stays through
    uvicorn's own logging set-up)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if FILTER not in logger.filters:
            logger.addFilter(FILTER)
