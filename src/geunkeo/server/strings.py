"""Every word the pages show, in Korean and English, as data: one page speaks one language (`?lang=`).

- `UI`: labels of the pages (ask, home, review, errors);
- `GATE_REASONS`: each serving-gate reason code (answer/gate.py `REASON_CODES`) as a plain sentence;
- `FLAG_REASONS`, `METRICS`, `flag_text`: the evaluation's flag codes and metric names as short phrases, shared with
  the evaluation report (evaluate/report/strings.py);
- `DECISIONS`: what a reviewer's agree / disagree / partial says it agrees with;
- `RUNS`: the runs pages (two runs compared, the live report's header and its links back).
A reason code missing here falls back to a general sentence (`reason_text`); tests/server check that none is.
"""

from __future__ import annotations

from geunkeo.answer.codes import GateReason

# the evaluation's flag codes and metric names are the report's too (one table for both: evaluate/report/strings.py)
from geunkeo.evaluate.report.strings import FLAG_REASONS as FLAG_REASONS
from geunkeo.evaluate.report.strings import LANGS as LANGS
from geunkeo.evaluate.report.strings import METRICS as METRICS
from geunkeo.evaluate.report.strings import flag_text as flag_text
from geunkeo.evaluate.report.strings import lang_of as lang_of

UI: dict[str, dict[str, str]] = {
    "ko": {
        "title": "근거 — 규정·공지 질의응답", "ask": "질문하기", "placeholder": "예: 휴학은 최대 몇 학기까지 할 수 있나요?",
        "answered": "확인된 답변", "warn": "주의가 필요한 답변", "withheld": "문서에서 확인되지 않아 답변을 보류합니다",
        "withheld_help": "아래 문서를 참고하거나 담당 부서에 문의하세요.",
        "sources": "근거 문서", "other_sources": "함께 검색된 문서", "more": "더 보기", "reasons": "이유",
        "fallback": "시간 안에 AI 답변을 받지 못해 문서 문장을 그대로 보여 드립니다",
        "no_query": "질문을 입력하세요.", "lang_other": "English",
        "nav_ask": "질문", "nav_review": "검토", "nav_runs": "평가 결과", "api": "API 문서", "error": "오류",
        "supporting": "답변이 인용한 문장은 노란색으로 표시됩니다.", "draft": "보류된 초안", "cited": "인용",
        "superseded": "이전 버전", "not_yet_in_force": "시행 전",
        "how": "이렇게 찾았습니다", "how_docs": "{total}개 문서를 검색해 가장 가까운 구절 {k}개를 찾았습니다. 출처:",
        "how_rewritten": "질문을 검색하기 좋게 바꿔 찾았습니다: “{q}”", "how_kept": "질문을 그대로 검색했습니다.",
        "how_added": "함께 찾은 말: {terms}", "how_extractive": "답변은 문서의 문장을 그대로 옮긴 것입니다.",
        "how_llm": "답변은 AI가 쓰고, 문장마다 인용한 문서와 대조해 확인했습니다.",
        "dev": "개발자용 세부 정보", "dev_reasons": "점검 결과 (원문)", "decisions": "처리 과정",
        "home_docs": "이 서비스가 답하는 문서", "home_docs_count": "문서 {docs}개 · 구절 {chunks}개",
        "home_examples": "이런 질문을 해 보세요", "chunks_n": "구절 {n}개", "versions_n": "버전 {n}개",
        "kind_regulation": "규정", "kind_notice": "공지", "kind_policy": "약관", "kind_other": "기타 문서",
        "login": "로그인", "login_needed": "이 작업에는 검토자 키가 필요합니다.", "forbidden": "권한이 없습니다.",
        "not_found": "찾는 페이지가 없습니다.", "back_home": "처음으로",
    },
    "en": {
        "title": "geunkeo — grounded answers from regulations and notices", "ask": "Ask",
        "placeholder": "e.g. How many semesters of leave are allowed?",
        "answered": "Checked answer", "warn": "Answer that needs care",
        "withheld": "Not found in the documents, so no answer is given",
        "withheld_help": "See the documents below or contact the office in charge.",
        "sources": "Sources", "other_sources": "Also searched", "more": "More", "reasons": "Why",
        "fallback": "The AI answer did not arrive in time, so the documents' own sentences are shown",
        "no_query": "Type a question.", "lang_other": "한국어",
        "nav_ask": "Ask", "nav_review": "Review", "nav_runs": "Evaluation", "api": "API docs", "error": "Error",
        "supporting": "Sentences the answer quotes are highlighted.", "draft": "Withheld draft", "cited": "cited",
        "superseded": "older version", "not_yet_in_force": "not yet in force",
        "how": "How this was found", "how_docs": "Searched {total} documents; the {k} closest passages came from:",
        "how_rewritten": "The question was reworded for searching: “{q}”",
        "how_kept": "The question was searched as written.", "how_added": "Also searched for: {terms}",
        "how_extractive": "The answer repeats the documents' own sentences.",
        "how_llm": "An AI wrote the answer; each sentence was checked against the passage it cites.",
        "dev": "Developer details", "dev_reasons": "Checks (raw)", "decisions": "Pipeline decisions",
        "home_docs": "Documents this service answers from", "home_docs_count": "{docs} documents · {chunks} passages",
        "home_examples": "Try a question", "chunks_n": "{n} passages", "versions_n": "{n} versions",
        "kind_regulation": "Regulations", "kind_notice": "Notices", "kind_policy": "Policy terms",
        "kind_other": "Other documents",
        "login": "Log in", "login_needed": "This needs a reviewer key.", "forbidden": "You do not have permission.",
        "not_found": "That page does not exist.", "back_home": "Home",
    },
}

