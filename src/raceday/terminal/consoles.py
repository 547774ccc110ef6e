"""The consoles every terminal face writes to, made once, after the standard streams learn to
write ASCII stand-ins for what they cannot encode. A leaf of raceday.terminal (it imports no
other module of it), so the input layer and the surfaces can share the console without an
import cycle; :mod:`raceday.terminal.common` re-exports all of it."""

from __future__ import annotations

import sys
from typing import Any

from rich.console import Console

# ---------------------------------------------------------------------------------------
# Output that cannot encode the boards (LC_ALL=C, PYTHONIOENCODING=ascii, a latin-1 locale)
# ---------------------------------------------------------------------------------------

# The glyphs raceday and Rich draw with, and the ASCII each becomes where the output cannot
# encode it. Board glyphs keep their width (one character for one), so boards stay aligned.
ASCII_STAND_INS = {
    "—": "-", "–": "-", "−": "-", "‐": "-", "…": "...", "×": "x", "·": ".", "•": "*",
    "→": ">", "←": "<", "↑": "^", "↓": "v", "▶": ">", "◀": "<", "▲": "^", "▼": "v",
    "●": "o", "○": "o", "◆": "*", "★": "*", "☆": "*", "✓": "v", "✔": "v", "✗": "x",
    "✘": "x", "⚠": "!", "≤": "<=", "≥": ">=", "±": "+/-", "½": "1/2", "°": "o",
    "‘": "'", "’": "'", "“": '"', "”": '"', "«": '"', "»": '"', "\u00a0": " ",
    "▀": "=", "▄": "_", "█": "#", "▓": "#", "▒": ":", "░": ".", "╌": "-", "╍": "-",
}
ASCII_ERRORS = "raceday-ascii"  # the codec error handler that writes the stand-ins


def ascii_stand_in(char: str) -> str:
    """What ``char`` becomes on an output that cannot encode it: its entry in
    :data:`ASCII_STAND_INS`; else a box-drawing line or corner as | - +; else its letters
    without accents (é -> e); else '?'. Always plain ASCII."""
    import unicodedata

    if char in ASCII_STAND_INS:
        return ASCII_STAND_INS[char]
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        if "VERTICAL" in name and "HORIZONTAL" not in name:
            return "|"
        if "HORIZONTAL" in name and "VERTICAL" not in name:
            return "-"
        return "+"
    if "BLOCK" in name or name.startswith("SHADE"):
        return "#"
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    return plain if plain.isprintable() and plain.strip() else "?"


def _write_stand_ins(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start : exc.end]
    return "".join(ascii_stand_in(ch) for ch in text), exc.end


def can_encode_boards(stream: Any) -> bool:
    """Whether ``stream`` can write the glyphs the boards use (a UTF-8 terminal can; an
    ASCII or latin-1 one cannot)."""
    import codecs

    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        codecs.lookup(encoding)
        "".join(ASCII_STAND_INS).encode(encoding)
    except (LookupError, UnicodeError):
        return False
    return True


def use_ascii_stand_ins(*streams: Any) -> None:
    """Let the standard streams (or ``streams``) write what they cannot encode as ASCII
    stand-ins instead of failing with UnicodeEncodeError. A stream that can encode the
    boards is left alone. Rich sees the stream's encoding too: it then draws its tables,
    rules and bars in ASCII itself, and the stand-ins cover every other glyph."""
    import codecs

    try:
        codecs.lookup_error(ASCII_ERRORS)
    except LookupError:
        codecs.register_error(ASCII_ERRORS, _write_stand_ins)
    for stream in streams or (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and not can_encode_boards(stream):
            reconfigure(errors=ASCII_ERRORS)
    # typed text the input's encoding cannot read becomes U+FFFD, refused like any typo
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if not streams and reconfigure is not None and not can_encode_boards(sys.stdin):
        reconfigure(errors="replace")


use_ascii_stand_ins()  # every command imports this module before it writes a character

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)
