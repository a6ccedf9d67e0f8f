"""Contacts in answers and contexts: phones (domestic, representative, short public, international, extensions), faxes,
e-mails, URLs and street addresses, each keyed for comparison (phones by digits, addresses by road and number)."""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum

from geunkeo.text.entity_base import Entity, Spans, first_char_regex

_SEP = r"[-.\s]?"
# +82 2 123 4567, +82-(0)2-…, +82 10 1234 5678
_PHONE_INTL = first_char_regex("+", r"(?<![\dA-Za-z+])\+82[-.\s]?(?:\(0\)\s?)?0?\d{1,2}[-.\s)]?\d{3,4}[-.\s]?\d{4}(?!\d)")
# 02-123-4567, (02) 123-4567, 041) 660-2900, 031.1234.5678, 010 1234 5678, 0212345678, 0505-123-4567
_PHONE_KR = re.compile(
    r"(?<![\dA-Za-z+\-.])(?:\(0(?:50\d|\d{1,2})\)|0(?:50\d|\d{1,2})\)?)" + _SEP + r"\s?\d{3,4}" + _SEP + r"\d{4}(?![\dA-Za-z])"
)
# 1588-1234 and the other national representative numbers (15xx, 16xx, 18xx)
_PHONE_REP = first_char_regex("1", r"(?<![\dA-Za-z\-.])1(?:5[4-9]\d|6\d\d|8\d\d)[-.\s]?\d{4}(?![\dA-Za-z])")
# placeholders the seed system produced: 02-XXXX-XXXX, 0X-XXX-XXXX, 02-123-XXXX, 02-○○○-○○○○, 1588-XXXX
_PH = r"[\dXx*○●□]"
_PHONE_FAKE = first_char_regex(
    "0Xx(1내교", r"(?<![\dA-Za-z\-.])(?:(?:0[\dXx]{1,2}|[Xx]{2,3}|\(0\d{1,2}\))[-.\s]" + _PH + r"{3,4}[-.\s]" + _PH + r"{4}"
    r"|1[5-8]\d\d[-.\s][Xx*○●□]{4}|(?:내선|교내)\s?[Xx*○●□]{3,5})(?![\dA-Za-z])"
)
# other countries' numbers in English answers: +1-800-555-0199, (800) 555-0199, 1800-555-0199, +44 20 7946 0958
_PHONE_OTHER = first_char_regex(
    "+(0-9", r"(?<![\dA-Za-z\-.])(?:\+(?!82)\d{1,3}[-.\s]?\(?\d{1,4}\)?(?:[-.\s]?\d{2,4}){2,3}"
    r"|(?:1[-.\s]?)?\(?[2-9]\d{2}\)?[-.\s]\d{3}[-.\s]\d{4}"
    r"|0\d{3,4}[\s-]\d{3}[\s-]?\d{3,4}"  # 0113 496 0721, 0808 157 0192, 07700 900461
    r"|1[38]00[\s-]?\d{3}[\s-]?\d{3})(?![\dA-Za-z])"  # Australia's 1800 415 902 / 1300 …
)
# countries whose numbers drop a domestic trunk 0 after the country code: +44 (0)161 … is 0161 … at home
_TRUNK_ZERO = re.compile(r"^\+(82|44|33|49|61|64|81|86|852|886|353)")
# extensions: 내선 1234, (교내 2345), ext. 1234
_PHONE_EXT = first_char_regex("내교eE", r"(?:내선|교내)\s?(?:번호\s?)?\d{3,5}(?!\d)|(?i:ext\.?|extension)\s?\d{2,5}(?!\d)")
# a further extension listed after one: "내선 5821 또는 5822", "ext. 36 or 37", "내선 6617, 6618"
_EXT_NEXT = re.compile(r"(?:\s?[,/]\s?|\s(?:또는|혹은|및|or|and)\s)(?P<n>\d{2,5})(?!\d|[-.,:]\d|\s?(?:%|원|명|일|시|분|개|호|층))")
# Korea's short public numbers, a phone only where the text says so: "국번없이 1357", "☎ 120", "분쟁상담센터(1355)",
# "1346번으로"; a bare 13xx may be a year or an amount
_PHONE_SHORT = first_char_regex("국☎(1센재상", r"(?:국번\s?없이|☎)\s?(?P<a>1\d{2,3})(?![\d\-.,])|(?<=[가-힣])\((?P<b>13\d{2})\)"
                          r"|(?<![\d\-.,])(?P<c>13\d{2})번(?!지|째)"
                          # a call centre's number after or before its name: "누리콜센터 186으로", "147 솔바람콜재단"
                          r"|(?:센터|재단|상담소)\s?(?P<d>1\d{2,3})(?=으로|로|에|번|[\s,)]|$)"
                          r"|(?<![\d\-.,:~])(?P<e>1\d{2})\s(?=[가-힣]{0,10}(?:콜센터|콜재단|상담센터|신고센터))"
                          r"|(?<![\d\-.,:~])(?P<f>1[1-9]\d)(?=번?(?:에|으로|로)\s?(?:먼저\s?)?(?:신고|전화|연락))")


