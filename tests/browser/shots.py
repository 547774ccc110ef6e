"""Screenshots a test takes for a person to look at: kept only when ``RACEDAY_SHOTS`` names
a folder (the suite checks pages by their content; encoding a PNG nobody opens cost the
browser a third of a second a shot). ``make screenshots`` takes the full set."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def keep_shot(page: Any, name: str, *, full_page: bool = False) -> Path | None:
    """Save ``page`` as ``name`` in the ``RACEDAY_SHOTS`` folder if one is named; return
    its path (None when screenshots are not kept)."""
    folder = os.environ.get("RACEDAY_SHOTS")
    if not folder:
        return None
    path = Path(folder) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)
    return path
