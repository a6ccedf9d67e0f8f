"""Typed run records against existing runs (issue 27 item 3): every line of each run's cases.jsonl and flags.jsonl
read as a record and written back (byte for byte, `record_version` aside), and the summary numbers, the HTML report
and a comparison computed by this code and by a baseline checkout's (`--baseline-src`), which must agree; likewise
the hallucination filter's report as an answer's JSON (whole and public) over tests/answer/data/filter_cases.json.

    PYTHONPATH=src python benchmarks/record_compat.py RUN_DIR [RUN_DIR …] --baseline-src /path/to/main/src
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

_VIEWS = """
import json, re, sys
from geunkeo.evaluate.report.compare import compare_runs
from geunkeo.evaluate.report.html import render_report
from geunkeo.evaluate.runner import load_run, summarize
runs = sys.argv[1:]
out = {}
for run in runs:
    s, recs = load_run(run)
    html = render_report(s, recs, plotly_src="/plotly.js")
    out[run] = {"summary": summarize(recs, s["review_queue"], {}),
                "report": re.sub(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}", "ID", html),  # plotly's div ids
                "compare": compare_runs(runs[0], run)}
print(json.dumps(out, sort_keys=True, default=str))
"""

_FILTER = """
import json, sys
from pathlib import Path
from geunkeo.answer.base import Answer
from geunkeo.answer.filter import HallucinationFilter
from geunkeo.corpus.base import Chunk
data = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
f, out = HallucinationFilter(), []
for case in data["cases"]:
    res = f.apply(case["answer"], [Chunk(**c) for n in case["contexts"] for c in data["contexts"][n]], lang=case["lang"])
    a = Answer("q", res.text, "ko", filter_report=res.report)
    out.append([a.to_dict()["filter_report"], a.public_dict()["filter_report"]])
print(json.dumps(out, ensure_ascii=False))
"""
_FILTER_CASES = Path(__file__).resolve().parents[1] / "tests/answer/data/filter_cases.json"


def round_trip(runs: list[str]) -> tuple[int, int]:
    from geunkeo.evaluate.records import CaseRecord, FlagRecord

    same = differ = 0
    for run in runs:
        for name, cls in (("cases.jsonl", CaseRecord), ("flags.jsonl", FlagRecord)):
            for line in (Path(run) / name).read_text(encoding="utf-8").splitlines():
                d = cls.from_dict(json.loads(line)).to_dict()
                if "record_version" not in json.loads(line):
                    d.pop("record_version")
                same, differ = (same + 1, differ) if json.dumps(d, ensure_ascii=False) == line else (same, differ + 1)
    return same, differ


def run_with(src: str, code: str, *args: str) -> Any:
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--baseline-src", required=True)
    args = ap.parse_args()
    same, differ = round_trip(args.runs)
    print(f"lines read and written back identical: {same}, different: {differ}")
    src = str(Path(__file__).resolve().parents[1] / "src")
    here, base = run_with(src, _VIEWS, *args.runs), run_with(args.baseline_src, _VIEWS, *args.runs)
    for run in args.runs:
        for view in ("summary", "report", "compare"):
            print(f"{run} {view}: {'identical' if here[run][view] == base[run][view] else 'DIFFERENT'} "
                  f"to the baseline's")
    reports = run_with(src, _FILTER, str(_FILTER_CASES))
    same = reports == run_with(args.baseline_src, _FILTER, str(_FILTER_CASES))
    print(f"filter reports of {len(reports)} answers (JSON, whole and public): "
          f"{'identical' if same else 'DIFFERENT'} to the baseline's")


if __name__ == "__main__":
    main()
