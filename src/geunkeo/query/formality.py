"""Formality of a query from Kiwi's analysis: formal / polite / colloquial / fragment / english.

The label comes from how the last sentence ends — 하십시오체/하라체 endings (-ㅂ니까, -습니다, -시오, -는가, -다)
are formal, endings closed by 요 are polite, 반말 endings (-어/-야/-지/-냐/-니/-래, request forms like 알려줘,
trailing connectives such as -려면) are colloquial, and a query with no predicate is a keyword fragment. Chat
markers (ㅋㅋ, ㅠㅠ, 어케, 뭐임) turn a fragment colloquial. Text with (almost) no Hangul is "english": it is never
colloquial Korean. `score` is a formality level in [0, 1]: the weighted mean of the evidence (ending class 2×,
each chat marker or colloquial word 1×), so "복학 어떻게 해 ㅠㅠ" scores lower than "복학 어떻게 해".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from geunkeo.query.morphs import PUNCT_TAGS, Tok, tokens
from geunkeo.text.patterns import detect_lang

LABELS = ("formal", "polite", "colloquial", "fragment", "english")
_LEVEL = {"formal": 1.0, "polite": 0.7, "fragment": 0.5, "colloquial": 0.1}

_FORMAL_EF = {"ᆸ시오", "ᆸ니까", "습니까", "ᆸ니다", "습니다", "ᆸ시다", "소서", "ᆫ가", "는가", "은가", "라", "으라", "다", "ᆫ다",
              "는다", "니라"}
_COLLOQ_EF = {"어", "아", "야", "지", "냐", "니", "나", "래", "ᆯ래", "을래", "자", "게", "까", "ᆯ까", "을까", "는데", "은데",
              "ᆫ데", "거든", "네", "군", "냐고", "대", "니까", "ᆷ", "음", "셈", "여", "ᆫ가여", "죵", "징"}
# A trailing connective ends a written heading (…에 대하여, …에 관한) far less often than a spoken question.
_HEADING_EC = {"하여", "여", "어", "아"}
_CHAT = re.compile(r"[ㅋㅎㅠㅜ]{2,}|[!?~]{2,}|\^\^|;;")
_COLLOQ_TAIL = re.compile(r"\S하는\s?법\W*$")  # 신청하는법: spoken shorthand, not a heading
_COLLOQ_WORDS = {"어케", "어떡", "뭐임", "걍", "머", "넘", "젤", "왜케", "ㅇㅇ", "ㄴㄴ", "어딨", "뭔", "좀", "근데"}


@dataclass
class Formality:
    label: str
    score: float  # formality level: 1.0 formal … 0.0 very colloquial
    lang: str = "ko"
    ending: str | None = None  # the morpheme that decided the label, e.g. "ᆸ니까/EF"
    evidence: list[str] = field(default_factory=list)


class FormalityDetector:
    """Classifies a query's register from its sentence-final morphemes (see module docstring)."""

    def detect(self, text: str) -> Formality:
        """Label and score one query."""
        lang = detect_lang(text)
        if lang == "en":
            return Formality("english", 1.0, lang, None, ["no Hangul to speak of"])
        toks = tokens(text)
        label, ending = self._ending_class(text, toks)
        evidence = [f"ending {ending or 'none'} → {label}"]
        weights, values = [2.0], [_LEVEL[label]]
        chat = _CHAT.findall(text)
        words = [w for w in re.findall(r"[가-힣ㄱ-ㅎ]+", text) if w in _COLLOQ_WORDS or w[:2] in _COLLOQ_WORDS]
        for c in chat:
            evidence.append(f"chat marker {c}")
            weights.append(1.0)
            values.append(0.0)
        for w in words:
            evidence.append(f"colloquial word {w}")
            weights.append(1.0)
            values.append(0.1)
        if label == "fragment" and (chat or words):
            label = "colloquial"
            evidence.append("fragment with chat markers → colloquial")
        score = sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)
        return Formality(label, round(score, 3), lang, ending, evidence)

    @staticmethod
    def _ending_class(text: str, toks: tuple[Tok, ...]) -> tuple[str, str | None]:
        core = [t for t in toks if t.tag not in PUNCT_TAGS]
        if not core:
            return "fragment", None
        last = core[-1]
        # 요 closes polite speech whether Kiwi tags it EF (나요, 어요) or JX (…고요)
        if last.form.endswith("요") and (last.tag == "EF" or last.tag == "JX") or last.form in {"죠", "ᆸ쇼"}:
            return "polite", f"{last.form}/{last.tag}"
        asks = text.rstrip().endswith("?")
        if last.form in {"ᆫ지", "는지", "은지"}:  # an embedded question left hanging: chat if asked, else a heading
            return ("colloquial" if asks else "fragment"), f"{last.form}/{last.tag}"
        if last.tag == "EF":
            prev = core[-2] if len(core) > 1 else None
            if last.form == "라" and prev is not None and prev.form == "주":  # 알려주라: a 반말 request, not 하라체
                return "colloquial", "주+라/EF"
            if last.form in {"오", "시오", "십시오"}:
                return "formal", f"{last.form}/EF"
            if last.form in _FORMAL_EF:
                return "formal", f"{last.form}/EF"
            return "colloquial", f"{last.form}/EF"
        if last.tag == "EC":
            prev_form = core[-2].form if len(core) > 1 else ""
            if last.form in _HEADING_EC and prev_form in {"대하", "관하", "의하", "따르", "위하"}:
                return "fragment", f"{prev_form}+{last.form}/EC"
            return "colloquial", f"{last.form}/EC"
        if last.tag == "ETN" and last.form in {"ᆷ", "음"}:  # 어떻게 함? 가능함: chat shorthand in a query
            return "colloquial", f"{last.form}/ETN"
        if last.tag == "ETN" or last.tag == "ETM":
            return "fragment", f"{last.form}/{last.tag}"
        if asks:  # a predicate-less phrase asked with "?" (복학 신청은? 장학금 가능?) is an elliptical chat question
            return "colloquial", f"{last.form}/{last.tag}?"
        if _COLLOQ_TAIL.search(text):
            return "colloquial", "하는법"
        if last.tag in {"VV", "VA", "VX", "XSV", "XSA"}:  # a bare stem: typed without its ending (“가능?”)
            return "colloquial", f"{last.form}/{last.tag}"
        return "fragment", f"{last.form}/{last.tag}"