# the serving gate's reason codes (the text before ": " in `GateDecision.reasons`), in plain words
GATE_REASONS: dict[GateReason, dict[str, str]] = {
    GateReason.NO_CONTEXT: {"ko": "관련된 문서를 찾지 못했습니다.", "en": "No related document was found."},
    GateReason.NO_ANSWER: {"ko": "문서에서 답이 되는 문장을 찾지 못했습니다.",
                           "en": "No sentence in the documents answers the question."},
    GateReason.RETRIEVAL_LOW_CONFIDENCE: {"ko": "찾은 문서가 질문과 잘 맞는지 확신할 수 없습니다.",
                                          "en": "The documents found may not be about this question."},
    GateReason.NOT_ANSWERED: {"ko": "찾은 문서에 질문한 내용이 나와 있지 않습니다.",
                              "en": "The documents found do not state what was asked."},
    GateReason.VERIFICATION: {"ko": "답변의 문장을 인용한 문서에서 충분히 확인하지 못했습니다.",
                              "en": "Too few of the answer's sentences could be confirmed in the passages they cite."},
    GateReason.CITATION_COVERAGE: {"ko": "출처가 표시되지 않은 문장이 있습니다.", "en": "Some sentences do not name a source."},
    GateReason.INSTRUCTION_LIKE_CONTEXT: {"ko": "문서 안의 지시문처럼 보이는 문장을 근거로 삼았습니다.",
                                          "en": "The answer drew on a passage that reads like an instruction."},
    GateReason.UNSUPPORTED_ITEMS: {"ko": "문서에 없는 연락처나 부서 등을 답변에서 지웠습니다.",
                                   "en": "Contacts or offices not in the documents were removed from the answer."},
    GateReason.UNVERIFIED_NUMBERS: {"ko": "문서에서 확인되지 않는 숫자나 날짜가 있습니다.",
                                    "en": "Some numbers or dates could not be found in the documents."},
    GateReason.SUPERSEDED_VERSION_CITED: {"ko": "현재 시행 중이 아닌 이전 버전의 규정을 인용했습니다.",
                                          "en": "The answer cites an older version of a rule that is no longer in force."},
    GateReason.REGENERATION_FAILED: {"ko": "답변을 다시 쓰려 했지만 나아지지 않았습니다.",
                                     "en": "Rewriting the answer did not fix the problem."},
}
_GATE_OTHER = {"ko": "자동 점검에서 확인이 필요한 점이 발견되었습니다.", "en": "An automatic check found something to confirm."}

