"""Evaluation datasets: the JSONL QA format, and importers for BEIR folders and AutoRAG parquet files.

One line per case (`QACase` fields, see evaluate/base.py)::

    {"id": "q1", "query": "기숙사 벌점은 몇 점까지?", "lang": "ko", "task": "qa", "reference_answer": "...",
     "reference_claims": [], "expected_doc_ids": ["생활관규정"], "expected_chunk_ids": ["생활관규정#제7조"],
     "risk_tags": [], "complexity": "simple", "parallel_id": "p1", "style": "colloquial", "metadata": {}}

Only `id` and `query` are required. Keys the format does not know are kept under `metadata` so nothing a
dataset carries is silently dropped.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from geunkeo.errors import ConfigError
from geunkeo.evaluate.base import QACase
from geunkeo.text.patterns import detect_lang

TASKS = ("qa", "summary")
_MAX_PROBLEMS = 20
_CASE_FIELDS = {f.name for f in fields(QACase)}
_LIST_FIELDS = ("reference_claims", "expected_doc_ids", "expected_chunk_ids", "risk_tags")


LANGS = ("ko", "en", "mixed")
_OPTIONAL_TEXT = ("reference_answer", "complexity", "parallel_id", "style")


def case_problems(d: Any) -> list[str]:
    """What is wrong with one JSON object as a case, field by field (empty when it is a valid case)."""
    if not isinstance(d, dict):
        return [f"each line must be a JSON object, got {type(d).__name__}"]
    out = []
    if not isinstance(d.get("id"), str | int) or not str(d.get("id", "")).strip():
        out.append("id: a non-empty string is required")
    if not isinstance(d.get("query"), str) or not d.get("query", "").strip():
        out.append(f"query: a non-empty string is required, got {type(d.get('query')).__name__}"
                   if "query" in d else "query: missing")
    if "lang" in d and d["lang"] not in LANGS:
        out.append(f"lang: one of {', '.join(LANGS)}, got {d['lang']!r}")
    if "task" in d and d["task"] not in TASKS:
        out.append(f"task: one of {', '.join(TASKS)}, got {d['task']!r}")
    for name in _OPTIONAL_TEXT:
        if d.get(name) is not None and not isinstance(d[name], str):
            out.append(f"{name}: a string or null, got {type(d[name]).__name__}")
    for name in _LIST_FIELDS:
        v = d.get(name)
        if v is not None and not isinstance(v, str) and not (
                isinstance(v, list) and all(isinstance(x, str | int) for x in v)):
            out.append(f"{name}: a list of strings, got {type(v).__name__}")
    if d.get("metadata") is not None and not isinstance(d["metadata"], dict):
        out.append(f"metadata: an object, got {type(d['metadata']).__name__}")
    return out


def clir_pair(d: dict[str, Any]) -> list[dict[str, Any]]:
    """Seed 003 §5's cross-lingual pair ({pair_id, query_ko, query_en, expected_docs, expected_claims}) as two
    parallel cases, `<pair_id>-ko` and `<pair_id>-en`, sharing the expected documents and claims."""
    out = []
    for lang in ("ko", "en"):
        q = d.get(f"query_{lang}")
        if q is None:
            continue
        case = {"id": f"{d['pair_id']}-{lang}", "query": q, "lang": lang, "parallel_id": str(d["pair_id"]),
                "expected_doc_ids": d.get("expected_doc_ids", d.get("expected_docs")),
                "reference_claims": d.get("expected_claims"), "style": "crosslingual"}
        case.update({k: v for k, v in d.items() if k in ("task", "complexity", "risk_tags", "expected_chunk_ids")})
        out.append({k: v for k, v in case.items() if v is not None})
    return out or [{"id": d.get("pair_id"), "query": None}]  # neither query: reported as a case without one


def case_from_dict(d: dict[str, Any], where: str = "") -> QACase:
    """Build a `QACase` from one JSON object; unknown keys go to `metadata`. Invalid fields raise ConfigError
    naming `where` and every problem."""
    problems = case_problems(d)
    if problems:
        raise ConfigError(f"{where}: " + "; ".join(problems))
    known = {k: v for k, v in d.items() if k in _CASE_FIELDS}
    extra = {k: v for k, v in d.items() if k not in _CASE_FIELDS}
    known["id"] = str(known["id"])
    for name in _LIST_FIELDS:
        value = known.get(name) or []
        if isinstance(value, str):
            value = [value]
        known[name] = [str(v) for v in value]
    task = known.get("task", "qa")
    if task not in TASKS:
        raise ConfigError(f"{where}: task must be one of {', '.join(TASKS)}, got {task!r}")
    case = QACase(**known)
    if extra:
        case.metadata = {**case.metadata, **extra}
    # Chunk ids are "<doc_id>#<anchor>": a case that names chunks also names their documents.
    for cid in case.expected_chunk_ids:
        doc = cid.split("#", 1)[0]
        if doc and doc not in case.expected_doc_ids:
            case.expected_doc_ids.append(doc)
    return case


def case_to_dict(case: QACase) -> dict[str, Any]:
    """The JSON object for one case (all fields, stable key order)."""
    return asdict(case)


def load_cases(path: str | Path) -> list[QACase]:
    """Read a JSONL QA file; duplicate ids are an error (results are keyed by id)."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"dataset {p} not found: pass a JSONL QA file (convert BEIR folders with "
                          f"`geunkeo eval convert --beir DIR --out FILE`)")
    cases: list[QACase] = []
    seen: set[str] = set()
    problems: list[str] = []  # every line is checked before any work; all problems are listed at once
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{p}: not UTF-8 text ({exc.reason} at byte {exc.start}); save the dataset as UTF-8") from exc
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{p}:{n}: not valid JSON ({exc.msg}); one JSON object per line")
            continue
        objs = clir_pair(obj) if isinstance(obj, dict) and "pair_id" in obj else [obj]
        for one in objs:
            found = case_problems(one)
            if found:
                problems.extend(f"{p}:{n}: {x}" for x in found)
                continue
            case = case_from_dict(one, where=f"{p}:{n}")
            if case.id in seen:
                problems.append(f"{p}:{n}: duplicate case id {case.id!r}; ids must be unique")
            seen.add(case.id)
            cases.append(case)
    if problems:
        more = f"\n… and {len(problems) - _MAX_PROBLEMS} more" if len(problems) > _MAX_PROBLEMS else ""
        raise ConfigError(f"dataset {p} has {len(problems)} problem(s):\n" + "\n".join(problems[:_MAX_PROBLEMS]) + more)
    if not cases:
        raise ConfigError(f"dataset {p} has no cases")
    return cases


