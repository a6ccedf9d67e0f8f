"""Experiment: can a learned check tell an invented figure the contexts DO give (for another clause, row, service or
period) from a legitimate one, by comparing the answer's clause around the figure with the contexts' clauses around
each occurrence of the same value?

    PYTHONPATH=src .venv/bin/python benchmarks/figure_relation.py [--json OUT]

Items: every labelled item of the held-out filter sets (benchmarks/data/filter_heldout*.json) the project's figure
reader (geunkeo.text.figures) reads as a figure, whose figures in the answer some context of the case gives (a
FigureIndex over the case's chunks supports each): the figures the filter keeps today. Label: invented (the case's
"invented" list) or legitimate ("legit").

A clause (--clause window, the default): the 40 characters (--width) either side of a figure within its sentence or
table row; --clause comma: the span between sentence ends, line breaks, commas and table cells (a list of values or a
table's cell leaves the figure alone in it).

Features (per item, from its first figure in the answer; no case string is used):
- same_bigram / same_term: overlap of the answer's clause with the best-fitting context clause holding the same value
  (share of the answer clause's character bigrams / Kiwi terms found in the context clause; digits dropped);
- other_bigram / other_term: the same for the best-fitting context clause holding ANOTHER value of the same kind and
  unit; gap_bigram / gap_term: same minus other; other_better: another value's clause fits better (either measure);
- rare_shared: the best same-value clause holds the answer clause's rarest term (fewest context clauses hold it);
- n_values: distinct values of that kind and unit in the contexts (log); n_occ: occurrences of the value (log);
- cross_lang: the answer clause is English and the contexts Korean (their words cannot overlap);
- kind: one-hot of amount / percent|fraction / count / date / time.

A logistic regression (class-balanced) is scored with leave-one-set-out cross-validation: AUC of the out-of-fold
scores, and, at the threshold each training fold sets so that ≤1 % / ≤3 % of ITS legitimate figures score above it,
how many held-out invented figures score above (would be caught) and how many legitimate ones (would be removed).
The rule "other_better" (no fitting) is reported the same way.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.preprocessing import StandardScaler

from geunkeo.answer.filter import HallucinationFilter
from geunkeo.corpus.base import Chunk
from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.figures import Figure, FigureIndex, extract_figures
from geunkeo.text.patterns import HANGUL

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data"
KINDS = ("amount", "ratio", "count", "date", "time")
FEATURES = ("same_bigram", "same_term", "other_bigram", "other_term", "gap_bigram", "gap_term", "other_better",
            "rare_shared", "n_values", "n_occ", "cross_lang") + tuple(f"kind_{k}" for k in KINDS)

# clause bounds: sentence ends, line breaks (a table's row is one clause), semicolons, circled paragraph marks, and
# (--clause comma only) a comma before a space and a table's cell
_BOUND = re.compile(r"(?<=[.!?。;])\s+|\n|[\u2460-\u2473]")
_BOUND_COMMA = re.compile(_BOUND.pattern + r"|,\s|\s\|\s|\|\s|\s\|")
CLAUSE = {"mode": "window", "width": 40}
_DIGITS = re.compile(r"[\d\s.,:~%\-–/()\[\]|·]+")


def clause_at(text: str, start: int, end: int) -> str:
    """The clause of `text` holding the span [start, end): between commas and cells too (mode "comma"), or the
    `width` characters either side of the span within its sentence or table row (mode "window")."""
    comma = CLAUSE["mode"] == "comma"
    lo, hi = 0, len(text)
    for m in (_BOUND_COMMA if comma else _BOUND).finditer(text):
        if m.end() <= start:
            lo = m.end()
        elif m.start() >= end:
            hi = m.start()
            break
    if not comma:
        lo, hi = max(lo, start - CLAUSE["width"]), min(hi, end + CLAUSE["width"])
    return text[lo:hi]


def _bigrams(clause: str) -> set[str]:
    s = _DIGITS.sub(" ", clause.lower())
    return {s[i:i + 2] for i in range(len(s) - 1) if " " not in s[i:i + 2]}


_TERMS: dict[str, frozenset[str]] = {}


def _terms(clause: str) -> frozenset[str]:
    if clause not in _TERMS:
        _TERMS[clause] = frozenset(t for t in get_analyzer().terms(clause) if not any(c.isdigit() for c in t))
    return _TERMS[clause]


def _share(a: set | frozenset, b: set | frozenset) -> float:
    return len(a & b) / len(a) if a else 0.0


def _kind(f: Figure) -> str:
    return "ratio" if f.kind in ("percent", "fraction") else f.kind


def _unit(f: Figure) -> tuple:
    """What values of the same kind and unit share (the value compared apart)."""
    return (_kind(f), f.unit if f.kind in ("amount", "count") else "")


def same_value(f: Figure, g: Figure) -> bool:
    """Whether context figure `g` gives `f`'s value (the figure reader's own comparison)."""
    idx = FigureIndex()
    idx.add(g.text, 0)
    return idx.support(f) is not None


def _context_figures(texts: list[str]) -> list[tuple[Figure, str]]:
    return [(g, clause_at(t, g.start, g.end)) for t in texts for g in extract_figures(t)]


def item_rows(path: Path, leaks: Counter) -> list[dict]:
    """The supported figure items of one set; `leaks` counts the set's invented items the filter keeps (all, and
    those that are rows here)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = []
    filt = HallucinationFilter()
    for case in data["cases"]:
        chunks = [Chunk(**c) for name in case["contexts"] for c in data["contexts"][name]]
        kept = filt.apply(case["answer"], chunks, lang=case["lang"]).text
        leaks["invented kept by the filter"] += sum(v in kept for v in case["invented"])
        texts = [c["text"] for name in case["contexts"] for c in data["contexts"][name]]
        index = FigureIndex()
        for n, t in enumerate(texts):
            index.add(t, n)
        ctx_figs = _context_figures(texts)
        clause_df = Counter(t for _, cl in {(None, cl) for _, cl in ctx_figs} for t in _terms(cl))
        answer = case["answer"]
        answer_figs = extract_figures(answer)
        for label, items in ((1, case["invented"]), (0, case["legit"])):
            for item in items:
                if not extract_figures(item) or (pos := answer.find(item)) < 0:
                    continue
                figs = [f for f in answer_figs if f.start < pos + len(item) and f.end > pos]
                if not figs or any(index.support(f) is None for f in figs):
                    continue  # no figure here, or the filter cuts it already
                f = figs[0]
                leaks["rows kept by the filter"] += item in kept
                leaks["invented rows kept by the filter"] += label and item in kept
                rows.append({"set": path.name, "case": case["id"], "item": item, "invented": label,
                             "filter_kept": item in kept,
                             **features(answer, f, ctx_figs, clause_df, any(HANGUL.search(t) for t in texts))})
    return rows


