"""The one input layer under every prompt: :func:`ask`.

At a terminal it reads with prompt_toolkit (line editing, history per prompt kind, completion
of the prompt's legal words); from a pipe or a script it reads plain lines, exactly as before,
so tests and scripts keep working. Secret answers are never echoed and never kept.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from raceday.terminal.surface import Prompt


def ask(prompt: Prompt, *, console: Console | None = None) -> str:
    """One answer to ``prompt``; EOFError at the end of input."""
    from raceday.terminal.common import console as shared_console

    out = console or shared_console
    if prompt.secret and sys.stdin.isatty():
        import getpass

        return getpass.getpass(prompt.text)
    return out.input(prompt.text)
