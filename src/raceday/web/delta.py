"""Deltas on the wire: the difference between two JSON views as an RFC 6902 JSON Patch.

The party server sends a client that asked for it (``"delta": true`` in its hello) each
update as a patch turning the view it was sent last into the new one, instead of the whole
view (see :mod:`raceday.web.wire`). This module is the reference of that format, in Python:

* :func:`diff` ``(old, new)`` → a list of operations, each ``{"op": "add" | "remove" |
  "replace", "path": pointer[, "value": v]}`` with RFC 6901 JSON Pointer paths (``~0`` for
  ``~``, ``~1`` for ``/``), such that ``apply_patch(old, diff(old, new)) == new``. Equal
  parts cost nothing but a comparison; the work is linear in the size of the two values.
  Values are compared as JSON: ``1``, ``1.0`` and ``true`` differ.
* :func:`apply_patch` ``(doc, ops)`` → the patched document; ``doc`` itself is left as it
  was (only the objects and arrays on the patched paths are copied). A patch that does not
  fit the document raises :class:`PatchError`.

The pages apply the same patches with ``static/js/delta.js`` (tests check both agree).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from raceday.web.jsontext import dumps as _text  # JSON as the server sends a patch
from raceday.web.jsontext import loads

__all__ = ["PatchError", "apply_patch", "diff", "diff_members", "pointer"]

Op = dict[str, Any]
_CONTAINERS = (dict, list, tuple)  # a tuple is a JSON array too


class PatchError(ValueError):
    """A patch that cannot be applied to the document it was given."""


def _escape(key: str) -> str:
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def pointer(*parts: str | int) -> str:
    """The JSON Pointer of a path of keys and indices (``pointer("a", 0) == "/a/0"``)."""
    return "".join("/" + _escape(str(p)) for p in parts)


def diff(old: Any, new: Any) -> list[Op]:
    """The JSON Patch turning ``old`` into ``new`` (both JSON values: dicts with string
    keys, lists, strings, numbers, booleans, None); empty when they are the same."""
    ops: list[Op] = []
    _diff(old, new, "", ops)
    return ops


def diff_members(old: Mapping[str, str], new: Mapping[str, str]) -> list[Op]:
    """:func:`diff` of two objects given member by member as JSON text (``{key: text}``, as
    :func:`raceday.web.jsontext.dumps` writes each value): the same operations, but a
    member whose text did not change costs one comparison of strings, and only the members
    that changed are read back to be compared inside. (The party server keeps each view
    it sent so and sends each update as the patch from it.)"""
    ops: list[Op] = []
    for key, was in old.items():
        now = new.get(key)
        if now is None:
            ops.append({"op": "remove", "path": f"/{_escape(key)}"})
        elif now != was:
            _diff(loads(was), loads(now), f"/{_escape(key)}", ops)
    for key, now in new.items():
        if key not in old:
            ops.append({"op": "add", "path": f"/{_escape(key)}", "value": loads(now)})
    return ops


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON. Python's ``==`` (C speed) takes ``1``, ``1.0`` and ``True`` for one
    value; JSON does not, so objects and arrays that are ``==`` are also compared as JSON
    text, which keeps each value's type (texts that differ for other reasons, such as the
    order of keys, only make the caller look inside)."""
    kind = type(a)
    if kind is not type(b) or a != b:
        return False
    return kind not in _CONTAINERS or _text(a) == _text(b)


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    kind = type(old)
    if kind is not type(new):
        ops.append({"op": "replace", "path": path, "value": new})
    elif kind is dict or kind is list:
        if not _same(old, new):
            _diff_inside(old, new, path, ops)
    elif old != new or (kind is tuple and not _same(old, new)):
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_inside(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    """The ops for the parts of two objects or two arrays that differ, or one ``replace``
    of the whole (not of the root) where that is shorter, as a list emptied or an object
    whose every member changed."""
    start = len(ops)
    if type(old) is dict:
        _diff_dict(old, new, path, ops)
    else:
        _diff_list(old, new, path, ops)
    if path and len(ops) - start > 1:
        whole = len(_text(new)) + len(path) + 30  # {"op":"replace","path":..,"value":..}
        if whole < len(_text(ops[start:])):
            del ops[start:]
            ops.append({"op": "replace", "path": path, "value": new})


def _diff_dict(old: dict[str, Any], new: dict[str, Any], path: str, ops: list[Op]) -> None:
    same_keys = old.keys() == new.keys()
    for key, was in old.items():
        if not same_keys and key not in new:
            ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
            continue
        now = new[key]
        if was is now:
            continue
        kind = type(was)
        if kind is not type(now):
            ops.append({"op": "replace", "path": f"{path}/{_escape(key)}", "value": now})
        elif kind is dict or kind is list:
            if not _same(was, now):
                _diff_inside(was, now, f"{path}/{_escape(key)}", ops)
        elif was != now or (kind is tuple and not _same(was, now)):
            ops.append({"op": "replace", "path": f"{path}/{_escape(key)}", "value": now})
    if not same_keys:
        for key, now in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": now})


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    n_old, n_new = len(old), len(new)
    moved: list[Op] | None = None
    # a list that moved along (items added at the front, or the oldest dropped: a feed of
    # recent events) may be a few adds and removes rather than a change of every item
    if n_old and n_new and not _same(old[0], new[0]):
        shift = _shift(old, new)
        if shift is not None:
            moved = []
            front, back = shift
            for i in range(front - 1, -1, -1):  # drop the first ``front`` old items
                moved.append({"op": "remove", "path": f"{path}/{i}"})
            for i in range(back):  # put the first ``back`` new items in front
                moved.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
            rest = n_old - front
            middle = new[back:back + rest]
            for i in range(min(rest, len(middle))):
                _diff(old[front + i], middle[i], f"{path}/{back + i}", moved)
            for i in range(back + rest, n_new):
                moved.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
            for i in range(n_old - front + back - 1, n_new - 1, -1):
                moved.append({"op": "remove", "path": f"{path}/{i}"})
    start = len(ops)
    common = min(n_old, n_new)
    for i in range(common):
        was, now = old[i], new[i]
        if was is not now:
            _diff(was, now, f"{path}/{i}", ops)
    for i in range(common, n_new):
        ops.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
    for i in range(n_old - 1, n_new - 1, -1):
        ops.append({"op": "remove", "path": f"{path}/{i}"})
    if moved is not None and len(_text(moved)) < len(_text(ops[start:])):
        ops[start:] = moved  # the shorter of the two


SHIFT_LIMIT = 4  # how far a list may have moved along to be patched as a move


def _shift(old: list[Any], new: list[Any]) -> tuple[int, int] | None:
    """(front, back): ``old`` without its first ``front`` items starts ``new`` after its
    first ``back`` items (one of them 0), for a small move; None when it did not move so."""
    for k in range(1, min(SHIFT_LIMIT, len(new) - 1) + 1):
        if _same(new[k], old[0]) and _starts(new, k, old, 0):
            return 0, k  # k items were added in front
    for k in range(1, min(SHIFT_LIMIT, len(old) - 1) + 1):
        if _same(old[k], new[0]) and _starts(old, k, new, 0):
            return k, 0  # the first k items were dropped
    return None


def _starts(a: list[Any], i: int, b: list[Any], j: int) -> bool:
    """Whether the second items of the two runs agree too (where both have one)."""
    return i + 1 >= len(a) or j + 1 >= len(b) or _same(a[i + 1], b[j + 1])


def _parse(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"not a JSON Pointer: {path!r}")
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def _index(token: str, size: int, *, end: bool) -> int:
    """An array index of a pointer: digits without a leading zero, within the array (or
    one past its end, or ``-``, where ``end`` allows it)."""
    if token == "-" and end:
        return size
    if not token.isdigit() or not token.isascii() or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"not an array index: {token!r}")
    i = int(token)
    if i > size or (i == size and not end):
        raise PatchError(f"array index {i} out of range")
    return i


