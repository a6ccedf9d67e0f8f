"""Train the answer-unit ranker (src/geunkeo/answer/unit_ranker.py) and choose the withholding threshold.

    .venv/bin/python scripts/train_unit_ranker.py --shared ../shared/datasets \
        --index .bench-cache/answers/autorag-ko/index --out src/geunkeo/data/unit_ranker.json

Data (read by path from ../shared/datasets, never copied):
- TyDi QA ko GoldP (1,623 questions): the top 3 passages Kiwi-BM25 retrieves from the 1,488 gold passages; a unit
  is positive when it is in the question's gold passage and holds its short answer. Questions whose gold passage
  is not retrieved have no positive: they teach the model what "the answer is not here" looks like.
- autorag-ko dev (71 questions, asked in Korean and again in English, `queries-en.jsonl`): the top 5 hits of the
  project's own search over the 720 pages; a unit is positive when it is on the gold page and holds the
  reference answer's facts (its numbers, or most of its wording).
- the project-written unanswerable questions on autorag-ko (benchmarks/data/autorag_ko_unanswerable.jsonl):
  every unit negative.

Figures are 5-fold cross-validated with questions grouped (a question and its English rendering fall in the same
fold): unit AUC, and per question the share whose best-scored unit is a positive. The threshold minimises, on
the out-of-fold probabilities of autorag-ko, the cost of serving a unit that is not a positive (`--cost`, default
3) against withholding a question that had one (1).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from geunkeo.answer.extractive import ExtractiveAnswerer  # noqa: E402
from geunkeo.answer.unit_ranker import (  # noqa: E402
    FEATURES,
    QUESTION_FEATURES,
    Logistic,
    UnitRanker,
    bigrams,
    question_features,
)
from geunkeo.corpus.base import Chunk  # noqa: E402
from geunkeo.retrieve.base import Hit  # noqa: E402

_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


@dataclass
class Group:
    """One question over its retrieved contexts: a feature row and a label per candidate unit."""

    qid: str  # the question the group belongs to (its English rendering shares it)
    source: str  # tydi | autorag-ko | autorag-en | unanswerable
    x: np.ndarray
    y: np.ndarray
    texts: list[str] = field(default_factory=list)
    heuristic: np.ndarray = field(default_factory=lambda: np.zeros(0))  # the hand-weighted score it replaces
    has_gold: bool = False  # the question's gold page (passage) is among the contexts: the answer is there


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _qrels(path: Path) -> dict[str, str]:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    return {r[0]: r[1] for r in rows if len(r) >= 3 and float(r[2]) > 0}


def tydi_groups(folder: Path, answerer: ExtractiveAnswerer, k: int = 3) -> list[Group]:
    import bm25s

    from geunkeo.text.analyzer import get_analyzer

    corpus = _read_jsonl(folder / "corpus.jsonl")
    gold = _qrels(next((folder / "qrels").glob("*.tsv")))
    analyzer = get_analyzer()
    retriever = bm25s.BM25()
    retriever.index(analyzer.terms_batch([f"{d['title']} {d['text']}" for d in corpus]), show_progress=False)
    title_of = {d["_id"]: d["title"] for d in corpus}
    groups = []
    for q in _read_jsonl(folder / "queries.jsonl"):
        if q["_id"] not in gold or not q.get("answer"):
            continue
        ids, scores = retriever.retrieve([analyzer.terms(q["text"]) or ["_"]], k=k + 8, show_progress=False)
        found = [Hit(Chunk(corpus[i]["_id"], corpus[i]["_id"], corpus[i]["title"], corpus[i]["text"], "", "ko"),
                     float(s)) for i, s in zip(ids[0], scores[0], strict=True)]
        answers = [_flat(a) for a in q.get("answers") or [q["answer"]]]
        # as retrieved, and with every passage of the gold article taken out: other articles that share the
        # question's words, an unanswerable question's contexts
        article = title_of[gold[q["_id"]]]
        for hits, name in ((found[:k], "tydi"), ([h for h in found if h.chunk.title != article][:k], "tydi-nogold")):
            ranked = answerer.ranked_units(q["text"], hits)
            y = [float(hits[c.rank].chunk.doc_id == gold[q["_id"]] and any(a in _flat(c.text) for a in answers))
                 for c in ranked.candidates]
            groups.append(Group(q["_id"], name, ranked.features, np.asarray(y), [c.text for c in ranked.candidates],
                                np.asarray([c.score for c in ranked.candidates]),
                                any(h.chunk.doc_id == gold[q["_id"]] for h in hits)))
    return groups


def _states_reference(unit: str, reference: str) -> bool:
    """Whether a unit of the gold page holds the reference answer's facts: a number of the reference (not a lone
    digit) and some of its wording, or most of its wording."""
    nums = {n.replace(",", "") for n in _NUMBER.findall(reference) if len(n.replace(",", "")) >= 2}
    unit_nums = {n.replace(",", "") for n in _NUMBER.findall(unit)}
    ub = bigrams(unit)
    share = len(ub & bigrams(reference)) / len(ub) if ub else 0.0
    return (bool(nums & unit_nums) and share >= 0.3) or share >= 0.55


def sample_groups(folder: Path, index: Path, answerer: ExtractiveAnswerer, k: int = 5) -> list[Group]:
    """The project's sample gold set (university regulations and notices, Korean and English questions): a unit is
    positive when it is in a gold chunk and holds the reference answer's facts."""
    from geunkeo.engine import open_index

    engine = open_index(index)
    gold: dict[str, set[str]] = {}
    for line in (folder / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        qid, cid, score = line.split("\t")
        if float(score) > 0:
            gold.setdefault(qid, set()).add(cid)
    groups = []
    for q in _read_jsonl(folder / "queries.jsonl"):
        if q["_id"] not in gold or not q.get("answer"):
            continue
        res = engine.search(q["text"], k=k)
        hits = res.hits[:k]
        ranked = answerer.ranked_units(q["text"], hits, res.plan.bm25_terms)
        y = [float(hits[c.rank].chunk.chunk_id in gold[q["_id"]] and _states_reference(c.text, q["answer"]))
             for c in ranked.candidates]
        groups.append(Group(q.get("parallel_id") or q["_id"], "sample", ranked.features, np.asarray(y),
                            [c.text for c in ranked.candidates], np.asarray([c.score for c in ranked.candidates]),
                            any(h.chunk.chunk_id in gold[q["_id"]] for h in hits)))
    return groups


def autorag_groups(folder: Path, index: Path, answerer: ExtractiveAnswerer, unanswerable: Path,
                   k: int = 5) -> list[Group]:
    from geunkeo.engine import open_index

    engine = open_index(index)
    gold = _qrels(folder / "qrels" / "dev.tsv")
    ko = {q["_id"]: q for q in _read_jsonl(folder / "queries.jsonl")}
    asked = [(q, "autorag-ko") for q in ko.values()]
    en_file = folder / "queries-en.jsonl"
    if en_file.is_file():
        asked += [(q, "autorag-en") for q in _read_jsonl(en_file)]
    asked += [(q, "unanswerable") for q in _read_jsonl(unanswerable)]
    groups = []
    for q, source in asked:
        res = engine.search(q["text"], k=k + 10)
        page = gold.get(q["_id"]) if source != "unanswerable" else None
        reference = ko.get(q["_id"], {}).get("answer") or ""
        # the question as retrieved, and (answerable ones) again with its gold page taken out of the hits: the
        # documents then hold the question's words but not its answer, the look-alike an unanswerable question
        # meets
        variants = [(res.hits[:k], source)]
        if page is not None:
            document = page.rsplit("-p", 1)[0]  # autorag-finance-f14-p008 → the whole PDF, not just its page
            variants.append(([h for h in res.hits if not h.chunk.doc_id.startswith(document)][:k],
                             f"{source}-nogold"))
        for hits, name in variants:
            ranked = answerer.ranked_units(q["text"], hits, res.plan.bm25_terms)
            y = [float(page is not None and hits[c.rank].chunk.doc_id == page
                       and _states_reference(c.text, reference)) for c in ranked.candidates]
            groups.append(Group(q["_id"], name, ranked.features, np.asarray(y), [c.text for c in ranked.candidates],
                                np.asarray([c.score for c in ranked.candidates]),
                                any(h.chunk.doc_id == page for h in hits)))
    return groups


def _zero_ranker() -> UnitRanker:
    n = len(FEATURES)
    return UnitRanker(Logistic(np.zeros(n), np.ones(n), np.zeros(n), 0.0), None, 0.5)


def _logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, c: float) -> Logistic:
    from sklearn.linear_model import LogisticRegression

    mean, scale = x.mean(0), x.std(0)
    scale[scale < 1e-9] = 1.0
    model = LogisticRegression(C=c, max_iter=5000).fit((x - mean) / scale, y, sample_weight=w)
    return Logistic(mean, scale, model.coef_[0], float(model.intercept_[0]))