REVIEW: dict[str, dict[str, str]] = {
    "ko": {
        "queue": "검토 대기열", "reviewed": "검토 완료", "agreement": "자동 판정 일치율", "export": "골든셋 내보내기",
        "report": "평가 보고서", "filter": "거르기", "all": "전체", "pending": "검토 전", "done": "검토 완료",
        "due_by": "기한", "question": "질문", "answer": "답변", "reference": "정답(참조)", "flag": "자동 판정",
        "reasons": "이유", "lang": "언어", "stratum": "층", "queue_type": "대기열", "due": "기한",
        "decision": "결정", "none": "없음", "claims": "답변의 주장", "claim": "주장", "faithful": "문서로 뒷받침",
        "vs_reference": "정답과 비교", "supporting": "뒷받침하는 구절", "metrics": "지표", "metric": "지표",
        "value": "값", "method": "계산 방법", "yes": "예", "no": "아니요", "root_cause": "원인",
        "gt_update": "정답 데이터 수정 필요", "corrected": "고친 답변", "notes": "메모", "save": "결정 저장",
        "login_to_save": "저장하려면 검토자 키로 로그인하세요.", "key": "검토자 키", "history": "결정 이력",
        "saved": "저장했습니다.", "next_case": "다음 사례", "no_next": "검토할 사례가 더 없습니다.",
        "back_queue": "대기열로", "logout": "로그아웃", "conflict": "다른 검토자가 먼저 저장해 사례가 바뀌었습니다. "
        "아래 이력을 확인하고 다시 저장하세요. 입력한 내용은 그대로 있습니다.",
        "unauthorized": "저장하지 못했습니다: 검토자 키가 필요합니다. 키를 입력하고 다시 저장하세요. 입력한 내용은 그대로 있습니다.",
        "forbidden": "저장하지 못했습니다: 이 키는 읽기 전용입니다. 검토자 키를 입력하세요.",
        "shortcuts": "단축키 a / d / p, Ctrl+Enter", "task": "과제", "level": "판정", "qlang": "언어",
        "reason": "이유", "status": "상태", "runs": "평가 실행",
        "root_retrieval": "검색", "root_generation": "답변 생성", "root_gt": "정답 데이터", "root_doc_version": "문서 버전",
    },
    "en": {
        "queue": "Review queue", "reviewed": "reviewed", "agreement": "agreement with the automatic flag",
        "export": "golden-set export", "report": "evaluation report", "filter": "Filter", "all": "all",
        "pending": "pending", "done": "reviewed", "due_by": "due by", "question": "Question", "answer": "Answer",
        "reference": "Reference answer", "flag": "Automatic flag", "reasons": "reasons", "lang": "language",
        "stratum": "stratum", "queue_type": "queue", "due": "due", "decision": "Decision", "none": "none",
        "claims": "The answer's claims", "claim": "claim", "faithful": "supported by the documents",
        "vs_reference": "vs reference", "supporting": "supporting passages", "metrics": "Metrics",
        "metric": "metric", "value": "value", "method": "method", "yes": "yes", "no": "no",
        "root_cause": "root cause", "gt_update": "the reference answer needs an update",
        "corrected": "corrected answer", "notes": "notes", "save": "Save decision",
        "login_to_save": "Log in with a reviewer key to save.", "key": "Reviewer key", "history": "History",
        "saved": "Saved.", "next_case": "Next case", "no_next": "No more cases to review.",
        "back_queue": "Back to the queue", "logout": "log out",
        "conflict": "Another reviewer saved first, so the case changed since it was opened. Check the history below "
                    "and save again; what you typed is kept.",
        "unauthorized": "Not saved: this needs a reviewer key. Enter it and save again; what you typed is kept.",
        "forbidden": "Not saved: this key can only read. Enter a reviewer key.",
        "shortcuts": "keys a / d / p, Ctrl+Enter", "task": "task", "level": "flag", "qlang": "language",
        "reason": "reason", "status": "status", "runs": "Evaluation runs",
        "root_retrieval": "retrieval", "root_generation": "answer generation", "root_gt": "reference data",
        "root_doc_version": "document version",
    },
}

