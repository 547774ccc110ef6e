"""Worker processes for long simulations."""

from __future__ import annotations

import multiprocessing
from multiprocessing.context import BaseContext


def worker_context() -> BaseContext:
    """A start method safe to use while other threads run (e.g. a progress bar's refresh
    thread): forkserver where available, else spawn; never plain fork."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
