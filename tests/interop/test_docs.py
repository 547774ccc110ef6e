"""The Python examples of docs/usage/research.md run as written (quickly enough for CI)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

DOC = Path(__file__).parents[2] / "docs" / "usage" / "research.md"


def test_research_examples_run_in_under_a_minute() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 4
    namespace: dict[str, object] = {}
    start = time.perf_counter()
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    assert time.perf_counter() - start < 60
    assert "returns" in namespace and "total" in namespace
