"""Answer quality as a reader meets it: key facts, whole sentences, honest refusals, the gold page cited.

    benchmarks/answers.py --dataset ../shared/datasets/autorag-ko --split dev \
        --unanswerable benchmarks/data/autorag_ko_unanswerable.jsonl --json /tmp/answers.json --show 10

The dataset is a BEIR folder whose queries carry a reference `answer` (autorag-ko, sample/gold). The index of its
corpus is built once into --cache (the sample gold set is answered over sample/corpus). Figures:
- key-fact recall: the numbers and dates of the reference answer that the gold page also contains (the facts a
  reader asked for and the documents can give), the share of them found in the served answer;
- whole-sentence rate: answer sentences that start and end where a sentence or list item of the cited chunk does
  (an LLM's own sentence counts when it is a complete sentence);
- withheld rate (gate "escalate") on answerable and on unanswerable questions;
- gold cited: answerable questions whose answer (or withheld draft) cites the gold page;
- fact first: served answers to a question asking for an amount, date, count or rate whose first sentence
  states one;
- latency of `ask` (search + answer): median and p95.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import geunkeo  # noqa: E402
from geunkeo.answer.base import Answer  # noqa: E402
from geunkeo.answer.extractive import INLINE_BULLET  # noqa: E402
from geunkeo.answer.slots import NUMERIC_SLOTS, question_slots, sentence_slots  # noqa: E402
from geunkeo.config import load_settings  # noqa: E402
from geunkeo.corpus.reflow import ends_sentence  # noqa: E402
from geunkeo.engine import ask  # noqa: E402
from geunkeo.evaluate.datasets import from_beir  # noqa: E402

# a number with its unit: "1,000억원", "3.4조 원", "2023년", "40%", "3개월"; the key drops spaces and commas
_FACT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(조|억|만|천|원|%|퍼센트|년|월|일|개월|개|명|건|회|학기|주|배|bp)?")
_CONTEXT_NOTE = re.compile(r"\(\s*context\s*\d+\s*\)", re.I)
_LIST_PART = re.compile(r";\s*\(\d{1,2}\)\s*|:\s*\(\d{1,2}\)\s*")


def facts(text: str) -> set[str]:
    """Number facts of a text as normalised keys ("1000억", "2023년", "40%"); bare one-digit numbers skipped."""
    out = set()
    for m in _FACT.finditer(_CONTEXT_NOTE.sub("", text)):
        num, unit = m.group(1).replace(",", "").rstrip("."), m.group(2) or ""
        if not unit and len(num) < 2:
            continue
        out.add(num + ("%" if unit == "퍼센트" else unit))
    return out


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


_MARKER = re.compile(r"^(?:[-*+•·▪◦●○■□◆◇▶※]|[①-⑳]|\(?\d{1,2}[.)]|[가-하][.)]|<\d{1,3}>|#{1,6}|[Oo0](?=\s))\s*")
_BOUNDARY = ".!?。:;)]>①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"


def whole_sentence(sentence: str, chunk_texts: list[str], extractive: bool) -> bool:
    """Whether a served sentence starts and ends where a sentence or list item of its source does.

    Extractive sentences must be found in a line of the cited chunk, starting at the line's start (after a bullet
    or number) or after a sentence end, and ending with a sentence end or at the line's end. List units
    ("lead-in: (1) item; (2) item") are checked part by part. An LLM's own sentence counts when it is complete."""
    s = _MARKER.sub("", _norm(sentence.strip("“”\"")))
    if not extractive:
        return ends_sentence(s)
    lines = [_MARKER.sub("", _norm(line)) for text in chunk_texts for line in text.split("\n")]
    return all(any(_unit_in(part.strip().rstrip(":;") if i else part.strip().rstrip(";"), line)
                   for line in lines)
               for i, part in enumerate(p for p in _LIST_PART.split(s) if p.strip()))


