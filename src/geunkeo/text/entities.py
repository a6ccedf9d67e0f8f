"""Entities that answers and contexts are checked on: contacts, departments, regulation citations, numbers.

Shared by the answer stage (hallucination filter) and the evaluation stage (entity checks on claims). Every
extractor is a regular expression pass, no Kiwi: the filter must stay within a few milliseconds per answer.
Each `Entity` carries its surface span and a normalised key (`norm`) that is what gets compared:
phones by digits (``+82-2-…`` → ``02…``), e-mails casefolded, URLs without scheme/``www.``/trailing slash,
departments without spaces, citations as a (regulation, article, paragraph, item) tuple, amounts by value and
currency (``2천5백만원`` → ``25000000krw``, read by geunkeo.text.numbers).
"""

from __future__ import annotations

from collections.abc import Iterable

from geunkeo.text.citations import (  # noqa: F401  (the entity API is imported from here)
    EN_DOC_KINDS,
    MENTIONED,
    article_key,
    extract_citations,
    reg_key,
    roman_to_int,
)
from geunkeo.text.contacts import (  # noqa: F401
    POSTCODE,
    ROOM,
    SHORT_PHONE,
    ContactForm,
    contact_form,
    extract_contacts,
    phone_key,
    room_alternatives,
    room_without_office,
    url_key,
)
from geunkeo.text.departments import GENERIC_OFFICES, dept_key, extract_departments  # noqa: F401
from geunkeo.text.entity_base import CONTACT_KINDS, Entity, Spans  # noqa: F401
from geunkeo.text.numbers import find_quantities

# -- numbers: amounts, dates, percentages ----------------------------------------------------------------------

_CHECKED_KINDS = ("amount", "date", "percent")


def extract_numbers(text: str) -> list[Entity]:
    """Amounts (normalised to a number and currency: "25000000krw"), full dates (YYYY-MM-DD / MM-DD) and
    percentages, read by the one number parser (geunkeo.text.numbers): 2천5백만원 is 25,000,000 won."""
    out: list[Entity] = []
    for q in find_quantities(text):
        if q.kind not in _CHECKED_KINDS or (q.kind == "date" and len(q.norm) == 7):  # 2024년 3월: no day
            continue
        out.append(Entity(q.kind, q.text, q.start, q.end, q.norm))
    return out


def extract_all(text: str, known_departments: Iterable[str] = ()) -> list[Entity]:
    """Every entity kind, ordered by position (numbers inside contacts are dropped)."""
    contacts = extract_contacts(text)
    taken = Spans((c.start, c.end) for c in contacts)
    nums = [n for n in extract_numbers(text) if not taken.overlaps(n.start, n.end)]
    ents = contacts + extract_departments(text, known_departments) + extract_citations(text) + nums
    return sorted(ents, key=lambda x: x.start)
