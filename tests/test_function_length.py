"""No function in src grows over 80 lines (issue 27, "Done means"). Every `def` in src/geunkeo is read from the
source, nested ones included, and measured from its `def` line (decorators excluded) to its last line.

`KNOWN_LONG` lists the functions that were already longer when the rule was written, each with its length then. The
list can only shrink: a listed function may not grow, and one brought to 80 lines or fewer (or removed) must leave
the list, so the next change cannot quietly use its room.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "geunkeo"
LIMIT = 80

KNOWN_LONG: dict[str, int] = {}  # emptied when rewrite_sentence and _check were split (issue 27)


def _lengths(path: Path, root: Path = SRC) -> dict[str, int]:
    """`path::Qual.name` → lines, for every function and method in one file (path relative to `root`)."""
    rel = path.relative_to(root).as_posix()
    out: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                out[f"{rel}::{name}"] = (child.end_lineno or child.lineno) - child.lineno + 1
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return out


@functools.cache  # the sources do not change during a run: both checks read one parse of them
def _all_lengths() -> dict[str, int]:
    found: dict[str, int] = {}
    for path in sorted(SRC.rglob("*.py")):
        found.update(_lengths(path))
    return found


def test_the_measure_counts_from_def_to_last_line(tmp_path):
    pkg = tmp_path / "geunkeo"
    pkg.mkdir()
    (pkg / "m.py").write_text("@dec\ndef f():\n    def g():\n        pass\n    return g\n\n\nclass C:\n"
                              "    async def h(self):\n        return 1\n", encoding="utf-8")
    assert _lengths(pkg / "m.py", pkg) == {"m.py::f": 4, "m.py::f.g": 2, "m.py::C.h": 2}


def test_no_new_function_over_the_limit():
    over = {name: n for name, n in _all_lengths().items() if n > LIMIT and name not in KNOWN_LONG}
    assert not over, f"functions over {LIMIT} lines (split them by step): {over}"


def test_known_long_functions_only_shrink():
    lengths = _all_lengths()
    grown = {name: (lengths[name], cap) for name, cap in KNOWN_LONG.items() if lengths.get(name, 0) > cap}
    assert not grown, f"a known long function grew (now, was): {grown}"
    done = sorted(name for name in KNOWN_LONG if lengths.get(name, 0) <= LIMIT)
    assert not done, f"now {LIMIT} lines or fewer, or gone: remove from KNOWN_LONG: {done}"