def save_cases(cases: list[QACase], path: str | Path) -> Path:
    """Write cases as JSONL (UTF-8, Korean unescaped)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    with p.open("w", encoding="utf-8") as fh:
        for case in cases:
            fh.write(json.dumps(case_to_dict(case), ensure_ascii=False) + "\n")
    return p


# -- BEIR ----------------------------------------------------------------------------------------------------
def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _pick_split(qrels_dir: Path, split: str | None) -> Path:
    if split:
        p = qrels_dir / f"{split}.tsv"
        if not p.is_file():
            have = sorted(x.stem for x in qrels_dir.glob("*.tsv"))
            raise ConfigError(f"{p} not found; splits here: {', '.join(have) or 'none'}")
        return p
    for name in ("test", "dev"):
        if (qrels_dir / f"{name}.tsv").is_file():
            return qrels_dir / f"{name}.tsv"
    found = sorted(qrels_dir.glob("*.tsv"))
    if len(found) == 1:
        return found[0]
    raise ConfigError(f"{qrels_dir}: choose a split with --split ({', '.join(x.stem for x in found) or 'none'})")


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """BEIR qrels TSV (`query-id corpus-id score`, header optional) → {query: {id: score}}."""
    out: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8") as fh:
        for row in csv.reader(fh, delimiter="\t"):
            if len(row) < 2 or row[0] == "query-id":
                continue
            score = int(float(row[2])) if len(row) > 2 and row[2].strip() else 1
            out.setdefault(row[0], {})[row[1]] = score
    return out


def from_beir(folder: str | Path, split: str | None = None, id_level: str = "auto",
              queries: str | Path | None = None) -> list[QACase]:
    """Cases from a BEIR folder: queries.jsonl (or `queries`, another file of the same questions, e.g. their
    English renderings) + qrels/<split>.tsv (corpus.jsonl is not needed).

    Query fields `answer`, `lang`, `style`, `parallel_id`, `task`, `complexity`, `risk_tags` map to the QA
    format; others go to metadata. A row of `queries` with a `qrel_id` is another rendering of that question (a
    casual rewrite): it takes that question's judgements, and its reference answer unless it has its own. `id_level`: whether qrels ids are chunk ids (`doc#anchor`), document ids,
    or `auto` (chunk when the id contains '#'). Only queries with a positive qrel are kept.
    """
    root = Path(folder)
    qfile = Path(queries) if queries else root / "queries.jsonl"
    if not qfile.is_file():
        raise ConfigError(f"{qfile} is missing" if queries else f"{root} is not a BEIR folder: queries.jsonl is missing")
    if id_level not in ("auto", "chunk", "doc"):
        raise ConfigError(f"id_level must be 'auto', 'chunk' or 'doc', got {id_level!r}")
    qrels = read_qrels(_pick_split(root / "qrels", split))
    originals = {str(q.get("_id")): q for q in _read_jsonl(root / "queries.jsonl")} if queries and \
        (root / "queries.jsonl").is_file() else {}
    cases = []
    for q in _read_jsonl(qfile):
        qid = str(q.get("_id", q.get("id", "")))
        if "qrel_id" in q:
            origin = originals.get(str(q["qrel_id"]), {})
            q = {"answer": origin.get("answer"), "style": q.get("register"), **q}
        rel = [cid for cid, s in qrels.get(str(q.get("qrel_id", qid)), {}).items() if s > 0]
        if not rel:
            continue
        text = str(q.get("text", q.get("query", "")))
        d: dict[str, Any] = {
            "id": qid,
            "query": text,
            "lang": q.get("lang") or detect_lang(text),
            "reference_answer": q.get("answer") or q.get("reference_answer"),
        }
        for key in ("style", "parallel_id", "task", "complexity", "risk_tags", "reference_claims"):
            if q.get(key) is not None:
                d[key] = q[key]
        as_chunk = [(id_level == "chunk") or (id_level == "auto" and "#" in cid) for cid in rel]
        d["expected_chunk_ids"] = [cid for cid, c in zip(rel, as_chunk, strict=True) if c]
        d["expected_doc_ids"] = [cid for cid, c in zip(rel, as_chunk, strict=True) if not c]
        skip = {"_id", "id", "text", "query", "answer", "reference_answer", "qrel_id", *d}
        d.update({k: v for k, v in q.items() if k not in skip})
        cases.append(case_from_dict(d, where=f"{qfile}:{qid}"))
    if not cases:
        raise ConfigError(f"{root}: no query has a positive qrel in the chosen split")
    return cases


# -- AutoRAG -------------------------------------------------------------------------------------------------
def _read_parquet(path: Path) -> list[dict[str, Any]]:
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:  # pinned in pyproject; guard for trimmed installs
        raise ConfigError("reading AutoRAG parquet files needs pyarrow: pip install pyarrow") from exc
    if not path.is_file():
        raise ConfigError(f"{path} not found")
    return pq.read_table(path).to_pylist()


def _flatten(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    out: list[str] = []
    for v in value:
        out.extend(_flatten(v))
    return out


def from_autorag(qa_path: str | Path, corpus_path: str | Path | None = None) -> list[QACase]:
    """Cases from AutoRAG's qa.parquet (`qid`, `query`, `retrieval_gt` [[doc_id…]…], `generation_gt` [str…]).

    With corpus.parquet (`doc_id`, `contents`, `metadata`), gold ids missing from the corpus are an error:
    such a case could never be retrieved and would count as a retrieval failure.
    """
    rows = _read_parquet(Path(qa_path))
    known_docs: set[str] | None = None
    if corpus_path is not None:
        known_docs = {str(r["doc_id"]) for r in _read_parquet(Path(corpus_path))}
    cases = []
    for r in rows:
        missing = [k for k in ("qid", "query", "retrieval_gt") if k not in r]
        if missing:
            raise ConfigError(f"{qa_path}: AutoRAG qa rows need {', '.join(missing)} (have {sorted(r)})")
        gold = list(dict.fromkeys(_flatten(r["retrieval_gt"])))
        if known_docs is not None:
            absent = [g for g in gold if g not in known_docs]
            if absent:
                raise ConfigError(f"{qa_path}: qid {r['qid']} names doc ids not in the corpus: {absent[:3]}")
        answers = _flatten(r.get("generation_gt"))
        query = str(r["query"])
        d = {
            "id": str(r["qid"]),
            "query": query,
            "lang": detect_lang(query),
            "reference_answer": answers[0] if answers else None,
            "expected_doc_ids": gold,
            # AutoRAG's nested retrieval_gt is an AND of OR-groups; more than one group = multi-hop.
            "complexity": "multi_hop" if len(r["retrieval_gt"] or []) > 1 else "simple",
        }
        if len(answers) > 1:
            d["alternative_answers"] = answers[1:]
        cases.append(case_from_dict(d, where=f"{qa_path}:{r['qid']}"))
    return cases


def autorag_corpus_to_beir(corpus_path: str | Path, out_path: str | Path) -> int:
    """Write AutoRAG's corpus.parquet as BEIR corpus.jsonl (`_id`, `title`, `text`) so it can be indexed."""
    rows = _read_parquet(Path(corpus_path))
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for r in rows:
            meta = r.get("metadata") or {}
            title = str(meta.get("title") or Path(str(r.get("path") or "")).stem or r["doc_id"])
            fh.write(json.dumps({"_id": str(r["doc_id"]), "title": title, "text": str(r.get("contents", ""))},
                                ensure_ascii=False) + "\n")
    return len(rows)