def _unit_in(part: str, line: str) -> bool:
    # a bullet inside a line (a two-column page ran its points together) bounds the points on either side of it,
    # as the answerer splits them (answer/extractive.py)
    bullets = list(INLINE_BULLET.finditer(line))
    for m in re.finditer(re.escape(part), line):
        before = line[: m.start()].rstrip()
        starts = not before or before[-1] in _BOUNDARY or any(b.end() == m.start() for b in bullets)
        rest = line[m.end():].lstrip()
        ends = (m.end() == len(line) or ends_sentence(part) or rest[:1] in ("(", "[")
                or any(b.start() == m.end() for b in bullets))
        if starts and ends:
            return True
    return False


def score(ans: Answer, gold_docs: set[str], ref_facts: set[str] | None) -> dict:
    withheld = ans.gate is not None and ans.gate.action == "escalate"
    shown = ans.draft_sentences if withheld else ans.sentences
    content = [s for s in shown if not s.generic]
    cited_docs = {c.chunk_id.split("#")[0] for s in content for c in s.citations}
    by_id = {h.chunk.chunk_id: h.chunk.text for h in ans.contexts}
    whole = [whole_sentence(s.text, [by_id[c.chunk_id] for c in s.citations if c.chunk_id in by_id] or
                            list(by_id.values()), ans.answerer == "extractive") for s in content]
    served_facts = facts(ans.text) if not withheld else set()
    asked = [x for x in question_slots(ans.query) if x in NUMERIC_SLOTS]
    return {
        # a number-like fact asked for (얼마/언제/몇/비율) and the first served sentence states one
        "fact_first": bool(content and set(asked) & sentence_slots(content[0].text)) if asked and not withheld
        else None,
        "withheld": withheld,
        "gold_cited": bool(cited_docs & gold_docs),
        # the first content sentence, the one a reader takes as the answer, cites the gold page
        "lead_gold": bool(content and {c.chunk_id.split("#")[0] for c in content[0].citations} & gold_docs),
        "whole": whole,
        "facts_expected": sorted(ref_facts or ()),
        "facts_found": sorted((ref_facts or set()) & served_facts),
        "gate": ans.gate.action if ans.gate else None,
        "served_by": ans.answerer + (" (fallback)" if ans.fallback else ""),
        "reasons": ans.gate.reasons if ans.gate else [],
        "checks": ans.gate.checks if ans.gate else {},
    }


def summarise(rows: list[dict], lat: list[float] | None = None) -> dict:
    """The figures of a set of scored rows (answerable and unanswerable questions)."""
    ans_rows = [r for r in rows if r["answerable"]]
    una_rows = [r for r in rows if not r["answerable"]]
    served = [r for r in ans_rows if not r["withheld"]]
    expected = sum(len(r["facts_expected"]) for r in served)
    sentences = [w for r in served for w in r["whole"]]
    # the served-misleading proxy: a served answer that cites no gold page, or any served unanswerable question,
    # as a share of everything served; the strict form asks the same of the answer's first sentence
    served_all = served + [r for r in una_rows if not r["withheld"]]
    off = [r for r in served if not r["gold_cited"]]
    lead_off = [r for r in served if not r["lead_gold"]]
    una_served = len(served_all) - len(served)
    out = {
        "questions": len(ans_rows),
        "key_fact_recall": round(sum(len(r["facts_found"]) for r in served) / expected, 3) if expected else None,
        "key_facts": expected,
        "whole_sentence_rate": round(sum(sentences) / len(sentences), 3) if sentences else None,
        "sentences": len(sentences),
        "withheld_answerable": round(sum(r["withheld"] for r in ans_rows) / len(ans_rows), 3) if ans_rows else None,
        "unanswerable": len(una_rows),
        "withheld_unanswerable": round(sum(r["withheld"] for r in una_rows) / len(una_rows), 3) if una_rows
        else None,
        "gold_cited": round(sum(r["gold_cited"] for r in ans_rows) / len(ans_rows), 3) if ans_rows else None,
        "served_gold_cited": round((len(served) - len(off)) / len(ans_rows), 3) if ans_rows else None,
        "served_misleading": round((len(off) + una_served) / len(served_all), 3) if served_all else None,
        "served_misleading_lead": round((len(lead_off) + una_served) / len(served_all), 3) if served_all else None,
        "served": len(served_all),
        "fact_first": _share([r["fact_first"] for r in served if r["fact_first"] is not None]),
        "served_by": dict(Counter(r["served_by"] for r in rows)),
    }
    if lat:
        out["latency_ms"] = {"p50": round(statistics.median(lat) * 1000, 1), "p95": round(pct(lat, 0.95) * 1000, 1)}
    return out