def _weight(g: Group, autorag_weight: float) -> float:
    return 1.0 if g.source.startswith("tydi") else autorag_weight


def fit(groups: list[Group], c: float, autorag_weight: float) -> Logistic:
    """The unit model: one row per candidate unit."""
    x = np.vstack([g.x for g in groups])
    y = np.concatenate([g.y for g in groups])
    w = np.concatenate([np.full(len(g.y), _weight(g, autorag_weight)) for g in groups])
    return _logistic(x, y, w, c)


def fit_head(groups: list[Group], probs: list[np.ndarray], c: float, autorag_weight: float) -> Logistic:
    """The answerability head: one row per question (its candidates hold a positive unit or not), read on unit
    probabilities the unit model gave without seeing the question."""
    x = np.vstack([question_features(g.x, p) for g, p in zip(groups, probs, strict=True)])
    y = np.asarray([float(g.has_gold) for g in groups])
    return _logistic(x, y, np.asarray([_weight(g, autorag_weight) for g in groups]), c)


def _folds(groups: list[Group], folds: int, seed: int) -> dict[str, int]:
    qids = sorted({g.qid for g in groups})
    return dict(zip(np.random.default_rng(seed).permutation(qids), np.arange(len(qids)) % folds, strict=True))


def out_of_fold(groups: list[Group], c: float, autorag_weight: float, folds: int = 5,
                seed: int = 13) -> tuple[list[np.ndarray], np.ndarray]:
    """Each group's unit probabilities and answer probability from models that never saw its question (nor its
    other-language rendering, nor its gold-removed copy). The head of each fold is trained on unit probabilities
    that are themselves out-of-fold within that fold's training part."""
    fold_of = _folds(groups, folds, seed)
    probs: list[np.ndarray] = [np.zeros(0)] * len(groups)
    answer = np.zeros(len(groups))
    for f in range(folds):
        train = [g for g in groups if fold_of[g.qid] != f]
        units = fit(train, c, autorag_weight)
        inner, _ = _unit_oof(train, c, autorag_weight, folds, seed + 1)
        head = fit_head(train, inner, c, autorag_weight)
        for i, g in enumerate(groups):
            if fold_of[g.qid] == f:
                probs[i] = units(g.x)
                answer[i] = head(question_features(g.x, probs[i])[None, :])[0]
    return probs, answer


