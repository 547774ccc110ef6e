"""The ``raceday`` console script.

Kept free of heavy imports: a request that has a fast start (today ``raceday keirin odds``,
see :mod:`raceday.games.keirin.quick`) is answered before the full command line
(:mod:`raceday.cli.main`) is imported; everything else goes to it unchanged.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run the command line and exit with its code."""
    if sys.argv[1:3] == ["keirin", "odds"]:
        from raceday.games.keirin.quick import run

        code = run(sys.argv[1:])
        if code is not None:
            sys.exit(code)
    from raceday.cli.main import main as full_main

    full_main()
