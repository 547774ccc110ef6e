"""The party server's JSON text (raceday.web.jsontext): what the standard library would
write, without spaces, also for what orjson refuses."""

from __future__ import annotations

import enum
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raceday.web import jsontext

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=5),
    max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_the_text_reads_back_as_the_standard_librarys_does(value: Any) -> None:
    text = jsontext.dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    assert jsontext.loads(text) == json.loads(text)


def test_numbers_keep_their_kind_and_keys_become_text() -> None:
    assert jsontext.dumps({"a": [1, 1.0, True, None]}) == '{"a":[1,1.0,true,null]}'
    assert jsontext.dumps({1: "x"}) == '{"1":"x"}'
    assert jsontext.dumps((1, 2)) == "[1,2]"


class Colour(enum.Enum):
    RED = "red"


class Number(int):
    pass


@pytest.mark.parametrize(("value", "expected"), [
    (2**70, str(2**70)),  # beyond 64 bits: the standard library writes it
    ({"big": [2**65]}, f'{{"big":[{2**65}]}}'),
    (Colour.RED, '"red"'),
    (Number(3), "3"),
])
def test_what_orjson_refuses_or_subclasses_are_written_as_json_would(value: Any,
                                                                      expected: str) -> None:
    assert jsontext.dumps(value) == expected


def test_text_orjson_does_not_read_is_read_by_the_standard_library() -> None:
    assert jsontext.loads("[1e400]") == [float("inf")]
