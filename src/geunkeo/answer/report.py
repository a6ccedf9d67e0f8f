"""The hallucination filter's report on one answer (answer/filter.py): what it removed, kept and could not verify,
and the instruction-like passages it met; `Answer.filter_report` carries it. A module without imports of the
stage's own, so the public form (answer/public.py) reads it without importing `answer.base`."""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any


@dataclass
class Removal:
    """One item the hallucination filter took out of an answer."""

    kind: str  # "phone" | "email" | "url" | "department" | "citation"
    value: str
    replacement: str
    sentence: str


@dataclass
class KeptItem:
    """An item of the answer the filter found in a context and kept (once per kind, value and context)."""

    kind: str
    value: str
    context: str  # the context's n, as text
    chunk_id: str = ""
    location: str = ""
    # a kept citation: the cited article's text, or else the context's sentence that bears it out
    article_text: str | None = None
    evidence: str | None = None

    def to_dict(self) -> dict[str, str]:
        """The item as JSON, without the citation fields an item of another kind does not have."""
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass
class UnverifiedItem:
    """An amount, date or percentage no context holds: reported (and gated on), never edited."""

    kind: str
    value: str
    sentence: str = ""


@dataclass
class InjectionFound:
    """An instruction-like passage in a context (geunkeo.text.injection)."""

    context: str
    chunk_id: str
    kind: str
    text: str


@dataclass
class InjectionUse:
    """An answer sentence that drew on an instruction-like passage (an item only it contains, or its words); the
    gate treats any as unfaithful."""

    sentence: str
    context: str
    chunk_id: str
    kind: str
    text: str
    items: str = ""  # the items only the passage contains ("" when the sentence repeats its words)
    reason: str = ""


_REPORT_ITEMS: dict[str, type] = {"removed": Removal, "kept": KeptItem, "unverified": UnverifiedItem,
                                  "injections": InjectionFound, "injection_used": InjectionUse}


@dataclass
class FilterReport:
    removed: list[Removal] = field(default_factory=list)
    kept: list[KeptItem] = field(default_factory=list)
    unverified: list[UnverifiedItem] = field(default_factory=list)
    injections: list[InjectionFound] = field(default_factory=list)
    injection_used: list[InjectionUse] = field(default_factory=list)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> FilterReport:
        """A report from its JSON form (`Answer.to_dict`, or a server's answer, whose public form leaves out the
        rejected text: a missing field reads as "")."""
        out = cls()
        for name, item in _REPORT_ITEMS.items():
            required = {f.name: "" for f in fields(item) if f.default is MISSING}
            names = {f.name for f in fields(item)}
            getattr(out, name).extend(item(**{**required, **{k: v for k, v in x.items() if k in names}})
                                      for x in (d or {}).get(name, []))
        return out
