"""ASCII digits only: the one parser of whole numbers typed or sent by people.

``str.isdigit()`` and ``int()`` accept far more than 0-9: superscripts (``'³'.isdigit()``
is true, yet ``int('³')`` fails) and other scripts' digits (``int('٣')`` is 3). Everything a
person types at a prompt, in a query string or in a file goes through here, so a number is
always plain ASCII digits of a bounded length.
"""

from __future__ import annotations

MAX_DIGITS = 18  # below 2**63: fits SQLite, numpy's int64 and JSON consumers


def is_ascii_digits(text: str, *, max_digits: int = MAX_DIGITS) -> bool:
    """True if ``text`` is 1 to ``max_digits`` ASCII digits 0-9 and nothing else."""
    return 0 < len(text) <= max_digits and text.isascii() and text.isdigit()


def ascii_int(text: str, *, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number ``text`` spells in ASCII digits (surrounding spaces allowed), or None
    if it is anything else: empty, signed, non-ASCII digits, or longer than ``max_digits``."""
    text = text.strip()
    return int(text) if is_ascii_digits(text, max_digits=max_digits) else None
