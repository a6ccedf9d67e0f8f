"""Rewriting one sentence around the items the filter rejected (see `rewrite_sentence`).

A contact inside parentheses or ending a list is cut with its label and separator; a contact the sentence is
built around ("전화번호는 02-…입니다") replaces the sentence with the contact sentence, unless earlier clauses can
stand alone ("…받으며, 문의는 02-…로" → "…받습니다."); departments and citations are replaced by generic
phrases, or dropped when they are a parenthetical aside. Particles are re-chosen at every junction.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property

from geunkeo.answer.clauses import salvage_head, salvage_tail
from geunkeo.answer.name_check import NAME_KINDS
from geunkeo.answer.name_check import stand_in as name_stand_in
from geunkeo.answer.rewrite import (
    LABEL_WORDS,
    PHRASES,
    capitalize_first,
    final_consonant,
    fix_particle,
    residual_is_empty,
    tidy,
)
from geunkeo.text.entities import (
    GENERIC_OFFICES,
    ContactForm,
    Entity,
    contact_form,
    extract_citations,
    extract_contacts,
    extract_departments,
)

_SEP_LEFT = re.compile(r"(?:\s*(?:[,/·;]|또는|및|or|and)\s*)?(?:" + LABEL_WORDS + r"\s*[:：]?\s*)?$", re.I)
_SEP_RIGHT = re.compile(r"^\s*(?:[,/·;]|또는|및|or|and)\s*", re.I)
# A Korean word ending in a particle, or an English verb/preposition, needs the contact after it: the sentence
# cannot lose just the number ("연락처는 02-… .", "reach them at .").
_NEEDS_OBJECT = re.compile(
    r"(?:[가-힣](?:는|은|이|가|을|를|로|에|의|도|와|과)|\b(?:at|via|to|on|is|are|was|call|dial|email|e-mail|"
    r"contact|visit|reach|phone|fax|number|see|from|by))\s*[:：]?\s*$", re.I)


# ("You can call them on <invented> or visit …": the object and "on"/"at" may stand between the verb and the number)
_VERB_LABEL = re.compile(r"\b(?:call|contact|e-?mail|phone|dial|write to|visit)(?:\s+(?:them|us|him|her|it))?"
                         r"(?:\s+(?:on|at))?\s*[:：]?\s*$", re.I)
_NEXT_VERB = re.compile(r"\s*(?:,\s*)?(?:or|and)\s+(?=(?:call|contact|e-?mail|phone|dial|write to|visit)\b)", re.I)
# (the next item may name its office first: "<invented> 또는 교무지원팀 이메일(gyomu@…)로")
_NEXT_ITEM = re.compile(r"\s*(?:[,/·;]|또는|및|\bor\b|\band\b)\s*(?=(?:[가-힣]{2,12}(?:팀|과|처|실|센터)\s?)?(?:" + LABEL_WORDS
                        + r")?\s*[:：(]?\s*(?:[+(]?\d|[\w.+-]+@|https?://|www\.))", re.I)
_KO_ALTERNATIVE = re.compile(r"(?:으로|로|에)\s?[가-힣]*(?:하거나|거나),?\s+(?=\S)")
_DETERMINER = re.compile(r"\b(?:the|our|your|their)\s+$", re.I)
# (or an office's bracketed contacts: "교무지원팀(☎ 02-4417-2290, 미리내관 4층 317호) 또는 <invented>")
_AFTER_CONTACT = re.compile(r"(?:\d|@[\w.-]+|\.[a-z]{2,}(?:/\S*)?)\)?$|\([^()]*\d{3,4}[-.\s]\d{4}[^()]*\)$", re.I)


_VIA = re.compile(r"(?<=\w)\s+(?:via|through)\s+(?:the\s+)?(?:(?:web\s?site|online|portal|e-?mail|link|form)\s+(?:at\s+)?)?$",
                  re.I)
# "팩스로 보내거나 a@b로 제출하시면 됩니다": the alternative after 거나 goes, and its ending moves to the first verb
# ("…보내거나, 청구서류 전용 팩스 <invented>로 보내면 됩니다": up to three words describing it may precede it)
_KO_OR_BEFORE = re.compile(r"(?<=[가-힣])거나,?\s+(?:(?:[가-힣]{1,8}\s+){0,3}?(?:" + LABEL_WORDS + r")\s*[:：]?\s*)?$", re.I)
# ("<invented> 로 메일을 보내셔도 됩니다": a space before the particle, a few words before the ending)
_KO_OR_AFTER = re.compile(r"\s?(?:으로|로|에서|에)\s+(?:[가-힣]+\s+){0,3}?[가-힣]*?(?P<end>(?:으)?시면\s?됩니다|(?:으)?면\s?됩니다|(?:으)?세요|(?:으)?셔도\s?됩니다|"
                          r"(?:으)?면\s?돼요|(?:으)?면\s?돼|(?:으)?셔도\s?돼요|도\s?돼요|"  # 해요체: "…보내면 돼요"
                          r"(?:으)?십시오|(?:으)?시기\s?바랍니다)")


# "… escalate to AFCA on 1800 931 687.": a number after "on/at" is an aside of a clause whose verb is not "call"
# "…online at <real URL> or email photos of the damage to <invented>.": the last alternative goes with its verb
# ("… on 1300 762 114 or the after-hours nurse line on <invented>.": a line named with its number goes with it)
_OR_LAST = re.compile(r"(?:(?<=[\w)])|(?<=\w\.))(?:\s*,)?\s+or\s+(?:(?:e-?mail|call|phone|ring|text|write|send|fax|post|visit)\b[^,;:.!?]*"
                      r"|(?:the|our|your)\s[^,;:.!?]{1,60}?\s(?:on|at)\s+"
                      # "…, or by email to <invented>", "…, or use the live chat at <invented>", "or book online at …"
                      r"|[a-z]+\b[^,;:.!?]{0,50}?\s(?:to|at|on|via)\s+)$", re.I)
# the first of two instructions: "You can email your claim to <invented> or hand it in at the Faculty Office"
_FIRST_ALT = re.compile(r"\b(?:e-?mail|send|post|submit|call|phone|text|fax|write)\b[^,;:.!?]{0,40}?\s(?:to|at|on|via)\s*$",
                        re.I)
_THEN_OR_VERB = re.compile(r"\s+or\s+(?=[a-z]{2,}\b)")
# what may follow the last item of a sentence: its full stop and citation markers
_SENTENCE_END = re.compile(r"\s*[.!?]?(?:\s*\[\d+(?:\s*,\s*\d+)*\])*\s*[.!?]?\s*$")
_ON_NUMBER = re.compile(r"(?<=[\w)])\s+(?:on|at)\s+(?:(?:freephone|toll-free|free\s?call)\s+)?$", re.I)
_CALL_CLAUSE = re.compile(r"\b(?:call|ring|phone|dial|contact|reach|text|fax)\b[^,.;:]*$", re.I)
# "…, or to the Campus Security Office on …", "or through the Harlow County Department of … at …"
# ("…, or you can reach its Cyber Defence Centre directly on …": the alternative may be an instruction of its own)
_ALT_LEFT = re.compile(r"(?:\s*,)?\s*(?:(?:\bor\b|\band\b)\s*(?:you\s+(?:can|may)\s+(?:also\s+)?)?"
                       r"(?:reach|contact|call|try|email|write\s+to|go\s+to)\s+|(?:\bor\b|\band\b|또는|및|혹은|,)\s*)"
                       r"(?:(?:to|at|with|from|through|via)\s+)?(?:the\s+|its\s+|their\s+)?(?:[A-Z][\w'\-]*\s+){0,3}$")
_DEPT_TO_CONTACT = re.compile(r"\s*(?:directly\s+)?(?:(?:free(?:\s?phone)?|toll-free|24/7)\s+)?"
                              r"(?:(?:직통|대표|전화|대표번호|전화번호|직통번호)\s*)?"  # "실손보상팀 직통 <invented>으로"
                              r"(?:\bat\b|\bon\b|\bvia\b|[:(]|,)?\s*(?:\(?\s*)$", re.I)


# Every "…$" pattern above describes the few words before an item; searching only a window before it keeps a
# sentence with thousands of items linear (a search over the whole prefix per item was quadratic)
_WINDOW = 300


def _ending_at(pattern: re.Pattern[str], s: str, end: int) -> re.Match[str] | None:
    """`pattern.search(s[:end])` for a pattern anchored at `$`, looking back at most `_WINDOW` characters."""
    return pattern.search(s, max(0, end - _WINDOW), end)


class _Neighbours:
    """The invented items of one sentence by position, so "is another one right here?" is a bisection, not a
    scan of every item (a sentence can hold thousands)."""

    def __init__(self, items: list[Entity]) -> None:
        self.by_start = sorted(items, key=lambda x: x.start)
        self.starts = [x.start for x in self.by_start]
        self.contact_ends = sorted(x.end for x in items if x.is_contact)

    def starting_in(self, lo: int, hi: int, other_than: Entity) -> bool:
        """Whether an item other than `other_than` starts in [lo, hi)."""
        for x in self.by_start[bisect_left(self.starts, lo) :]:
            if x.start >= hi:
                return False
            if x is not other_than:
                return True
        return False

    def within(self, lo: int, hi: int) -> list[Entity]:
        """The items lying in [lo, hi)."""
        out = []
        for x in self.by_start[bisect_left(self.starts, lo) :]:
            if x.start >= hi:
                break
            if x.end <= hi:
                out.append(x)
        return out

    def covering(self, pos: int, contacts: bool | None = None) -> bool:
        """Whether an item has start < pos <= end (one starts within a window before pos); `contacts` True / False
        asks only about contacts / only about the other items."""
        i = bisect_left(self.starts, pos) - 1
        while i >= 0 and self.by_start[i].start >= pos - _WINDOW:
            x = self.by_start[i]
            if x.end >= pos and (contacts is None or x.is_contact == contacts):
                return True
            i -= 1
        return False

    def contact_starting_at(self, pos: int) -> bool:
        """Whether a contact starts exactly at `pos`."""
        i = bisect_left(self.starts, pos)
        while i < len(self.starts) and self.starts[i] == pos:
            if self.by_start[i].is_contact:
                return True
            i += 1
        return False

    def contact_ending_in(self, lo: int, hi: int) -> bool:
        """Whether a contact ends in [lo, hi]."""
        i = bisect_left(self.contact_ends, lo)
        return i < len(self.contact_ends) and self.contact_ends[i] <= hi


class _ContactsAfter:
    """The invented contacts of a sentence by position, to find the one written right after an office ("the X
    Unit at 02-…", "지급심사부(02-…)")."""

    def __init__(self, s: str, bad: list[Entity]) -> None:
        self.s = s
        self.contacts = sorted((x for x in bad if x.is_contact), key=lambda x: x.start)
        self.starts = [x.start for x in self.contacts]

    def of(self, office: Entity) -> Entity | None:
        """The first contact after `office` with only "at", "on", a bracket or the like between them."""
        for x in self.contacts[bisect_left(self.starts, office.end) :]:
            if x.start - office.end > _WINDOW:
                return None
            if _DEPT_TO_CONTACT.fullmatch(self.s[office.end : x.start]):
                return x
        return None


# a contact as where something is sent: "…로 보내 주세요", "…으로 문의하세요"; "… to <address>." at the end
_SEND_TO = {"ko": re.compile(r"(?:으로|로)\s?(?:보내|제출|문의|연락|접수|신청)"),
            "en": re.compile(r"\s*(?:[.!?]|$)")}


def _cites_beyond(s: str, bad: list[Entity]) -> bool:
    """Whether the sentence cites a provision that is not itself invented."""
    invented = {(x.start, x.end) for x in bad}
    return any((c.start, c.end) not in invented for c in extract_citations(s) if c.article)


_PART_TITLE = re.compile(r"\s?(?:[–—-]\s?(?:[A-Z][a-z]+|and|of)(?:\s(?:[A-Z][a-z]+|and|of)){0,4}"
                         r"|\((?:[A-Z][a-z]+)(?:\s(?:[A-Z][a-z]+|and|of)){0,4}\))")
# "… sessions in Room 3.42 every Thursday", "the help desk on the 6th floor of Kestrel House": where the room
# is an adverbial phrase, it goes with its preposition (and the building it is "of"); after "is" it is the claim
_ROOM_PREP = re.compile(r"(?<![,;:])\s+(?:in|on|at)\s+(?:the\s+)?$", re.I)
_ROOM_OF = re.compile(r"\s+of\s+(?:the\s+)?(?:same\s+building|[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,4})")
_COPULA = re.compile(r"\b(?:is|are|was|were|be|been|located|situated|based)$", re.I)
# "a@b로 서류를 보내 주시면 청구심사팀에서 접수합니다": an e-mail, fax or site the sentence opens with, as the means
_KO_MEANS_OPENING = re.compile(r"^\s*(?:(?:이메일|메일|팩스|홈페이지)\s*(?:주소\s*)?(?:은|는|:)?\s*)?$")
_KO_MEANS_PARTICLE = re.compile(r"(?:으로|로)\s+")
_SITE_LABEL = re.compile(r"(홈페이지|누리집|웹사이트|사이트|포털|website|web\s?site|portal)(?:\s*\(|\s+at)?\s*$", re.I)
_ASIDE_END = re.compile(r"(?<=[가-힣])\([^()]*\)$")
# the lettered part a clause is cited under (Part + capital letter + comma), just before the clause
_CONTAINER = re.compile(r"\b(?:Part|PART)\s[A-Z],\s?$")
_POSSESSIVE = re.compile(r"(?:'s|’s|(?<=s)'|(?<=s)’)\s+(?:the\s+)?$")


def _invented_sub_units(s: str, bad: list[Entity]) -> list[tuple[Entity, Entity, tuple[int, int]]]:
    """(department, contact, span) for each invented unit written as a real office's own ("X's Y Unit at …"),
    with its invented contact right after it; the span runs from the possessive to the contact."""
    out = []
    contacts = _ContactsAfter(s, bad)
    for d in (x for x in bad if x.kind == "department"):
        mark = _ending_at(_POSSESSIVE, s, d.start)
        if mark is None:
            continue
        lo = max(0, mark.start() - _WINDOW)
        owners = extract_departments(s[lo : mark.start()])  # the owner's name ends at the possessive
        if not owners or lo + owners[-1].start >= mark.start() or any(
                x.kind == "department" and x.start <= lo + owners[-1].start < x.end for x in bad):
            continue
        c = contacts.of(d)
        if c is not None:
            out.append((d, c, (mark.start(), c.end)))
    return out


def _alternative_items(s: str, bad: list[Entity]) -> list[tuple[Entity, Entity, tuple[int, int]]]:
    """(department, contact, span) for each invented "department + its contact" pair written as another item
    of a list after a separator (or, and, 또는, 및, a comma)."""
    out = []
    contacts = _ContactsAfter(s, bad)
    text_from = len(s) - len(s.lstrip())
    for d in (x for x in bad if x.kind == "department"):
        c = contacts.of(d)
        left = _ending_at(_ALT_LEFT, s, d.start)
        if c is None or left is None or left.start() <= text_from:  # an alternative needs something before it
            continue
        end = c.end + (1 if s[c.end: c.end + 1] == ")" and "(" in s[d.end:c.start] else 0)
        out.append((d, c, (left.start(), end)))
    return out


# Between two contacts of one list: a separator, then at most a few words ("0505-…, sent to a@b, or made by phone on
# 1588-…"; "031 770 2581 or 031-…"), no sentence end and no office of its own (those are `_alternative_items`).
_SIBLING_GAP = re.compile(r"\)?\s*(?:,\s*(?:(?:or|and)\s+)?|;\s*|/\s*|\s(?:or|and)\s+|\s?(?:또는|및|혹은)\s|이?나\s)"
                          r"(?:[A-Za-z가-힣]+\s+){0,5}?[(]?\s*$", re.I)


def _invented_siblings(s: str, bad: list[Entity]) -> list[tuple[Entity, tuple[int, int]]]:
    """(contact, span) for each invented contact that follows a real one in a list, the span running from the end
    of the contact before it: "faxed to 0505-300-3471, sent to x@y, or made by phone on 1588-…" keeps the real fax
    number and loses the two invented items, instead of the sentence becoming the contact advice."""
    invented = {(x.start, x.end): x for x in bad if x.is_contact}
    if not invented:
        return []
    contacts = sorted((c for c in extract_contacts(s) if not c.placeholder), key=lambda c: c.start)
    out: list[tuple[Entity, tuple[int, int]]] = []
    anchored = False  # a real contact opens the chain so far
    for prev, cur in zip(contacts, contacts[1:], strict=False):
        prev_real = (prev.start, prev.end) not in invented
        anchored = prev_real or anchored
        gap = s[prev.end : cur.start]
        if not _SIBLING_GAP.fullmatch(gap) or extract_departments(gap):
            anchored = False
            continue
        if (cur.start, cur.end) in invented and anchored:
            end = cur.end + (1 if s[cur.end : cur.end + 1] == ")" and "(" in gap else 0)
            start = prev.end + (1 if s[prev.end : prev.end + 1] == ")" else 0)
            out.append((invented[(cur.start, cur.end)], (start, end)))
    return out


# one "topic는 contact" pair of a list of them: "기숙사 관련 전화 문의는 063-…, 수강정정 문의는 063-…로 하세요"
_KO_PAIR_BEFORE = re.compile(r"(?:^|(?<=,))\s*(?P<topic>[^,.()\[\]]{1,40}?(?:은|는)\s*)$")
_KO_PAIR_AFTER = re.compile(r"\s*,\s*(?=[^,.()\[\]]{1,40}?(?:은|는)\s)")
# "사무실인 <room>": a room in apposition to the noun before it
_KO_APPOSED = re.compile(r"(?<=[가-힣])(인\s)$")
# "…이고 우편번호는 <contact>입니다" / "…이고, 강원보상지점은 <contact>입니다": the last "topic는 contact" of a list
_KO_LAST_PAIR = re.compile(r"(?<=[가-힣\d)])(?:이고|이며|고|며),?\s+[^,.()]{1,20}?(?:은|는)\s*$")
_KO_COPULA = re.compile(r"\s?(?:입니다|이에요|예요)")
_GENERIC_OFFICE_BEFORE = re.compile(r"(?<![가-힣])(?:[가-힣]{1,10}\s)?(" + "|".join(GENERIC_OFFICES) + r")\s*$")


def _real_office_before(s: str, contact: Entity, near: _Neighbours) -> int | None:
    """Where the office named right before `contact` ends ("야간 당직실 031-…", "the … Center at +82 …"), when it
    is not itself invented (an invented one, "the responsible office", would carry nothing)."""
    lo = max(0, contact.start - _WINDOW)
    # read up to the contact's end: a body named only by the number after it ("contact Tidewell Travel
    # Assistance on …") is an office only with that number in view; a bare "Office" ("the Chaplain's Office") is not
    offices = [o for o in extract_departments(s[lo : contact.end])
               if lo + o.end <= contact.start and (not o.text.isascii() or len(o.text.split()) >= 2)]
    generic = _GENERIC_OFFICE_BEFORE.search(s, lo, contact.start)
    if not offices and not generic:
        return None
    # "도서관 행정실 033-…": an office word no name needs (never invented, so never extracted) carries it too
    end = max(lo + offices[-1].end if offices else 0, generic.end(1) if generic else 0)
    # "학사관리팀 <invented> 또는 <invented>로": invented contacts between the office and this one go too
    gap = s[end : contact.start]
    for x in sorted((x for x in near.within(end, contact.start) if x.is_contact), key=lambda x: -x.start):
        gap = gap[: x.start - end] + gap[x.end - end :]
    if gap != s[end : contact.start]:  # "교양교육센터(<invented>) 또는 <invented>로": the emptied brackets go too
        gap = re.sub(r"\(\s*\)", "", gap)
        gap = re.sub(r"\s*(?:또는|및|\bor\b|[,/·;])\s*$", " ", gap, flags=re.I)
    if not _DEPT_TO_CONTACT.fullmatch(gap):
        return None
    return None if near.covering(end, contacts=False) else end


def _real_number_before(s: str, ext: Entity, near: _Neighbours) -> int | None:
    """Where a phone number that is not invented ends right before the extension `ext` ("0330 118 4402 ext. 318",
    "02-123-4567(내선 213)" is a bracket of its own), else None."""
    lo = max(0, ext.start - 40)
    before = [c for c in extract_contacts(s[lo : ext.start]) if c.kind in ("phone", "fax")]
    if not before or not re.fullmatch(r"[\s,]{1,2}", s[lo + before[-1].end : ext.start]):
        return None
    end = lo + before[-1].end
    return None if near.covering(end) else end


def _real_address_before(s: str, room: Entity, near: _Neighbours) -> bool:
    """Whether a street address that is not invented ends right before `room` (one space or a comma between)."""
    lo = max(0, room.start - _WINDOW)
    before = [c for c in extract_contacts(s[lo : room.start]) if c.kind == "address"]
    if not before or not re.fullmatch(r"[\s,]{0,2}", s[lo + before[-1].end : room.start]):
        return False
    return not near.contact_starting_at(lo + before[-1].start)


def _real_room_after(s: str, street: Entity, near: _Neighbours) -> bool:
    """Whether a building and floor that is not invented follows the street right after its comma."""
    gap = re.match(r"\s*,\s*", s[street.end :])
    if gap is None:
        return False
    start = street.end + gap.end()
    rooms = [c for c in extract_contacts(s[start : start + 40]) if contact_form(c) is ContactForm.ROOM]
    return bool(rooms) and rooms[0].start == 0 and not near.covering(start + 1)


# what stands in for an invented form or attachment, by its kind: "관련 서식", "the relevant form"
_STAND_INS = {("ko", "M별지"): "관련 서식", ("ko", "M붙임"): "관련 첨부 자료", ("en", "Mform"): "the relevant form"}


def _stand_in(e: Entity, lang: str) -> str:
    """The phrase an invented department or citation is replaced with, in the answer's language."""
    if e.kind in NAME_KINDS:  # a branch, scholarship, building, person, …: a phrase of its kind
        return name_stand_in(e, lang)
    kind = e.article.partition(":")[0] if e.kind == "citation" else ""
    return _STAND_INS.get((lang, kind), PHRASES[lang][e.kind])


def _past_separators(s: str, end: int) -> int:
    """`end` moved past the spaces and commas after it."""
    return end + len(s[end:]) - len(s[end:].lstrip(" ,"))


def _real_office_after(s: str, contact: Entity, near: _Neighbours) -> bool:
    """Whether a real office is named right after `contact` (a company's name may stand between them)."""
    offices = extract_departments(s[contact.end : contact.end + _WINDOW])
    if not offices or offices[0].start > 20:
        return False
    return not near.covering(contact.end + offices[0].start + 1, contacts=False)


def _real_office_later(s: str, start: int, near: _Neighbours) -> bool:
    """Whether the rest of the sentence from `start` names a real office (one the filter keeps)."""
    return any(not near.covering(start + o.start + 1) for o in extract_departments(s[start:]))


def _paren_group(s: str, start: int, end: int) -> tuple[int, int] | None:
    open_ = s.rfind("(", 0, start)
    if open_ == -1 or ")" in s[open_:start]:
        return None
    close = s.find(")", end)
    if close == -1 or "(" in s[end:close]:
        return None
    return open_, close + 1


def _delete_span(s: str, e: Entity) -> tuple[int, int]:
    """The span to cut for a list item: the item, its label and one separator (left, else right)."""
    left = _ending_at(_SEP_LEFT, s, e.start)
    start = left.start() if left and left.group(0) else e.start
    end = e.end
    if not re.match(r"\s*(?:[,/·;]|또는|및|or|and)", left.group(0) if left else "", re.I):
        right = _SEP_RIGHT.match(s[e.end :])  # no separator on the left: take the one on the right
        if right:
            end = e.end + right.end()
    return start, end


# (new sentence, replace whole sentence?, append contact sentence?, replacement per entity id)
Rewritten = tuple[str, bool, bool, dict[int, str]]
# one planned edit: s[start:end] becomes the text
_Cut = tuple[int, int, str]


def rewrite_sentence(s: str, bad: list[Entity], lang: str) -> Rewritten:
    """(new sentence, replace whole sentence?, append contact sentence?, replacement per entity id).

    The span operations run in a fixed order: invented list items that pair an office with its contact go first
    (`_drop_list_items`), then items in brackets (`_drop_aside`), then each remaining item in sentence order: a
    contact is cut with the words that introduce it (`_cut_contact`), or takes its clause or the whole sentence
    with it; a department or citation gives way to a generic phrase (`_substitute`)."""
    plan = _Plan(s, lang, list(bad))  # a salvaged clause is rewritten for every item, not only the loose ones
    bad = _drop_list_items(plan, bad)
    groups: dict[tuple[int, int], list[Entity]] = {}
    loose: list[Entity] = []
    for e in bad:
        g = _paren_group(s, e.start, e.end)
        (groups.setdefault(g, []) if g else loose).append(e)
    for span, items in groups.items():
        _drop_aside(plan, span, items)
    near = _Neighbours(bad)
    for e in loose:
        if not e.is_contact:
            _substitute(plan, e)
        elif (done := _cut_contact(plan, _Site(s, e, lang, near), bad)) is not None:
            return done
    return plan.finish(bad)


class _Plan:
    """The edits planned for one sentence and what each invented item became."""

    def __init__(self, s: str, lang: str, every: list[Entity]) -> None:
        self.s, self.lang, self.every = s, lang, every
        self.phrases = PHRASES[lang]
        self.edits: list[_Cut] = []
        self.repl: dict[int, str] = {}
        self.needs_contact = False

    def cut(self, e: Entity, a: int, b: int, text: str = "") -> None:
        """An invented contact goes with s[a:b] (its label, separator or clause); the contact sentence follows."""
        self.edits.append((a, b, text))
        self.repl[id(e)] = self.phrases["contact"]
        self.needs_contact = True

    def gone(self, e: Entity) -> None:
        """`e` left with a span edited elsewhere: a contact is pointed to the contact sentence, the rest leave no
        phrase."""
        self.repl[id(e)] = self.phrases["contact"] if e.is_contact else ""
        self.needs_contact |= e.is_contact

    def whole(self, bad: list[Entity]) -> Rewritten:
        """Nothing of the sentence stands without the items: the contact sentence replaces it."""
        return "", True, True, {id(x): self.phrases["contact"] for x in bad}

    def finish(self, bad: list[Entity]) -> Rewritten:
        new = _apply(self.s, self.edits)
        if residual_is_empty(new):
            return self.whole(bad)
        if self.lang == "en":
            new = capitalize_first(new)
        return new, False, self.needs_contact, self.repl


def _drop_list_items(plan: _Plan, bad: list[Entity]) -> list[Entity]:
    """Drop the invented items of a list that stand with their own office or after a real contact; the items
    left for the other operations are returned."""
    s = plan.s
    # an invented alternative "…, or the <office> at <number>" / "또는 <office>(<number>)" goes whole, with its
    # separator: the real office and number before it stay
    for dept, contact, span in _alternative_items(s, bad):
        plan.edits.append((*span, ""))
        plan.repl[id(dept)] = plan.repl[id(contact)] = ""
        bad = [x for x in bad if x is not dept and x is not contact]
    # "<real office>'s <invented unit> at <number>": the invented sub-unit and its number go, the real office
    # before the possessive carries the sentence
    for dept, contact, span in _invented_sub_units(s, bad):
        plan.repl[id(dept)] = ""
        plan.cut(contact, *span)
        bad = [x for x in bad if x is not dept and x is not contact]
    for contact, span in _invented_siblings(s, bad):
        plan.cut(contact, *span)
        bad = [x for x in bad if x is not contact]
    return bad


_REFERENCE_WORDS = re.compile(r"참조|참고|see|cf\.?|according to|under|per", re.I)


def _drop_aside(plan: _Plan, span: tuple[int, int], items: list[Entity]) -> None:
    """Items inside one pair of brackets: the brackets go whole when nothing else is in them, else each item goes
    as a list item (with its label and one separator)."""
    s, (gs, ge) = plan.s, span
    inner = s[gs + 1 : ge - 1]
    for e in sorted(items, key=lambda x: -x.start):
        inner = inner[: e.start - gs - 1] + inner[e.end - gs - 1 :]
    if residual_is_empty(_REFERENCE_WORDS.sub(" ", inner)):
        if gs > 0 and s[gs - 1] == " " and ge < len(s) and re.match(r"[가-힣]", s[ge]):
            gs -= 1  # "팀 (…)에서" → "팀에서": the particle re-attaches to its noun
        plan.edits.append((gs, ge, ""))
    else:
        plan.edits.extend((*_delete_span(s, e), "") for e in items)
    for e in items:
        plan.gone(e)


def _substitute(plan: _Plan, e: Entity) -> None:
    """An invented department or citation becomes a generic phrase ("담당 부서", "the relevant provision")."""
    s = plan.s
    word = _stand_in(e, plan.lang)
    start = e.start
    if plan.lang == "en" or e.text[:1].isascii():
        m = _ending_at(_DETERMINER, s, e.start)  # "our X Unit" → "the …"
        start = m.start() if m else e.start
        owner = _ending_at(_POSSESSIVE, s, e.start) if e.kind == "department" else None
        if owner:  # "<real office>'s <invented unit>" → "<real office>": the owner named before it is real
            start, word = owner.start(), ""
        part = _ending_at(_CONTAINER, s, e.start) if e.kind == "citation" else None
        if part:  # the lettered part goes with the clause it contains: the generic phrase replaces both
            start = part.start()
    end = e.end
    if e.kind == "citation" and e.article.startswith("Prt"):  # a lettered part written with its title: the title too
        title = _PART_TITLE.match(s, end)
        end = title.end() if title else end
    plan.edits.append((start, end, word))
    plan.repl[id(e)] = word


class _Site:
    """One invented contact in its sentence, with what the cuts below ask of its surroundings (each read once,
    when first asked)."""

    def __init__(self, s: str, e: Entity, lang: str, near: _Neighbours) -> None:
        self.s, self.e, self.lang, self.near = s, e, lang, near
        self.form = contact_form(e)

    @cached_property
    def span(self) -> tuple[int, int]:
        """The contact as a list item: with its label and one separator."""
        return _delete_span(self.s, self.e)

    @cached_property
    def verb(self) -> re.Match[str] | None:
        """"call", "email them at" … right before the contact: the clause's verb is its label."""
        return _ending_at(_VERB_LABEL, self.s, self.e.start)

    @cached_property
    def in_list(self) -> bool:
        """The second item of a list ("A 또는 B입니다"): it goes with its separator, whatever follows it."""
        a, s = self.span[0], self.s
        return (bool(re.match(r"\s*(?:[,/·;]|또는|및|or\b|and\b)", s[a : self.e.start], re.I))
                and bool(_ending_at(_AFTER_CONTACT, s, a))  # after another contact, not a word
                and not self.near.contact_ending_in(a - 12, a))

    @cached_property
    def attached(self) -> bool:
        """Words follow the contact directly (a particle, or a word after a space that is no separator)."""
        nxt = self.s[self.e.end :]
        return bool(re.match(r"[가-힣A-Za-z0-9]", nxt)) or bool(
            re.match(r"\s+(?![,/·;]|또는|or\b|및|and\b|\[\d)", nxt) and not re.match(r"\s*$", nxt))


def _cut_contact(plan: _Plan, site: _Site, bad: list[Entity]) -> Rewritten | None:
    """Cut one invented contact with the first of `_CONTACT_CUTS` that finds its span; else the contact carries
    its clause (`_contact_carries`). A whole result (the sentence rewritten otherwise) is returned, else None."""
    for find in _CONTACT_CUTS:
        if (span := find(site)) is not None:
            plan.cut(site.e, *span)
            return None
    return _contact_carries(plan, site, bad)


def _contact_carries(plan: _Plan, site: _Site, bad: list[Entity]) -> Rewritten | None:
    """The last resort for a contact: a list item goes as one; a contact the clause needs ("전화번호는 02-…입니다",
    "reach them at …") takes its clause (the rest of the sentence is salvaged) or the whole sentence."""
    s, e, lang = plan.s, site.e, plan.lang
    a, b = site.span
    if site.in_list or not (site.attached or site.verb or _ending_at(_NEEDS_OBJECT, s, a)):
        plan.cut(e, a, b)
        return None
    salvaged = _salvaged(plan, site)
    if salvaged is not None:
        return salvaged
    if _SEND_TO.get(lang, _SEND_TO["ko"]).match(s, e.end) and _cites_beyond(s, bad):
        # "send <topic>(<real article>) questions to <invented address>": the office stands in for
        # the address, so the real article the sentence names is not lost with it
        plan.cut(e, e.start, e.end, plan.phrases["department"])
        return None
    return plan.whole(bad)


def _salvaged(plan: _Plan, site: _Site) -> Rewritten | None:
    """The clauses before the contact's clause, else those after it, rewritten for the items they hold, when they
    stand alone as a sentence."""
    s, e, lang, every, contact = plan.s, site.e, plan.lang, plan.every, plan.phrases["contact"]
    salvaged = salvage_head(s, e.start, lang)
    if salvaged is not None:  # "…받으며, 문의는 02-…로 하세요" → "…받습니다." + contact sentence
        head, limit = salvaged
        inside = [x for x in every if x.end <= limit]
        new, _, _, repl = rewrite_sentence(head, inside, lang) if inside else (head, False, False, {})
        repl.update({id(x): contact for x in every if x not in inside})
        return new, False, True, repl
    tail = salvage_tail(s, e.end, lang)
    if tail is None:
        return None
    # "팩스 0505-…로 보내시면 되고, 심사 후 5영업일 이내에 지급됩니다" → the second clause
    rest = [x for x in every if x.start >= tail]
    shifted = [replace(x, start=x.start - tail, end=x.end - tail) for x in rest]
    back = {id(y): x for x, y in zip(rest, shifted, strict=True)}  # shifted copy → original
    new, whole, _, sub = rewrite_sentence(s[tail:], shifted, lang) if rest else (s[tail:], False, False, {})
    if whole:
        return None
    out = {id(x): contact for x in every if x.start < tail}
    out.update({id(back[k]): v for k, v in sub.items() if k in back})
    return (capitalize_first(new) if lang == "en" else new), False, True, out


# -- where an invented contact goes with the words around it, tried in this order (`_CONTACT_CUTS`) --------------


def _ko_pair_of_list(t: _Site) -> _Cut | None:
    """"기숙사 문의는 <invented>, 수강정정 문의는 <real>로 하세요": the invented "topic는 contact" pair goes whole."""
    s, e = t.s, t.e
    pair = _KO_PAIR_BEFORE.search(s, max(0, e.start - 60), e.start) if t.lang == "ko" else None
    nxt_pair = _KO_PAIR_AFTER.match(s, e.end) if pair else None
    if pair and nxt_pair and not t.near.starting_in(pair.start("topic"), e.start, e):
        return pair.start("topic"), nxt_pair.end(), ""
    return None


def _extension_of_real_number(t: _Site) -> _Cut | None:
    """"call <real number> ext. <invented>": the real number stays, its extension goes."""
    number = _real_number_before(t.s, t.e, t.near) if t.form is ContactForm.EXTENSION else None
    return (number, t.e.end, "") if number is not None else None


def _instruction_before_another(t: _Site) -> _Cut | None:
    """"Call 02-… or email a@b." → "Email a@b.": the other instruction stands alone."""
    parallel = _NEXT_VERB.match(t.s, t.e.end) if t.verb else None
    return (t.verb.start(), parallel.end(), "") if t.verb and parallel else None


def _item_before_another(t: _Site) -> _Cut | None:
    """"전화 02-…, 이메일 a@b로 …" / "02-…로 전화하거나 a@b로 …": another contact takes its place."""
    s, e = t.s, t.e
    alt = _KO_ALTERNATIVE.match(s, e.end) or _NEXT_ITEM.match(s, e.end)
    if alt and not t.near.starting_in(alt.end() - 1, alt.end() + 12, e):
        return t.span[0], alt.end(), ""
    return None


def _ko_alternative_verb(t: _Site) -> _Cut | None:
    """"<verb>거나 <invented>로 <verb>면 됩니다": the alternative after 거나 goes, its ending moves to the first verb."""
    s, e = t.s, t.e
    before, after = _ending_at(_KO_OR_BEFORE, s, e.start), _KO_OR_AFTER.match(s, e.end)
    if not (before and after and t.lang == "ko" and not t.near.starting_in(e.end, after.end(), e)):
        return None
    stem = s[: before.start()]
    # 받거나 → 받으세요: a final consonant other than ㄹ (index 8) takes 으
    vowel = "으" if final_consonant(stem[-1]) not in (None, 0, 8) and not after.group("end").startswith("으") else ""
    end = after.group("end")
    start = before.start()
    if stem.endswith("시") and end.startswith("시"):  # "맡기시거나 … 하시면 됩니다" → "맡기시면 됩니다"
        end = end[1:]
    elif stem.endswith("시") and end.startswith("셔"):  # "맡기시거나 … 맡기셔도 됩니다" → "맡기셔도 됩니다"
        start -= 1
    return start, after.end(), vowel + end


def _en_channel_aside(t: _Site) -> _Cut | None:
    """"Applications run until <date> via <site>, and …": the channel is an aside; the clause stands."""
    s, e = t.s, t.e
    channel = _ending_at(_VIA, s, e.start) if t.lang == "en" else None
    if channel is None and t.lang == "en" and e.kind in ("phone", "fax") and not _ending_at(_CALL_CLAUSE, s, e.start):
        channel = _ending_at(_ON_NUMBER, s, e.start)
    if channel and re.match(r"\s*(?:[,.;:!?]|\band\b|\bor\b|$)", s[e.end :]):
        return channel.start(), e.end, ""
    return None


def _en_first_of_two(t: _Site) -> _Cut | None:
    """"You can email your claim to <invented> or hand it in at <office>" → "You can hand it in at <office>"."""
    s, e = t.s, t.e
    first = _ending_at(_FIRST_ALT, s, e.start) if t.lang == "en" else None
    then = _THEN_OR_VERB.match(s, e.end) if first else None
    if (first and then and not t.near.starting_in(first.start(), e.start, e)
            and not t.near.starting_in(e.end, then.end() + 40, e)):
        return first.start(), then.end(), ""
    return None


def _en_last_alternative(t: _Site) -> _Cut | None:
    """"…, or email <invented>." ending the sentence: the last alternative goes with its verb."""
    s, e = t.s, t.e
    last = _ending_at(_OR_LAST, s, e.start) if t.lang == "en" else None
    if last and _SENTENCE_END.match(s, e.end) and not t.near.starting_in(last.start(), e.start, e):
        return last.start(), e.end, ""
    return None


def _office_keeps_clause(t: _Site) -> _Cut | None:
    """"<office> 031-…으로 연락" → "<office>로 연락", "call the … Center at +82 …" → "call the … Center": the
    number goes, the office it belongs to stays to carry the sentence (a contact sentence follows)."""
    office = None if t.in_list else _real_office_before(t.s, t.e, t.near)
    return (office, t.e.end, "") if office is not None else None


def _real_site_label(t: _Site) -> _Cut | None:
    """"학교 홈페이지 <invented URL>에서 내려받을 수 있습니다" → "학교 홈페이지에서 …": the site is real."""
    s, e = t.s, t.e
    label = _ending_at(_SITE_LABEL, s, e.start) if e.kind == "url" else None
    if label and re.match(r"\s?(?:에서|에|으로|로|을|를|의)(?![가-힣])|\s*[.,;)]|\s*$", s[e.end :]):
        end = e.end + (1 if s[e.end : e.end + 1] == " " and re.match(r" [가-힣]", s[e.end :]) else 0)
        return label.end(1), end, ""
    return None


def _ko_apposed_room(t: _Site) -> _Cut | None:
    """"<office> 사무실인 <invented room>로" → "<office> 사무실로": the room goes, the office stays."""
    s, e = t.s, t.e
    apposed = _KO_APPOSED.search(s, max(0, e.start - 20), e.start) if t.form is ContactForm.ROOM else None
    return (apposed.start(1), e.end, "") if apposed else None


def _ko_last_pair_of_list(t: _Site) -> _Cut | None:
    """"…8층이고 우편번호는 <invented>입니다" → "…8층입니다": the last pair of a list goes with its link."""
    s, e = t.s, t.e
    last_pair = _KO_LAST_PAIR.search(s, max(0, e.start - 40), e.start) if t.lang == "ko" else None
    copula = _KO_COPULA.match(s, e.end) if last_pair else None
    if last_pair and copula and not t.near.starting_in(last_pair.start(), e.start, e):
        return last_pair.start(), copula.end(), "입니다"
    return None


def _en_room_adverbial(t: _Site) -> _Cut | None:
    """"… sessions in Room <n> every <day>": a room that is an adverbial phrase goes with its preposition (and the
    building it is "of"); after "is" it is the claim."""
    s, e = t.s, t.e
    prep = _ending_at(_ROOM_PREP, s, e.start) if t.lang == "en" and t.form is ContactForm.ROOM else None
    if not prep or _COPULA.search(s[: prep.start()].rstrip()):
        return None
    of = _ROOM_OF.match(s, e.end)
    end = of.end() if of else e.end
    if re.match(r"\s*(?:[,.;!?]|\s[a-z])", s[end:]) or not s[end:].strip():
        return prep.start(), end, ""
    return None


def _ko_opening_means(t: _Site) -> _Cut | None:
    """"a@b로 서류를 보내 주시면 <real office>에서 접수합니다": the e-mail, fax or site the sentence opens with goes."""
    s, e = t.s, t.e
    means = _KO_MEANS_PARTICLE.match(s, e.end) if t.lang == "ko" and e.kind in ("email", "fax", "url") else None
    if means and _KO_MEANS_OPENING.match(s[: e.start]) and _real_office_later(s, means.end(), t.near):
        return 0, means.end(), ""
    return None


def _room_of_real_street(t: _Site) -> _Cut | None:
    """"주소는 <real street> <building> 7층입니다": the real street stays, the invented floor goes."""
    s, e = t.s, t.e
    if t.form is ContactForm.ROOM and _real_address_before(s, e, t.near):
        return e.start - (len(s[: e.start]) - len(s[: e.start].rstrip())), e.end, ""
    return None


def _street_of_real_room(t: _Site) -> _Cut | None:
    """"<office>은 <invented street>, <real building and floor>에 있으며": the real building carries it."""
    s, e = t.s, t.e
    if e.kind == "address" and t.form is not ContactForm.ROOM and _real_room_after(s, e, t.near):
        return e.start, _past_separators(s, e.end), ""
    return None


def _street_of_real_office(t: _Site) -> _Cut | None:
    """"<invented street> <company> <real office>로 보내시면 됩니다": the real office carries the sentence."""
    s, e = t.s, t.e
    if e.kind == "address" and _real_office_after(s, e, t.near):
        return e.start, _past_separators(s, e.end), ""
    return None


_CONTACT_CUTS: tuple[Callable[[_Site], _Cut | None], ...] = (
    _ko_pair_of_list, _extension_of_real_number, _instruction_before_another, _item_before_another,
    _ko_alternative_verb, _en_channel_aside, _en_first_of_two, _en_last_alternative, _office_keeps_clause,
    _real_site_label, _ko_apposed_room, _ko_last_pair_of_list, _en_room_adverbial, _ko_opening_means,
    _room_of_real_street, _street_of_real_room, _street_of_real_office,
)


def _apply(s: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping edits, re-choose particles at every junction, then tidy."""
    edits = sorted(edits)
    merged: list[tuple[int, int, str]] = []
    for a, b, r in edits:
        if merged and a < merged[-1][1]:  # overlapping (an item inside a dropped group): keep the wider edit
            pa, pb, pr = merged[-1]
            merged[-1] = (pa, max(pb, b), pr if pb >= b else r)
            continue
        merged.append((a, b, r))
    out, junctions, pos, length = [], [], 0, 0
    for a, b, r in merged:
        out.append(s[pos:a])
        out.append(r)
        length += a - pos + len(r)
        pos = b
        junctions.append(length)
    out.append(s[pos:])
    text = "".join(out)
    for j in reversed(junctions):
        head, rest = text[:j], text[j:]
        if head and re.match(r"[가-힣0-9]", head[-1]):
            group = re.match(r"\([^()]*\)", rest)  # "담당 부서(내선 1234)으로": the particle after the aside
            if group:
                text = head + group.group(0) + fix_particle(head, rest[group.end() :])
            else:
                text = head + fix_particle(head, rest)
        elif head.endswith(")") and (aside := _ASIDE_END.search(head, max(0, j - _WINDOW))):
            # "학사관리팀(☎ …) 또는 <invented>로" → "학사관리팀(☎ …)으로": the particle follows the word before the aside
            text = head + fix_particle(head[: aside.start()], rest)
    return tidy(text)
