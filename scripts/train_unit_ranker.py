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

Figures are 5-fold cross-validated with questions grouped (a question, its English rendering and its swapped
look-alike fall in the same fold): unit AUC, and per question the share whose best-scored unit is a positive.
The answerability head learns "the gold page is among the contexts" on the document questions, their
unanswerable sets and swapped look-alikes (a question's rarest term replaced by another question's); its
threshold is the highest that withholds at most `--budget` (5 %) of the answerable Korean questions, out of fold.
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
from geunkeo.config import AnswerSettings  # noqa: E402
from geunkeo.corpus.base import Chunk  # noqa: E402
from geunkeo.retrieve.base import Hit  # noqa: E402

_RULES_MIN_ANSWERABILITY = AnswerSettings().gate_min_answerability
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


@dataclass
class Group:
    """One question over its retrieved contexts: a feature row and a label per candidate unit, the question's
    evidence features for the answerability head, and what the word-overlap rules decided."""

    qid: str  # the question the group belongs to (its English rendering and its swapped copy share it)
    source: str  # tydi | tydi-swap | autorag-ko | autorag-en | autorag-swap | unanswerable | sample | ...
    x: np.ndarray
    y: np.ndarray
    texts: list[str] = field(default_factory=list)
    heuristic: np.ndarray = field(default_factory=lambda: np.zeros(0))  # the hand-weighted score it replaces
    has_gold: bool = False  # the question's gold page (passage) is among the contexts: the answer is there
    evidence: np.ndarray = field(default_factory=lambda: np.zeros(0))
    rules_withhold: bool = False  # the word-overlap answerability rules withhold it


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _qrels(path: Path) -> dict[str, str]:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    return {r[0]: r[1] for r in rows if len(r) >= 3 and float(r[2]) > 0}


def _group(qid: str, source: str, query: str, hits: list[Hit], answerer: ExtractiveAnswerer,
           rarity: dict[str, float], positive, terms: dict[str, float] | None = None,
           has_gold: bool = False, term_sources: dict[str, str] | None = None) -> Group:
    """Rank the units of `hits` for `query`, label each with `positive(hit, text)`, and record what the
    word-overlap rules decide (as the gate does: a focus unmatched, or a score under answer.gate_min_answerability)."""
    from geunkeo.answer.answerability import assess, stand_ins

    ranked = answerer.ranked_units(query, hits, terms)
    y = [float(positive(hits[c.rank], c.text)) for c in ranked.candidates]
    able = assess(query, hits, terms, term_sources)
    withhold = bool(able.unmatched) or able.score < _RULES_MIN_ANSWERABILITY
    return Group(qid, source, ranked.features, np.asarray(y), [c.text for c in ranked.candidates],
                 np.asarray([c.score for c in ranked.candidates]), has_gold,
                 ranked.evidence(hits, rarity, answerer.top_chunks, stand_ins(term_sources)), withhold)


def _swap(text: str, old: str, new: str) -> str | None:
    """The question with `old` replaced by `new` once (None when `old` is not written as such in it)."""
    i = text.find(old)
    return None if i < 0 else text[:i] + new + text[i + len(old):]


def tydi_groups(folder: Path, answerer: ExtractiveAnswerer, k: int = 3, swaps: int = 600) -> list[Group]:
    """TyDi questions over Kiwi-BM25's top passages, and (`swaps` of them) the question with its article's title
    replaced by another article's: the same shape of question about something the passages do not cover."""
    import bm25s

    from geunkeo.index.stores.embedded import scaled_idf
    from geunkeo.text.analyzer import get_analyzer

    corpus = _read_jsonl(folder / "corpus.jsonl")
    gold = _qrels(next((folder / "qrels").glob("*.tsv")))
    analyzer = get_analyzer()
    retriever = bm25s.BM25()
    retriever.index(analyzer.terms_batch([f"{d['title']} {d['text']}" for d in corpus]), show_progress=False)
    vocab, indptr = retriever.vocab_dict, retriever.scores["indptr"]

    def rarity(terms) -> dict[str, float]:
        return {t: scaled_idf(int(indptr[vocab[t] + 1] - indptr[vocab[t]]) if t in vocab else 0, len(corpus))
                for t in terms}

    def search(text: str) -> list[Hit]:
        ids, scores = retriever.retrieve([analyzer.terms(text) or ["_"]], k=k, show_progress=False)
        return [Hit(Chunk(corpus[i]["_id"], corpus[i]["_id"], corpus[i]["title"], corpus[i]["text"], "", "ko"),
                    float(s)) for i, s in zip(ids[0], scores[0], strict=True)]

    titles = sorted({d["title"] for d in corpus})
    rng = np.random.default_rng(7)
    groups = []
    for q in _read_jsonl(folder / "queries.jsonl"):
        if q["_id"] not in gold or not q.get("answer"):
            continue
        answers = [_flat(a) for a in q.get("answers") or [q["answer"]]]
        page = gold[q["_id"]]
        hits = search(q["text"])
        groups.append(_group(q["_id"], "tydi", q["text"], hits, answerer, rarity(analyzer.terms(q["text"])),
                             lambda h, t, page=page, answers=answers: h.chunk.doc_id == page
                             and any(a in _flat(t) for a in answers),
                             has_gold=any(h.chunk.doc_id == page for h in hits)))
        title = next(d["title"] for d in corpus if d["_id"] == page)
        other = titles[int(rng.integers(len(titles)))]
        swapped = _swap(q["text"], title, other) if len(title) >= 2 and other != title else None
        if swapped and sum(g.source == "tydi-swap" for g in groups) < swaps:
            groups.append(_group(q["_id"], "tydi-swap", swapped, search(swapped), answerer,
                                 rarity(analyzer.terms(swapped)), lambda h, t: False))
    return groups