def allocate(sizes: dict[str, int], total: int) -> dict[str, int]:
    """Split `total` over strata in proportion to their sizes (largest remainder, ties by stratum name).

    Lives here, not in review.py, though the review queue samples with it too: review.py reads datasets, so a
    home there made the two modules import each other."""
    n = sum(sizes.values())
    if n == 0 or total <= 0:
        return {k: 0 for k in sizes}
    quotas = {k: total * s / n for k, s in sizes.items()}
    out = {k: math.floor(q) for k, q in quotas.items()}
    left = total - sum(out.values())
    for k in sorted(sizes, key=lambda k: (-(quotas[k] - out[k]), k))[:left]:
        out[k] += 1
    return out


def sample_cases(cases: list[QACase], limit: int, seed: int = 13) -> list[QACase]:
    """A deterministic subset of about `limit` cases for quick runs.

    Every stratum (task × question style, e.g. qa/colloquial, summary/formal) gets its share of `limit` in
    proportion to its size and at least one unit while `limit` allows, so a quick run still reports every
    style; ko/en pairs (same `parallel_id`) stay together so cross-lingual figures remain computable. A pair
    belongs to its first case's stratum. Order of the kept cases is the dataset's order."""
    if limit <= 0:
        raise ConfigError(f"limit must be a positive number of cases, got {limit}")
    if limit >= len(cases):
        return list(cases)
    import random

    groups: dict[str, list[QACase]] = {}
    for c in cases:
        groups.setdefault(c.parallel_id or f"case:{c.id}", []).append(c)
    strata: dict[str, list[str]] = {}
    for key, members in groups.items():
        first = members[0]
        strata.setdefault(f"{first.task}/{first.style or '-'}", []).append(key)
    rng = random.Random(seed)
    for name in sorted(strata):
        strata[name].sort()
        rng.shuffle(strata[name])
    sizes = {name: sum(len(groups[k]) for k in keys) for name, keys in strata.items()}
    quota = allocate(sizes, limit)
    # a stratum rounded to nothing takes one case from the largest share, while that share keeps one
    for name in sorted(sizes, key=lambda n: (sizes[n], n)):
        donor = max(quota, key=lambda n: (quota[n], n))
        if quota[name] == 0 and quota[donor] > 1:
            quota[donor] -= 1
            quota[name] = 1
    keep: set[str] = set()
    for name in sorted(strata):
        taken = 0
        for k in strata[name]:
            if taken >= quota[name]:
                break
            if taken + len(groups[k]) <= quota[name] or taken == 0:
                keep.update(c.id for c in groups[k])
                taken += len(groups[k])
    return [c for c in cases if c.id in keep]
