"""The rule of session names, kept apart from the SQLite store so that commands can check a
name (and show the bound in their help) without loading the store."""

from __future__ import annotations

from raceday.core.errors import OptionsError

__all__ = ["MAX_SESSION_NAME", "check_session_name"]

MAX_SESSION_NAME = 64  # characters: listed in full by --list, typed back by --resume


def check_session_name(name: str) -> str:
    """A session name is 1 to :data:`MAX_SESSION_NAME` printable characters, not all spaces;
    :class:`OptionsError` otherwise. Every new session is saved under a checked name."""
    if not name.strip():
        raise OptionsError("a session needs a name, got an empty text")
    if len(name) > MAX_SESSION_NAME:
        raise OptionsError(f"a session name has at most {MAX_SESSION_NAME} characters, got "
                           f"{len(name):,}")
    if not name.isprintable():
        raise OptionsError("a session name must be printable characters (no tabs, line "
                           "breaks or control characters)")
    return name