def _unit_oof(groups: list[Group], c: float, autorag_weight: float, folds: int,
              seed: int) -> tuple[list[np.ndarray], None]:
    fold_of = _folds(groups, folds, seed)
    probs: list[np.ndarray] = [np.zeros(0)] * len(groups)
    for f in range(folds):
        units = fit([g for g in groups if fold_of[g.qid] != f], c, autorag_weight)
        for i, g in enumerate(groups):
            if fold_of[g.qid] == f:
                probs[i] = units(g.x)
    return probs, None


def figures(groups: list[Group], probs: list[np.ndarray]) -> dict[str, dict[str, float]]:
    """Per source: unit AUC, top-1 (questions with a positive unit whose best-scored unit is one), questions."""
    from sklearn.metrics import roc_auc_score

    out = {}
    for source in sorted({g.source for g in groups}):
        idx = [i for i, g in enumerate(groups) if g.source == source and len(g.y)]
        y = np.concatenate([groups[i].y for i in idx])
        p = np.concatenate([probs[i] for i in idx])
        answerable = [i for i in idx if groups[i].y.any()]
        top1 = [groups[i].y[int(np.argmax(probs[i]))] for i in answerable]
        before = [groups[i].y[int(np.argmax(groups[i].heuristic))] for i in answerable
                  if len(groups[i].heuristic) == len(groups[i].y)]
        out[source] = {"questions": len(idx), "with_positive": len(answerable),
                       "unit_auc": round(float(roc_auc_score(y, p)), 3) if 0 < y.sum() < len(y) else None,
                       "top1": round(float(np.mean(top1)), 3) if top1 else None,
                       "top1_hand_weighted": round(float(np.mean(before)), 3) if before else None}
    return out


