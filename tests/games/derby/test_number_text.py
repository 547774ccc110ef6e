"""Fall rates and margins typed or sent as text are plain digits with a point or a slash.

``Fraction("1e99999999")`` builds that number (minutes of work, blocking a server), so an
exponent, like ``inf``, ``nan``, other scripts' digits and long text, is refused at once
with a message naming the accepted form. The refusals are checked, never their timing.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from raceday.cli.main import run
from raceday.core.digits import plain_decimal, plain_number
from raceday.core.errors import OptionsError
from raceday.games.derby.odds import MARGIN_TEXT, parse_margin
from raceday.games.derby.rules import FALL_RATE_TEXT, DerbyOptions, parse_fall_rate
from raceday.games.derby.session import EveningOptions

REFUSED_TEXT = [
    "1e99999999", "1e6", "1E6", "1" * 5000, "0." + "0" * 5000 + "1", "inf", "-inf",
    "Infinity", "nan", "NaN", "¹/₆", "٠.١", "０.１", "", " ", "-0.1", "+0.1", "1_0",
    "0x10", ".5", "5.", "1/", "/6", "1/0", "1.5/3", "1/2/3", "0.1.2", "1 / 6", "0,1",
]


@pytest.mark.parametrize("text", REFUSED_TEXT)
def test_plain_decimal_refuses_anything_but_digits_with_a_point_or_a_slash(text: str) -> None:
    assert plain_decimal(text) is None
    assert plain_number(text) is None


@pytest.mark.parametrize(("text", "value"), [
    ("0", Fraction(0)), ("0.15", Fraction(3, 20)), ("1/6", Fraction(1, 6)),
    (" 0.05 ", Fraction(1, 20)), ("1/20", Fraction(1, 20)), ("007", Fraction(7)),
    ("0.5", Fraction(1, 2)), ("2/4", Fraction(1, 2)),
])
def test_plain_decimal_reads_the_documented_forms_exactly(text: str, value: Fraction) -> None:
    assert plain_decimal(text) == value


def test_plain_decimal_length_is_bounded() -> None:
    assert plain_decimal("1/" + "9" * 398) is not None  # 400 characters
    assert plain_decimal("1/" + "9" * 399) is None
    assert plain_decimal("1/6", max_len=2) is None
    assert plain_decimal("0.25", max_len=4) == Fraction(1, 4)
    # what str() writes must fit too, or a save would not read back: "0.001" is "1/1000"
    assert plain_decimal("0.001", max_len=5) is None
    assert plain_decimal("0." + "1" * 38, max_len=40) is None


@pytest.mark.parametrize("value", [
    5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 1 / 3,
    "0." + "0" * 190 + "1", "12345678901234567890/98765432109876543210", Fraction(1, 10**397),
    "0." + "0" * 396 + "1",
])
def test_every_accepted_number_reads_back_from_what_str_writes(value: object) -> None:
    exact = plain_number(value)
    assert exact is not None
    assert plain_decimal(str(exact)) == exact


def test_numbers_str_cannot_write_within_the_bound_are_refused() -> None:
    assert plain_number(Fraction(1, 10**399)) is None
    assert plain_number(10**5000) is None  # beyond str()'s digits: told by its bits
    assert plain_number(Fraction(1, 10**398)) is None  # "1/1000...": 401 characters
    assert plain_number("0." + "0" * 397 + "1") is None  # 400 characters, 1/10**398


def test_plain_number_keeps_program_values() -> None:
    assert plain_number(0.05) == Fraction(1, 20)  # the decimal written, not the binary float
    assert plain_number(1e-05) == Fraction(1, 100_000)  # a float's exponent is bounded
    assert plain_number(Fraction(1, 3)) == Fraction(1, 3)
    assert plain_number(0) == 0
    for value in (True, False, float("inf"), float("nan"), None, [0.1]):
        assert plain_number(value) is None, value


@pytest.mark.parametrize("text", ["1e99999999", "1e6", "1" * 5000, "inf", "nan", "¹/₆",
                                  "-1e6", "--0.1", "1/0"])
def test_the_parsers_refuse_naming_the_accepted_form(text: str) -> None:
    for parse, words in ((parse_fall_rate, FALL_RATE_TEXT), (parse_margin, MARGIN_TEXT)):
        with pytest.raises(OptionsError) as caught:
            parse(text)
        message = str(caught.value)
        assert message.startswith(words), message
        assert "\n" not in message and len(message) < 140, message


def test_the_accepted_forms_name_fractions_and_decimals() -> None:
    assert FALL_RATE_TEXT == "a fall rate is a decimal or a fraction, such as 0.05 or 1/20"
    assert MARGIN_TEXT == "a margin is a decimal or a fraction, such as 0.1 or 1/10"
    assert parse_fall_rate("1/6") == Fraction(1, 6)
    assert parse_fall_rate("0.15") == Fraction(3, 20)
    assert parse_margin("1/10") == parse_margin("0.1") == parse_margin(0.1) == Fraction(1, 10)


@pytest.mark.parametrize(("value", "rate"), [
    (0.05, Fraction(1, 20)), ("0.05", Fraction(1, 20)), ("1/20", Fraction(1, 20)),
    (Fraction(1, 20), Fraction(1, 20)), (0, Fraction(0)), ("0", Fraction(0)),
    (" 1/6 ", Fraction(1, 6)), ("0.5", Fraction(1, 2)),
])
def test_parse_fall_rate_accepts_the_documented_forms(value: object, rate: Fraction) -> None:
    assert parse_fall_rate(value) == rate
    assert DerbyOptions.parse({"fall_rate": value}).fall_rate == rate


def test_signed_text_only_with_signed() -> None:
    assert plain_decimal("-1/10", signed=True) == Fraction(-1, 10)
    assert plain_decimal(" -0.5 ", signed=True) == Fraction(-1, 2)
    for text in ("-1/10", "+1/10"):
        assert plain_decimal(text) is None
    for text in ("+1/10", "--1", "-", "- 1", "-1e6", "-inf"):
        assert plain_decimal(text, signed=True) is None, text


def test_out_of_range_values_keep_their_own_message() -> None:
    for text in ("2", "-0.1", "-1/10"):
        with pytest.raises(OptionsError, match="fall rate must be between 0 and 1/2"):
            parse_fall_rate(text)
    with pytest.raises(OptionsError, match="fall rate must be a number from 0 to 1/2"):
        parse_fall_rate(True)
    with pytest.raises(OptionsError, match=r"margin must be between 0 and 0\.5"):
        parse_margin("0.9")
    with pytest.raises(OptionsError, match=r"\(at most 400 characters\), got a very long "):
        parse_fall_rate(10**5000)  # beyond str()'s digits: still a short message


def test_options_and_sessions_refuse_an_exponent() -> None:
    with pytest.raises(OptionsError, match="a fall rate is a decimal or a fraction"):
        DerbyOptions.parse({"fall_rate": "1e99999999"})
    with pytest.raises(OptionsError, match="a fall rate is a decimal or a fraction"):
        EveningOptions(fall_rate="1e99999999")  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="a margin is a decimal or a fraction"):
        EveningOptions(margin="1e99999999")  # type: ignore[arg-type]


@pytest.mark.parametrize("argv", [
    ["derby", "odds", "--fall-rate", "1e999999"],
    ["derby", "simulate", "--fall-rate", "1e999999", "-n", "10"],
    ["derby", "watch", "--fall-rate", "1e999999"],
    ["derby", "odds", "--margin", "1e999999"],
    ["print", "derby", "odds", "--fall-rate", "1e999999"],
])
def test_the_cli_refuses_an_exponent_in_one_line(argv: list[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code = run(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "is a decimal or a fraction, such as" in err, err
    assert out == ""
