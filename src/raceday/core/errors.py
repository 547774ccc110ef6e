"""Exceptions a user can cause. Each names the problem; the CLI prints it and exits 2."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from raceday.core.events import Message


class RacedayError(ValueError):
    """Base class for every error caused by bad input (options, files, moves).

    Its text is English; one raised with :func:`raceday.present.refusal` also carries
    ``message``, the same refusal as a message key and parameters, which a face words in
    its reader's language (None: the text is all there is)."""

    message: Message | None = None


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
