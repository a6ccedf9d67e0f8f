"""Entities that answers and contexts are checked on: contacts, departments, regulation citations, numbers.

Shared by the answer stage (hallucination filter) and the evaluation stage (entity checks on claims). Every
extractor is a regular expression pass, no Kiwi: the filter must stay within a few milliseconds per answer.
Each `Entity` carries its surface span and a normalised key (`norm`) that is what gets compared:
phones by digits (``+82-2-…`` → ``02…``), e-mails casefolded, URLs without scheme/``www.``/trailing slash,
departments without spaces, citations as a (regulation, article, paragraph, item) tuple, amounts by value and
currency (``2천5백만원`` → ``25000000krw``, read by geunkeo.text.numbers).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from geunkeo.text.numbers import find_quantities

# -- data ------------------------------------------------------------------------------------------------------


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

def _first(chars: str, pattern: str, flags: int = 0) -> re.Pattern:
    """Compile with a one-character lookahead in front: most positions fail at once (the filter runs these over
    every answer and context, so this is most of its speed)."""
    return re.compile(f"(?=[{chars}])(?:{pattern})", flags)


# -- contacts --------------------------------------------------------------------------------------------------

_SEP = r"[-.\s]?"
# +82 2 123 4567, +82-(0)2-…, +82 10 1234 5678
_PHONE_INTL = _first("+", r"(?<![\dA-Za-z+])\+82[-.\s]?(?:\(0\)\s?)?0?\d{1,2}[-.\s)]?\d{3,4}[-.\s]?\d{4}(?!\d)")
# 02-123-4567, (02) 123-4567, 031.1234.5678, 010 1234 5678, 0212345678, 0505-123-4567
_PHONE_KR = re.compile(
    r"(?<![\dA-Za-z+\-.])(?:\(0(?:50\d|\d{1,2})\)|0(?:50\d|\d{1,2}))" + _SEP + r"\s?\d{3,4}" + _SEP + r"\d{4}(?![\dA-Za-z])"
)
# 1588-1234 and the other national representative numbers (15xx, 16xx, 18xx)
_PHONE_REP = _first("1", r"(?<![\dA-Za-z\-.])1(?:5[4-9]\d|6\d\d|8\d\d)[-.\s]?\d{4}(?![\dA-Za-z])")
# placeholders the seed system produced: 02-XXXX-XXXX, 0X-XXX-XXXX, 02-123-XXXX, 02-○○○-○○○○, 1588-XXXX
_PH = r"[\dXx*○●□]"
_PHONE_FAKE = _first(
    "0Xx(1내교", r"(?<![\dA-Za-z\-.])(?:(?:0[\dXx]{1,2}|[Xx]{2,3}|\(0\d{1,2}\))[-.\s]" + _PH + r"{3,4}[-.\s]" + _PH + r"{4}"
    r"|1[5-8]\d\d[-.\s][Xx*○●□]{4}|(?:내선|교내)\s?[Xx*○●□]{3,5})(?![\dA-Za-z])"
)
# other countries' numbers in English answers: +1-800-555-0199, (800) 555-0199, 1800-555-0199, +44 20 7946 0958
_PHONE_OTHER = _first(
    "+(0-9", r"(?<![\dA-Za-z\-.])(?:\+(?!82)\d{1,3}[-.\s]?\(?\d{1,4}\)?(?:[-.\s]?\d{2,4}){2,3}"
    r"|(?:1[-.\s]?)?\(?[2-9]\d{2}\)?[-.\s]\d{3}[-.\s]\d{4}"
    r"|0\d{3,4}[\s-]\d{3}[\s-]?\d{3,4}"  # 0161 555 0185, 0800 731 4455, 07700 900123
    r"|1[38]00[\s-]?\d{3}[\s-]?\d{3})(?![\dA-Za-z])"  # Australia's 1800 662 410 / 1300 …
)
# countries whose numbers drop a domestic trunk 0 after the country code: +44 (0)161 … is 0161 … at home
_TRUNK_ZERO = re.compile(r"^\+(82|44|33|49|61|64|81|86|852|886|353)")
# extensions: 내선 1234, (교내 2345), ext. 1234
_PHONE_EXT = _first("내교eE", r"(?:내선|교내)\s?(?:번호\s?)?\d{3,5}(?!\d)|(?i:ext\.?|extension)\s?\d{2,5}(?!\d)")
# Korea's short public numbers, a phone only where the text says so: "국번없이 1332", "☎ 120", "소비자상담센터(1372)",
# "1345번으로"; a bare 13xx may be a year or an amount
_PHONE_SHORT = _first("국☎(1센재상", r"(?:국번\s?없이|☎)\s?(?P<a>1\d{2,3})(?![\d\-.,])|(?<=[가-힣])\((?P<b>13\d{2})\)"
                          r"|(?<![\d\-.,])(?P<c>13\d{2})번(?!지|째)"
                          # a call centre's number after or before its name: "민원콜센터 182로", "120 다산콜재단"
                          r"|(?:센터|재단|상담소)\s?(?P<d>1\d{2,3})(?=으로|로|에|번|[\s,)]|$)"
                          r"|(?<![\d\-.,:~])(?P<e>1\d{2})\s(?=[가-힣]{0,10}(?:콜센터|콜재단|상담센터|신고센터))"
                          r"|(?<![\d\-.,:~])(?P<f>1[1-9]\d)(?=번?(?:에|으로|로)\s?(?:먼저\s?)?(?:신고|전화|연락))")
SHORT_PHONE = "short"  # Entity.norm prefix of a short number
POSTCODE = "zip"  # Entity.norm prefix of a Korean postcode ("우편번호 06721")
# street addresses, keyed by road and number: "서울특별시 성북구 안암로 145 서연관 2층" (a 시·군·구 before the road, so
# "…로 150" in running text is not one; the building and floor after it belong to it), "12 Market Street",
# "PO Box 7711", "GPO Box 4120"
_ROAD_NUMBER = _first("로길", r"(?:로|길)\s?\d")  # where an address can be: searched around these only
_ADDRESS_KO = re.compile(
    r"(?<![가-힣])(?:[가-힣]{2,8}(?:특별시|광역시|특별자치시|특별자치도|도)\s)?(?:[가-힣]{1,8}(?:시|군|구)\s){1,2}"
    r"(?P<road>[가-힣\d]{1,12}(?:대로|로|길))\s?(?P<num>\d{1,4}(?:-\d{1,4})?)(?![\d%]|[.,]\d)"
    r"(?:\s[가-힣\d]{1,12}(?:관|회관|빌딩|타워|홀|동))?(?:\s?\d{1,3}층)?(?:\s?\d{1,4}호)?")
_POSTCODE_KO = _first("우(", r"(?:우편번호|\(우\)|우\))\s?:?\s?(?P<zip>\d{5})(?!\d)")
_STREET_TYPES = {"St": "Street", "Rd": "Road", "Ave": "Avenue", "Ln": "Lane", "Dr": "Drive", "Pl": "Place",
                 "Sq": "Square", "Blvd": "Boulevard", "Tce": "Terrace"}
# the town and postcode after the street or box go with it: ", Leeds LS1 4AP", ", Sydney NSW 2001"
_TOWN_POSTCODE = (r"(?:,\s(?:[A-Z][a-z]+\s){0,2}[A-Z][a-z]+)?"
                  r"(?:,?\s(?:[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}|(?:NSW|VIC|QLD|SA|WA|TAS|ACT|NT)\s\d{4}))?")
_ADDRESS_EN = _first(
    "GP0-9", r"\b(?:(?:G\.?P\.?O\.?|P\.?O\.?)\s?Box\s(?P<box>\d{1,6})"
    r"|(?P<street>\d{1,5}\s(?:[A-Z][a-z]+\s){1,3}(?P<type>" + "|".join([*_STREET_TYPES.values(), *_STREET_TYPES])
    + r")))\b" + _TOWN_POSTCODE + r"(?![A-Za-z\d])")


def _korean_addresses(text: str) -> list[tuple[int, int]]:
    """Spans of Korean street addresses, each searched in a window around a "…로 12" / "…길 3" (the full pattern
    would start at every Hangul character)."""
    spans: list[tuple[int, int]] = []
    for hint in _ROAD_NUMBER.finditer(text):
        if spans and hint.start() < spans[-1][1]:
            continue
        lo = max(0, hint.start() - 40)
        for m in _ADDRESS_KO.finditer(text, lo, min(len(text), hint.end() + 40)):
            if m.start("road") <= hint.start() < m.end("road"):
                spans.append(m.span())
                break
    return spans


def address_key(text: str) -> str:
    """Road and number ("안암로145"), the box ("box7711") or the street line ("12marketstreet")."""
    m = _ADDRESS_KO.search(text)
    if m:
        return m.group("road") + m.group("num")
    m = _ADDRESS_EN.search(text)
    if m and m.group("box"):
        return "box" + m.group("box")
    if m:  # "14 Canal St" is "14 Canal Street"
        street = m.group("street")[: m.start("type") - m.start("street")] + _STREET_TYPES.get(m.group("type"), m.group("type"))
        return re.sub(r"\s", "", street).casefold()
    return re.sub(r"\s", "", text).casefold()


_FAX_LABEL = re.compile(r"(?:팩스|fax|f\.|facsimile)\s*(?:번호|no\.?|number)?\s*[:：)]?\s*\(?\s*$", re.I)
_EMAIL = re.compile(r"(?<![A-Za-z0-9.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_URL_CHARS = r"[^\s\x00<>()\[\]{}\"'「」가-힣,]"
_URL = _first(
    "A-Za-z0-9", r"(?:https?://|www\.)" + _URL_CHARS + r"+"
    r"|(?<![@\w.\-/])(?:[a-z0-9-]+\.)+(?:(?:ac|go|or|co|re|ne)\.kr|kr|(?:org|co|ac|gov|nhs)\.uk|(?:com|org|gov|edu|net)\.au|(?:co|org|govt|ac)\.nz|com|net|org|edu|gov|io)(?![A-Za-z0-9-])(?:/"
    + _URL_CHARS + r"*)?",
    re.I,
)


def phone_key(text: str) -> str:
    """Digits only, with a country code that drops a trunk 0 (+82, +44, …) turned into the domestic leading 0."""
    text = text.strip().replace("(0)", "")
    digits = re.sub(r"\D", "", text)
    cc = _TRUNK_ZERO.match(text)
    if cc:
        digits = digits[len(cc.group(1)) :]
        if not digits.startswith("0"):
            digits = "0" + digits
    elif len(digits) == 11 and digits.startswith("1"):  # North America: +1 (613) 562-5800 is 613-562-5800 at home
        digits = digits[1:]
    return digits


def url_key(text: str) -> str:
    """Lowercased URL without scheme, ``www.``, trailing slash or trailing punctuation."""
    u = text.strip().rstrip(".,;:!?").lower()
    u = re.sub(r"^https?://", "", u)
    u = re.sub(r"^www\.", "", u)
    return u.rstrip("/")


class _Spans:
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


def extract_contacts(text: str) -> list[Entity]:
    """Phones, faxes, e-mails, URLs and street addresses in `text`, in order, without overlaps."""
    found: list[Entity] = []
    taken = _Spans()

    for m in _EMAIL.finditer(text):
        v = m.group(0).rstrip(".")
        found.append(Entity("email", v, m.start(), m.start() + len(v), v.casefold()))
        taken.add(m.start(), m.start() + len(v))
    for m in _URL.finditer(text):
        v = m.group(0).rstrip(".,;:!?")
        s, e = m.start(), m.start() + len(v)
        if not taken.overlaps(s, e) and "." in v:
            found.append(Entity("url", v, s, e, url_key(v)))
            taken.add(s, e)
    for rx, fake in ((_PHONE_FAKE, True), (_PHONE_INTL, False), (_PHONE_KR, False), (_PHONE_REP, False),
                     (_PHONE_OTHER, False), (_PHONE_EXT, False)):
        for m in rx.finditer(text):
            s, e = m.start(), m.end()
            v = m.group(0)
            if taken.overlaps(s, e):
                continue
            if fake and not re.search(r"[Xx*○●□]", v):
                continue  # a real number: the precise patterns below handle it
            key = phone_key(v)
            if rx is _PHONE_EXT:
                key = "ext" + key
            elif not fake and not 8 <= len(key) <= (13 if rx is _PHONE_OTHER else 11):
                continue
            kind = "fax" if _FAX_LABEL.search(text[max(0, s - 14) : s]) else "phone"
            found.append(Entity(kind, v, s, e, "" if fake else key, placeholder=fake))
            taken.add(s, e)
    for s, e in [*_korean_addresses(text), *(m.span() for m in _ADDRESS_EN.finditer(text))]:
        if not taken.overlaps(s, e):
            found.append(Entity("address", text[s:e], s, e, address_key(text[s:e])))
            taken.add(s, e)
    for m in _POSTCODE_KO.finditer(text):
        s, e = m.span("zip")
        if not taken.overlaps(s, e):
            found.append(Entity("address", m.group("zip"), s, e, POSTCODE + m.group("zip")))
            taken.add(s, e)
    for m in _PHONE_SHORT.finditer(text):
        g = next(k for k in "abcdef" if m.group(k))
        s, e = m.span(g)
        if not taken.overlaps(s, e):
            found.append(Entity("phone", m.group(g), s, e, SHORT_PHONE + m.group(g)))
            taken.add(s, e)
    found.sort(key=lambda x: x.start)
    return found


# -- departments -----------------------------------------------------------------------------------------------

# Unambiguous organisation endings; the short ones (처/과/실) are checked against stop words below.
_DEPT_STRONG = (
    "위원회|사무국|지원단|사업단|봉사단|재단|본부|센터|연구소|상담소|행정실|사무실|교무실|대학원|교육원|연수원|"
    "개발원|평가원|진흥원|정보원|의료원|기술원|소비자원|감독원|심판원|조정원|보호원|연구원|팀|파트|창구|데스크|사무소|플라자|"
    "출장소|영업소"
)
_DEPT_WEAK = "처|과|실|부|청|국|공단|공사"
_PARTICLE = (
    r"(?:에게서|에서|에게|에|께서|께|한테|으로|로|와|과|의|이|가|은|는|을|를|도|만|까지|부터|처럼|보다|이나|나|이며|며|인|"
    r"입니다|이에요|예요|이다|다|이라고|라고|이라는|라는|이라|라|장)"
)
_DEPT_KO = re.compile(
    r"(?<![가-힣])([가-힣]{1,14}(?:" + _DEPT_STRONG + "|" + _DEPT_WEAK + r"))(?=" + _PARTICLE + r"{0,3}(?![가-힣]))"
)
_WEAK_STOP_END = (
    # 처: places and generic nouns, not offices
    "연락처", "문의처", "접수처", "제출처", "근처", "출처", "대처", "거처", "용처", "사용처", "거래처", "판매처",
    "구입처", "신청처", "행선처",
    # 과: results and other nouns ending in 과
    "결과", "효과", "경과", "초과", "통과", "부과", "성과", "교과", "전과", "사과", "수과", "이수과",
    # 실: 사실 and rooms that are not offices
    "사실", "확실", "과실", "손실", "분실", "현실", "진실", "결실", "내실", "부실", "충실", "성실", "착실",
    "절실", "상실", "강의실", "화장실", "열람실", "실습실", "자습실", "회의실", "교실", "휴게실", "세미나실",
    "실험실", "기숙실", "병실",
    # 부: parts and wholes, not departments (two-syllable words like 일부, 전부, 여부, 내부 are too short anyway)
    "대부분", "일부분", "상세부", "세부", "하부", "상부", "간부", "신부", "가부", "여부", "주부", "장부", "명부",
    "서부", "동부", "남부", "북부", "중부", "두부", "흉부", "복부", "안부", "환부", "납부", "교부", "기부", "부부",
    # 청: requests and hearing, not agencies (교육청, 국세청, 경찰청 are)
    "신청", "요청", "초청", "경청", "청청", "감청", "환청", "민원청",
    # 국: countries and nations, not bureaus (복지국, 교육국 are)
    "민국", "선진국", "회원국", "이사국", "상대국", "체약국", "개도국", "개발국", "당사국", "강대국", "최빈국", "수출국",
    "수입국", "산유국", "동맹국", "주변국", "가맹국", "제국", "천국", "왕국",
)
# names that end in a stop word and are offices all the same: 고용노동부 ends in the direction 동부
_WEAK_STOP_EXCEPT = ("노동부",)
# generic words, not names: "학과 사무실", "행정실에 문의"
_STRONG_STOP = {"팀", "센터", "본부", "재단", "대학원", "사무실", "행정실", "교무실", "상담소", "연구소", "위원회", "사무국",
                "교육원", "지원단", "사업단", "봉사단", "연구원", "파트", "창구", "데스크"}  # 연구원 alone is a researcher
# an office given with its number and no particle: "청년정책과 02 3150 4471", "보상부 (02) …"
_NUMBER_NEXT = r"\s\(?\+?\d"
# A department ending in 과 is written with a case particle or punctuation after it; "규정과 같이" / "학생과
# 교수" are the conjunction 과.
_GWA_OK_NEXT = re.compile(r"(?:에서|에게|에|로|를|가|장|입니다|이며|이다)(?![가-힣])|[(),.:·\n]|$|" + _NUMBER_NEXT)
_ADDRESSED = r"(?:에서|에게|에|로|으로|의|와|과|는|은|가|이|를|을|장|입니다|이며)(?![가-힣])|[(),.:·\n]|\s*$|" + _NUMBER_NEXT
_ADDRESSED_NEXT = re.compile(_ADDRESSED)
_BU_OK_NEXT = re.compile(
    _ADDRESSED
    # a ministry or agency followed by its own division: "국토교통부 주거복지정책과(…)"
    + r"|\s[가-힣]{1,12}(?:과|팀|국|실|센터|본부|단)(?=[\s(),.:·]|" + _PARTICLE + r"(?![가-힣])|$)")
_EN_DEPT_HEAD = (r"(?:Team|Office|Center|Centre|Department|Division|Committee|Bureau|Unit|Council|Secretariat|Board|"
                 r"Services?|Desk|Helpline|Hotline|Commission|Authority|Agency|Ombudsman|Library|Cell|Panel|Tribunal|"
                 r"Registry|College|School)")
# a capitalised word; a possessive ends the name ("the Graduate School's Appeals Board" names two bodies)
_EN_CAP = r"[A-Z][A-Za-z&\-]*(?:'(?!s\b)[A-Za-z]+)*"
_DEPT_EN = _first(
    "A-Z", r"\b(?:(?:" + _EN_CAP + r"\s+){1,5}" + _EN_DEPT_HEAD + r"(?:\s+(?:of|for)\s+(?:the\s+)?" + _EN_CAP
    + r"(?:\s+(?:and\s+|&\s+)?" + _EN_CAP + r"){0,4})?"
    r"|(?:Office|Department|Division|Center|Centre|Bureau|School|Board|Council|Committee|Faculty|Ministry|Institute)"
    r"\s+(?:of|for|on)\s+(?:the\s+)?" + _EN_CAP
    + r"(?:\s+(?:and\s+|&\s+)?" + _EN_CAP + r"){0,4})(?![A-Za-z])"
)
# A body named without an organisation word is still one when a contact number is given for it: right after it
# ("escalate to AFCA on 1800 931 687", "handled by Payroll Malaysia on +60 …"), or later in the same sentence when
# the name is a brand-like CamelCase word ("ClaimRight NZ can review it on 0800 569 255")
_PHONE_AHEAD = r"(?:\+?\d[\d\s().-]{6,}\d)"
_EN_BODY_BY_CONTACT = re.compile(
    r"(?<![\w@./-])(?P<name>(?:[A-Z][A-Za-z&]*)(?:\s(?:[A-Z][A-Za-z&]*)){0,3})(?=\s(?:on|at)\s" + _PHONE_AHEAD + r")"
    r"|(?<![\w@./-])(?P<brand>[A-Z][a-z]+[A-Z][A-Za-z]+(?:\s[A-Z]{2,4}\b)?)(?=[^.!?\n]{0,80}?(?:\s(?:on|at)\s|\()"
    + _PHONE_AHEAD + r")")
_EN_NOT_BODY = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January", "February",
                "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
                "Tel", "Phone", "Fax", "Mobile", "Freephone", "Hotline", "Us", "Me", "Him", "Her", "Them", "It", "I",
                "We", "You", "They", "He", "She", "If", "Or", "And", "Then", "Alternatively", "Also", "Reception"}
_EN_NOT_NAME = {"The", "This", "That", "These", "Please", "Contact", "Visit", "Ask", "Our", "Your", "A", "An",
                "Call", "Email", "See", "Under", "Per", "Each", "Every", "Any"}
_EN_NOT_LEADING = _EN_NOT_NAME | _EN_NOT_BODY


def dept_key(name: str) -> str:
    """Comparison key of a department name: no spaces, casefolded, no leading 'the', no (주) / 주식회사."""
    name = re.sub(r"\(주\)|㈜|주식회사", "", re.sub(r"^the\s+", "", name.strip(), flags=re.I))
    return re.sub(r"\s+", "", name).casefold()


def _weak_ok(name: str, text: str, end: int) -> bool:
    shortest = 5 if name.endswith("공사") else 3  # 공사 is also construction work (건축공사); 한국도로공사 is a body
    stopped = any(name.endswith(w) for w in _WEAK_STOP_END) and not name.endswith(_WEAK_STOP_EXCEPT)
    if len(name) < shortest or stopped:
        return False
    if name.endswith("과"):
        return bool(_GWA_OK_NEXT.match(text, end))
    if name.endswith(("실", "국")):
        # 실 also ends an honorific verb ("신청하실 수 있습니다", "신청하실 분"): an office is addressed, and is not
        # a ministry that a division name follows
        return bool(_ADDRESSED_NEXT.match(text, end))
    if name.endswith(("부", "청", "공단", "공사")):
        # an insurer's or a ministry's office or an agency (보험금지급심사부, 교육부, 교육청, …공단) is addressed: a
        # particle, a bracket or its number follows ("…심사부로 문의", "…부(02.…)"), not another noun
        return bool(_BU_OK_NEXT.match(text, end))
    return True


_SUFFIX_END = re.compile(f"(?:{_DEPT_STRONG}|{_DEPT_WEAK})$")
_PARTICLES_THEN_END = re.compile(_PARTICLE + r"{0,3}(?![가-힣])")


def _dept_name(text: str, start: int, name: str) -> str | None:
    """The department name starting at `start`: the regex is greedy, so "학술연구지원팀과" (팀 + the particle
    과) first comes out as a 과-name; shorter prefixes that end in a suffix are tried when that one fails."""
    for k in range(len(name), 1, -1):
        cand = name[:k]
        if k < len(name) and not (_SUFFIX_END.search(cand) and _PARTICLES_THEN_END.match(text, start + k)):
            continue
        if cand in _STRONG_STOP:
            return None
        weak = re.search(f"(?:{_DEPT_WEAK})$", cand) and not re.search(f"(?:{_DEPT_STRONG})$", cand)
        if not weak or _weak_ok(cand, text, start + k):
            return cand
    return None


# a company: "(주)누리PG", "코리아크레딧뷰로(주)", "㈜한마음", "주식회사 다온"
_COMPANY_KO = _first("(㈜주가-힣A-Za-z0-9",
                     r"(?:\(주\)|㈜|주식회사\s)\s?[가-힣A-Za-z0-9]{2,20}?"
                     r"(?=(?:에서|에게|으로|에|로|의|와|과|는|은|가|이|를|을|도)?(?![가-힣A-Za-z0-9]))"
                     r"|(?<![가-힣A-Za-z0-9])[가-힣A-Za-z0-9]{2,20}(?:\(주\)|㈜)")


# offices there is one of per town or district: the place before them is part of the name
_PLACE_BOUND = re.compile(r"(?:행정복지센터|주민센터|주민자치센터|보건소|보건지소|고용센터|출장소|사무소)$")
_PLACE_BEFORE = re.compile(r"(?<![가-힣0-9])[가-힣]{1,6}[0-9]{0,2}(?:동|읍|면|리|구|군|시)\s$")


def extract_departments(text: str, known: Iterable[str] = ()) -> list[Entity]:
    """Department / organisation names: Korean by suffix, companies by (주), English by head noun, plus `known`."""
    found = [Entity("department", m.group(0), m.start(), m.end(), dept_key(m.group(0)))
             for m in _COMPANY_KO.finditer(text)]
    companies = _Spans((f.start, f.end) for f in found)
    reach = -1  # the furthest end of a Korean name so far: names come in order, so it alone says "inside one"
    for m in _DEPT_KO.finditer(text):
        name = _dept_name(text, m.start(), m.group(1))
        if name and m.start() >= reach and not companies.overlaps(m.start(), m.start() + 1):
            start = m.start()
            place = _PLACE_BEFORE.search(text, max(0, start - 12), start) if _PLACE_BOUND.search(name) else None
            if place:  # "다솜동 행정복지센터": which one is the name ("가온동 행정복지센터" is another office)
                start, name = place.start(), text[place.start() : start + len(name)]
            found.append(Entity("department", name, start, start + len(name), dept_key(name)))
            reach = start + len(name)
    for m in _DEPT_EN.finditer(text):
        s, words = _trim_leading(text, m.start(), m.end(), m.group(0).split(), _EN_NOT_NAME)
        if len(words) >= 2:
            found.append(Entity("department", text[s : m.end()], s, m.end(), dept_key(text[s : m.end()])))
    # names found by suffix or head word may overlap one another; the ones added below must overlap none
    found.sort(key=lambda x: x.start)
    starts = [f.start for f in found]
    reach_before: list[int] = []  # reach_before[i]: the furthest end among found[: i + 1]
    for f in found:
        reach_before.append(max(f.end, reach_before[-1] if reach_before else -1))
    extra = _Spans()

    def free(s: int, e: int) -> bool:
        i = bisect_left(starts, s)
        return not ((i and reach_before[i - 1] > s) or (i < len(starts) and starts[i] < e) or extra.overlaps(s, e))

    added: list[Entity] = []
    for m in _EN_BODY_BY_CONTACT.finditer(text):  # "AFCA on 1800 …", "ClaimRight NZ can review it on 0800 …"
        group = "name" if m.group("name") else "brand"
        s, words = _trim_leading(text, m.start(group), m.end(group), m.group(group).split(), _EN_NOT_LEADING)
        e = m.end(group)
        if words and not any(w in _EN_NOT_BODY for w in words) and free(s, e):
            added.append(Entity("department", text[s:e], s, e, dept_key(text[s:e])))
            extra.add(s, e)
    for name in known:
        if len(name) < 2:
            continue
        for m in re.finditer(re.escape(name), text):
            if free(m.start(), m.end()):
                added.append(Entity("department", name, m.start(), m.end(), dept_key(name)))
                extra.add(m.start(), m.end())
    found += added
    found.sort(key=lambda x: x.start)
    return found


def _trim_leading(text: str, start: int, end: int, words: list[str], stop: set[str]) -> tuple[int, list[str]]:
    """(start, words) of a name after its leading words in `stop` ("Please Contact the …", "Call Tui Assist")."""
    while words and words[0] in stop:
        start = text.index(words[1], start + len(words[0])) if len(words) > 1 else end
        words = words[1:]
    return start, words


# -- regulation citations --------------------------------------------------------------------------------------

_REG_WORD = "규정|학칙|약관|규칙|세칙|지침|시행세칙|시행규칙|시행령|법|요강|내규|정관|준칙|조례"
_SELF_NAMED = {"학칙", "정관"}
_NOT_NAME_WORDS = {"경우", "따라", "및", "또는", "등", "위", "아래", "다음", "각", "그", "관련", "해당", "이번", "기존"}
_REG_NOT = ("방법", "불법", "용법", "문법", "편법", "기법", "해법", "어법", "화법")
_DEICTIC = r"(?:같은|동|이|본|당|해당|관련)"
# Words of a multi-word regulation name ("장학금 지급 규정") do not end in a particle or verb ending; this keeps
# "휴학은 학칙 제12조" from becoming a regulation called "휴학은 학칙".
_NAME_WORD_END = r"[가-힣](?<![은는이가을를에의로와과도서고며면다요라여해게지나만께시니야데어아든])"
_REG_KO = (
    r"(?P<bracket>[「『][^」』\n]{1,40}[」』])"
    r"|(?P<deictic>" + _DEICTIC + r"\s?(?:" + _REG_WORD + r"))"
    r"|(?P<plain>(?:[가-힣]{1,7}" + _NAME_WORD_END + r"\s){0,3}[가-힣·]*(?:" + _REG_WORD + r"))"
)
# the 목 letters (가목 … 하목): not the range 가-하, which takes 각 ("각 목" is every 목, not one)
MOK_LETTERS = "[가나다라마바사아자차카타파하]"
_ART_KO = (
    r"제\s?(?P<art>\d+)\s?조(?:\s?의\s?(?P<sub>\d+))?"
    r"(?:\s?(?:제\s?)?(?P<para>\d+)\s?항)?(?:\s?(?:제\s?)?(?P<item>\d+)\s?호(?:\s?(?P<mok>" + MOK_LETTERS + r")\s?목)?"
    r"|\s?(?P<pmok>" + MOK_LETTERS + r")\s?목)?"
    r"(?:\([가-힣·\s]{1,20}\))?"
)
# The article is found first, then the regulation name is matched backwards from it (anchored at the article):
# scanning every position for a name is what made one combined pattern slow.
_ART_KO_RX = _first("제", _ART_KO)
_REG_BEFORE = re.compile(r"(?<![가-힣])(?:" + _REG_KO + r")\s?$")
_REG_WINDOW = 60
_ADDENDA_BEFORE = re.compile(r"(?<![가-힣])부칙\s?$")
# "별표 3", "별표 1 제3호": an annexed table, keyed like an English schedule ("Sch3")
_ANNEX_KO = _first("별", r"별표\s?(?P<n>\d+)(?:\s?(?:제\s?)?(?P<item>\d+)\s?호)?")
# units a context supports by naming them anywhere (article key "M<kind>:<code>"; answer/context.py mentions):
# a 약관's chapters (제3관), its 부표, a tariff's bands, coded forms, and European acts the documents cite
_KO_UNIT_END = r"(?=\s|[(),.·」]|$|(?:에서|에|의|은|는|을|를|과|와|부터|까지)(?![가-힣]))"
MENTIONED: dict[str, tuple[re.Pattern[str], str]] = {
    # kind: (how an answer and a context write it, how a context's text shows the code exists)
    "관": (_first("제", r"제\s?(?P<code>\d{1,2})\s?관" + _KO_UNIT_END), r"제\s?{code}\s?관"),
    "부표": (_first("부", r"부표\s?(?P<code>\d{1,2})(?!\d)"), r"부표\s?{code}(?!\d)"),
    "band": (_first("B", r"\bBand\s(?P<code>[A-Z]?\d{1,2})\b"), r"\b{code}\b"),
    "form": (_first("Ff", r"\b[Ff]orm\s(?P<code>[A-Z]{1,4}\d{1,3}[A-Z]?)\b"), r"\b{code}\b"),
    "act": (_first("RD", r"\b(?:Regulation|Directive)\s\((?:EC|EU|EEC)\)\s(?:No\.?\s)?(?P<code>\d{1,4}/\d{2,4})"),
            r"(?<![\d/]){code}(?![\d/])"),
}
# a regulation's forms: "별지 제3호 서식", "별지 제3호서식", "별지 3호"
FORM_KO = _first("별", r"별지\s?(?:제\s?)?(?P<n>\d+)\s?호(?:\s?서식)?")
_BRACKET_NAME = _first("「『", r"[「『][^」』\n]{2,40}[」』]")
_EN_REG = r"(?:[A-Z][A-Za-z'\-]*)(?:\s+(?:(?:and|of|on|for|the)\s+)?(?!Article\b|Art\.|Clause\b)[A-Z][A-Za-z'\-]*){0,6}"
# Lower-case words that end an English document's name ("the BlueWave policy", "the exchange notice") and, alone
# after "the", point at the document under discussion ("Article 7(1) of the notice").
EN_DOC_KINDS = (r"terms|regulations?|policy|policies|rules|agreement|conditions|bylaws|notice|handbook|guidelines?|"
                r"wording|code|charter|statute|contract")
_EN_DOC_WORD = r"(?:terms\s+and\s+conditions|" + EN_DOC_KINDS + ")"
# "Section 6.5" is sub-section 5 of Section 6 (handbooks number their paragraphs 6.1, 6.2 …); sections get their
# own article keys ("§6") so a handbook's Section 11 is never supported by a policy's Article 11.
# "s. 9.4(1)" is a section in statute style; a schedule's items are "Schedule 2, item 7" / "Schedule 1, paragraph 4"
_CITE_EN = _first(
    "「『ACSacs§RrGgEePp", r"(?:(?P<bracket>[「『][^」』\n]{1,40}[」』])\s?)?"
    r"\b(?P<word>[Aa]rticle|Art\.|[Cc]lause|[Ss]ection|Sec\.|§|Policy(?=\s?\d+\.\d)|s\.(?=\s?\d)|[Ss]chedule|Sch\.|[Rr]egulation|Reg\.|"
    r"[Rr]ule|(?:[Gg]eneral\s)?[Cc]ondition|GC(?=\s?\d)|[Ee]xclusion|[Ee]ndorsement|[Pp]ara(?:graph)?\.?(?=\s?\d+\.\d)|Annex|ANNEX|"
    r"Appendix|APPENDIX|Part(?=\s[A-Z]\b)|PART(?=\s[A-Z]\b))\s?"
    r"(?P<art>\d+|(?<=Part\s)[A-Z]\b|(?<=PART\s)[A-Z]\b|(?<=Section\s)[A-Z]\b(?=\s?[–—-]|\s\(|[,.;]|\s+of\b)|"
    r"(?<=Endorsement\s)[IVX]{1,5}\b|(?<=Annex\s)[A-Z]\b|(?<=ANNEX\s)[A-Z]\b|(?<=Appendix\s)[A-Z]\b|(?<=APPENDIX\s)[A-Z]\b|(?<=Article\s)[IVXL]{1,6}\b|(?<=ARTICLE\s)[IVXL]{1,6}\b)"
    r"(?:-(?P<sub>\d+))?(?:\.(?P<dot>\d+)(?:\.(?P<dot2>\d+))?)?"
    r"(?:\s?\((?P<para>\d+)\))?(?:\s?\((?P<item>[a-z]|\d+)\))?(?:\((?P<sub2>\d+|[ivx]{1,4})\))?"
    r"(?:\((?P<sub3>[ivx]{1,4})\))?"
    r"(?:(?<=[\dA-Z]),?\s(?:[Ii]tem|[Pp]aragraph|[Pp]ara\.)\s(?P<sitem>\d{1,2})\b)?"
    r"(?:(?<=[IVXL]),\s?[Ss]ection\s(?P<asec>\d+)(?:\.(?P<asecx>[a-z])\b|\((?P<asecp>[a-z])\))?)?"
    r"(?:\s+of\s+(?:(?P<deictic>(?:these|this|the\s+same)\s+(?i:" + _EN_DOC_WORD + r"))"
    r"|(?P<the_doc>the\s+" + _EN_DOC_WORD + r"\b)"
    r"|(?:the\s+)?(?P<named>「[^」\n]{1,40}」|" + _EN_REG + r"(?:\s+" + _EN_DOC_WORD + r"\b)?)))?"
)


# "같은 조 제5항" / "동조 제2호" / "같은 항 제3호" / "같은 호 다목": a part of the article cited just before it
_SAME_ARTICLE = _first("같동", r"(?:같은\s?|동\s?)(?P<level>조|항|호)\s?(?:(?:제\s?)?(?P<para>\d+)\s?항)?"
                                 r"(?:\s?(?:제\s?)?(?P<item>\d+)\s?호)?(?:\s?(?P<mok>" + MOK_LETTERS + r")\s?목)?(?<=[항호목])")


# "paragraph (d) of clause 9" / "paragraph 2 of Article 8": a part of the citation that follows; "paragraph (g)"
# alone: a part of the citation before it
_EN_PART = _first("pPiIsS", r"\b(?:[Ss]ub-?)?(?:[Pp]aragraph|[Pp]ara\.|[Ii]tem|[Pp]oint)\s?"
                            r"(?:\((?P<x>[a-z]|\d{1,2}|[ivx]{1,4})\)|(?P<n>\d{1,2})\b(?=\s+of\s))(?P<of>\s+of\s+)?")
# "under 9.2.3", "(11.2(a))", "set out in 5.4": a sub-section number without its word, after a citation of the same
# section or regulation; a number with a unit after it is a quantity ("under 3.5 GPA")
_BARE_DOTTED = _first(
    "(uUpPsSiIoObBaAfF", r"(?:\(|\b(?i:under|per|see|in|of|by|and|or|following)\s+)"
    r"(?P<num>(?P<a>\d{1,2})\.(?P<p>\d{1,2})(?:\.(?P<d2>\d{1,2}))?(?P<pts>(?:\((?:[a-z]|\d{1,2}|[ivx]{1,4})\))*))"
    r"(?![\w%]|\.\d|\s*(?:per\s?cent|percent|C?GPA|points?|credits?|hours?|years?|days?|weeks?|months?|km|kg|"
    r"million|billion|thousand|times|m|cm|mm|ml|litres?|liters?|metres?|meters?|GB|MB)\b)")
_DOTTED_WINDOW = 400
_CODED = _first("(uUpPsS", r"(?:\(|\b(?i:under|per|see)\s+)(?P<code>(?P<letter>[A-H])(?P<n>[1-9]\d?)"
                            r"(?P<pts>(?:\([a-z]\))*))(?=[\s).,;:]|$)")
_SECTION_LIKE = re.compile(r"[1-9]\d?\.[1-9]\d?\b")  # 4.2, 12.10; not 0.66, 41.0, 3.05
# "breaches 5.1(c)": a sub-section with lettered points is a citation wherever it stands
_POINTED = _first("0123456789", r"(?<![\w.$€£₹/-])(?P<num>(?P<a>\d{1,2})\.(?P<p>\d{1,2})(?:\.(?P<d2>\d{1,2}))?"
                                r"(?P<pts>(?:\((?:[a-z]|[ivx]{1,4})\))+))(?![\w(])")
# "제1항 제5호" with no article before it (in Korean drafting, the article under discussion)
_BARE_HANG = _first("제", r"(?<![가-힣\d])제\s?(?P<para>\d{1,2})\s?항(?:\s?제\s?(?P<item>\d{1,2})\s?호)?"
                         r"(?:\s?(?P<mok>[가나다라마바사아자차카타파하])\s?목)?")
# "라목" alone after "같은 호 나목": a 목 of the item cited before it (the list of 목 letters, not the range 가-하,
# which would take 항목, 과목, 품목)
_BARE_MOK = _first("가나다라마바사아자차카타파하",
                   r"(?<![가-힣\d])(?P<mok>[가나다라마바사아자차카타파하])\s?목(?=(?:의|에서|에|은|는|이|도|과|와|을|를|까지|및)?(?![가-힣]))")


_NOT_ARTICLES = ("Sch", "GC", "Exc", "Anx", "Apx", "End", "Prt", "Frm")  # keys of annexes and lists: "같은 조" never points at them
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50}


def roman_to_int(s: str) -> int:
    """'VII' → 7, 'IX' → 9."""
    total = 0
    for a, b in zip(s, [*s[1:], ""], strict=True):
        v = _ROMAN_VALUES[a]
        total += -v if b and _ROMAN_VALUES[b] > v else v
    return total


def reg_key(name: str) -> str:
    """Comparison key of a regulation name: no brackets, spaces or middle dots, casefolded."""
    return re.sub(r"[\s「」『』·ㆍ\"'“”]", "", name).casefold()


# (pattern, key) in order of precedence: the first kind of unit named in the string decides
_ARTICLE_KEYS: list[tuple[re.Pattern, Callable[[re.Match], str]]] = [
    (re.compile(r"(?:\b[Ss]ection|\bSECTION|\bSec\.|\b[Cc]lause|\bCLAUSE|§|(?<![A-Za-z])s\.|\b[Pp]ara(?:graph)?\.?|"
                r"\bPolicy(?=\s?\d+(?:\.\d|$|,)))\s?(\d+)"),
     lambda m: f"§{int(m.group(1))}"),
    (re.compile(r"\b(?:Article|ARTICLE)\s+([IVXL]{1,6})\b"), lambda m: str(roman_to_int(m.group(1)))),
    (re.compile(r"\b[Ee]ndorsements?\s?(\d+)"), lambda m: f"End{int(m.group(1))}"),
    (re.compile(r"\bEndorsements?\s([IVX]{1,5})\b"), lambda m: f"End{roman_to_int(m.group(1))}"),
    # a policy's lettered sections are its parts: "Section C – Benefits" (before the numbered-section key)
    (re.compile(r"\b(?:Section|SECTION)\s([A-Z])\b(?![.\d])"), lambda m: "Prt" + m.group(1)),
    (re.compile(r"\b(?:Annex|ANNEX)\s?([A-Z0-9])\b"), lambda m: "Anx" + m.group(1)),
    (re.compile(r"\b(?:Appendix|APPENDIX)\s?([A-Z0-9])\b"), lambda m: "Apx" + m.group(1)),
    # a policy wording's lettered parts: "Part B — What we cover"; numbered parts ("Part 2") stay sections
    (re.compile(r"\b(?:Part|PART)\s([A-Z])\b"), lambda m: "Prt" + m.group(1)),
    (re.compile(r"\bGC(?=\s?\d)"), lambda m: "GC"),
    (re.compile(r"별지\s?(?:제\s?)?(\d+)\s?호"), lambda m: f"Frm{int(m.group(1))}"),
    (re.compile(r"\b(?:[Ss]chedule|SCHEDULE|Sch\.)\s?(\d+)|별표\s?(\d+)"),
     lambda m: f"Sch{int(m.group(1) or m.group(2))}"),
    (re.compile(r"\b(?:[Rr]egulation|REGULATION|Reg\.|[Rr]ule|RULE)\s?(\d+)"), lambda m: f"R{int(m.group(1))}"),
    # a policy's general conditions / exclusions: one numbered list each
    (re.compile(r"\b(?:(?:[Gg]eneral\s)?([Cc])ondition|[Ee]xclusion)s?\b"), lambda m: "GC" if m.group(1) else "Exc"),
    (re.compile(r"^\s*부칙(?:.*?(\d+)\s?조(?:\s?의\s?(\d+))?)?"),
     lambda m: "부칙" + (m.group(1) + (f"-{m.group(2)}" if m.group(2) else "") if m.group(1) else "")),
    (re.compile(r"(\d+)\s?조(?:\s?의\s?(\d+))?"), lambda m: m.group(1) + (f"-{m.group(2)}" if m.group(2) else "")),
    (re.compile(r"(\d+)(?:-(\d+))?"), lambda m: m.group(1) + (f"-{m.group(2)}" if m.group(2) else "")),
]


def article_key(article: str) -> str:
    """'제12조의2' / 'Article 12' / '12-2' → '12-2' / '12'; 'Section 6' / 'Clause 6' → '§6'; 'Schedule 2' / '별표 2' →
    'Sch2'; 'Regulation 4' / 'Rule 4' → 'R4'; 'General Conditions' → 'GC', 'Exclusions' → 'Exc'; '부칙 제2조' → '부칙2'."""
    for rx, key in _ARTICLE_KEYS:
        m = rx.search(article)
        if m:
            return key(m)
    return ""


def _ko_regulation_before(text: str, s: int) -> tuple[str | None, str, int]:
    """(regulation, how it is named, start) of the name written before a Korean citation starting at `s`."""
    reg, ref = None, "bare"
    r = _REG_BEFORE.search(text, max(0, s - _REG_WINDOW), s)
    if r is None:
        pass
    elif r.group("bracket"):
        reg, ref, s = r.group("bracket")[1:-1].strip(), "named", r.start()
    elif r.group("deictic"):
        word = r.group("deictic")
        ref = "same" if re.match(r"(?:같은|동|해당)", word) else "this"
        reg, s = word, r.start()
    elif r.group("plain"):
        plain = r.group("plain")
        if not (plain.endswith(_REG_NOT) or len(plain) < 2):  # "신청 방법 제3조": not a regulation name
            s = r.start()
            words = plain.split()
            # "학칙" names itself: "… 경우 학칙 제13조" is not a regulation called "경우 학칙"
            while len(words) > 1 and (words[-1] in _SELF_NAMED or words[0] in _NOT_NAME_WORDS):
                s += len(words[0]) + 1
                words = words[1:]
            plain = " ".join(words)
            if plain not in _SELF_NAMED and re.fullmatch(f"(?:{_REG_WORD})", plain):
                reg, ref = plain, "this"  # "규정 제3조": the regulation under discussion
            else:
                reg, ref = plain, "named"
    return reg, ref, s


def extract_citations(text: str) -> list[Entity]:
    """Regulation citations as (regulation, article, paragraph, item) with how the regulation was named."""
    out: list[Entity] = []
    for m in _ART_KO_RX.finditer(text):
        s = m.start()
        addenda = _ADDENDA_BEFORE.search(text, max(0, s - 6), s)  # "부칙 제3조": an article of the addenda
        if addenda:
            s = addenda.start()
        reg, ref, s = _ko_regulation_before(text, s)
        art = ("부칙" if addenda else "") + m.group("art") + (f"-{m.group('sub')}" if m.group("sub") else "")
        para = int(m.group("para")) if m.group("para") else None
        # a 목 right under a 항 ("제5조 제2항 라목") is keyed with an empty 호: "-라"
        item = f"-{m.group('pmok')}" if m.group("pmok") and para else _item_key(m.group("item"), m.group("mok"))
        out.append(_citation(text, s, m.end(), reg, ref, art, para, item))
    for kind, (rx, _) in MENTIONED.items():
        for m in rx.finditer(text):
            out.append(_citation(text, m.start(), m.end(), None, "bare", f"M{kind}:{m.group('code')}", None, None))
    for m in FORM_KO.finditer(text):
        reg, ref, s = _ko_regulation_before(text, m.start())
        out.append(_citation(text, s, m.end(), reg, ref, f"Frm{int(m.group('n'))}", None, None))
    for m in _ANNEX_KO.finditer(text):
        reg, ref, s = _ko_regulation_before(text, m.start())
        art, item = f"Sch{m.group('n')}", m.group("item")
        out.append(_citation(text, s, m.end(), reg, ref, art, None, item))
    for m in _CITE_EN.finditer(text):
        reg, ref = None, "bare"
        if m.group("bracket"):
            reg, ref = m.group("bracket")[1:-1].strip(), "named"
        elif m.group("deictic") or m.group("the_doc"):
            word = m.group("deictic") or m.group("the_doc")
            reg, ref = word, ("same" if "same" in word else "this")
        elif m.group("named"):
            reg, ref = m.group("named").strip("「」"), "named"
        # sections and clauses get their own keys ("§6"; article_key), articles the bare number
        art = article_key(f"{m.group('word')} {m.group('art')}") + (f"-{m.group('sub')}" if m.group("sub") else "")
        if art in ("GC", "Exc"):  # "General Condition 5": item 5 of the policy's general conditions
            out.append(_citation(text, m.start(), m.end(), None, "bare", art, None, m.group("art")))
            continue
        if m.group("asec"):  # "Article VII, Section 2.c": the article's section 2, its point c
            x = m.group("asecx") or m.group("asecp")
            out.append(_citation(text, m.start(), m.end(), reg, ref, art, int(m.group("asec")), x))
            continue
        # "Section 6.5" / "Article 3.2": the number after the dot is the paragraph, as "(2)" would be; the
        # bracketed levels after it are the item and its sub-item ("Section 3.2(b)(3)" → item "b-3")
        levels = [x for x in (m.group("para"), m.group("item"), m.group("sub2"), m.group("sub3")) if x]
        if m.group("dot"):
            para = int(m.group("dot"))
        else:
            para = int(levels.pop(0)) if m.group("para") else None
        if m.group("dot2"):  # "9.2.6": a sub-sub-section, keyed ".6" apart from a point "(6)"
            levels.insert(0, "." + m.group("dot2"))
        item = "-".join(levels) or m.group("sitem")
        out.append(_citation(text, m.start(), m.end(), reg, ref, art, para, item))
    # "같은 조 제5항" / "동조 제2호": a paragraph or item of the article cited just before it
    found = _Found(out)
    for m in _SAME_ARTICLE.finditer(text):
        prev = found.previous(m.start(), skip=_NOT_ARTICLES)
        level = m.group("level")
        if prev is None or (level != "조" and not (m.group("para") or m.group("item") or m.group("mok"))):
            continue  # "같은 호" alone, or "동호회": nothing cited
        para = int(m.group("para")) if m.group("para") else prev.paragraph
        if level == "호":  # 같은 호 다목: the item cited before, its 목
            item = _item_key((prev.item or "").partition("-")[0] or None, m.group("mok"))
        else:
            item = _item_key(m.group("item"), m.group("mok"))
        found.add(_citation(text, m.start(), m.end(), prev.regulation, prev.ref, prev.article or "", para, item))
    _add_parts(text, found)
    # a regulation named in 「」 without an article: "「교원 연구년 운영 지침」을 참고하세요"
    for m in _BRACKET_NAME.finditer(text):
        if not found.inside(m.start()):
            name = m.group(0)[1:-1].strip()
            out.append(Entity("citation", m.group(0), m.start(), m.end(), _cite_norm(name, "", None, None),
                              regulation=name, ref="named"))
    out.sort(key=lambda x: x.start)
    return out


class _Found:
    """The citations found so far, by position: "is this position inside one?" and "which ends last before
    here?" are bisections, not scans of every citation (a looping answer can cite thousands of times)."""

    def __init__(self, out: list[Entity]) -> None:
        self.out = out
        self.by_start = sorted(out, key=lambda c: c.start)
        self.by_end = sorted((c for c in out if c.article), key=lambda c: c.end)
        self.longest = max((c.end - c.start for c in out), default=0)

    def add(self, c: Entity) -> None:
        self.out.append(c)
        insort(self.by_start, c, key=lambda x: x.start)
        if c.article:
            insort(self.by_end, c, key=lambda x: x.end)
        self.longest = max(self.longest, c.end - c.start)

    def remove(self, c: Entity) -> None:
        self.out.remove(c)
        self.by_start = [x for x in self.by_start if x is not c]
        self.by_end = [x for x in self.by_end if x is not c]

    def inside(self, pos: int) -> bool:
        lo = bisect_left(self.by_start, pos - self.longest, key=lambda c: c.start)
        hi = bisect_right(self.by_start, pos, key=lambda c: c.start)
        return any(c.end > pos for c in self.by_start[lo:hi])

    def starting_at(self, pos: int) -> Entity | None:
        """The first citation with an article that starts at `pos`."""
        lo = bisect_left(self.by_start, pos, key=lambda c: c.start)
        hi = bisect_right(self.by_start, pos, key=lambda c: c.start)
        return next((c for c in self.by_start[lo:hi] if c.article), None)

    def ending_in(self, lo: int, hi: int) -> list[Entity]:
        """Citations with an article that end in (lo, hi], in order of their ends."""
        return self.by_end[bisect_right(self.by_end, lo, key=lambda c: c.end) : bisect_right(self.by_end, hi,
                                                                                              key=lambda c: c.end)]

    def previous(self, pos: int, skip: tuple[str, ...] = ()) -> Entity | None:
        """The citation with an article (not one whose key starts with `skip`) that ends last at or before `pos`."""
        for j in range(bisect_right(self.by_end, pos, key=lambda c: c.end) - 1, -1, -1):
            if not skip or not self.by_end[j].article.startswith(skip):
                return self.by_end[j]
        return None