def _states_reference(unit: str, reference: str) -> bool:
    """Whether a unit of the gold page holds the reference answer's facts: a number of the reference (not a lone
    digit) and some of its wording, or most of its wording."""
    nums = {n.replace(",", "") for n in _NUMBER.findall(reference) if len(n.replace(",", "")) >= 2}
    unit_nums = {n.replace(",", "") for n in _NUMBER.findall(unit)}
    ub = bigrams(unit)
    share = len(ub & bigrams(reference)) / len(ub) if ub else 0.0
    return (bool(nums & unit_nums) and share >= 0.3) or share >= 0.55


def _distinctive(engine, query: str, gold_text: str) -> str | None:
    """The question's rarest term (in the index) that the gold text holds and the question writes as such: what
    it is about (대구은행, 2023년, 청년도약계좌)."""
    from geunkeo.text.analyzer import get_analyzer

    terms = [t for t in get_analyzer().terms(query) if len(t) >= 2 and t in query and t in gold_text]
    rarity = engine.store.term_rarity(terms)
    return max(terms, key=lambda t: rarity[t]) if terms else None


def engine_groups(name: str, engine, asked: list[tuple[dict, str, set[str], str]], answerer: ExtractiveAnswerer,
                  k: int = 5, id_of=lambda h: h.chunk.doc_id) -> list[Group]:
    """Questions (query, source, gold ids, reference answer) asked through the project's own search; each
    answerable Korean one again with its distinctive term replaced by another question's (a look-alike the
    documents do not answer)."""
    pool = []
    for q, source, gold, _ in asked:
        if source.endswith("-ko"):
            res = engine.search(q["text"], k=k)
            gold_text = " ".join(h.chunk.text for h in res.hits if id_of(h) in gold)
            term = _distinctive(engine, q["text"], gold_text) if gold_text else None
            if term:
                pool.append((q["_id"], term))
    rng = np.random.default_rng(11)
    groups = []
    for q, source, gold, reference in asked:
        res = engine.search(q["text"], k=k)
        hits = res.hits[:k]
        terms = res.plan.bm25_terms
        groups.append(_group(q["_id"], source, q["text"], hits, answerer, engine.store.term_rarity(list(terms)),
                             lambda h, t, gold=gold, reference=reference: id_of(h) in gold
                             and _states_reference(t, reference), terms,
                             has_gold=any(id_of(h) in gold for h in hits), term_sources=res.plan.info.get("term_sources")))
        own = dict(pool).get(q["_id"]) if source.endswith("-ko") else None
        if not own:
            continue
        gold_text = " ".join(h.chunk.text for h in hits if id_of(h) in gold)
        others = [t for qid, t in pool if qid != q["_id"] and t not in gold_text and t not in q["text"]]
        swapped = _swap(q["text"], own, others[int(rng.integers(len(others)))]) if others else None
        if swapped:
            res = engine.search(swapped, k=k)
            terms = res.plan.bm25_terms
            groups.append(_group(q["_id"], f"{name}-swap", swapped, res.hits[:k], answerer,
                                 engine.store.term_rarity(list(terms)), lambda h, t: False, terms,
                                 term_sources=res.plan.info.get("term_sources")))
    return groups


