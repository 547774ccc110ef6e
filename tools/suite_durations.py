"""Write tests/durations.json from a JUnit XML report of a whole-suite run.

    .venv/bin/python -m pytest -n 4 --dist worksteal -q --junitxml=/tmp/suite.xml
    .venv/bin/python tools/suite_durations.py /tmp/suite.xml

tests/conftest.py starts the modules that took longest first, so that on two cores the
run does not end with one long module on one worker while the other core idles. The file
only orders the suite: a stale or missing entry costs time, never a result.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "durations.json"


def module_seconds(report: Path) -> dict[str, float]:
    """Seconds per test module (path under tests/) summed over its test cases."""
    seconds: dict[str, float] = defaultdict(float)
    for case in ET.parse(report).getroot().iter("testcase"):
        dotted = case.get("classname", "")
        parts = dotted.split(".")
        # classname is the module's dotted path, then a class name when there is one
        while parts and not (ROOT / Path(*parts)).with_suffix(".py").exists():
            parts.pop()
        if not parts or parts[0] != "tests":
            continue
        module = Path(*parts[1:]).with_suffix(".py").as_posix()
        seconds[module] += float(case.get("time", "0"))
    return dict(seconds)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    seconds = module_seconds(Path(argv[0]))
    ordered = dict(sorted(((m, round(s, 1)) for m, s in seconds.items()),
                          key=lambda kv: (-kv[1], kv[0])))
    OUT.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")
    print(f"{len(ordered)} modules, {sum(ordered.values()):.0f} s in all -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
