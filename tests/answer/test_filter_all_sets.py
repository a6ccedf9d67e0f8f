"""Every filter case in CI (issue 30 item 2): the hallucination filter runs over every case of the in-sample set
(tests/answer/data/filter_cases.json) and of every held-out set (benchmarks/data/filter_heldout*.json), counted by
the benchmark's own `test_set` (benchmarks/answer_filter.py). Per set, the invented items that leak and the
legitimate items removed may not exceed the baseline in tests/answer/data/filter_baseline.json.

The baseline is a ratchet: a regression fails, and so does a fix until the baseline is lowered to it, so the next
change cannot quietly spend the room. Regenerate it with the command in the benchmark's docstring (--baseline-out).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("answer_filter_benchmark", ROOT / "benchmarks" / "answer_filter.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)  # kept as a module: its `test_set` is no test of this file
_spec.loader.exec_module(bench)

BASELINE = json.loads((Path(__file__).parent / "data" / "filter_baseline.json").read_text(encoding="utf-8"))["sets"]
SETS = [bench.CASES, *sorted((ROOT / "benchmarks" / "data").glob("filter_heldout*.json"))]
REGENERATE = ("regenerate tests/answer/data/filter_baseline.json with the --baseline-out command in "
              "benchmarks/answer_filter.py's docstring")


def test_the_baseline_names_every_set():
    assert len(SETS) >= 37  # the in-sample set and 36 held-out ones, at least
    assert sorted(BASELINE) == sorted(p.name for p in SETS), REGENERATE


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.stem)
def test_no_set_leaks_or_over_removes_more_than_its_baseline(path: Path):
    got, want = bench.test_set(path), BASELINE[path.name]
    size = ("cases", "invented_items", "legit_items")
    assert {k: got[k] for k in size} == {k: want[k] for k in size}, f"the set changed: {REGENERATE}"
    assert got["leaked"] <= want["leaked"], f"more invented items leak than the baseline: {got['leaked_items']}"
    assert got["legit_removed"] <= want["legit_removed"], (
        f"more legitimate items are removed than the baseline: {got['over_removed_items']}")
    assert bench.baseline_counts(got) == want, f"fewer than the baseline (a fix): {REGENERATE}"
