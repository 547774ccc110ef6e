"""The Python examples of docs/usage/research.md run as written.

(They are small: a few seconds on an idle machine. Their speed is not asserted here, since
a test's wall-clock time depends on what else the machine is doing.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

DOC = Path(__file__).parents[2] / "docs" / "usage" / "research.md"


def test_research_examples_run_as_written() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 4
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    assert "returns" in namespace and "total" in namespace
