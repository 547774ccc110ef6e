"""The layers of the code, checked on every run: no import cycle anywhere in src/
(imports inside functions and imports only for type checking count too), and the
import-linter contracts of pyproject.toml (core ← game engines ← game faces ← application
faces; rules never import a face)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def import_cycles(package: str = "raceday") -> list[list[str]]:
    """Every strongly connected group of modules (a cycle), each sorted, largest first."""
    graph = grimp.build_graph(package, cache_dir=None)  # a stale cache hides a fresh cycle
    modules = sorted(graph.modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & graph.modules)
             for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            # A package importing its own submodule (and back) is how Python packages
            # work; only cycles between distinct modules are counted.
            if len(group) > 1:
                groups.append(sorted(group))

    # The deep walk needs a higher recursion limit, but only for itself: CPython 3.11's ast
    # module miscounts its depth ("AST constructor recursion depth mismatch") when it runs
    # later in the same worker under a changed limit, so the old limit comes back at once.
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(10_000, old_limit))
    try:
        for module in modules:
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(old_limit)
    return sorted(groups, key=len, reverse=True)


def _without_package_inits(groups: list[list[str]]) -> list[list[str]]:
    """Drop cycles that exist only through a package's ``__init__`` re-exporting its
    own submodules (``pkg`` → ``pkg.mod`` → ``pkg``'s names)."""
    kept = []
    for group in groups:
        inner = [m for m in group if not any(o.startswith(m + ".") for o in group)]
        if len(inner) > 1:
            kept.append(group)
    return kept


def test_no_import_cycle_in_src() -> None:
    cycles = _without_package_inits(import_cycles())
    assert cycles == [], "import cycles:\n" + "\n".join(" ↔ ".join(c) for c in cycles)


def test_import_linter_contracts_hold() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(lint_imports), "--no-cache"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


if __name__ == "__main__":
    for cycle in _without_package_inits(import_cycles()):
        print(" ↔ ".join(cycle))
