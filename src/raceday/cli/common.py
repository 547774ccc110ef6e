"""Pieces shared by every game's commands: consoles, progress bars, errors, pacing."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

PROGRESS_THRESHOLD = 2_000  # runs shorter than this finish before a bar is worth drawing


def print_json(data: Any) -> None:
    """Print one JSON object on stdout (plain, for piping into other programs)."""
    sys.stdout.write(json.dumps(data, sort_keys=False) + "\n")
    sys.stdout.flush()


@contextmanager
def progress_bar(description: str, total: int, *, enabled: bool = True) -> Iterator[Progress]:
    """A progress bar on stderr; hidden when ``enabled`` is false."""
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        disable=not enabled,
        transient=True,
    )
    with progress:
        progress.add_task(description, total=total)
        yield progress


def default_delay(requested: float | None, interactive_default: float = 0.6) -> float:
    """The pause between turns: as requested, else a short pause only on a terminal."""
    if requested is not None:
        return max(0.0, requested)
    return interactive_default if console.is_terminal else 0.0


def pause(seconds: float) -> None:
    if seconds > 0:
        time.sleep(seconds)