# the runs pages: the comparison of two runs and the live report's header ({a}, {b}: each run's value)
RUNS: dict[str, dict[str, str]] = {
    "ko": {
        "compare_title": "A {a} · B {b} 비교", "run": "실행", "profile": "판정 기준", "dataset": "데이터",
        "cases": "사례 수", "shared": "두 실행에 모두 있는 사례 {n}개", "worse": "악화", "better": "개선",
        "same": "변화 없음", "changed_summary": "두 실행에 모두 있는 사례 {n}개 중 {worse}개 악화 · {better}개 개선",
        "not_like_for_like": "두 실행은 같은 조건이 아닙니다. 차이는 이 차이 때문일 수 있습니다:",
        "profile_differs": "판정 기준이 다릅니다: A {a}, B {b}", "dataset_differs": "데이터가 다릅니다: A {a}, B {b}",
        "cases_differ": "사례 수가 다릅니다: A {a}개, B {b}개",
        "case_sets_differ": "두 실행에 모두 있는 사례는 {shared}개뿐입니다 (A {a}개, B {b}개).",
        "flags": "판정 수", "level": "판정", "delta": "변화", "delta_shared": "공통 사례에서",
        "delta_unshared": "한쪽에만 있는 사례에서",
        "unshared_note": "판정 수의 변화 중 일부는 한쪽 실행에만 있는 사례에서 옵니다. 공통 사례에서의 변화는 "
                         "악화·개선 수와 맞습니다.",
        "gates": "기준 통과율", "gate": "기준", "metrics": "지표 평균", "metric": "지표",
        "changed": "판정이 바뀐 사례", "case": "사례", "from": "A 판정", "to": "B 판정", "added": "새로 생긴 이유",
        "removed": "사라진 이유", "none": "없음", "only_in": "{side}에만 있는 사례 ({n}개)",
        "back_runs": "평가 결과 목록으로", "back_app": "질문 화면으로",
        "eval_id": "평가 ID", "p0_pass": "P0 통과율", "queued": "검토 대기", "review": "검토", "compare": "비교",
        "no_runs": "실행이 없습니다: geunkeo eval --out DIR",
        "report_runs": "← 평가 결과", "report_app": "질문하기",
        "report_live": "{time}에 새로 그렸습니다: 검토 수치는 방문할 때마다 검토 저장소에서 읽습니다.",
    },
    "en": {
        "compare_title": "A {a} compared with B {b}", "run": "run", "profile": "gate profile", "dataset": "data",
        "cases": "cases", "shared": "{n} cases in both runs", "worse": "worse", "better": "better",
        "same": "no change", "changed_summary": "Of the {n} cases in both runs: {worse} worse · {better} better",
        "not_like_for_like": "The two runs are not like for like; differences may come from this:",
        "profile_differs": "Different gate profiles: A {a}, B {b}", "dataset_differs": "Different data: A {a}, B {b}",
        "cases_differ": "Different case counts: A {a}, B {b}",
        "case_sets_differ": "Only {shared} cases are in both runs (A has {a}, B has {b}).",
        "flags": "Flag counts", "level": "flag", "delta": "change", "delta_shared": "from cases in both",
        "delta_unshared": "from cases in one run only",
        "unshared_note": "Part of the change in flag counts comes from cases in one run only; the change among "
                         "cases in both runs matches the worse / better counts.",
        "gates": "Gate pass rates", "gate": "gate", "metrics": "Metric means", "metric": "metric",
        "changed": "Cases whose flag changed", "case": "case", "from": "flag in A", "to": "flag in B",
        "added": "reasons added", "removed": "reasons removed", "none": "none", "only_in": "Only in {side} ({n})",
        "back_runs": "Back to the evaluation runs", "back_app": "Back to the question page",
        "eval_id": "eval id", "p0_pass": "P0 pass rate", "queued": "queued for review", "review": "review",
        "compare": "Compare", "no_runs": "No runs yet: geunkeo eval --out DIR",
        "report_runs": "← Evaluation runs", "report_app": "Ask a question",
        "report_live": "Rendered live at {time}: review figures are read from the review store on every visit.",
    },
}


# a decision says what the reviewer agrees with: the automatic flag ({flag} = CRITICAL, WARNING, PASSED)
DECISIONS: dict[str, dict[str, str]] = {
    "agree": {"ko": "자동 판정({flag})이 맞다", "en": "The automatic flag ({flag}) is right"},
    "disagree": {"ko": "자동 판정({flag})이 틀렸다", "en": "The automatic flag ({flag}) is wrong"},
    "partial": {"ko": "자동 판정({flag})이 일부만 맞다", "en": "The automatic flag ({flag}) is partly right"},
}


def reason_text(reason: str, lang: str) -> str:
    """A gate reason ("not_answered: the top documents do not mention …") as a plain sentence in `lang`."""
    code = GateReason.of(reason)
    return (GATE_REASONS[code] if code is not None else _GATE_OTHER)[lang_of(lang)]


def decision_text(decision: str, flag: str, lang: str) -> str:
    words = DECISIONS.get(decision)
    return words[lang_of(lang)].format(flag=flag) if words else decision
