"""Exceptions a user can cause. Each names the problem; the CLI prints it and exits 2.

A refusal in words from the tables is made here, by :func:`refusal` (and
:func:`illegal_action` for an action), so that a game's rules can refuse something without
importing the presentation layer. Its English text is worded by the wording
:func:`word_refusals_with` installed: :mod:`raceday.present.messages`
installs its renderer when it is imported, and :mod:`raceday.games` imports it, so every
game's refusal reads exactly as the tables word it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from raceday.core.events import Message

Wording = Callable[[Message], str]
"""A message worded in English (the text of a refusal)."""


class RacedayError(ValueError):
    """Base class for every error caused by bad input (options, files, moves).

    Its text is English; one raised with :func:`refusal` also carries
    ``message``, the same refusal as a message key and parameters, which a face words in
    its reader's language (None: the text is all there is)."""

    message: Message | None = None


ErrorT = TypeVar("ErrorT", bound=RacedayError)

_english: Wording | None = None


def word_refusals_with(english: Wording) -> None:
    """Word the text of every later :func:`refusal` with ``english`` (the presentation
    layer installs its renderer of the English tables)."""
    global _english
    _english = english


def refusal(error: type[ErrorT], key: str, /, **params: Any) -> ErrorT:
    """An exception of class ``error`` that refuses something in words from the tables:
    its text is ``key`` (a game's own written ``"<game>.<key>"``) rendered in English with
    ``params``, and it carries the message, so a face words it in its reader's language.

    The English comes from the wording :func:`word_refusals_with` installed; before any
    is (the presentation layer never imported), the text is the key itself, as a key
    missing from every table renders."""
    message = Message(key, params)
    exception = error(_worded(message))
    exception.message = message
    return exception


def illegal_action(action: object, key: str, /, **params: Any) -> IllegalActionError:
    """An :class:`IllegalActionError` refusing ``action`` in words from the tables, as
    :func:`refusal` words its exceptions (English text, the message carried)."""
    message = Message(key, params)
    error = IllegalActionError(action, _worded(message))
    error.message = message
    return error


def _worded(message: Message) -> str:
    """``message`` in English, or its key before any wording is installed."""
    return _english(message) if _english is not None else message.key


class OptionsError(RacedayError):
    """An option is outside what the game allows."""


class IllegalActionError(RacedayError):
    """An action or chance outcome that is not legal in the current state."""

    def __init__(self, action: object, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")


class SaveFormatError(RacedayError):
    """A saved state, session or file that cannot be read back."""


class InputFileError(RacedayError):
    """A user-written input file (route, peloton, track, ...) that does not validate."""


class BetError(RacedayError):
    """A bet, stake or bid the rules refuse (the message says why and what is allowed)."""


class GameNotOverError(RacedayError):
    """A result was asked of a game that has not ended yet."""

    def __init__(self, game: str = "the game") -> None:
        super().__init__(f"{game} is not over yet: there is no result before the end")