def features(answer: str, f: Figure, ctx_figs: list[tuple[Figure, str]], clause_df: Counter,
             ctx_korean: bool) -> dict:
    a_clause = clause_at(answer, f.start, f.end)
    a_bi, a_terms = _bigrams(a_clause), _terms(a_clause)
    same = [cl for g, cl in ctx_figs if same_value(f, g)]
    other = [cl for g, cl in ctx_figs if _unit(g) == _unit(f) and not same_value(f, g)]
    sb = max((_share(a_bi, _bigrams(cl)) for cl in same), default=0.0)
    st = max((_share(a_terms, _terms(cl)) for cl in same), default=0.0)
    ob = max((_share(a_bi, _bigrams(cl)) for cl in other), default=0.0)
    ot = max((_share(a_terms, _terms(cl)) for cl in other), default=0.0)
    known = [t for t in a_terms if clause_df[t]]
    rare = min(known, key=lambda t: (clause_df[t], t)) if known else None
    values = {g.key for g, _ in ctx_figs if _unit(g) == _unit(f)}
    row = {"same_bigram": sb, "same_term": st, "other_bigram": ob, "other_term": ot, "gap_bigram": sb - ob,
           "gap_term": st - ot, "other_better": float(ob > sb or ot > st),
           "rare_shared": float(rare is not None and any(rare in _terms(cl) for cl in same)),
           "n_values": math.log1p(len(values)), "n_occ": math.log1p(len(same)),
           "cross_lang": float(ctx_korean and not HANGUL.search(a_clause))}
    row.update({f"kind_{k}": float(_kind(f) == k) for k in KINDS})
    return row


