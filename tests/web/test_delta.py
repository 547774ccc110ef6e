"""The JSON Patch reference (raceday.web.delta): a patch from diff() turns the old value
into the new one exactly (as JSON: 1, 1.0 and true differ), leaves the old value alone,
and a patch that does not fit is refused with PatchError, never another exception."""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raceday.web.delta import PatchError, apply_patch, diff, diff_members, pointer
from raceday.web.jsontext import dumps

# Few keys and small values, so two drawn values often share their shape and the patches
# reach inside objects and arrays; "~" and "/" keys need escaping in a pointer.
KEYS = st.sampled_from(["a", "b", "c", "~", "/", "a/b~c", "~1", "", "0"])
SCALARS = (st.none() | st.booleans() | st.integers(-2, 2) | st.sampled_from([0.0, 1.0, 2.5])
           | st.sampled_from(["", "x", "y"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=6)
                      | st.dictionaries(KEYS, inner, max_size=5), max_leaves=30)


def exact(value: Any) -> str:
    """A value as JSON text with sorted keys: equal only if equal as JSON."""
    return json.dumps(value, sort_keys=True)


@settings(max_examples=400, deadline=None)
@given(VALUES, VALUES)
def test_a_patch_turns_the_old_value_into_the_new(old: Any, new: Any) -> None:
    before = copy.deepcopy(old)
    ops = diff(old, new)
    assert exact(apply_patch(old, ops)) == exact(new)
    assert exact(old) == exact(before)  # neither diff nor apply_patch changed it
    assert all(set(op) <= {"op", "path", "value"} and op["op"] in ("add", "remove", "replace")
               for op in ops)
    json.dumps(ops)  # a patch is JSON


@settings(max_examples=300, deadline=None)
@given(VALUES, VALUES)
def test_a_patch_applied_in_place_gives_the_same_value(old: Any, new: Any) -> None:
    """in_place (as a page holds one view) gives what the copying apply gives."""
    ops = diff(old, new)
    expected = exact(apply_patch(old, ops))
    assert exact(apply_patch(copy.deepcopy(old), ops, in_place=True)) == expected


def test_a_patch_applied_in_place_changes_the_document_it_is_given() -> None:
    doc = {"a": {"b": [1, 2]}, "c": 1}
    inner = doc["a"]
    out = apply_patch(doc, [{"op": "replace", "path": "/a/b/0", "value": 9}], in_place=True)
    assert out is doc and doc["a"] is inner and inner["b"] == [9, 2]


OBJECTS = st.dictionaries(KEYS, VALUES, max_size=6)


@settings(max_examples=400, deadline=None)
@given(OBJECTS, OBJECTS)
def test_a_patch_of_encoded_members_is_the_patch_of_the_objects(old: Any, new: Any) -> None:
    """diff_members, given each member as JSON text, makes the very ops diff makes."""
    ops = diff_members({k: dumps(v) for k, v in old.items()},
                       {k: dumps(v) for k, v in new.items()})
    assert exact(ops) == exact(diff(old, new))
    assert exact(apply_patch(old, ops)) == exact(new)


def test_encoded_members_keep_numbers_and_booleans_apart() -> None:
    old = {"a": [1, {"b": 1}, "a long text the patch does not repeat" * 4], "c": 0}
    new = {"a": [1.0, {"b": True}, "a long text the patch does not repeat" * 4], "c": 0}
    ops = diff_members({k: dumps(v) for k, v in old.items()},
                       {k: dumps(v) for k, v in new.items()})
    assert ops == [{"op": "replace", "path": "/a/0", "value": 1.0},
                   {"op": "replace", "path": "/a/1/b", "value": True}]
    assert exact(apply_patch(old, ops)) == exact(new)


@settings(max_examples=200, deadline=None)
@given(VALUES, st.data())
def test_a_value_changed_in_one_place_is_a_small_patch(old: Any, data: st.DataObject) -> None:
    new = copy.deepcopy(old)
    target = new
    while isinstance(target, dict | list) and target and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(target) if isinstance(target, dict)
                                        else range(len(target))))
        if not isinstance(target[key], dict | list):
            target[key] = data.draw(SCALARS)
            break
        target = target[key]
    ops = diff(old, new)
    assert exact(apply_patch(old, ops)) == exact(new)
    assert len(ops) <= 1


