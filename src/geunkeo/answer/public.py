"""What a user may read of an answer (the injection part of issue 30): the served answer, its sources and the gate's reasons, but
no text the answerer wrote that the filter, the verification or the gate rejected — an injected phone number, a
contradiction, nonsense. The server shows `public_dict`; the rejected text goes to the server log only
(`rejected_texts`). `Answer.to_dict` stays whole for evaluation runs and the CLI's operator.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from geunkeo.answer.report import FilterReport

# trace decision keys that carry what the answerer wrote (answer.llm's draft, removed sentences and items)
_WRITTEN = ("text", "sentence", "value", "replacement", "rejected", "items", "evidence")
_WRITTEN_STAGES = ("answer.llm", "answer.verify", "answer.filter", "answer.readability")


def _trace(trace: dict[str, Any]) -> dict[str, Any]:
    out = dict(trace)
    out["decisions"] = [{k: v for k, v in d.items() if not (d.get("stage") in _WRITTEN_STAGES and k in _WRITTEN)}
                        for d in trace.get("decisions", [])]
    return out


def _filter_report(report: FilterReport) -> dict[str, Any]:
    def located(items: list[Any]) -> list[dict[str, Any]]:  # where an item was, never its text
        return [{k: v for k, v in asdict(x).items() if k in ("kind", "context", "chunk_id")} for x in items]

    return {"removed": [{"kind": r.kind} for r in report.removed], "kept": [k.to_dict() for k in report.kept],
            "unverified": located(report.unverified), "injections": located(report.injections),
            "injection_used": located(report.injection_used)}


def _verification(ver: dict[str, Any] | None) -> dict[str, Any] | None:
    if ver is None:
        return None
    sents = [c if not c.get("removed") else {k: v for k, v in c.items() if k not in ("text", "evidence")}
             for c in ver.get("sentences", [])]
    return {**ver, "sentences": sents}


def public_dict(answer) -> dict[str, Any]:
    """`answer.to_dict()` without the rejected text (see the module docstring)."""
    d = answer.to_dict()
    if answer.answerer == "llm" or answer.fallback:  # a withheld LLM draft is the LLM's words
        d["draft"], d["draft_sentences"] = None, []
    d["filter_report"] = _filter_report(answer.filter_report)
    d["verification"] = _verification(d.get("verification"))
    d["trace"] = _trace(d["trace"])
    return d


def rejected_texts(answer) -> list[str]:
    """Everything `public_dict` leaves out that the answerer wrote, for the server log."""
    out = [d[k] for d in answer.trace.decisions if d.get("stage") in _WRITTEN_STAGES
           for k in ("text", "sentence", "value") if isinstance(d.get(k), str)]
    if answer.draft and (answer.answerer == "llm" or answer.fallback):
        out.append(answer.draft)
    return list(dict.fromkeys(out))
