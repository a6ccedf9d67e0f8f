"""Document versions at retrieval time: the version in force wins, a superseded one is kept but ranked after it.

A regulation is amended and both texts sit in the index ("생활관규정 2023.9.1 개정" and "생활관규정 2024.9.1 개정"). Each chunk
carries its document's `doc_key` (the same for every version: front matter `doc_key`, else the title without
version words) and `effective_date` (front matter `effective_date`, else the document's date; chunk metadata,
written by the chunkers). Among the retrieved chunks of one `doc_key`, the version in force on `as_of` (default
today) is the one with the latest effective date on or before it; a version not yet in force (시행 예정) or
superseded is moved after every in-force hit and marked `metadata["version_status"]`, so an answer never leads
with it and the gate can warn when it is cited (`SUPERSEDED_VERSION_CITED`).

Only the versions among the retrieved candidates are compared: an amendment is worded like the text it amends,
so both are retrieved together; a newer version that was not retrieved at all is not known here.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from geunkeo.retrieve.base import Hit

IN_FORCE, SUPERSEDED, NOT_YET = "in_force", "superseded", "not_yet_in_force"


def _status(effective: str | None, versions: list[str], as_of: str) -> str:
    if effective is None:
        return IN_FORCE
    if effective > as_of:
        return NOT_YET
    in_force = max((v for v in versions if v <= as_of), default=None)
    return IN_FORCE if effective == in_force else SUPERSEDED


def prefer_in_force(hits: list[Hit], as_of: str | date | None = None) -> list[Hit]:
    """`hits` with each chunk's `version_status` set when another version of its document was retrieved too;
    in-force hits keep their order and come first, the others follow in their order. Hits of documents with a
    single retrieved version are returned as they are."""
    as_of = (as_of or date.today()).isoformat() if not isinstance(as_of, str) else as_of
    several = {k: sorted(v) for k, v in _dated_versions(hits).items() if len(v) > 1}
    if not several:
        return hits
    first: list[Hit] = []
    later: list[Hit] = []
    for h in hits:
        key = h.chunk.metadata.get("doc_key")
        if key not in several:
            first.append(h)
            continue
        status = _status(h.chunk.metadata.get("effective_date"), several[key], as_of)
        chunk = replace(h.chunk, metadata={**h.chunk.metadata, "version_status": status})
        (first if status == IN_FORCE else later).append(replace(h, chunk=chunk))
    return first + later


def superseded_cited(cited: list[Hit]) -> list[str]:
    """Locations of cited chunks that are not the version in force (as marked by `prefer_in_force`)."""
    return [h.chunk.location for h in cited if h.chunk.metadata.get("version_status") in (SUPERSEDED, NOT_YET)]


def several_versions(hits: list[Hit]) -> bool:
    """Whether two or more dated versions of one document are among `hits`."""
    return any(len(v) > 1 for v in _dated_versions(hits).values())


def _dated_versions(hits: list[Hit]) -> dict[str, set[str]]:
    """doc_key → the effective dates of its retrieved versions."""
    seen: dict[str, set[str]] = {}
    for h in hits:
        key, eff = h.chunk.metadata.get("doc_key"), h.chunk.metadata.get("effective_date")
        if key and eff:
            seen.setdefault(key, set()).add(eff)
    return seen
