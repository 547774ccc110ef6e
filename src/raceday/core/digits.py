"""ASCII digits only: the one parser of whole numbers typed or sent by people.

``str.isdigit()`` and ``int()`` accept far more than 0-9: superscripts (``'³'.isdigit()``
is true, yet ``int('³')`` fails) and other scripts' digits (``int('٣')`` is 3). Everything a
person types at a prompt, in a query string or in a file goes through here, so a number is
always plain ASCII digits of a bounded length.

Exact rates and margins typed or sent as text (a fall rate ``"1/20"``, a margin ``"0.1"``)
go through :func:`plain_decimal`: ``Fraction`` and ``Decimal`` also read exponents, and
``Fraction("1e99999999")`` builds that number, blocking its caller for minutes. Every number
it accepts is written back by ``str`` (a save) in at most as many characters, so it reads
back the same.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

MAX_DIGITS = 18  # below 2**63: fits SQLite, numpy's int64 and JSON consumers
# characters of a decimal or fraction, typed or as str() writes it: every finite float
# written exactly (5e-324 is 1/2 followed by 323 zeros) fits; a server's requests have less
MAX_DECIMAL_TEXT = 400
_PLAIN_DECIMAL = re.compile(r"([0-9]+)(?:[.]([0-9]+)|/([0-9]+))?")


def is_ascii_digits(text: str, *, max_digits: int = MAX_DIGITS) -> bool:
    """True if ``text`` is 1 to ``max_digits`` ASCII digits 0-9 and nothing else."""
    return 0 < len(text) <= max_digits and text.isascii() and text.isdigit()


def ascii_int(text: str, *, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number ``text`` spells in ASCII digits (surrounding spaces allowed), or None
    if it is anything else: empty, signed, non-ASCII digits, or longer than ``max_digits``."""
    text = text.strip()
    return int(text) if is_ascii_digits(text, max_digits=max_digits) else None


def plain_decimal(text: str, *, max_len: int = MAX_DECIMAL_TEXT,
                  signed: bool = False) -> Fraction | None:
    """The exact number ``text`` spells as ASCII digits with an optional decimal point
    (``"0.15"``) or an optional slash (``"1/6"``), surrounding spaces allowed, and a leading
    minus if ``signed``; None for anything else: empty, a sign (unless ``signed``: then a
    minus), an exponent (``"1e6"``), ``inf``, ``nan``, underscores, other scripts' digits,
    superscripts, a zero denominator, text longer than ``max_len`` or a number ``str``
    writes in more than ``max_len`` characters (``"0.001"`` is ``1/1000``). The length
    is checked first, so no text makes this do large work."""
    if len(text) > max_len:
        return None
    text = text.strip()
    negative = signed and text.startswith("-")
    match = _PLAIN_DECIMAL.fullmatch(text[negative:]) if text.isascii() else None
    if match is None:
        return None
    whole, decimals, denominator = match.groups()
    if denominator is not None:
        if not int(denominator):
            return None
        value = Fraction(int(whole), int(denominator))
    elif decimals is not None:
        value = Fraction(int(whole + decimals), 10 ** len(decimals))
    else:
        value = Fraction(int(whole))
    value = -value if negative else value
    return value if written_within(value, max_len) else None


def written_within(value: Fraction, max_len: int) -> bool:
    """True if ``str(value)`` has at most ``max_len`` characters; a number far longer is
    told by its size in bits, without writing it (``str`` refuses ints of over 4,300
    digits)."""
    bits = value.numerator.bit_length() + value.denominator.bit_length()
    return bits <= 4 * max_len + 64 and len(str(value)) <= max_len


def plain_number(value: object, *, max_len: int = MAX_DECIMAL_TEXT,
                 signed: bool = False) -> Fraction | None:
    """An exact number from a program's value or a person's text: a Fraction or whole
    number as it is, a finite float as its shortest decimal (``0.05`` is 1/20), text (or
    anything else, by its ``str``) by :func:`plain_decimal`; None for a bool, a float that
    is not finite, text :func:`plain_decimal` refuses, or a number ``str`` writes in more
    than ``max_len`` characters (it would not read back). ``signed`` is for text only
    (program values keep their sign)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, Fraction, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        # a float's repr is at most 24 characters with an exponent within 308 or so
        exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
        return exact if written_within(exact, max_len) else None
    return plain_decimal(value if isinstance(value, str) else str(value), max_len=max_len,
                         signed=signed)
