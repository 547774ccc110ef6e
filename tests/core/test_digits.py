"""The one parser of typed numbers refuses everything but ASCII digits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from raceday.core.digits import ascii_int, is_ascii_digits


def test_plain_digits_parse() -> None:
    assert ascii_int("42") == 42
    assert ascii_int(" 7 ") == 7
    assert ascii_int("007") == 7


def test_lookalike_digits_are_refused() -> None:
    for text in ["³", "1³", "٣", "١٢", "𝟓", "①", "Ⅻ", "", " ", "-1", "+1", "1.0", "1_000"]:
        assert ascii_int(text) is None, text
        assert not is_ascii_digits(text.strip()), text


def test_length_is_bounded() -> None:
    assert ascii_int("9" * 18) == 10**18 - 1
    assert ascii_int("9" * 19) is None
    assert ascii_int("12345", max_digits=4) is None


@settings(deadline=None)  # Hypothesis's default 200 ms a case is a wall clock
@given(st.text(max_size=30))
def test_never_raises_and_agrees_with_int(text: str) -> None:
    value = ascii_int(text)
    if value is not None:
        assert value == int(text.strip())
        assert all(ch in "0123456789" for ch in text.strip())
