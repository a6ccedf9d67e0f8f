"""The LLM judge's claim verification on KorNLI (XNLI ko dev), for users who configure an LLM.

    .venv/bin/python benchmarks/judge_fidelity.py --kornli ../shared/datasets/kornli/xnli.dev.ko.tsv \
        --per-label 50 --provider llamacpp --gguf ~/.geunkeo/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf

Premise = evidence, hypothesis = claim, "supported" only for entailment — the same task as the trained checker
in benchmarks/evaluator_fidelity.py, judged by `LLMJudge.verify_claim` (the call the support checker makes
when a judge is configured). An evenly spaced sample of `--per-label` pairs per gold label keeps a CPU model's
run to minutes; the judge's answers go through the persistent LLM cache, so a rerun is free. Reports accuracy,
false-support rate, support recall and how often the judge gave no usable verdict (counted as unsupported).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from geunkeo.checks.judge import LLMJudge
from geunkeo.checks.support import load_kornli
from geunkeo.config import Settings
from geunkeo.llm.registry import get_llm

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kornli", required=True)
    ap.add_argument("--per-label", type=int, default=50)
    ap.add_argument("--provider", required=True)
    ap.add_argument("--model")
    ap.add_argument("--base-url")
    ap.add_argument("--gguf")
    ap.add_argument("--json", dest="json_out")
    args = ap.parse_args()

    llm_cfg = {"provider": args.provider, "cache_path": str(ROOT / ".bench-cache" / "judge_llm_cache.sqlite"),
               "timeout_s": 300.0}
    for key, value in (("model", args.model), ("base_url", args.base_url), ("gguf_path", args.gguf)):
        if value:
            llm_cfg[key] = value
    settings = Settings(llm={**Settings().llm.model_dump(), **llm_cfg})
    llm = get_llm(settings)
    judge = LLMJudge(llm, timeout_s=300.0)

    pairs, y, _groups, labels = load_kornli(args.kornli)
    chosen: list[int] = []
    for lab in ("entailment", "neutral", "contradiction"):
        idx = [i for i, g in enumerate(labels) if g == lab]
        step = len(idx) / args.per_label
        chosen += [idx[int(k * step)] for k in range(args.per_label)]
    t0 = time.perf_counter()
    rows = []
    for i in chosen:
        claim, context = pairs[i]  # (hypothesis, premise)
        verdict = judge.verify_claim(claim, context, "ko")
        rows.append({"label": labels[i], "gold": bool(y[i]), "supported": verdict.get("supported")})
    n = len(rows)
    said = [r["supported"] is True for r in rows]
    correct = sum(s == r["gold"] for s, r in zip(said, rows, strict=True))
    neg = [s for s, r in zip(said, rows, strict=True) if not r["gold"]]
    pos = [s for s, r in zip(said, rows, strict=True) if r["gold"]]
    out = {
        "llm": f"{llm.provider}:{llm.model}", "pairs": n, "per_label": args.per_label,
        "accuracy": round(correct / n, 4),
        "false_support_rate": round(sum(neg) / len(neg), 4),
        "support_recall": round(sum(pos) / len(pos), 4),
        "no_verdict": sum(r["supported"] is None for r in rows),
        "by_gold_label": {lab: {"supported": sum(1 for s, r in zip(said, rows, strict=True)
                                                 if s and r["label"] == lab),
                                "of": sum(1 for r in rows if r["label"] == lab)}
                          for lab in ("entailment", "neutral", "contradiction")},
        "seconds": round(time.perf_counter() - t0, 1),
        "note": "accuracy here is on a label-balanced sample (1/3 entailment), like the full dev file",
    }
    print(json.dumps(out, ensure_ascii=False, indent=1))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