def autorag_groups(folder: Path, index: Path, answerer: ExtractiveAnswerer, unanswerable: Path) -> list[Group]:
    """autorag-ko dev in Korean and English, and the project's unanswerable questions on its corpus."""
    from geunkeo.engine import open_index

    gold = _qrels(folder / "qrels" / "dev.tsv")
    ko = {q["_id"]: q for q in _read_jsonl(folder / "queries.jsonl")}
    asked = [(q, "autorag-ko", {gold[q["_id"]]}, q.get("answer") or "") for q in ko.values()]
    en_file = folder / "queries-en.jsonl"
    if en_file.is_file():
        asked += [(q, "autorag-en", {gold[q["_id"]]}, ko[q["_id"]].get("answer") or "")
                  for q in _read_jsonl(en_file)]
    asked += [(q, "unanswerable", set(), "") for q in _read_jsonl(unanswerable)]
    return engine_groups("autorag", open_index(index), asked, answerer)


def draw_groups(folder: Path, index: Path, answerer: ExtractiveAnswerer, name: str) -> list[Group]:
    """A project-written draw on autorag-ko's corpus (benchmarks/data/fresh_answersN: queries with reference
    answers, qrels/test.tsv, unanswerable.jsonl), once it has been reported as unseen."""
    from geunkeo.engine import open_index

    gold = _qrels(folder / "qrels" / "test.tsv")
    asked = [(q, f"{name}-{'en' if q.get('lang') == 'en' else 'ko'}", {gold[q["_id"]]}, q.get("answer") or "")
             for q in _read_jsonl(folder / "queries.jsonl") if q["_id"] in gold]
    asked += [(q, f"{name}-unanswerable", set(), "") for q in _read_jsonl(folder / "unanswerable.jsonl")]
    return engine_groups(name, open_index(index), asked, answerer)


def sample_groups(folder: Path, index: Path, answerer: ExtractiveAnswerer, unanswerable: Path) -> list[Group]:
    """The project's sample gold set (university regulations and notices, Korean and English questions; gold
    chunks) and its unanswerable questions."""
    from geunkeo.engine import open_index

    gold: dict[str, set[str]] = {}
    for line in (folder / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        qid, cid, score = line.split("\t")
        if float(score) > 0:
            gold.setdefault(qid, set()).add(cid)
    asked = []
    for q in _read_jsonl(folder / "queries.jsonl"):
        if q["_id"] in gold and q.get("answer"):
            # a question and its other-language rendering share a fold
            asked.append(({**q, "_id": q.get("parallel_id") or q["_id"]},
                          "sample-ko" if q.get("lang") == "ko" else "sample-en", gold[q["_id"]], q["answer"]))
    asked += [(q, "sample-unanswerable", set(), "") for q in _read_jsonl(unanswerable)]
    return engine_groups("sample", open_index(index), asked, answerer, id_of=lambda h: h.chunk.chunk_id)


def _zero_ranker() -> UnitRanker:
    n = len(FEATURES)
    return UnitRanker(Logistic(np.zeros(n), np.ones(n), np.zeros(n), 0.0), None, 0.5)


# the direction a feature can push, known before any data: more of the question held, the asked slot filled,
# a field label that answers it never make a unit less likely; garble, a cut start, another series member or
# another count unit never more likely. Without these bounds the overlap features, which move together, took
# weights of opposite signs that reward a unit holding none of the question's words (a notice's "게시일: …" line)
POSITIVE = {"overlap", "overlap_raw", "overlap_rare", "bigrams", "overlap_relative", "overlap_first", "slot",
            "asks_figure_has", "label_answers", "asked_unit", "title_share", "pool_coverage",
            "p_best", "best_overlap_raw", "best_bigrams", "coverage", "chunk_coverage", "rarest_held_part",
            "dense_top"}
NEGATIVE = {"asks_figure_lacks", "other_member", "garble", "cut_start", "other_unit", "dangling", "lead_in",
            "best_asks_figure_lacks", "noun_missing_max_rarity", "noun_missing_share", "rarest_noun_missing",
            "number_missing", "proper_missing", "proper_unindexed"}
ZEROED: set[str] = set()  # features held at weight 0 (--zero: an ablation on the same data and folds)
KEPT_UNITS: list[Logistic] = []  # --keep-units: the unit model is not refitted, only the head learns


def _logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, c: float, names: tuple[str, ...]) -> Logistic:
    """L2-regularised logistic regression on standardised, clipped features, each weight within the sign its
    feature can take (POSITIVE, NEGATIVE; free otherwise): L-BFGS-B."""
    from scipy.optimize import minimize

    # an unknown feature (NaN: a question with no term to look up) is its column's mean, as at run time
    mean, scale = np.nanmean(x, 0), np.nanstd(x, 0)
    scale[~(scale >= 1e-9)] = 1.0
    mean = np.nan_to_num(mean)
    z = np.nan_to_num(np.clip((x - mean) / scale, -5.0, 5.0), nan=0.0)

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ theta[1:] + theta[0], -30, 30)))
        value = -(w * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))).sum() + theta[1:] @ theta[1:] / (2 * c)
        g = w * (p - y)
        return float(value), np.concatenate([[g.sum()], z.T @ g + theta[1:] / c])

    bounds = [(None, None)] + [(0, 0) if n in ZEROED else (0, None) if n in POSITIVE else (None, 0) if n in NEGATIVE
                               else (None, None) for n in names]
    theta = minimize(loss, np.zeros(len(names) + 1), jac=True, method="L-BFGS-B", bounds=bounds).x
    return Logistic(mean, scale, theta[1:], float(theta[0]))