def choose_threshold(groups: list[Group], probs: list[np.ndarray], answer: np.ndarray, cost: float,
                     off_target: float) -> tuple[float, dict]:
    """The threshold on the answer probability that minimises the cost over the autorag-ko questions (Korean,
    English, unanswerable, gold page removed), read on out-of-fold probabilities: serving when no candidate
    states the answer costs `cost`, serving a lead that does not state it when another candidate does costs
    `off_target`, withholding a question whose candidates hold the answer costs 1."""
    rows = []
    for g, p, a in zip(groups, probs, answer, strict=True):
        if g.source.startswith("tydi"):
            continue
        right = bool(len(p)) and bool(g.y[int(np.argmax(p))])
        rows.append((float(a), right, g.has_gold, g.source))

    def total(t: float) -> float:
        return sum(((0.0 if right else off_target if has else cost) if a >= t else float(has))
                   for a, right, has, _ in rows)

    best_t = min((float(t) for t in np.round(np.arange(0.02, 0.9, 0.01), 2)), key=total)
    from sklearn.metrics import roc_auc_score

    report: dict = {"cost_unanswered_served": cost, "cost_off_target_served": off_target, "threshold": best_t,
                    "answer_auc": round(float(roc_auc_score([r[2] for r in rows], [r[0] for r in rows])), 3)}
    for source in sorted({r[3] for r in rows}):
        part = [r for r in rows if r[3] == source]
        served = [r for r in part if r[0] >= best_t]
        report[source] = {
            "questions": len(part), "with_gold": sum(r[2] for r in part), "served": len(served),
            "served_lead_right": sum(r[1] for r in served),
            "withheld_with_gold": sum(1 for r in part if r[0] < best_t and r[2]),
            "withheld_without_gold": sum(1 for r in part if r[0] < best_t and not r[2]),
        }
    return best_t, report


def main(argv: list[str] | None = None) -> int:
    import pickle

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "datasets")
    ap.add_argument("--index", type=Path, default=ROOT / ".bench-cache" / "answers" / "autorag-ko" / "index",
                    help="an index of autorag-ko's corpus (benchmarks/answers.py builds this one)")
    ap.add_argument("--sample-index", type=Path, default=ROOT / ".bench-cache" / "answers" / "gold" / "index",
                    help="an index of sample/corpus (benchmarks/answers.py on sample/gold builds this one)")
    ap.add_argument("--unanswerable", type=Path, default=ROOT / "benchmarks/data/autorag_ko_unanswerable.jsonl")
    ap.add_argument("--out", type=Path, default=ROOT / "src/geunkeo/data/unit_ranker.json")
    ap.add_argument("--features-cache", type=Path, default=ROOT / ".bench-cache" / "unit_ranker_groups.pkl")
    ap.add_argument("-C", type=float, default=1.0)
    ap.add_argument("--autorag-weight", type=float, default=5.0)
    ap.add_argument("--cost", type=float, default=3.0,
                    help="cost of serving when no candidate states the answer (withholding an answerable one = 1)")
    ap.add_argument("--off-target", type=float, default=2.0,
                    help="cost of serving a lead that does not state the answer when another candidate does")
    args = ap.parse_args(argv)

    cache = args.features_cache
    if cache.is_file() and pickle.loads(cache.read_bytes())["features"] == list(FEATURES):
        groups = pickle.loads(cache.read_bytes())["groups"]
    else:
        answerer = ExtractiveAnswerer(ranker=_zero_ranker())
        groups = tydi_groups(args.shared / "tydiqa-ko", answerer)
        groups += autorag_groups(args.shared / "autorag-ko", args.index, answerer, args.unanswerable)
        groups += sample_groups(ROOT / "sample" / "gold", args.sample_index, answerer)
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(pickle.dumps({"features": list(FEATURES), "groups": groups}))
    groups = [g for g in groups if len(g.y)]
    probs, answer = out_of_fold(groups, args.C, args.autorag_weight)
    cv = figures(groups, probs)
    threshold, withholding = choose_threshold(groups, probs, answer, args.cost, args.off_target)
    units = fit(groups, args.C, args.autorag_weight)
    inner, _ = _unit_oof(groups, args.C, args.autorag_weight, 5, 14)
    head = fit_head(groups, inner, args.C, args.autorag_weight)
    result = {
        "features": list(FEATURES), "units": units.to_dict(),
        "question_features": list(QUESTION_FEATURES), "answerable": head.to_dict(), "threshold": threshold,
        "trained_on": {s: sum(1 for g in groups if g.source == s) for s in sorted({g.source for g in groups})},
        "params": {"C": args.C, "autorag_weight": args.autorag_weight, "cost_unanswered_served": args.cost,
                   "cost_off_target_served": args.off_target},
        "cross_validated": {"folds": 5, "grouped_by": "question", "per_source": cv, "withholding": withholding},
    }
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: result[k] for k in ("threshold", "trained_on", "params", "cross_validated")},
                     ensure_ascii=False, indent=1))
    print("unit weights:", {f: round(float(w), 3) for f, w in zip(FEATURES, units.weights, strict=True)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
