"""Typed run records against existing runs (issue 27 item 3): every line of each run's cases.jsonl and flags.jsonl,
and its summary.json, read as a record and written back (byte for byte, `record_version` aside), and the summary
numbers, the HTML report (the file's, and the live one with the review store in English and Korean), a comparison,
the review queue's items and statistics and the CLI's output of `review list|show|stats` and `eval compare` computed
by this code and by a baseline checkout's (`--baseline-src`), which must agree; likewise the hallucination filter's
report as an answer's JSON (whole and public) over tests/answer/data/filter_cases.json. The runs are read from a
copy (opening a review store writes its WAL files next to it) in which two queued cases are reviewed first.

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
from typer.testing import CliRunner
from geunkeo.cli.main import app
from geunkeo.evaluate.report.compare import compare_runs
from geunkeo.evaluate.report.html import render_report, with_reviews
from geunkeo.evaluate.review import ReviewQueue
from geunkeo.evaluate.runner import load_run, summarize
plain = lambda x: x.to_dict() if hasattr(x, "to_dict") else x  # the baseline's dicts, this tree's records
field = lambda x, k: getattr(x, k) if hasattr(x, k) else x[k]
masked = lambda html: re.sub(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}", "ID", html)  # plotly's div ids
cli = lambda *a: CliRunner().invoke(app, list(a)).output
AGGREGATES = ("cases", "metrics", "gates", "pass_rates_by", "executive", "model_debug", "compliance", "review_queue",
              "crosslingual", "timings_ms")  # what `summarize` returns; the run's description is set by the runner
runs = sys.argv[1:]
out = {}
for run in runs:
    s, recs = load_run(run)
    whole = plain(summarize(recs, field(s, "review_queue"), field(s, "crosslingual")))
    view = {"summary": {k: whole[k] for k in AGGREGATES},
            "report": masked(render_report(s, recs, plotly_src="/plotly.js")),
            "compare": compare_runs(runs[0], run)}
    with ReviewQueue(run) as q:
        live, items = with_reviews(s, q)
        view["queue"] = {"items": [plain(i) for i in q.items()], "stats": plain(q.stats())}
    for lang in ("en", "ko"):
        view["live_report_" + lang] = masked(render_report(live, recs, items, plotly_src="/plotly.js", lang=lang))
    first = field(items[0], "query_id") if items else "none"
    view["cli"] = [cli("review", "list", "--db", run, "--all"), cli("review", "list", "--db", run, "--all", "--json"),
                   cli("review", "show", first, "--db", run), cli("review", "show", first, "--db", run, "--json"),
                   cli("review", "stats", "--db", run), cli("review", "stats", "--db", run, "--json"),
                   cli("eval", "compare", runs[0], run), cli("eval", "compare", runs[0], run, "--json")]
    out[run] = view
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
    """Lines of cases.jsonl and flags.jsonl, and summary.json files, read as records and written back: (identical,
    different)."""
    from geunkeo.evaluate.records import CaseRecord, FlagRecord
    from geunkeo.evaluate.summary_records import SummaryRecord

    same = differ = 0
    for run in runs:
        texts = [(cls, line, {}) for name, cls in (("cases.jsonl", CaseRecord), ("flags.jsonl", FlagRecord))
                 for line in (Path(run) / name).read_text(encoding="utf-8").splitlines()]
        texts.append((SummaryRecord, (Path(run) / "summary.json").read_text(encoding="utf-8"), {"indent": 2}))
        for cls, text, layout in texts:
            d = cls.from_dict(json.loads(text)).to_dict()  # type: ignore[attr-defined]
            if "record_version" not in json.loads(text):
                d.pop("record_version")
            ok = json.dumps(d, ensure_ascii=False, default=str, **layout) == text
            same, differ = (same + 1, differ) if ok else (same, differ + 1)
    return same, differ


def _copies(runs: list[str]) -> list[str]:
    """Each run's files copied to a temporary folder (named run0, run1, …), two of its queued cases then reviewed."""
    import shutil
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="record-compat-"))
    out = []
    for i, run in enumerate(runs):
        shutil.copytree(run, root / f"run{i}", ignore=shutil.ignore_patterns("review.db-*", "report.html"))
        out.append(str(root / f"run{i}"))
        _review_some(root / f"run{i}")
    return out


def _review_some(run: Path) -> None:
    """Decisions on the copy's first two queued cases (one with every field), so reviewed items are compared too."""
    from geunkeo.evaluate.review import ReviewQueue

    with ReviewQueue(run) as q:
        ids = [i.query_id for i in q.items()][:2]
        if ids:
            q.assign(ids[0], "compat")
            q.decide(ids[0], "disagree", "compat", root_cause="gt", corrected_answer="(corrected)",
                     gt_update_needed=True, notes="record_compat", risk_level="high")
        if len(ids) > 1:
            q.decide(ids[1], "agree", "compat")


def run_with(src: str, code: str, *args: str) -> Any:
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--baseline-src", required=True)
    args = ap.parse_args()
    runs = _copies(args.runs)
    same, differ = round_trip(runs)
    print(f"lines and summaries read and written back identical: {same}, different: {differ}")
    src = str(Path(__file__).resolve().parents[1] / "src")
    here, base = run_with(src, _VIEWS, *runs), run_with(args.baseline_src, _VIEWS, *runs)
    for run in runs:
        for view in ("summary", "report", "compare", "queue", "live_report_en", "live_report_ko", "cli"):
            print(f"{run} {view}: {'identical' if here[run][view] == base[run][view] else 'DIFFERENT'} "
                  f"to the baseline's")
    reports = run_with(src, _FILTER, str(_FILTER_CASES))
    same = reports == run_with(args.baseline_src, _FILTER, str(_FILTER_CASES))
    print(f"filter reports of {len(reports)} answers (JSON, whole and public): "
          f"{'identical' if same else 'DIFFERENT'} to the baseline's")


if __name__ == "__main__":
    main()