def _weight(g: Group, autorag_weight: float) -> float:
    return 1.0 if g.source.startswith("tydi") else autorag_weight


def _unit_groups(groups: list[Group]) -> list[Group]:
    """The groups the unit model learns from: not the look-alikes (they teach the head, not the ranking)."""
    return [g for g in groups if not g.source.endswith(("-swap", "-drop"))]


def dropped_lookalikes(groups: list[Group]) -> list[Group]:
    """Each answerable Korean document question again with the units that state its answer taken out: the
    documents on the topic without the asked fact (a question about a figure the page does not give, a period or
    a member it does not cover). They teach the head that a page about the topic is not yet an answer; the unit
    model does not learn from them."""
    out = []
    for g in groups:
        if g.source.startswith("tydi") or not g.source.endswith("-ko") or not g.y.any() or g.y.all():
            continue
        keep = g.y == 0
        out.append(Group(g.qid, f"{g.source}-drop", g.x[keep], g.y[keep], [t for t, k in zip(g.texts, keep, strict=True) if k],
                         g.heuristic[keep] if len(g.heuristic) == len(g.y) else g.heuristic, False, g.evidence,
                         g.rules_withhold))
    return out


def fit(groups: list[Group], c: float, autorag_weight: float) -> Logistic:
    """The unit model: one row per candidate unit (the kept one with --keep-units)."""
    if KEPT_UNITS:
        return KEPT_UNITS[0]
    x = np.vstack([g.x for g in groups])
    y = np.concatenate([g.y for g in groups])
    w = np.concatenate([np.full(len(g.y), _weight(g, autorag_weight)) for g in groups])
    return _logistic(x, y, w, c, FEATURES)


def fit_head(groups: list[Group], probs: list[np.ndarray], c: float, autorag_weight: float) -> Logistic:
    """The answerability head: one row per question (the gold page is among its contexts or not), read on unit
    probabilities the unit model gave without seeing the question. Learned on the document questions only
    (autorag-ko, the sample set, their unanswerable and swapped look-alikes): TyDi's Wikipedia passages retrieved
    from a corpus of gold passages alone are not what a service meets (with them the out-of-fold AUC on the
    document questions fell from 0.71 to 0.65)."""
    keep = [i for i, g in enumerate(groups) if not g.source.startswith("tydi")]
    groups, probs = [groups[i] for i in keep], [probs[i] for i in keep]
    x = np.vstack([question_features(g.x, p, g.evidence) for g, p in zip(groups, probs, strict=True)])
    y = np.asarray([float(g.has_gold) for g in groups])
    return _logistic(x, y, np.asarray([_weight(g, autorag_weight) for g in groups]), c, QUESTION_FEATURES)


def _folds(groups: list[Group], folds: int, seed: int) -> dict[str, int]:
    qids = sorted({g.qid for g in groups})
    return dict(zip(np.random.default_rng(seed).permutation(qids), np.arange(len(qids)) % folds, strict=True))