class ContactForm(StrEnum):
    """The forms of contact told apart by the prefix of their `Entity.norm` (no prefix is the start of another);
    `contact_form` reads it back."""

    SHORT_PHONE = "short"  # a short public number ("국번없이 1357")
    POSTCODE = "zip"  # a Korean postcode ("우편번호 04417")
    ROOM = "room"  # a floor or room ("미리내관 4층 317호", "Room 317")
    EXTENSION = "ext"  # an extension ("내선 5821", "ext. 36")


SHORT_PHONE = ContactForm.SHORT_PHONE.value
POSTCODE = ContactForm.POSTCODE.value
ROOM = ContactForm.ROOM.value
EXTENSION = ContactForm.EXTENSION.value


def contact_form(e: Entity) -> ContactForm | None:
    """The form whose prefix `e.norm` starts with, None for a whole number, e-mail, site or street. Read from the
    prefix alone, whatever the entity's kind (as every check of it has been)."""
    return next((form for form in ContactForm if e.norm.startswith(form.value)), None)


# where in a building: a floor with its building or its room ("미리내관 4층 317호", "청솔빌딩 7층", "5층 405호"),
# or an English "Room 4.21"; a floor alone ("3층 이상") is not a place
_FLOOR_HINT = first_char_regex("0-9", r"\d{1,2}\s?층")  # where a floor can be: the full pattern is searched around it
_ROOM_KO = re.compile(
    r"(?<![가-힣A-Za-z\d])(?:(?P<bldg>[가-힣A-Za-z\d]{1,10}(?:관|동|본부|빌딩|회관|센터|타워|홀|청사))\s?)?"
    r"(?:지하\s?)?(?P<floor>\d{1,2})\s?층(?:\s?(?P<room>\d{1,4})\s?호(?:실)?"
    # or the office on that floor: "3층 열람실", "2층 장학상담팀" (the office alone is checked as a department)
    r"|\s?(?P<office>[가-힣]{0,10}(?:민원실|행정실|사무실|상담실|창구|플라자|데스크|라운지)|[가-힣]{1,10}(?:센터|팀|과))"
    r"(?=[^가-힣]|$|(?:에서|에게|에|의|으로|로|은|는|을|를|이|가|도|과|와)(?![가-힣])))?")
_ROOM_EN = first_char_regex("RLF", r"\b(?:Room|Level|Floor)\s(?P<room>(?:[A-Z]\.?)?\d{1,4}(?:\.\d{1,3})?[A-Z]?)\b")
# a room by its number alone ("같은 층 815호 상담창구", "318호실에서"), not a 호 of an article or a notice ("제815호"),
# and only next to a word of a building ("공공임대 3,400호" counts homes)
_ROOM_BARE_KO = first_char_regex("0-9", r"(?<![\d\-,.가-힣])(?<!제\s)\d{3,4}\s?호(?:실)?"
                                        r"(?=[\s,.)\]]|$|(?:에서|에|의|으로|로|는|은|를|을|이|가|도|와|과|까지|부터)(?![가-힣]))")
# an English floor by its ordinal ("on the 6th floor", "the ground floor")
_ROOM_PLACE = re.compile(r"층|관|동|빌딩|센터|회관|타워|건물|청사|창구|사무실|방문|Hall|Building|Cent(?:er|re)|House|Tower")
# "Building E2", "Wing 5": a campus building by its code
_BUILDING_EN = first_char_regex("BW", r"\b(?:Building|Block|Wing)\s(?P<code>[A-Z]?\d{1,3}[A-Z]?)\b")
# a UK or Australian postcode with the town (and building) before it: "Kestrel House, Leeds LS2 7HQ", where no
# street line carries it (_ADDRESS_EN takes those whole)
_POSTCODE_EN = first_char_regex("A-Z", r"\b(?:(?:[A-Z][a-z]+\s){1,3}(?:Tower|House|Court|Building|Centre|Center|Plaza|Hall|"
                                      r"Chambers|Square),\s)?(?:[A-Z][a-z]+\s)?(?P<zip>[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2})\b")
