"""Literal-key reads of record fields in a source tree (issue 27 item 3): `x["key"]` and `x.get("key")` whose key is
a field (as JSON names it) of one kind of record:
- case (the default): a run's case and flag records (evaluate/records.py), a metric result, a gate check, the
  serving gate's decision or the hallucination filter's report and its items;
- queue: a review-queue item, its payload, the queue's statistics (evaluate/queue_records.py);
- summary: summary.json and its sections (evaluate/summary_records.py, with the queue statistics it holds).
A key name another dict shares counts too (a summary's "metrics", a dict's "value"): the count is an upper bound,
given per file. The key sets come from the records' classes as they are now, so the same command run over an older
tree (`git archive main src`) counts that tree's reads of the same keys.

    PYTHONPATH=src python benchmarks/record_reads.py SRC_DIR [--records case|queue|summary] [--where FILE …]
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from dataclasses import fields, is_dataclass
from pathlib import Path
from types import ModuleType


def _dataclasses(*modules: ModuleType) -> list[type]:
    """The dataclasses a module defines (not those it imports)."""
    return [c for m in modules for c in vars(m).values()
            if isinstance(c, type) and is_dataclass(c) and c.__module__ == m.__name__]


def _json_keys(classes: list[type]) -> set[str]:
    return {getattr(c, "_JSON_KEYS", {}).get(f.name, f.name) for c in classes for f in fields(c)}


def record_keys(kind: str = "case") -> set[str]:
    from geunkeo.answer import report
    from geunkeo.answer.base import GateDecision
    from geunkeo.checks.base import MetricResult
    from geunkeo.evaluate import queue_records, records, summary_records
    from geunkeo.evaluate.gates import GateCheck

    if kind == "queue":
        return _json_keys(_dataclasses(queue_records))
    if kind == "summary":
        return _json_keys(_dataclasses(summary_records) + [queue_records.QueueStats, queue_records.LevelCounts])
    classes = _dataclasses(records, report) + [MetricResult, GateCheck, GateDecision]
    return _json_keys(classes) - {"checks"}  # a claim's and a gate's checks: free-form


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
    ap.add_argument("--records", choices=("case", "queue", "summary"), default="case")
    ap.add_argument("--where", nargs="*", default=[], help="files (relative to SRC) whose reads to list")
    args = ap.parse_args()
    keys, root = record_keys(args.records), Path(args.src)
    per_file = Counter({str(p.relative_to(root)): n for p in sorted(root.rglob("*.py")) if (n := len(reads(p, keys)))})
    print(f"total {sum(per_file.values())} in {len(per_file)} files")
    for name, n in per_file.most_common():
        print(f"{n:5d}  {name}")
    for name in args.where:
        for line, text in reads(root / name, keys):
            print(f"{name}:{line}: {text}")


if __name__ == "__main__":
    main()