def out_of_fold(groups: list[Group], c: float, autorag_weight: float, folds: int = 5,
                seed: int = 13) -> tuple[list[np.ndarray], np.ndarray]:
    """Each group's unit probabilities and answer probability from models that never saw its question (nor its
    other-language rendering, nor its swapped look-alike). The head of each fold is trained on unit probabilities
    that are themselves out-of-fold within that fold's training part."""
    fold_of = _folds(groups, folds, seed)
    probs: list[np.ndarray] = [np.zeros(0)] * len(groups)
    answer = np.zeros(len(groups))
    for f in range(folds):
        train = [g for g in groups if fold_of[g.qid] != f]
        units = fit(_unit_groups(train), c, autorag_weight)
        inner = _unit_oof(train, c, autorag_weight, folds, seed + 1)
        head = fit_head(train, inner, c, autorag_weight)
        for i, g in enumerate(groups):
            if fold_of[g.qid] == f:
                probs[i] = units(g.x)
                answer[i] = head(question_features(g.x, probs[i], g.evidence)[None, :])[0]
    return probs, answer


def _unit_oof(groups: list[Group], c: float, autorag_weight: float, folds: int, seed: int) -> list[np.ndarray]:
    """Each group's unit probabilities from a unit model that did not see its question."""
    fold_of = _folds(groups, folds, seed)
    probs: list[np.ndarray] = [np.zeros(0)] * len(groups)
    for f in range(folds):
        units = fit(_unit_groups([g for g in groups if fold_of[g.qid] != f]), c, autorag_weight)
        for i, g in enumerate(groups):
            if fold_of[g.qid] == f:
                probs[i] = units(g.x)
    return probs


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


def cost_threshold(groups: list[Group], answer: np.ndarray, cost: float) -> dict:
    """The threshold on the answer probability that minimises, over the Korean document questions out of fold
    (answerable, unanswerable and swapped look-alikes), `cost` × answers served without the answer among the
    contexts + answerable questions withheld, with the word-overlap rules withholding beside it as the gate does."""
    doc = [i for i, g in enumerate(groups) if not g.source.startswith("tydi") and not g.source.endswith("-en")]
    best: dict = {}
    for t in sorted({0.0, *(round(float(answer[i]), 3) for i in doc)}):
        held = {i: answer[i] < t or bool(groups[i].rules_withhold) for i in doc}
        bad = sum(1 for i in doc if not groups[i].has_gold and not held[i])
        lost = sum(1 for i in doc if groups[i].has_gold and held[i])
        if not best or cost * bad + lost < best["cost"]:
            best = {"threshold": t, "cost": cost * bad + lost, "served_without_answer": bad, "withheld_answerable": lost,
                    "questions": len(doc), "answerable": sum(1 for i in doc if groups[i].has_gold)}
    return best


def choose_threshold(groups: list[Group], answer: np.ndarray, budget: float) -> tuple[float, dict]:
    """The threshold on the answer probability: the highest that withholds at most `budget` of the answerable
    Korean document questions (autorag-ko, sample; out-of-fold). Figures per source beside the word-overlap
    rules' decisions on the same questions (in-sample for the project's unanswerable sets, which they were tuned
    on)."""
    from sklearn.metrics import roc_auc_score

    doc = [i for i, g in enumerate(groups) if not g.source.startswith("tydi")]
    answerable = sorted(answer[i] for i in doc if groups[i].source.endswith("-ko"))
    threshold = round(float(np.quantile(answerable, budget)), 3)
    report: dict = {"rule": f"withhold at most {budget:.0%} of answerable Korean questions", "threshold": threshold,
                    "answer_auc": round(float(roc_auc_score([groups[i].has_gold for i in doc],
                                                            [answer[i] for i in doc])), 3)}
    for source in sorted({groups[i].source for i in doc}):
        part = [i for i in doc if groups[i].source == source]
        report[source] = {"questions": len(part), "with_gold": int(sum(groups[i].has_gold for i in part)),
                          "withheld": int(sum(answer[i] < threshold for i in part)),
                          "withheld_by_rules": int(sum(bool(groups[i].rules_withhold) for i in part)),
                          "withheld_by_either": int(sum(answer[i] < threshold or bool(groups[i].rules_withhold)
                                                        for i in part))}
    return threshold, report


