"""Colloquial vs formal retrieval on held-out rewrites: does a question typed casually find what its formal twin finds?

    .venv/bin/python benchmarks/colloquial.py [--file benchmarks/data/colloquial_unseen.jsonl] [--json OUT]

The file holds one colloquial rewrite per formal question (`_id`, `dataset` = autorag-ko | sample, `text`),
written by a helper who had not seen the pattern dictionary or the vocabulary. For each dataset the formal
question and its rewrite are searched with the whole query pipeline ("full") and with every query stage off
("plain"); hit@1 (= R@1 where one page is gold, as in autorag-ko), hit@5 and MRR@10 are printed for both styles,
with the colloquial − formal gap. autorag-ko is judged by document (page), the sample by chunk.

`--answers` also answers both styles with the whole engine and counts the answers served, those citing a gold
document, and those withheld (and of these, how many had a gold document among their contexts).

With an LLM configured (GEUNKEO_LLM__PROVIDER=…, e.g. llamacpp and GEUNKEO_LLM__GGUF_PATH after `make llm`),
`--multi-query` and/or `--hyde content|title|combined` add a third configuration ("llm"): the full pipeline plus
those LLM stages, for both styles. LLM replies are cached in `<cache>/colloquial_llm_cache.sqlite`, so a second
run costs only retrieval. `--only autorag-ko` and `--max N` (evenly spaced) bound a slow local model's run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import geunkeo
from geunkeo.config import load_settings
from geunkeo.query.pipeline import TOGGLES
from geunkeo.retrieve.tuning import load_beir_queries

ROOT = Path(__file__).resolve().parent.parent
STAGES_OFF = dict.fromkeys(TOGGLES, False)


def _index(name: str, sources: list[Path], cache: Path, settings) -> geunkeo.engine.Engine:
    # the answers benchmark builds autorag-ko's index at the same place: one build serves both
    index_dir = cache / "answers" / name / "index"
    if not (index_dir / "CURRENT").is_file():
        geunkeo.build_index(sources, index_dir, settings)
    return geunkeo.open_index(index_dir, settings)


def _rank_of(hits, gold: set[str], by_doc: bool) -> int | None:
    for i, h in enumerate(hits, 1):
        if (h.chunk.doc_id if by_doc else h.chunk_id) in gold:
            return i
    return None


def _scores(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks) or 1
    return {"hit@1": round(sum(r == 1 for r in ranks) / n, 3),
            "hit@5": round(sum(r is not None and r <= 5 for r in ranks) / n, 3),
            "mrr@10": round(sum(1 / r for r in ranks if r is not None and r <= 10) / n, 3)}


def run(engine, pairs: list[tuple[str, str, set[str]]], by_doc: bool, llm_stages: dict | None = None) -> dict:
    out: dict = {"questions": len(pairs)}
    misses, per_question = [], []
    configs: list[tuple[str, dict]] = [("full", {}), ("plain", STAGES_OFF)]
    if llm_stages:
        configs.append(("llm", llm_stages))
    for config, stages in configs:
        ranks: dict[str, list[int | None]] = {"formal": [], "colloquial": []}
        for formal, colloquial, gold in pairs:
            for style, text in (("formal", formal), ("colloquial", colloquial)):
                ranks[style].append(_rank_of(engine.search(text, k=10, **stages).hits, gold, by_doc))
            if config == "full":  # per question, so two runs can be diffed
                per_question.append({"formal": formal, "formal_rank": ranks["formal"][-1],
                                     "colloquial": colloquial, "colloquial_rank": ranks["colloquial"][-1]})
            if config == "full" and ranks["formal"][-1] == 1 and ranks["colloquial"][-1] != 1:
                misses.append({"formal": formal, "colloquial": colloquial, "rank": ranks["colloquial"][-1]})
        f, c = _scores(ranks["formal"]), _scores(ranks["colloquial"])
        out[config] = {"formal": f, "colloquial": c, "gap@1": round(c["hit@1"] - f["hit@1"], 3)}
    out["lost_at_1"] = misses
    out["per_question"] = per_question
    return out


def answers(engine, pairs: list[tuple[str, str, set[str]]], by_doc: bool) -> dict:
    """Both styles answered by the whole engine (extractive unless an LLM is configured): how many are served, how
    many of those cite a gold document, how many are withheld although a gold document was among the contexts."""
    out: dict = {}
    for style in ("formal", "colloquial"):
        served = cited = withheld = withheld_gold = 0
        for formal, colloquial, gold in pairs:
            ans = engine.answer(formal if style == "formal" else colloquial)
            ids = {(c.chunk_id.split("#")[0] if by_doc else c.chunk_id) for s in ans.sentences for c in s.citations}
            seen = {(h.chunk.doc_id if by_doc else h.chunk_id) for h in ans.contexts}
            if ans.gate is not None and ans.gate.action == "escalate":
                withheld += 1
                withheld_gold += bool(seen & gold)
            else:
                served += 1
                cited += bool(ids & gold)
        out[style] = {"questions": len(pairs), "served": served, "served_gold_cited": cited, "withheld": withheld,
                      "withheld_gold_retrieved": withheld_gold}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", type=Path, default=ROOT / "benchmarks" / "data" / "colloquial_unseen.jsonl")
    ap.add_argument("--autorag", type=Path, default=ROOT.parent / "shared" / "datasets" / "autorag-ko")
    ap.add_argument("--cache", type=Path, default=ROOT / ".bench-cache")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--show", type=int, default=5, help="print this many rewrites that lost the top hit")
    ap.add_argument("--multi-query", action="store_true", help="llm configuration: LLM query variants")
    ap.add_argument("--hyde", choices=("content", "title", "combined"), help="llm configuration: HyDE mode")
    ap.add_argument("--only", choices=("autorag-ko", "sample"))
    ap.add_argument("--max", type=int, default=0, help="evenly spaced sample of each dataset's pairs (0 = all)")
    ap.add_argument("--answers", action="store_true",
                    help="also answer both styles with the whole engine: served, served citing a gold document, withheld")
    args = ap.parse_args(argv)

    settings = load_settings()
    settings.query.pending_queue = False  # benchmark questions must not land in the user's queue
    llm_stages = None
    if args.multi_query or args.hyde:
        if settings.llm.provider == "none":
            ap.error("--multi-query / --hyde need an LLM: set GEUNKEO_LLM__PROVIDER (and its model or GGUF path)")
        settings.llm.cache_path = str(args.cache / "colloquial_llm_cache.sqlite")
        settings.llm.timeout_s = max(settings.llm.timeout_s, 300.0)
        settings.query.llm_deadline_s = 600.0  # a slow local model is measured, not cut off
        llm_stages = {"multi_query": args.multi_query, "hyde": args.hyde or "off"}
    rows = [json.loads(ln) for ln in args.file.read_text(encoding="utf-8").splitlines() if ln.strip()]
    result = {}
    for name in ("autorag-ko", "sample"):
        mine = [r for r in rows if r["dataset"] == name]
        if not mine or (args.only and args.only != name):
            continue
        if args.max and args.max < len(mine):
            mine = [mine[int(i * len(mine) / args.max)] for i in range(args.max)]
        if name == "autorag-ko":
            queries, qrels = load_beir_queries(args.autorag, "dev")
            engine = _index(name, [args.autorag / "corpus.jsonl"], args.cache, settings)
            by_doc = True
        else:
            queries, qrels = load_beir_queries(ROOT / "sample" / "gold", "test")
            engine = _index(name, [ROOT / "sample" / "corpus"], args.cache, settings)
            by_doc = False
        pairs = [(queries[r["_id"]], r["text"], set(qrels[r["_id"]])) for r in mine if r["_id"] in queries]
        result[name] = run(engine, pairs, by_doc, llm_stages)
        full, plain = result[name]["full"], result[name]["plain"]
        if llm_stages:
            llm = result[name]["llm"]
            print(f"{name}: llm {llm_stages}: formal {llm['formal']} colloquial {llm['colloquial']} "
                  f"gap@1 {llm['gap@1']:+.3f}", file=sys.stderr)
        print(f"{name}: {len(pairs)} pairs | full: formal {full['formal']} colloquial {full['colloquial']} "
              f"gap@1 {full['gap@1']:+.3f} | plain: formal {plain['formal']['hit@1']} colloquial "
              f"{plain['colloquial']['hit@1']} gap@1 {plain['gap@1']:+.3f}", file=sys.stderr)
        if args.answers:
            result[name]["answers"] = answers(engine, pairs, by_doc)
            for style, a in result[name]["answers"].items():
                print(f"  answers, {style}: served {a['served']}/{a['questions']} (gold cited {a['served_gold_cited']}), "
                      f"withheld {a['withheld']} (gold among the contexts {a['withheld_gold_retrieved']})", file=sys.stderr)
        for m in result[name]["lost_at_1"][: args.show]:
            print(f"  lost: {m['colloquial']!r} (rank {m['rank']}) ← {m['formal']!r}", file=sys.stderr)
    print(json.dumps(result, ensure_ascii=False, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