_FLOOR_EN = first_char_regex("0-9gG", r"\b(?:\d{1,2}(?:st|nd|rd|th)|[Gg]round)\s[Ff]loor\b")
# street addresses, keyed by road and number: "누리빛구 별빛로 27" (a 시·군·구 before the road, so "…로 150"
# in running text is not one; the building and floor after it are checked on their own, _ROOM_KO), "27 Orchard Lane",
# "PO Box 5264", "GPO Box 2871"
_ROAD_NUMBER = first_char_regex("로길", r"(?:로|길)\s?\d")  # where an address can be: searched around these only
_ADDRESS_KO = re.compile(
    r"(?<![가-힣])(?:[가-힣]{2,8}(?:특별시|광역시|특별자치시|특별자치도|도)\s)?(?:[가-힣]{1,8}(?:시|군|구)\s){1,2}"
    r"(?P<road>[가-힣\d]{1,12}(?:대로|로|길))\s?(?P<num>\d{1,4}(?:-\d{1,4})?)(?![\d%]|[.,]\d)")
_POSTCODE_KO = first_char_regex("우(", r"(?:우편번호(?:는|은)?|\(우\)|우\)|(?<=\()우(?=\s\d))\s?:?\s?(?P<zip>\d{5})(?!\d)")
_STREET_TYPES = {"St": "Street", "Rd": "Road", "Ave": "Avenue", "Ln": "Lane", "Dr": "Drive", "Pl": "Place",
                 "Sq": "Square", "Blvd": "Boulevard", "Tce": "Terrace"}
# the town and postcode after the street or box go with it: ", York YO1 6GA", ", Perth WA 6000"
_TOWN_POSTCODE = (r"(?:,\s(?:[A-Z][a-z]+\s){0,2}[A-Z][a-z]+(?:-(?:gu|si|gun|dong|eup|myeon))?)?"
                  r"(?:,?\s(?:[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}|(?:NSW|VIC|QLD|SA|WA|TAS|ACT|NT)\s\d{4}))?")
_ADDRESS_EN = first_char_regex(
    "GP0-9", r"\b(?:(?:G\.?P\.?O\.?|P\.?O\.?)\s?Box\s(?P<box>\d{1,6})"
    r"|(?P<street>\d{1,5}\s(?:[A-Z][a-z]+\s){1,3}(?P<type>" + "|".join([*_STREET_TYPES.values(), *_STREET_TYPES])
    + r"))"
    # a Korean road written in English: "55 Sollim-ro", "31 Eunbit-ro", "40 Dasom-daero 7-gil"
    r"|(?P<kroad>\d{1,4}(?:-\d{1,3})?\s[A-Z][a-z]+(?:-[a-z]+)?-(?:ro|gil|daero)(?:\s\d{1,3}(?:beon)?-gil)?))\b"
    + _TOWN_POSTCODE + r"(?![A-Za-z\d])")


def _near_hints(text: str, hint: re.Pattern[str], full: re.Pattern[str], before: int, after: int,
                accept: Callable[[re.Match[str], re.Match[str]], bool]) -> list[re.Match[str]]:
    """Matches of `full` searched only in a window around each match of the cheap `hint` ("…로 12", "3층"): the
    full patterns would be tried at every Hangul character. `accept(match, hint)` says whether a match is the
    one the hint announced."""
    out: list[re.Match[str]] = []
    for h in hint.finditer(text):
        if out and h.start() < out[-1].end():
            continue
        for m in full.finditer(text, max(0, h.start() - before), min(len(text), h.end() + after)):
            if accept(m, h):
                out.append(m)
                break
    return out


def _korean_addresses(text: str) -> list[re.Match[str]]:
    """Korean street addresses ("누리빛구 별빛로 27")."""
    return _near_hints(text, _ROAD_NUMBER, _ADDRESS_KO, 40, 40,
                       lambda m, h: m.start("road") <= h.start() < m.end("road"))


def _rooms(text: str) -> list[re.Match[str]]:
    """Floors with their building or room ("미리내관 4층 317호", "청솔빌딩 7층")."""
    return _near_hints(text, _FLOOR_HINT, _ROOM_KO, 16, 10,
                       lambda m, h: m.start("floor") == h.start()
                       and bool(m.group("bldg") or m.group("room") or m.group("office")))


def room_alternatives(text: str) -> list[tuple[str, ...]]:
    """Other keys a room or floor is supported by, each as the parts one context must hold in order (compact,
    casefolded). A room or floor across languages, by its number: "Room 317" is 317호, "1st floor" / "Level 1" is
    1층, "Linden Hall 317호" is Room 317. A Korean floor with both its building and its office: the building's floor
    ("미리내관3층") or the office's floor ("3층장학상담팀"); with its building and room ("B동 2층 317호"): both
    held in one context ("B동 2층 교학실(317호)"). A floor alone never."""
    if text.isascii():
        room = re.fullmatch(r"Room\s(\d{1,4})", text)
        level = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)\s[Ff]loor|(?:Level|Floor)\s(\d{1,2})", text)
        if room:
            return [(room.group(1) + "호",)]
        return [((level.group(1) or level.group(2)) + "층",)] if level else []
    out: list[tuple[str, ...]] = []
    m = _ROOM_KO.fullmatch(text)
    if m and m.group("bldg"):
        floor = m.group("floor") + "층"
        if m.group("office"):
            out += [(m.group("bldg") + floor,), (floor + m.group("office"),)]
        elif m.group("room"):
            out.append(((m.group("bldg") + floor).casefold(), f"{m.group('room')}호"))
    number = re.search(r"(\d{2,4})호", text)
    return out + [(f"room{number.group(1)}",)] if number else out