def test_equal_values_make_an_empty_patch() -> None:
    view = {"a": [1, {"b": None}], "c": "x"}
    assert diff(view, copy.deepcopy(view)) == []
    assert apply_patch(view, []) == view


@pytest.mark.parametrize(("old", "new"), [
    ({"a": 1}, {"a": True}), ({"a": [0]}, {"a": [False]}), ({"a": {"b": 1}}, {"a": {"b": 1.0}}),
    ([1, 2], [True, 2]), ({"a": (1, 2)}, {"a": (True, 2)}), ((0,), (False,)),
])
def test_numbers_and_booleans_are_not_taken_for_each_other(old: Any, new: Any) -> None:
    ops = diff(old, new)
    assert len(ops) == 1
    assert exact(apply_patch(old, ops)) == exact(new)


def test_the_ops_are_rfc_6902_with_escaped_pointers() -> None:
    old = {"a/b": 1, "m~n": [1, 2, 3], "gone": 0}
    new = {"a/b": 2, "m~n": [1, 2], "new": {"x": 1}}
    ops = diff(old, new)
    assert {"op": "replace", "path": "/a~1b", "value": 2} in ops
    assert {"op": "remove", "path": "/m~0n/2"} in ops
    assert {"op": "remove", "path": "/gone"} in ops
    assert {"op": "add", "path": "/new", "value": {"x": 1}} in ops
    assert apply_patch(old, ops) == new
    assert pointer("a/b", "m~n", 0) == "/a~1b/m~0n/0"


def test_a_list_that_moved_along_is_a_few_ops() -> None:
    feed = [{"n": i, "text": f"event {i}"} for i in range(10)]
    newer = [{"n": 10, "text": "event 10"}, *feed[:9]]  # newest first, the oldest drops
    ops = diff(feed, newer)
    assert apply_patch(feed, ops) == newer
    assert len(ops) == 2  # add one in front, remove one at the end
    appended = [*feed[1:], {"n": 10, "text": "event 10"}]  # oldest first
    ops = diff(feed, appended)
    assert apply_patch(feed, ops) == appended
    assert len(ops) == 2


def test_apply_patch_takes_the_rfc_examples() -> None:
    doc = {"foo": ["bar", "baz"]}
    assert apply_patch(doc, [{"op": "add", "path": "/foo/1", "value": "qux"}]) == {
        "foo": ["bar", "qux", "baz"]}
    assert apply_patch(doc, [{"op": "add", "path": "/foo/-", "value": "qux"}]) == {
        "foo": ["bar", "baz", "qux"]}
    assert apply_patch(doc, [{"op": "remove", "path": "/foo/0"}]) == {"foo": ["baz"]}
    assert apply_patch(doc, [{"op": "replace", "path": "", "value": 3}]) == 3
    assert doc == {"foo": ["bar", "baz"]}


@pytest.mark.parametrize("ops", [
    [{"op": "remove", "path": "/nope"}],
    [{"op": "replace", "path": "/foo/2", "value": 1}],
    [{"op": "add", "path": "/foo/3", "value": 1}],
    [{"op": "add", "path": "/foo/01", "value": 1}],
    [{"op": "add", "path": "/foo/bar/x", "value": 1}],
    [{"op": "add", "path": "/n/x", "value": 1}],
    [{"op": "add", "path": "foo", "value": 1}],
    [{"op": "move", "from": "/foo", "path": "/bar"}],
    [{"op": "add", "path": "/x"}],
    [{"op": "remove", "path": ""}],
    [{"path": "/foo"}],
    ["add"],
])
def test_a_patch_that_does_not_fit_is_refused(ops: list[Any]) -> None:
    doc = {"foo": ["bar", "baz"], "n": 1}
    with pytest.raises(PatchError):
        apply_patch(doc, ops)
    assert doc == {"foo": ["bar", "baz"], "n": 1}


@settings(max_examples=300, deadline=None)
@given(VALUES, st.lists(st.fixed_dictionaries(
    {"op": st.sampled_from(["add", "remove", "replace", "copy"]),
     "path": st.lists(KEYS | st.sampled_from(["0", "1", "-", "01"]), max_size=3).map(
         lambda parts: "".join("/" + p for p in parts))},
    optional={"value": SCALARS}), max_size=4))
def test_any_patch_is_applied_or_refused(doc: Any, ops: list[dict[str, Any]]) -> None:
    before = exact(doc)
    with contextlib.suppress(PatchError):
        apply_patch(doc, ops)
    assert exact(doc) == before
