"""What every entity extractor shares: the `Entity` record, a fast-failing regex compiler and sorted spans."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Entity:
    """One extracted item. For citations `regulation`/`ref`/`article`/`paragraph`/`item` are filled."""

    kind: str  # phone | fax | email | url | address | department | citation | amount | date | percent
    text: str
    start: int
    end: int
    norm: str
    placeholder: bool = False  # 02-XXXX-XXXX and friends: never a real contact
    regulation: str | None = None  # surface name as written ("학칙", "Terms and Conditions")
    # citations: "named" | "same" (같은 규정) | "this" (이 약관) | "bare" (제5조 alone) | "loose" ("(6.1)" with no
    # section cited before it)
    ref: str = ""
    article: str = ""  # "12", "12-2" (제12조의2), language independent
    paragraph: int | None = None
    item: str | None = None

    @property
    def is_contact(self) -> bool:
        return self.kind in CONTACT_KINDS

    def citation_tuple(self) -> tuple[str | None, str, int | None, str | None]:
        return (self.regulation, self.article, self.paragraph, self.item)


CONTACT_KINDS = frozenset({"phone", "fax", "email", "url", "address"})

def first_char_regex(chars: str, pattern: str, flags: int = 0) -> re.Pattern:
    """Compile with a one-character lookahead in front: most positions fail at once (the filter runs these over
    every answer and context, so this is most of its speed)."""
    return re.compile(f"(?=[{chars}])(?:{pattern})", flags)

class Spans:
    """Disjoint spans kept sorted, so "does [s, e) overlap one?" is a bisection, not a scan (an answer can hold
    thousands of items)."""

    def __init__(self, spans: Iterable[tuple[int, int]] = ()) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        for s, e in spans:
            self.add(s, e)

    def overlaps(self, s: int, e: int) -> bool:
        i = bisect_right(self.starts, s)
        return bool(i and self.ends[i - 1] > s) or (i < len(self.starts) and self.starts[i] < e)

    def add(self, s: int, e: int) -> None:
        i = bisect_right(self.starts, s)
        self.starts.insert(i, s)
        self.ends.insert(i, e)