def _caught(scores: np.ndarray, labels: np.ndarray, threshold: float) -> tuple[int, int]:
    flagged = scores > threshold
    return int((flagged & (labels == 1)).sum()), int((flagged & (labels == 0)).sum())


def evaluate(rows: list[dict], budgets=(0.01, 0.03)) -> dict:
    """The scores of `rows` (each row gets its out-of-fold score as "oof")."""
    X = np.array([[r[k] for k in FEATURES] for r in rows])
    y = np.array([r["invented"] for r in rows])
    groups = np.array([r["set"] for r in rows])
    oof = np.zeros(len(rows))
    rule = X[:, FEATURES.index("other_better")]
    at = {b: [0, 0] for b in budgets}
    gap = -X[:, FEATURES.index("gap_bigram")]  # one feature, no fitting: only its threshold is set per fold
    at_gap = {b: [0, 0] for b in budgets}
    for g in sorted(set(groups)):
        test, train = groups == g, groups != g
        scaler = StandardScaler().fit(X[train])
        model = LogisticRegression(class_weight="balanced", max_iter=2000).fit(scaler.transform(X[train]), y[train])
        oof[test] = model.decision_function(scaler.transform(X[test]))
        train_scores = model.decision_function(scaler.transform(X[train]))
        legit_train = np.sort(train_scores[y[train] == 0])[::-1]
        for b in budgets:  # the highest threshold with at most b of the fold's legit figures above it
            k = int(math.floor(b * len(legit_train)))
            thr = legit_train[k] if k < len(legit_train) else -np.inf
            c, r = _caught(oof[test], y[test], thr)
            for i in np.flatnonzero(test):
                rows[i][f"flagged_{int(b * 100)}%"] = bool(oof[i] > thr)
            at[b][0] += c
            at[b][1] += r
            legit_gap = np.sort(gap[train][y[train] == 0])[::-1]
            c, r = _caught(gap[test], y[test], legit_gap[k] if k < len(legit_gap) else -np.inf)
            at_gap[b][0] += c
            at_gap[b][1] += r
    for r, v in zip(rows, oof, strict=True):
        r["oof"] = round(float(v), 3)
    pooled = {}
    legit_oof = np.sort(oof[y == 0])[::-1]
    for b in budgets:
        k = int(math.floor(b * len(legit_oof)))
        c, r = _caught(oof, y, legit_oof[k] if k < len(legit_oof) else -np.inf)
        pooled[f"{int(b * 100)}%"] = {"invented_caught": c, "legit_removed": r}
    full = LogisticRegression(class_weight="balanced", max_iter=2000).fit(StandardScaler().fit_transform(X), y)
    n_inv, n_leg = int(y.sum()), int((y == 0).sum())
    return {
        "invented": n_inv, "legit": n_leg,
        "auc_logreg_leave_set_out": round(roc_auc_score(y, oof), 3),
        "auc_single_features": {k: round(roc_auc_score(y, -X[:, i] if k.startswith(("same", "gap", "rare", "n_occ"))
                                                       else X[:, i]), 3)
                                for i, k in enumerate(FEATURES) if len(set(X[:, i])) > 1},
        "at_legit_budget": {f"{int(b * 100)}%": {"invented_caught": c, "legit_removed": r} for b, (c, r) in at.items()},
        "pooled_oof_threshold": pooled,
        "gap_bigram_alone_at_legit_budget": {f"{int(b * 100)}%": {"invented_caught": c, "legit_removed": r}
                                             for b, (c, r) in at_gap.items()},
        "rule_other_better": {"invented_caught": int(((rule == 1) & (y == 1)).sum()),
                              "legit_removed": int(((rule == 1) & (y == 0)).sum())},
        "coefficients_all_sets": {k: round(float(c), 3) for k, c in zip(FEATURES, full.coef_[0], strict=True)},
    }


