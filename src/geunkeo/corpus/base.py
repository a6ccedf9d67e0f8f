"""Corpus stage interface: files become `Document`s, documents become structure-aware `Chunk`s."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol


@dataclass
class Document:
    """One source document.

    `doc_id` is stable across runs: the path relative to the ingested root without its extension
    (``regulations/학칙``), or the record's own id for JSONL/BEIR input.
    """

    doc_id: str
    title: str
    text: str
    lang: str = "ko"  # "ko" | "en" | "mixed"
    source: str = ""
    kind: str = "document"  # "regulation" | "notice" | "policy" | "document"
    version: str | None = None
    date: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Chunk:
    """A retrievable unit: one article (조) or one section, carrying where it sits in its document.

    `chunk_id` = ``f"{doc_id}#{anchor}"``; anchor is the article key (``제12조``, ``제12조의2``; ``제12조~2`` for the
    second part of an article split at 항 boundaries), an English rule key (``Article 5``, ``1.1.2``), or
    ``s{n}`` for the n-th section of an unstructured document.
    `location` is human readable: ``학칙 제12조(휴학) 제1항``.
    `path` is the structural path above the chunk: ``["제2장 학적", "제1절 휴학"]``.
    """

    chunk_id: str
    doc_id: str
    title: str
    text: str
    location: str
    lang: str = "ko"
    path: list[str] = field(default_factory=list)
    article: str | None = None  # "제12조" / "제12조의2" / "Article 5"
    article_title: str | None = None  # "휴학"
    paragraphs: list[str] = field(default_factory=list)  # "제1항", "제2항" covered by this chunk
    metadata: dict[str, Any] = field(default_factory=dict)

    def embed_text(self) -> str:
        """What the dense index embeds: title, structural path and article heading, then the text."""
        head = " ".join(p for p in [self.title, *self.path] if p)
        art = f"{self.article}({self.article_title})" if self.article and self.article_title else (self.article or "")
        return f"{head} {art}\n{self.text}".strip()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Chunk:
        return cls(**d)


@dataclass
class LoadFailure:
    """A file that could not be ingested, with the reason reported to the user."""

    path: str
    reason: str


class Loader(Protocol):
    """Reads one file type. `suffixes` lists what it handles ('.md', '.hwpx', …)."""

    @property
    def suffixes(self) -> tuple[str, ...]: ...  # read-only, so a class's `suffixes = (".md",)` satisfies it

    def load(self, path: Path, root: Path | None = None) -> Iterator[Document]: ...


class Chunker(Protocol):
    def chunk(self, doc: Document) -> list[Chunk]: ...


def iter_documents(docs: Iterable[Document]) -> Iterator[Document]:
    yield from docs
