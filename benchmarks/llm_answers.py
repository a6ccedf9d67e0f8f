"""LLM answers as a user meets them: served from the LLM or fallen back to the extractive answer, latency per
answer, the model's tokens per second, and what a user waits.

    GEUNKEO_LLM__PROVIDER=llamacpp GEUNKEO_LLM__GGUF_PATH=~/.geunkeo/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf \
      python benchmarks/llm_answers.py --dataset ../shared/datasets/autorag-ko --index IDX --max-queries 8 \
        --llm-cache /tmp/llm-answers.sqlite --json /tmp/llm-answers.json

Questions are an evenly spaced sample of the split. Every LLM call goes through the response cache at
--llm-cache, so a second run (another commit's code, the same prompts) reads the same generations and measures
only what the code after generation does with them; a call the first run did not make (a regeneration only the
new code asks for) is generated then. "Wait" is what a user waits for one answer with every LLM call cold: the
run's wall time with each cached call's time replaced by the time the call took when it was generated.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

import geunkeo  # noqa: E402
from geunkeo.config import load_settings  # noqa: E402
from geunkeo.engine import ask  # noqa: E402
from geunkeo.evaluate.datasets import from_beir  # noqa: E402
from geunkeo.llm.base import LLM, Completion  # noqa: E402
from geunkeo.llm.registry import get_llm  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from answers import facts, score  # noqa: E402  (the answer benchmark's key facts and gold citation)


class RecordingLLM(LLM):
    """The configured (cached) LLM, recording each call: cached or not, the time it took when generated, tokens."""

    def __init__(self, inner: LLM):
        self.inner, self.provider, self.model = inner, inner.provider, inner.model
        self.calls: list[dict] = []

    def complete(self, messages, *, json=False, temperature=None, max_tokens=None) -> Completion:
        t = time.perf_counter()
        out = self.inner.complete(messages, json=json, temperature=temperature, max_tokens=max_tokens)
        ms = (time.perf_counter() - t) * 1000
        generated_ms = out.raw.get("original_ms") if out.cached else ms
        self.calls.append({"cached": out.cached, "ms": round(ms, 1),
                           "generated_ms": round(generated_ms or ms, 1), "prompt_tokens": out.prompt_tokens,
                           "tokens": out.completion_tokens})
        return out


def _attributed(ans) -> int:
    """Sentences whose citation the pipeline added after generation (trace decisions of the answer.verify stage)."""
    return sum(1 for d in ans.trace.decisions if d["stage"] == "answer.verify"
               and d["decision"] in ("cited the supporting context", "attributed a citation after the fact"))


def run(cases, idx, settings, llm: RecordingLLM, k: int) -> list[dict]:
    rows = []
    chunks = idx.store.chunks()
    for case in cases:
        gold = set(case.expected_doc_ids) | {c.split("#")[0] for c in case.expected_chunk_ids}
        gold_text = " ".join(c.text for c in chunks if c.chunk_id in case.expected_chunk_ids or c.doc_id in gold)
        llm.calls = []
        t = time.perf_counter()
        ans = ask(case.query, idx, settings, k=k, answerer="llm", llm=llm)
        wall = (time.perf_counter() - t) * 1000
        calls = list(llm.calls)
        quality = score(ans, gold, facts(case.reference_answer or "") & facts(gold_text))
        wait = wall - sum(c["ms"] for c in calls) + sum(c["generated_ms"] for c in calls)
        rows.append({"id": case.id, "query": case.query, "served_by": "extractive" if ans.fallback else ans.answerer,
                     "fallback": ans.fallback, "gate": ans.gate.action if ans.gate else None,
                     "regenerated": bool(ans.gate and ans.gate.regenerated), "attributed": _attributed(ans),
                     "gold_cited": quality["gold_cited"], "facts_found": quality["facts_found"],
                     "facts_expected": quality["facts_expected"], "wall_ms": round(wall, 1), "wait_ms": round(wait, 1), "llm_calls": calls,
                     "generated": next((d["text"] for d in ans.trace.decisions if d["decision"] == "generated"), ""),
                     "answer": ans.text})
        print(f"[{case.id}] {rows[-1]['served_by']} gate={rows[-1]['gate']} attributed={rows[-1]['attributed']} "
              f"wait {wait / 1000:.1f}s (wall {wall / 1000:.1f}s)", file=sys.stderr, flush=True)
    return rows


def summarise(rows: list[dict]) -> dict:
    calls = [c for r in rows for c in r["llm_calls"]]
    tokens = sum(c["tokens"] or 0 for c in calls)
    gen_s = sum(c["generated_ms"] for c in calls if c["tokens"]) / 1000
    waits = [r["wait_ms"] / 1000 for r in rows]
    # search, filter, checks, attribution, gate and any extractive fallback: the run's time outside the LLM
    rest = [(r["wall_ms"] - sum(c["ms"] for c in r["llm_calls"])) / 1000 for r in rows]
    return {"questions": len(rows), "served_by": dict(Counter(r["served_by"] for r in rows)),
            "gate": dict(Counter(r["gate"] for r in rows)), "regenerated": sum(r["regenerated"] for r in rows),
            "sentences_attributed": sum(r["attributed"] for r in rows),
            "gold_cited": sum(bool(r.get("gold_cited")) for r in rows),
            "key_facts": f"{sum(len(r.get('facts_found', ())) for r in rows)} of "
                         f"{sum(len(r.get('facts_expected', ())) for r in rows)}",
            "llm_calls": len(calls), "cold_calls_this_run": sum(not c["cached"] for c in calls),
            # generated tokens over the calls' whole time, reading the prompt included (what a user waits for)
            "tokens_per_s": round(tokens / gen_s, 2) if gen_s else None,
            "prompt_tokens_per_call": round(statistics.mean(c["prompt_tokens"] or 0 for c in calls)) if calls else None,
            "tokens_per_call": round(statistics.mean(c["tokens"] or 0 for c in calls)) if calls else None,
            "llm_s_per_answer": round(sum(c["generated_ms"] for c in calls) / 1000 / len(rows), 1) if rows else None,
            "outside_llm_s": {"median": round(statistics.median(rest), 2), "max": round(max(rest), 2)} if rest else None,
            "wait_s": {"median": round(statistics.median(waits), 1), "mean": round(statistics.mean(waits), 1),
                       "max": round(max(waits), 1)} if waits else None}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path)
    ap.add_argument("--split", default="dev")
    ap.add_argument("--index", type=Path, help="an index of the dataset's corpus")
    ap.add_argument("--max-queries", type=int, default=8, help="evenly spaced sample of the split")
    ap.add_argument("--llm-cache", type=Path, help="the response cache both runs share")
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--summarise", type=Path, help="only print the summary of a run's --json file")
    args = ap.parse_args(argv)
    if args.summarise:
        print(json.dumps(summarise(json.loads(args.summarise.read_text("utf-8"))["rows"]), ensure_ascii=False, indent=1))
        return 0
    if not (args.dataset and args.index and args.llm_cache):
        ap.error("--dataset, --index and --llm-cache are needed to run")

    settings = load_settings()
    settings.llm.cache_path = str(args.llm_cache)
    inner = get_llm(settings)
    if inner is None:
        ap.error("no LLM is configured: set GEUNKEO_LLM__PROVIDER (and GEUNKEO_LLM__GGUF_PATH for llamacpp)")
    cases = from_beir(args.dataset, args.split)
    step = max(1, len(cases) // args.max_queries)
    cases = cases[::step][: args.max_queries]
    idx = geunkeo.open_index(args.index, settings)
    rows = run(cases, idx, settings, RecordingLLM(inner), args.k)
    summary = summarise(rows)
    print(json.dumps(summary, ensure_ascii=False, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "rows": rows}, ensure_ascii=False, indent=1),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