def _add_parts(text: str, found: _Found) -> None:
    """Bare parts of a citation: English "paragraph (g)" / "paragraph (d) of clause 9" and a Korean "라목" alone."""
    inside, previous = found.inside, found.previous

    for m in _EN_PART.finditer(text):
        if inside(m.start()):
            continue
        x = m.group("x") or m.group("n")
        para: int | None
        item: str | None
        if m.group("of"):
            target = found.starting_at(m.end())
            if target is None or target.item:
                continue
            found.remove(target)
            start, end = m.start(), target.end
            if x.isdigit() and target.paragraph is None and not target.article.startswith(("Sch", "Anx", "Apx")):
                para, item = int(x), None  # "paragraph 2 of Article 8"
            else:
                para, item = target.paragraph, x
        else:
            target = previous(m.start())
            if target is None:
                continue
            start, end, para = m.start(), m.end(), target.paragraph
            head = (target.item or "").partition("-")[0]
            # a letter is a sibling of the point cited before ("paragraph (g)" after "(d)"); a number or a roman
            # numeral under a lettered point is its sub-item
            item = f"{head}-{x}" if re.fullmatch(r"[a-z]", head) and not re.fullmatch(r"[a-z]", x) else x
        found.add(_citation(text, start, end, target.regulation, target.ref, target.article or "", para, item))
    for m in _BARE_DOTTED.finditer(text):
        s, e = m.span("num")
        if inside(s):
            continue
        item = _dotted_item(m)
        family = [c for c in found.ending_in(s - _DOTTED_WINDOW, s) if c.article[:1] in "§R"]
        if not family:
            # no section cited before it: only a citation-shaped number, "(6.1)" or "under 6.3", is one ("loose":
            # checked only against contexts that number their sections)
            # "평균(41.0)", "(0.66)" are values: a citation's "(" follows a space, and no part of it is 0 or 0x
            closed = (text[m.start()] == "(" and text[e : e + 1] == ")"
                      and (m.start() == 0 or text[m.start() - 1].isspace()))
            if (closed or m.group(0)[:5].lower() == "under") and _SECTION_LIKE.match(m.group("num")):
                found.add(_citation(text, s, e, None, "loose", "§" + m.group("a"), int(m.group("p")), item))
            continue
        same = [c for c in family if c.article[1:] == m.group("a")]
        target = max(same or family, key=lambda c: c.end)
        art = target.article[0] + m.group("a")
        found.add(_citation(text, s, e, target.regulation, target.ref, art, int(m.group("p")), item))
    for m in _CODED.finditer(text):  # "(C3)", "under D1": an item a policy wording codes by letter and number
        s, e = m.span("code")
        if not inside(s):
            found.add(_citation(text, s, e, None, "loose", "Pt" + m.group("letter"), int(m.group("n")),
                                 _dotted_item(m)))
    for m in _POINTED.finditer(text):
        s, e = m.span("num")
        if not inside(s) and _SECTION_LIKE.match(m.group("num")):
            found.add(_citation(text, s, e, None, "loose", "§" + m.group("a"), int(m.group("p")), _dotted_item(m)))
    for m in _BARE_HANG.finditer(text):  # "제1항 제5호" alone: a paragraph of the article cited before it
        target = previous(m.start())
        # only after an article cited in the same sentence: in a quoted statute a bare 제7항 is its own article's
        if (inside(m.start()) or target is None or not target.article[:1].isdigit()
                or re.search(r"[.!?。\n①-⑳]", text[target.end : m.start()])):  # ② opens another paragraph
            continue
        found.add(_citation(text, m.start(), m.end(), target.regulation, target.ref, target.article,
                             int(m.group("para")), _item_key(m.group("item"), m.group("mok"))))
    for m in _BARE_MOK.finditer(text):
        target = previous(m.start())
        if inside(m.start()) or target is None or not (target.item or target.paragraph):
            continue
        head = (target.item or "").partition("-")[0]
        item = f"{head}-{m.group('mok')}"
        found.add(_citation(text, m.start(), m.end(), target.regulation, target.ref, target.article or "",
                             target.paragraph, item))