def room_without_office(text: str) -> str | None:
    """"청솔관 4층 입학홍보팀" → "청솔관 4층": what goes when the floor is invented (the office is checked, and
    kept, on its own); None when no office follows the floor."""
    m = _ROOM_KO.fullmatch(text)
    return text[: m.end("floor") + 1] if m and m.group("office") else None


def address_key(text: str) -> str:
    """Road and number ("별빛로27"), the box ("box5264") or the street line ("27orchardlane")."""
    m = _ADDRESS_KO.search(text)
    if m:
        return m.group("road") + m.group("num")
    m = _ADDRESS_EN.search(text)
    if m and m.group("box"):
        return "box" + m.group("box")
    if m and m.group("kroad"):
        return re.sub(r"\s", "", m.group("kroad")).casefold()
    if m:  # "8 Willow St" is "8 Willow Street"
        street = m.group("street")[: m.start("type") - m.start("street")] + _STREET_TYPES.get(m.group("type"), m.group("type"))
        return re.sub(r"\s", "", street).casefold()
    return re.sub(r"\s", "", text).casefold()


_FAX_LABEL = re.compile(r"(?:팩스|fax|f\.|facsimile)\s*(?:번호|no\.?|number)?\s*[:：)]?\s*\(?\s*$", re.I)
_EMAIL = re.compile(r"(?<![A-Za-z0-9.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_URL_CHARS = r"[^\s\x00<>()\[\]{}\"'「」가-힣,]"
_URL = first_char_regex(
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




def extract_contacts(text: str) -> list[Entity]:
    """Phones, faxes, e-mails, URLs and street addresses in `text`, in order, without overlaps."""
    found: list[Entity] = []
    taken = Spans()

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
                key = EXTENSION + key
            elif not fake and not 8 <= len(key) <= (13 if rx is _PHONE_OTHER else 11):
                continue
            kind = "fax" if _FAX_LABEL.search(text[max(0, s - 14) : s]) else "phone"
            found.append(Entity(kind, v, s, e, "" if fake else key, placeholder=fake))
            taken.add(s, e)
            while rx is _PHONE_EXT and (nxt := _EXT_NEXT.match(text, e)):  # "내선 5821 또는 5822": both extensions
                s, e = nxt.span("n")
                if taken.overlaps(s, e):
                    break
                found.append(Entity(kind, nxt.group("n"), s, e, EXTENSION + nxt.group("n")))
                taken.add(s, e)
    def add(kind: str, s: int, e: int, norm: str) -> None:
        if not taken.overlaps(s, e):
            found.append(Entity(kind, text[s:e], s, e, norm))
            taken.add(s, e)

    for m in _korean_addresses(text):
        add("address", *m.span(), address_key(m.group(0)))
    for m in _ADDRESS_EN.finditer(text):
        add("address", *m.span(), address_key(m.group(0)))
    for m in _POSTCODE_KO.finditer(text):
        add("address", *m.span("zip"), POSTCODE + m.group("zip"))
    bare = [m for m in (_ROOM_BARE_KO.finditer(text) if "호" in text else iter([]))
            if m.group(0).endswith("실") or _ROOM_PLACE.search(text, max(0, m.start() - 12), m.start())
            or _ROOM_PLACE.search(text, m.end(), m.end() + 8)]
    floors = list(_FLOOR_EN.finditer(text)) if "loor" in text else []
    for m in (*_rooms(text), *_ROOM_EN.finditer(text), *bare, *floors, *_BUILDING_EN.finditer(text)):
        add("address", *m.span(), ROOM + re.sub(r"\s", "", m.group(0)).casefold())
    for m in _POSTCODE_EN.finditer(text):  # checked by the postcode alone: the town may be written either way
        add("address", *m.span(), ROOM + re.sub(r"\s", "", m.group("zip")).casefold())
    for m in _PHONE_SHORT.finditer(text):
        g = next(k for k in "abcdef" if m.group(k))
        add("phone", *m.span(g), SHORT_PHONE + m.group(g))
    found.sort(key=lambda x: x.start)
    return found
