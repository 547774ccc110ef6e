"""Message tables (one per language) and rendering a key with its parameters.

Tables are JSON objects of ``key → template``. The shared keys live in
``raceday/present/messages/<lang>.json``; a game's own keys live in its package, in
``messages/<lang>.json``, and are reached as ``"<game>.<key>"``. A template names its
parameters in braces, ``"{rider} wins by {gap} seconds"``; a parameter that is itself a
message (``{"key": ..., "params": {...}}``) is rendered first, a list is joined with the
language's separator; true and false read "yes" and "no", None reads as nothing, and any
other mapping shows as compact JSON (a template should not name one). A key may come in
plural forms, ``<key>.one`` and ``<key>.other``, chosen by the count ``n`` among the
parameters ("1 point", "2 points"); a key counted by another parameter names it after the
form, ``<key>.one@past`` and ``<key>.other@past`` ("by 1 square", "by 2 squares"). A count is
a number or a number's text ("1,200"); a key with forms but no count reads its ``other``
form. A language without plurals gives both forms the same text.
The browser's ``present.js`` follows exactly these rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from raceday.core.discovery import asset_folder, game_packages
from raceday.core.errors import RacedayError, word_refusals_with
from raceday.core.errors import refusal as refusal  # made in the core; the faces' name
from raceday.core.events import Event, Message

if TYPE_CHECKING:
    from raceday.core.protocol import Action, Outcome, State

LANGUAGES = ("en", "ja")
FALLBACK = "en"
SEPARATORS = {"en": ", ", "ja": "、"}
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
SHARED = Path(__file__).parent / "messages"
COUNT = "n"  # the parameter that chooses a key's plural form, unless the form names another
COUNTED_BY = "@"  # "<key>.one@past": the form chosen by the parameter "past"
PLURALS = ("one", "other")


class MessageTableError(RacedayError):
    """A message table that cannot be read (bad JSON, a value that is not text)."""


def _read(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MessageTableError(f"message table {path}: {exc}") from None
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise MessageTableError(f"message table {path}: must map keys to text")
    return data


class MessageTable:
    """All keys of one language: the shared ones and every game's, prefixed by its name."""

    def __init__(self, lang: str, entries: Mapping[str, str]) -> None:
        self.lang = lang
        self.entries = dict(entries)
        self._plain = {plain_key(key) for key in self.entries}  # keys of plural forms

    @classmethod
    def load(cls, lang: str) -> MessageTable:
        if lang not in LANGUAGES:
            raise MessageTableError(
                f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
        entries: dict[str, str] = {}
        shared = SHARED / f"{lang}.json"
        if shared.is_file():
            entries.update(_read(shared))
        for game in game_packages():
            folder = asset_folder(game, "messages")
            if folder is not None and (folder / f"{lang}.json").is_file():
                own = _read(folder / f"{lang}.json")
                entries.update({f"{game}.{key}": text for key, text in own.items()})
        return cls(lang, entries)

    def template(self, key: str, game: str | None = None) -> str | None:
        """The template of ``key`` (a game's own key first, when ``game`` is given)."""
        if game is not None and f"{game}.{key}" in self.entries:
            return self.entries[f"{game}.{key}"]
        return self.entries.get(key)

    def has(self, key: str) -> bool:
        """True if ``key`` has words here: the key itself or one of its plural forms."""
        return key in self.entries or key in self._plain

    def to_json(self) -> dict[str, str]:
        return dict(self.entries)


@cache
def table(lang: str) -> MessageTable:
    """The message table of ``lang`` (loaded once)."""
    return MessageTable.load(lang)


def _value(value: Any, lang: str, game: str | None) -> str:
    if isinstance(value, Message):
        return render(value, lang, game)
    if isinstance(value, Mapping):  # a message renders; any other mapping shows as JSON
        if isinstance(value.get("key"), str):
            return render(value, lang, game)
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, list | tuple):
        return SEPARATORS.get(lang, ", ").join(_value(v, lang, game) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


NUMBER_TEXT = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")  # "1,200", "1", "2.5"


def plural_form(count: Any) -> str | None:
    """The plural form (``"one"`` or ``"other"``) a count chooses; None for a parameter
    that is neither a number nor a number's text."""
    if isinstance(count, str) and NUMBER_TEXT.fullmatch(count):
        count = float(count.replace(",", ""))
    if isinstance(count, bool) or not isinstance(count, int | float):
        return None
    return "one" if count == 1 else "other"


PLURAL_FORM = re.compile(r"\.(?:one|other)(?:@[A-Za-z_][A-Za-z0-9_]*)?$")


def plain_key(key: str) -> str:
    """The key a plural form belongs to (``"event.lineup"`` for ``"event.lineup.one@to_go"``);
    any other key itself."""
    return PLURAL_FORM.sub("", key)


def plural_key(key: str, form: str, count: str = COUNT) -> str:
    """The key of ``key``'s plural ``form`` chosen by the parameter ``count``:
    ``<key>.one`` for ``n``, ``<key>.one@<count>`` for any other."""
    return f"{key}.{form}" if count == COUNT else f"{key}.{form}{COUNTED_BY}{count}"


def _template(key: str, params: Mapping[str, Any], lang: str, game: str | None
              ) -> str | None:
    """``key``'s template in ``lang``: its plural form for a count among the parameters
    (``n`` first, then the others in order) where the table has one, else the key itself,
    else its ``other`` form (a count that is missing or no number)."""
    names = sorted(params, key=lambda name: name != COUNT)
    for name in names:
        form = plural_form(params[name])
        if form is not None:
            found = table(lang).template(plural_key(key, form, name), game)
            if found is not None:
                return found
    found = table(lang).template(key, game)
    for name in [COUNT, *names]:
        if found is None:
            found = table(lang).template(plural_key(key, "other", name), game)
    return found


def render(message: Message | Mapping[str, Any] | str, lang: str = "en",
           game: str | None = None, params: Mapping[str, Any] | None = None) -> str:
    """``message`` (a Message, its JSON form ``{"key", "params"}``, or a key with
    ``params``) in ``lang``: its template with the parameters filled in. A key missing in
    ``lang`` falls back to English, and a key missing everywhere renders as itself."""
    if isinstance(message, str):
        message = Message(message, params or {})
    elif not isinstance(message, Message):
        message = Message(str(message["key"]), message.get("params") or {})
    values = message.params
    template = _template(message.key, values, lang, game)
    if template is None and lang != FALLBACK:
        template = _template(message.key, values, FALLBACK, game)
    if template is None:
        return message.key

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        return _value(values[name], lang, game) if name in values else match.group(0)

    return PLACEHOLDER.sub(fill, template)


def describe_event(game: str, event: Event, lang: str = "en") -> str:
    """One event as a sentence: ``<game>.event.<kind>`` filled with the event's data.

    A fact that is ``True`` may word the event otherwise: ``event.<kind>.<fact>`` (say
    ``event.roll.fall``) is used when a table has it; the first such fact wins."""
    return render(Message(event_key(game, event.key, event.params, lang), event.params),
                  lang, game)


def event_key(game: str, key: str, params: Mapping[str, Any], lang: str = FALLBACK) -> str:
    """The key an event of ``key`` is worded by: ``<key>.<fact>`` for the first fact that
    is ``True`` and has a template (in ``lang`` or English), else ``key`` itself."""
    for fact, value in params.items():
        variant = f"{key}.{fact}"
        if value is True and (_template(variant, params, lang, game) is not None
                              or _template(variant, params, FALLBACK, game) is not None):
            return variant
    return key


def outcome_message(outcome: Outcome) -> Message:
    """The result as a message: the outcome's own, else its termination's key."""
    return outcome.message or Message(f"termination.{outcome.termination}",
                                      {"winner": outcome.winner})


def describe_outcome(game: str, outcome: Outcome, lang: str = "en") -> str:
    """The result as a sentence: the outcome's message, else its termination's key."""
    return render(outcome_message(outcome), lang, game)


def describe_events(game: str, events: Iterable[Event], lang: str = "en") -> list[str]:
    """Each event as a sentence, in order (what a terminal prints after a move)."""
    return [describe_event(game, event, lang) for event in events]


def describe_result(state: State, lang: str = "en") -> str:
    """How a finished game ended, as a sentence (:class:`GameNotOverError` before the end)."""
    return describe_outcome(state.game_name, state.outcome(), lang)


def describe_action(state: State, action: Action, lang: str = "en") -> str:
    """What ``action`` means in ``state``, in ``lang``."""
    return render(state.action_message(action), lang, state.game_name)


def _english(message: Message) -> str:
    """A refusal's text: ``message`` rendered in English (looked up when called, so a
    replaced :func:`render` or :func:`table` words it too)."""
    return render(message, FALLBACK)


# Refusals are made in the core (:func:`raceday.core.errors.refusal`, so that rules need
# not import this layer); their English text is worded here, by the tables.
word_refusals_with(_english)