def report(rows: list[dict], title: str, n_sets: int) -> dict:
    per_set: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        per_set[r["set"]][1 - r["invented"]] += 1
    out = evaluate(rows)
    out["per_set_invented_legit"] = {s: per_set[s] for s in sorted(per_set, key=lambda s: int(re.sub(r"\D", "", s) or 1))}
    print(f"== {title}: {out['invented']} invented, {out['legit']} legitimate ({len(per_set)} of {n_sets} sets hold one)")
    print("per set (invented/legit):", ", ".join(f"{s.removeprefix('filter_heldout').removesuffix('.json') or '1'}: "
                                                f"{a}/{b}" for s, (a, b) in out["per_set_invented_legit"].items()))
    print(f"AUC, logistic regression, leave one set out: {out['auc_logreg_leave_set_out']}")
    print("AUC of single features (higher = more suspect for other_*, n_values, cross_lang, kind_*; lower for the "
          "rest):", out["auc_single_features"])
    for b, v in out["at_legit_budget"].items():
        print(f"threshold set in each training fold at <= {b} of its legit: caught {v['invented_caught']} / "
              f"{out['invented']} invented, removed {v['legit_removed']} / {out['legit']} legit")
    for b, v in out["pooled_oof_threshold"].items():
        print(f"(optimistic) threshold on the pooled out-of-fold scores at <= {b} of legit: caught "
              f"{v['invented_caught']} / {out['invented']}, removed {v['legit_removed']} / {out['legit']}")
    for b, v in out["gap_bigram_alone_at_legit_budget"].items():
        print(f"gap_bigram alone, threshold set in each training fold at <= {b} of its legit: caught "
              f"{v['invented_caught']} / {out['invented']}, removed {v['legit_removed']} / {out['legit']}")
    rb = out["rule_other_better"]
    print(f"rule other_better (no fitting): caught {rb['invented_caught']} / {out['invented']}, removed "
          f"{rb['legit_removed']} / {out['legit']} legit")
    print("coefficients (standardized, fit on all sets):", out["coefficients_all_sets"])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", type=Path, nargs="+", default=sorted(DATA.glob("filter_heldout*.json")))
    ap.add_argument("--json", type=Path, help="write the rows and the results here")
    ap.add_argument("--clause", choices=("window", "comma"), default="window",
                    help="window: WIDTH characters either side of a figure within its sentence or table row; comma: "
                         "the span between sentence ends, line breaks, commas and table cells")
    ap.add_argument("--width", type=int, default=40)
    args = ap.parse_args()
    CLAUSE.update(mode=args.clause, width=args.width)
    leaks: Counter = Counter()
    rows = [r for p in args.sets for r in item_rows(p, leaks)]
    print(f"the filter: {leaks['invented kept by the filter']} invented items (any kind) kept over "
          f"{len(args.sets)} sets; supported figure items {len(rows)}, of which it keeps "
          f"{leaks['rows kept by the filter']} ({leaks['invented rows kept by the filter']} invented)")
    kept = [dict(r) for r in rows if r["filter_kept"]]
    out = {"filter_check": dict(leaks),
           "kept": report(kept, "supported figure items the filter keeps (its leaks "
                          "of this class and the legitimate figures a check would risk)", len(args.sets)),
           "supported": report(rows, "all supported figure items (some are cut by the filter for another reason)",
                               len(args.sets))}
    if args.json:
        args.json.write_text(json.dumps({"results": out, "rows_kept": kept, "rows": rows}, ensure_ascii=False, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
