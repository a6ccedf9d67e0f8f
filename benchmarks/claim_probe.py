"""Claim checks and injection probe (issue 30 items 4-5): how many scripted attacks the answer pipeline serves
with gate `answer`, and whether what the gate rejected can be read by a user.

    PYTHONPATH=src .venv/bin/python benchmarks/claim_probe.py [--json OUT]

The scripts live in tests/answer/claim_scripts.py (nonsense with markers, contradictions in Korean and English,
claims citing an unrelated article, injections disguised by zero-width spaces, full-width letters or a
paraphrase, on the LLM path with a scripted LLM and on the extractive path; plus controls that must be served).
"served" counts scripts answered with gate `answer` whose served text holds the forbidden text (for a control,
any `answer`). Each is answered once by `answer_hits` with default settings (deterministic: the LLM is scripted). "leaked" counts
scripts whose forbidden text (the rejected claim, the injected number) appears in `/api/ask`'s JSON or the ask
page's views, leaving out the documents themselves.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests" / "answer")]

from claim_scripts import SCRIPTS, ask, leaked, served  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, help="write every script's outcome here")
    args = ap.parse_args()
    rows = []
    for script in SCRIPTS:
        ans = ask(script)
        rows.append({"name": script.name, "kind": script.kind, "path": script.path, "action": ans.gate.action,
                     "served": served(script, ans), "leaked": leaked(script, ans), "text": ans.text[:160]})
        print(f"{script.name:36s} {script.path:10s} {ans.gate.action:9s} served={rows[-1]['served']!s:5s} "
              f"leaked={rows[-1]['leaked']}  {ans.text[:80]!r}")
    totals: Counter = Counter()
    for r in rows:
        key = (r["kind"], r["path"])
        totals[key + ("n",)] += 1
        totals[key + ("served",)] += r["served"]
        totals[key + ("leaked",)] += bool(r["leaked"])
    print("\nkind           path        scripts  served(answer)  raw text visible")
    for kind, path in sorted({(r["kind"], r["path"]) for r in rows}):
        print(f"{kind:14s} {path:10s} {totals[kind, path, 'n']:8d} {totals[kind, path, 'served']:15d} "
              f"{totals[kind, path, 'leaked']:17d}")
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
