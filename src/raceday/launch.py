"""The ``raceday`` console script.

Kept free of heavy imports: a request that has a fast start is answered before the full
command line (:mod:`raceday.cli.main`) is imported: ``raceday keirin odds`` by
:mod:`raceday.games.keirin.quick`, the root help (``raceday --help`` or a bare
``raceday``) by :mod:`raceday.cli._quick_help` with Rich alone. Everything else, and
anything those leave to it, goes to the full command line unchanged.
"""

from __future__ import annotations

import sys

HELP_ONLY: tuple[list[str], ...] = ([], ["--help"])


def main() -> None:
    """Run the command line and exit with its code."""
    if sys.argv[1:3] == ["keirin", "odds"]:
        from raceday.games.keirin.quick import run

        code = run(sys.argv[1:])
        if code is not None:
            sys.exit(code)
    if sys.argv[1:] in HELP_ONLY:
        from raceday.cli._quick_help import run as quick_help

        code = quick_help(sys.argv[1:])
        if code is not None:
            sys.exit(code)
    from raceday.cli.main import main as full_main

    full_main()
