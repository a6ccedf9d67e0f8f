"""Departments, offices and organisations named in answers and contexts (Korean by suffix and context, English by
capitalised names ending in an organisation word), keyed without spaces."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable

from geunkeo.text.entity_base import Entity, Spans, first_char_regex

# Unambiguous organisation endings; the short ones (처/과/실) are checked against stop words below.
_DEPT_STRONG = (
    "위원회|사무국|지원단|사업단|봉사단|재단|본부|센터|연구소|상담소|행정실|사무실|교무실|대학원|교육원|연수원|"
    "개발원|평가원|진흥원|정보원|의료원|기술원|소비자원|감독원|심판원|조정원|보호원|연구원|팀|파트|창구|데스크|사무소|플라자|"
    "출장소|영업소|자치회|학생회|협의회|클리닉|대대"
)
_DEPT_WEAK = "처|과|실|부|청|국|공단|공사|병원"
_PARTICLE = (
    r"(?:에게서|에서|에게|에|께서|께|한테|으로|로|와|과|의|이|가|은|는|을|를|도|만|까지|부터|처럼|보다|이나|나|이며|며|인|"
    r"입니다|이에요|예요|이다|다|이라고|라고|이라는|라는|이라|라|장)"
)
_DEPT_KO = re.compile(
    # a numbered unit is one too: "심사2국", "보상1팀", "영업2부"
    r"(?<![가-힣])((?:[가-힣]{1,14}|[가-힣]{2,12}\d{1,2})(?:" + _DEPT_STRONG + "|" + _DEPT_WEAK + r"))(?=" + _PARTICLE
    + r"{0,3}(?![가-힣]))"
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
    # 병원: the kinds of hospital a policy or rule names, not one hospital (서하대학교병원 is one)
    "종합병원", "상급종합병원", "요양병원", "대학병원", "한방병원", "치과병원", "동물병원", "전문병원", "정신병원",
    "협력병원", "지정병원", "인근병원", "큰병원", "개인병원", "재활병원", "일반병원", "공공병원",
)
# names that end in a stop word and are offices all the same: 고용노동부 ends in the direction 동부
_WEAK_STOP_EXCEPT = ("노동부", "보상부")  # 대인보상부 ends in the direction 상부
# generic words, not names: "학과 사무실", "행정실에 문의"
# offices every institution has, named by their kind ("생활관 행정실", "학과 사무실"): never a name, so never extracted
# or checked; a rewrite may keep one, and an English office glossed by one is that office
GENERIC_OFFICES = ("학과사무실", "행정실", "사무실", "교무실", "당직실", "민원실", "상담실")
_STRONG_STOP = {"팀", "센터", "본부", "재단", "대학원", "사무실", "행정실", "교무실", "상담소", "연구소", "위원회", "사무국",
                "교육원", "지원단", "사업단", "봉사단", "연구원", "파트", "창구", "데스크"}  # 연구원 alone is a researcher
# an office given with its number and no particle: "미래인재과 031 778 2093", "보상부 (02) …"
_NUMBER_NEXT = r"\s\(?\+?\d|\s(?:내선|교내|☎|전화|팩스|Tel|FAX)"  # "관재실 내선 2764", "세무회계부 팩스(02-…)"
# A department ending in 과 is written with a case particle or punctuation after it; "규정과 같이" / "학생과
# 교수" are the conjunction 과.
_GWA_OK_NEXT = re.compile(r"(?:에서|에게|에|로|를|가|장|입니다|이며|이다)(?![가-힣])|[(),.:·\n]|$|" + _NUMBER_NEXT)
_ADDRESSED = r"(?:에서|에게|에|로|으로|의|와|과|는|은|가|이|를|을|장|입니다|이며)(?![가-힣])|[(),.:·\n]|\s*$|" + _NUMBER_NEXT
_ADDRESSED_NEXT = re.compile(_ADDRESSED)
_BU_OK_NEXT = re.compile(
    _ADDRESSED
    # a ministry or agency followed by its own division: "환경부 자원순환정책과(…)"
    + r"|\s[가-힣]{1,12}(?:과|팀|국|실|센터|본부|단)(?=[\s(),.:·]|" + _PARTICLE + r"(?![가-힣])|$)")
_EN_DEPT_HEAD = (r"(?:Team|Office|Center|Centre|Department|Division|Committee|Bureau|Unit|Council|Secretariat|Board|"
                 r"Services?|Desk|Helpline|Hotline|Commission|Authority|Agency|Ombudsman|Library|Cell|Panel|Tribunal|"
                 r"Registry|College|School|Hospital|Clinic|Helpdesk|Mailroom|(?:Mail|Post)\s+Room|Line|Reception)")
# a capitalised word; a possessive ends the name ("the Graduate School's Appeals Board" names two bodies)
_EN_CAP = r"[A-Z][A-Za-z&\-]*(?:'(?!s\b)[A-Za-z]+)*"
_DEPT_EN = first_char_regex(
    "A-Z", r"\b(?:(?:" + _EN_CAP + r"\s+(?:(?:and|&)\s+(?=[A-Z]))?){1,5}" + _EN_DEPT_HEAD + r"(?:\s+(?:of|for)\s+(?:the\s+)?" + _EN_CAP
    # a body of a body: "the … Committee of the Office of …" names one committee
    + r"(?:\s+(?:and\s+|&\s+)?" + _EN_CAP + r"){0,4}){0,2}"
    r"|(?:Office|Department|Division|Center|Centre|Bureau|School|Board|Council|Committee|Faculty|Ministry|Institute)"
    r"\s+(?:of|for|on)\s+(?:the\s+)?" + _EN_CAP
    + r"(?:\s+(?:and\s+|&\s+)?" + _EN_CAP + r"){0,4})(?![A-Za-z])"
)
# A body named without an organisation word is still one when a contact number is given for it: right after it
# ("escalate to the Ombudsman on 1800 552 019", "handled by Payroll Penang on +65 …"), or later in the same sentence when
# the name is a brand-like CamelCase word ("FairClaim NZ can review it on 0800 613 447")
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
    """Comparison key of a department name: no spaces, casefolded, no leading 'the', no (주) / 주식회사, & as 'and'."""
    name = re.sub(r"\(주\)|㈜|주식회사", "", re.sub(r"^the\s+", "", name.strip(), flags=re.I))
    return re.sub(r"\s+", "", name.replace("&", " and ")).casefold()


def _weak_ok(name: str, text: str, end: int) -> bool:
    shortest = 5 if name.endswith("공사") else 3  # 공사 is also construction work (건축공사); 한국도로공사 is a body
    stopped = name.endswith(_WEAK_STOP_END) and not name.endswith(_WEAK_STOP_EXCEPT)
    if len(name) < shortest or stopped:
        return False
    if name.endswith("과"):
        return bool(_GWA_OK_NEXT.match(text, end))
    if name.endswith(("실", "국")):
        # 실 also ends an honorific verb ("안내하실 수 있습니다", "신청하실 분"): an office is addressed, and is not
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
    """The department name starting at `start`: the regex is greedy, so "국제교류지원팀과" (팀 + the particle
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


# a company: "(주)별솔PG", "누리신용평가(주)", "㈜새솔", "주식회사 늘품"
_COMPANY_KO = first_char_regex("(㈜주가-힣A-Za-z0-9",
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
    companies = Spans((f.start, f.end) for f in found)
    reach = -1  # the furthest end of a Korean name so far: names come in order, so it alone says "inside one"
    for m in _DEPT_KO.finditer(text):
        name = _dept_name(text, m.start(), m.group(1))
        if name and m.start() >= reach and not companies.overlaps(m.start(), m.start() + 1):
            start = m.start()
            # only an office named by its kind alone takes the place before it ("춘천에 계시면 춘천사무소": 계시면
            # is a verb, and 대전사무소 names its place already)
            bound = _PLACE_BOUND.search(name)
            place = _PLACE_BEFORE.search(text, max(0, start - 12), start) if bound and bound.start() == 0 else None
            if place:  # "청솔동 행정복지센터": which one is the name ("미리내동 행정복지센터" is another office)
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
    extra = Spans()

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