def main(argv: list[str] | None = None) -> int:
    import pickle

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "datasets")
    ap.add_argument("--index", type=Path, default=ROOT / ".bench-cache" / "answers" / "autorag-ko" / "index",
                    help="an index of autorag-ko's corpus (benchmarks/answers.py builds this one)")
    ap.add_argument("--sample-index", type=Path, default=ROOT / ".bench-cache" / "answers" / "gold" / "index",
                    help="an index of sample/corpus (benchmarks/answers.py on sample/gold builds this one)")
    ap.add_argument("--unanswerable", type=Path, default=ROOT / "benchmarks/data/autorag_ko_unanswerable.jsonl")
    ap.add_argument("--sample-unanswerable", type=Path, default=ROOT / "benchmarks/data/sample_unanswerable.jsonl")
    ap.add_argument("--out", type=Path, default=ROOT / "src/geunkeo/data/unit_ranker.json")
    ap.add_argument("--features-cache", type=Path, default=ROOT / ".bench-cache" / "unit_ranker_groups.pkl")
    ap.add_argument("-C", type=float, default=1.0)
    ap.add_argument("--autorag-weight", type=float, default=5.0)
    ap.add_argument("--draws", type=Path, nargs="*", default=[ROOT / "benchmarks/data/fresh_answers1"],
                    help="project-written draws on autorag-ko to learn from, each after it was reported as unseen")
    ap.add_argument("--budget", type=float, default=0.05,
                    help="the share of answerable Korean questions the head may withhold (out of fold)")
    ap.add_argument("--cost", type=float, default=0.0,
                    help="choose the threshold by cost instead: a served answer without the answer among the contexts "
                         "costs this many withheld answerable questions (0: use --budget)")
    ap.add_argument("--drop-lookalikes", action=argparse.BooleanOptionalAction, default=False,
                    help="also teach the head with each answerable question's contexts less the units that answer it")
    ap.add_argument("--keep-units", type=Path, default=None, metavar="JSON",
                    help="keep the unit model of this trained JSON (same FEATURES) and train only the head on its "
                         "probabilities")
    ap.add_argument("--zero", nargs="*", default=[], choices=[*FEATURES, *QUESTION_FEATURES], metavar="FEATURE",
                    help="hold these features' weights at 0 (an ablation: the same data, folds and threshold rule)")
    args = ap.parse_args(argv)
    ZEROED.update(args.zero)
    if args.keep_units:
        kept = json.loads(args.keep_units.read_text(encoding="utf-8"))
        if kept["features"] != list(FEATURES):
            raise SystemExit(f"{args.keep_units}: its unit model was trained on other features")
        KEPT_UNITS.append(Logistic.from_dict(kept["units"]))

    cache = args.features_cache
    key = [*FEATURES, *QUESTION_FEATURES, *map(str, args.draws)]
    if cache.is_file() and pickle.loads(cache.read_bytes())["features"] == key:
        groups = pickle.loads(cache.read_bytes())["groups"]
    else:
        answerer = ExtractiveAnswerer(ranker=_zero_ranker())
        groups = tydi_groups(args.shared / "tydiqa-ko", answerer)
        groups += autorag_groups(args.shared / "autorag-ko", args.index, answerer, args.unanswerable)
        groups += sample_groups(ROOT / "sample" / "gold", args.sample_index, answerer, args.sample_unanswerable)
        for draw in args.draws:
            groups += draw_groups(draw, args.index, answerer, draw.name)
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(pickle.dumps({"features": key, "groups": groups}))
    groups = [g for g in groups if len(g.y)]
    if args.drop_lookalikes:
        groups += dropped_lookalikes(groups)
    probs, answer = out_of_fold(groups, args.C, args.autorag_weight)
    cv = figures(groups, probs)
    threshold, withholding = choose_threshold(groups, answer, args.budget)
    if args.cost:
        withholding["by_cost"] = cost_threshold(groups, answer, args.cost)
        threshold = withholding["by_cost"]["threshold"]
    units = fit(_unit_groups(groups), args.C, args.autorag_weight)
    inner = _unit_oof(groups, args.C, args.autorag_weight, 5, 14)
    head = fit_head(groups, inner, args.C, args.autorag_weight)
    result = {
        "features": list(FEATURES), "units": units.to_dict(),
        "question_features": list(QUESTION_FEATURES), "answerable": head.to_dict(), "threshold": threshold,
        "trained_on": {s: sum(1 for g in groups if g.source == s) for s in sorted({g.source for g in groups})},
        "params": {"C": args.C, "autorag_weight": args.autorag_weight, "budget": args.budget,
                   "drop_lookalikes": args.drop_lookalikes, "cost": args.cost,
                   "keep_units": str(args.keep_units) if args.keep_units else None},
        "cross_validated": {"folds": 5, "grouped_by": "question", "per_source": cv, "withholding": withholding},
    }
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: result[k] for k in ("threshold", "trained_on", "params", "cross_validated")},
                     ensure_ascii=False, indent=1))
    print("unit weights:", {f: round(float(w), 3) for f, w in zip(FEATURES, units.weights, strict=True)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
