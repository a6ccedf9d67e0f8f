"""Chunkers by name, and the content-based choice between them."""

from __future__ import annotations

from geunkeo.config import CorpusSettings
from geunkeo.corpus.base import Chunker, Document
from geunkeo.corpus.chunkers import english, sections, statute
from geunkeo.errors import ConfigError

# name -> chunker class; each is built with the CorpusSettings and implements `corpus.base.Chunker`.
REGISTRY: dict[str, type] = {
    statute.NAME: statute.StatuteChunker,
    english.NAME: english.EnglishRulesChunker,
    sections.MARKDOWN: sections.MarkdownChunker,
    sections.TEXT_SECTIONS: sections.TextSectionsChunker,
    sections.PLAIN: sections.ParagraphChunker,
}


def get_chunker(name: str, settings: CorpusSettings | None = None) -> Chunker:
    """The chunker registered under `name`, configured with `settings`."""
    try:
        return REGISTRY[name](settings)
    except KeyError:
        raise ConfigError(f"unknown chunker {name!r}; choose one of: {', '.join(REGISTRY)}") from None


def choose_chunker(doc: Document, settings: CorpusSettings) -> tuple[str, str]:
    """(chunker name, reason) from the document's content: statute articles, English rules, Markdown, plain."""
    # A JSONL/BEIR record is already a passage: keep it whole unless it is too long to be one chunk.
    if doc.metadata.get("format") == "jsonl" and len(doc.text) <= settings.max_chunk_chars:
        return sections.PLAIN, "jsonl record short enough to be one passage"
    lines = doc.text.split("\n")
    ko = statute.count_articles(lines)
    if ko >= 2 or (ko == 1 and doc.kind in ("regulation", "policy")):
        return statute.NAME, f"{ko} Korean article headings (제N조)"
    en = english.count_headings(lines)
    if en >= 2 or (en == 1 and doc.kind in ("regulation", "policy")):
        return english.NAME, f"{en} English rule headings (Article/Section/1.1.2)"
    md = sections.count_headings(lines)
    if md:
        return sections.MARKDOWN, f"{md} Markdown headings"
    titles = len(sections.text_heading_lines(lines))
    if titles >= 2:
        return sections.TEXT_SECTIONS, f"{titles} plain-text section titles (1. …, □ …)"
    return sections.PLAIN, "no structure found: paragraphs"