def apply_patch(doc: Any, ops: Sequence[Mapping[str, Any]], *, in_place: bool = False
                ) -> Any:
    """``doc`` with the JSON Patch ``ops`` (add, remove, replace) applied, as a new value:
    ``doc`` is not changed. Raises :class:`PatchError` if an op does not fit. With
    ``in_place``, ``doc``'s containers are changed instead of copied (as a page patches
    the one view it holds; after a PatchError ``doc`` may be half patched)."""
    own = _as_is if in_place else _own
    copied: dict[int, Any] = {}  # the containers this patch copied already (by id; kept
    # alive here so no id is reused): these it changes in place
    root = doc
    for op in ops:
        if not isinstance(op, Mapping):
            raise PatchError("an operation is not an object")
        kind, path = op.get("op"), op.get("path")
        if not isinstance(path, str):
            raise PatchError("an operation has no path")
        if kind not in ("add", "remove", "replace"):
            raise PatchError(f"unknown operation {kind!r}")
        if kind != "remove" and "value" not in op:
            raise PatchError(f"{kind} without a value")
        tokens = _parse(path)
        if not tokens:
            if kind == "remove":
                raise PatchError("cannot remove the whole document")
            root = op["value"]
            copied.clear()
            continue
        root = own(root, copied)
        parent = root
        for token in tokens[:-1]:
            if isinstance(parent, dict):
                if token not in parent:
                    raise PatchError(f"no member {token!r} on the path {path!r}")
                child = parent[token] = own(parent[token], copied)
            elif isinstance(parent, list):
                i = _index(token, len(parent), end=False)
                child = parent[i] = own(parent[i], copied)
            else:
                raise PatchError(f"the path {path!r} goes through a value")
            parent = child
        last = tokens[-1]
        if isinstance(parent, dict):
            if kind != "add" and last not in parent:
                raise PatchError(f"no member {last!r} to {kind}")
            if kind == "remove":
                del parent[last]
            else:
                parent[last] = op["value"]
        elif isinstance(parent, list):
            i = _index(last, len(parent), end=kind == "add")
            if kind == "add":
                parent.insert(i, op["value"])
            elif kind == "remove":
                del parent[i]
            else:
                parent[i] = op["value"]
        else:
            raise PatchError(f"the path {path!r} ends in a value")
    return root


def _as_is(value: Any, copied: dict[int, Any]) -> Any:
    return value


def _own(value: Any, copied: dict[int, Any]) -> Any:
    """``value`` itself if this patch made it, else a shallow copy this patch may change."""
    if id(value) in copied or not isinstance(value, dict | list):
        return value
    mine = dict(value) if isinstance(value, dict) else list(value)
    copied[id(mine)] = mine
    return mine