def _share(flags: list[bool]) -> dict:
    return {"rate": round(sum(flags) / len(flags), 3) if flags else None, "of": len(flags)}


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, required=True)
    ap.add_argument("--split", default="dev")
    ap.add_argument("--corpus", type=Path, help="what to index (default: the dataset's corpus.jsonl)")
    ap.add_argument("--queries", type=Path, help="ask these queries instead of the dataset's (same qrels), e.g. "
                    "autorag-ko/queries-en.jsonl")
    ap.add_argument("--unanswerable", type=Path, help="JSONL of questions the corpus cannot answer")
    ap.add_argument("--cache", type=Path, default=ROOT / ".bench-cache")
    ap.add_argument("--index", type=Path, help="an existing index to answer from (skips building)")
    ap.add_argument("--llm", help="answer with this LLM provider (e.g. llamacpp); default extractive")
    ap.add_argument("--answerer", choices=["llm", "extractive"],
                    help="with --llm: answer extractively and use the LLM for the query stages only (translation)")
    ap.add_argument("--max-queries", type=int, default=0)
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--show", type=int, default=0, help="print this many answers in full")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)

    settings = load_settings()
    if args.llm:
        settings.llm.provider = args.llm
    corpus = args.corpus or args.dataset / "corpus.jsonl"
    index_dir = args.index or args.cache / "answers" / args.dataset.name / "index"
    if args.index is None:
        t = time.perf_counter()
        report = geunkeo.build_index([corpus], index_dir, settings)
        print(f"index {index_dir}: {report.documents} docs, {report.chunks} chunks, "
              f"{time.perf_counter() - t:.1f}s", file=sys.stderr)
    idx = geunkeo.open_index(index_dir, settings)
    cases = from_beir(args.dataset, args.split, queries=args.queries)
    if args.max_queries:
        cases = cases[: args.max_queries]
    chunks = idx.store.chunks()
    answerer = args.answerer or ("llm" if args.llm else "extractive")

    rows, lat = [], []
    for case in cases:
        gold = set(case.expected_doc_ids) | {c.split("#")[0] for c in case.expected_chunk_ids}
        gold_text = " ".join(c.text for c in chunks if c.chunk_id in case.expected_chunk_ids
                             or c.doc_id in case.expected_doc_ids)
        ref = facts(case.reference_answer or "") & facts(gold_text)
        t = time.perf_counter()
        ans = ask(case.query, idx, settings, k=args.k, answerer=answerer)
        lat.append(time.perf_counter() - t)
        rows.append({"id": case.id, "query": case.query, "answerable": True, "answer": ans.text,
                     "style": case.style or case.lang, **score(ans, gold, ref)})
    for line in (args.unanswerable.read_text(encoding="utf-8").splitlines() if args.unanswerable else []):
        if not line.strip():
            continue
        q = json.loads(line)
        t = time.perf_counter()
        ans = ask(q["text"], idx, settings, k=args.k, answerer=answerer)
        lat.append(time.perf_counter() - t)
        rows.append({"id": q.get("_id"), "query": q["text"], "answerable": False, "answer": ans.text,
                     "style": q.get("style") or q.get("lang"), **score(ans, set(), None)})

    summary = {"dataset": str(args.dataset), "split": args.split, "answerer": answerer,
               **summarise(rows, lat)}
    styles = sorted({r["style"] for r in rows if r.get("style")})
    if len(styles) > 1:
        summary["by_style"] = {st: summarise([r for r in rows if r.get("style") == st]) for st in styles}
    una_rows = [r for r in rows if not r["answerable"]]
    for r in rows[: args.show] + [r for r in una_rows if not r["withheld"]][: args.show]:
        print(f"\n[{r['id']}] {r['query']}\n  gate={r['gate']} facts {r['facts_found']}/{r['facts_expected']} "
              f"whole={r['whole']}\n  {r['answer'][:900]}")
    print(json.dumps(summary, ensure_ascii=False, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "rows": rows}, ensure_ascii=False, indent=1),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
