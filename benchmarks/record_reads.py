"""Literal-key reads of record fields in a source tree (issue 27 item 3): `x["key"]` and `x.get("key")` whose key is
a field of a run's records (evaluate/records.py), a metric result, a gate check, the serving gate's decision or the
hallucination filter's report and its items. A key name another dict shares counts too (a summary's "metrics"):
the count is an upper bound, given per file.

    PYTHONPATH=src python benchmarks/record_reads.py SRC_DIR [--where FILE …]
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from dataclasses import fields, is_dataclass
from pathlib import Path


def record_keys() -> set[str]:
    from geunkeo.answer import report
    from geunkeo.answer.base import GateDecision
    from geunkeo.checks.base import MetricResult
    from geunkeo.evaluate import records
    from geunkeo.evaluate.gates import GateCheck

    classes = [c for m in (records, report) for c in vars(m).values() if isinstance(c, type) and is_dataclass(c)]
    classes += [MetricResult, GateCheck, GateDecision]
    return {f.name for c in classes for f in fields(c)} - {"checks"}  # a claim's and a gate's checks: free-form


def reads(path: Path, keys: set[str]) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        key = None
        if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, str)):
            key = node.slice.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            key = node.args[0].value
        if key in keys:
            out.append((node.lineno, ast.unparse(node)[:80]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--where", nargs="*", default=[], help="files (relative to SRC) whose reads to list")
    args = ap.parse_args()
    keys, root = record_keys(), Path(args.src)
    per_file = Counter({str(p.relative_to(root)): n for p in sorted(root.rglob("*.py")) if (n := len(reads(p, keys)))})
    print(f"total {sum(per_file.values())} in {len(per_file)} files")
    for name, n in per_file.most_common():
        print(f"{n:5d}  {name}")
    for name in args.where:
        for line, text in reads(root / name, keys):
            print(f"{name}:{line}: {text}")


if __name__ == "__main__":
    main()
