"""Passage windows: the dense side scores a chunk by the best of its sentence-packed windows.

One e5 vector of a whole page averages everything on it (and e5-small reads at most 512 tokens), so a question
that one sentence of a long chunk answers matches that sentence's window better than the page. On autorag-ko dev
(chunks up to 1,200 characters, median 788), scoring each chunk by its best ~300-character window took dense
R@5 from 0.887 to 0.972 for the Korean questions and from 0.535 to 0.592 for their English renderings
(docs/benchmarks/retrieval.md § "Session 14"). Every window after a chunk's first starts with the chunk's heading, so a
window of a table's third row still says which document and article it belongs to.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from geunkeo.corpus.base import Chunk

# a sentence end (a period, question or exclamation mark, or a Korean 다 before a space) or a line break
_BREAK = re.compile(r"(?<=[.!?。다])\s+|\n+")
_HEAD_CHARS = 80


def split_windows(text: str, max_chars: int) -> list[str]:
    """`text` as consecutive windows of whole sentences, each at most `max_chars` (a longer sentence is cut)."""
    if len(text) <= max_chars:
        return [text] if text.strip() else []
    windows: list[str] = []
    current = ""
    for part in (p.strip() for p in _BREAK.split(text)):
        while len(part) > max_chars:  # one sentence longer than a window: cut it at a space where possible
            cut = part.rfind(" ", max_chars // 2, max_chars)
            cut = cut if cut > 0 else max_chars
            if current:
                windows.append(current)
                current = ""
            windows.append(part[:cut].strip())
            part = part[cut:].strip()
        if not part:
            continue
        if current and len(current) + 1 + len(part) > max_chars:
            windows.append(current)
            current = ""
        current = f"{current} {part}".strip()
    if current:
        windows.append(current)
    return windows


def chunk_windows(chunk: Chunk, max_chars: int) -> list[str]:
    """The texts the dense side embeds for `chunk`: its embed text when it fits one window, else its windows with
    the chunk's heading before every window after the first (the first starts with it already)."""
    text = chunk.embed_text()
    windows = split_windows(text, max_chars)
    if len(windows) <= 1:
        return windows or [text]
    head = " ".join(p for p in [chunk.title, *chunk.path] if p)[:_HEAD_CHARS]
    return [windows[0], *(f"{head}\n{w}" if head else w for w in windows[1:])]


def mean_vectors(vectors: np.ndarray, owners: Sequence[int], n: int) -> np.ndarray:
    """Row i = the normalised mean of the window vectors whose owner is i (a chunk's vector from its windows)."""
    dim = vectors.shape[1] if vectors.ndim == 2 else 0
    sums = np.zeros((n, dim), dtype=np.float32)
    np.add.at(sums, np.asarray(owners, dtype=np.int64), vectors)
    norms = np.linalg.norm(sums, axis=1, keepdims=True)
    return sums / np.where(norms > 0, norms, 1.0)