def _dotted_item(m: re.Match[str]) -> str | None:
    """The item key of "9.2.6(b)(iii)": a third number ".6", then the bracketed points ("b", "iii"), dash-joined."""
    d2 = m.groupdict().get("d2")
    return "-".join(([f".{d2}"] if d2 else []) + re.findall(r"\(([^)]+)\)", m.group("pts"))) or None


def _citation(text: str, start: int, end: int, reg: str | None, ref: str, art: str, para: int | None,
              item: str | None) -> Entity:
    """A citation entity over text[start:end], keyed by (regulation, article, paragraph, item)."""
    return Entity("citation", text[start:end], start, end, _cite_norm(reg, art, para, item), regulation=reg, ref=ref,
                  article=art, paragraph=para, item=item)


def _item_key(item: str | None, mok: str | None) -> str | None:
    """A 호 and its 목 as one key: 제2호 나목 → "2-나" (a 목 without its 호 cannot be checked)."""
    if not item:
        return None
    return f"{item}-{mok}" if mok else item


def _cite_norm(reg: str | None, art: str, para: int | None, item: str | None) -> str:
    return f"{reg_key(reg) if reg else '-'}|{art}|{para or '-'}|{item or '-'}"


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
    taken = _Spans((c.start, c.end) for c in contacts)
    nums = [n for n in extract_numbers(text) if not taken.overlaps(n.start, n.end)]
    ents = contacts + extract_departments(text, known_departments) + extract_citations(text) + nums
    return sorted(ents, key=lambda x: x.start)
