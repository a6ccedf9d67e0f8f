"""Which version of which document a text is: a `doc_key` shared by every version, and the date it takes effect.

Read by the chunkers into each chunk's metadata and by `retrieve.versions` to prefer the version in force."""

from __future__ import annotations

import re
from typing import Any

from geunkeo.corpus.base import Document

# version words a title may carry that do not change which document it is
_VERSION_WORDS = re.compile(r"[(\[]?\s*(?:\d{4}\s*(?:[.\-/]\s*\d{1,2}\s*(?:[.\-/]\s*\d{1,2}\s*\.?)?|년(?:도)?)?\s*)?"
                            r"(?:전부개정|일부개정|개정|제정|시행|개정판|version|rev(?:ised|ision)?|amended|effective)"
                            r"\s*(?:판|본)?\s*[)\]]?", re.I)
_YEAR_ONLY = re.compile(r"[(\[]\s*\d{4}\s*(?:년(?:도)?)?\s*[)\]]")


def doc_key_for(title: str, front_matter: dict[str, str] | None = None) -> str:
    """The key every version of a document shares: front matter `doc_key`, else the title without version
    words or a bracketed year ("별솔대학교 학칙 (2023 개정)" → "별솔대학교 학칙")."""
    if front_matter and front_matter.get("doc_key"):
        return front_matter["doc_key"].strip()
    key = _YEAR_ONLY.sub(" ", _VERSION_WORDS.sub(" ", title))
    return re.sub(r"\s+", " ", key).strip(" -·:") or title.strip()


# "이 규정은 2026년 9월 1일부터 시행한다" / "This policy takes effect on September 1, 2026" — in the 부칙 (addenda)
_ENFORCED_KO = re.compile(r"(\d{4})\s*[년.]\s*(\d{1,2})\s*[월.]\s*(\d{1,2})\s*일?\.?\s*부터\s*시행")
_ENFORCED_EN = re.compile(r"(?:takes?|shall take|took)\s+effect\s+(?:on|from|as of)\s+([A-Z][a-z]+)\s+(\d{1,2}),?\s+(\d{4})")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")


def enforcement_date(text: str) -> str | None:
    """The latest "…부터 시행한다" date (ISO) of a regulation's 부칙, or the latest "takes effect on …" date."""
    dates = [f"{int(y):04d}-{int(m):02d}-{int(d):02d}" for y, m, d in _ENFORCED_KO.findall(text)
             if 1 <= int(m) <= 12 and 1 <= int(d) <= 31]
    for month, d, y in _ENFORCED_EN.findall(text):
        if month.lower() in _MONTHS and 1 <= int(d) <= 31:
            dates.append(f"{int(y):04d}-{_MONTHS.index(month.lower()) + 1:02d}-{int(d):02d}")
    return max(dates) if dates else None


def version_metadata(doc: Document) -> dict[str, Any]:
    """Chunk metadata naming the document's version: `version`, `date`, `doc_key` and `effective_date`
    (front matter `effective_date`, else the enforcement date of its 부칙, else the document's date; absent when
    none is known)."""
    front = doc.metadata.get("front_matter") or {}
    meta: dict[str, Any] = {"doc_key": doc_key_for(doc.title, front)}
    if doc.version:
        meta["version"] = doc.version
    if doc.date:
        meta["date"] = doc.date
    effective = front.get("effective_date") or enforcement_date(doc.text) or doc.date
    if effective:
        meta["effective_date"] = effective
    return meta
