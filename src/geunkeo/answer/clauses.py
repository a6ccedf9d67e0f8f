"""A sentence's clauses: closing the clauses before an invented item as a sentence of their own ("…받으며, 문의는
<invented>로 하세요" → "…받습니다."), or finding where the clauses after it start, so a rewrite keeps the true part."""

from __future__ import annotations

import os
import re

_KO_CLAUSE = re.compile(r"([가-힣]+)(\([^()]*\))?,\s+")  # "필요하며(제9조 제1항), …": the aside stays with its clause
_EN_CLAUSE = re.compile(r"(?:,\s+(?:and|but|while|whereas)\s+|;\s+)")
_JONGSEONG_B = 17  # ㅂ as a final consonant
_VERB_STEM_ENDS = set("하되있없받않주보내두오가이시")  # 시: honorific, 보내시고 → 보내십니다


def final_form(word: str) -> str | None:
    """'받으며' → '받습니다', '신청하고' → '신청합니다', '지급되며' → '지급됩니다', '팀이며' → '팀입니다';
    None when the connective ending is not one of these."""
    for ending in ("으며", "지만", "며", "고"):
        if word.endswith(ending) and len(word) > len(ending):
            stem = word[: -len(ending)]
            break
    else:
        return None
    if ending == "으며":
        return stem + "습니다"
    last = stem[-1]
    if last not in _VERB_STEM_ENDS:  # "참고," is a noun, not 참- + -고
        return None
    code = ord(last) - 0xAC00
    if not 0 <= code <= 11171:
        return None
    if code % 28:  # consonant-final stem: 받고 → 받습니다
        return stem + "습니다"
    if last == "이" and len(stem) > 1:  # copula after a noun: 학사지원팀이며 → 학사지원팀입니다
        return stem[:-1] + "입니다"
    return stem[:-1] + chr(ord(last) + _JONGSEONG_B) + "니다"  # 하 → 합니다, 되 → 됩니다, 보내 → 보냅니다


def salvage_head(s: str, pos: int, lang: str) -> tuple[str, int] | None:
    """The sentence's clauses before the one at `pos`, closed as a sentence of their own, when that can be done
    cleanly (Korean connective endings -며/-으며/-고/-지만; English ', and' / ', but' / ';'). Also returns up to
    where the head keeps the original offsets."""
    if lang == "en":
        cuts = list(_EN_CLAUSE.finditer(s, 0, pos))
        if cuts and len(s[: cuts[-1].start()].split()) >= 3:
            return s[: cuts[-1].start()].rstrip() + ".", cuts[-1].start()
        return None
    cuts = list(_KO_CLAUSE.finditer(s, 0, pos))
    if not cuts or not s[: cuts[-1].start(1)].split():
        return None
    word = cuts[-1].group(1)
    final = final_form(word)
    if final is None:
        return None
    same = len(os.path.commonprefix([word, final]))
    return s[: cuts[-1].start(1)] + final + (cuts[-1].group(2) or "") + ".", cuts[-1].start(1) + same


def salvage_tail(s: str, pos: int, lang: str) -> int | None:
    """Where the clauses after the one at `pos` start, when that clause ends in a connective (Korean -고/-며/-으며/
    -지만 after a verb; English ', and' / ', but' / ';') and what follows can stand as a sentence of its own."""
    if lang == "en":
        cut = _EN_CLAUSE.search(s, pos)
        return cut.end() if cut and len(s[cut.end() :].split()) >= 3 else None
    for cut in _KO_CLAUSE.finditer(s, pos):
        if final_form(cut.group(1)) is not None:
            return cut.end() if len(s[cut.end() :].split()) >= 2 else None
    return None
