"""Every word the evaluation report shows, in Korean and English, as data: one report speaks one language.

- `REPORT`: the report's titles, captions, table headers, tile labels and notes, and its figures' titles and
  axis words ({name} fields are filled in by report/html.py and report/figures.py);
- `LEVELS`: the flag levels as words; `METRICS`: the metrics' names; `FLAG_REASONS` and `flag_text`: the flag codes
  as short phrases (the web app's review pages use the same, server/strings.py);
- `VALUES`: words for the values the summary holds as plain codes (failure stages, decisions, queue types, …).
The English report is the report as it always read (metric keys as names); the Korean one shows the metric's name
and keeps the key and every code in a tooltip (`title`), where a reviewer can still find it.
"""

from __future__ import annotations

from geunkeo.evaluate.codes import FlagReason, MetricSuffix

LANGS = ("ko", "en")


def lang_of(value: str | None) -> str:
    """The report's language: English only when asked for, Korean otherwise (as the web app)."""
    return "en" if value == "en" else "ko"


REPORT: dict[str, dict[str, str]] = {
    "en": {
        "html_lang": "en", "title": "geunkeo evaluation {eval_id}", "h1": "근거 geunkeo · evaluation report",
        "nav_executive": "Executive", "nav_debug": "Model debug", "nav_compliance": "Compliance",
        "meta": "{eval_id} · {dataset} · {cases} cases · profile {profile} · answerer {answerer} · "
                "embedder {embedder} · {seconds} s · {timestamp}",
        "na": "n/a", "none": "none", "target": "target {op} {value}",
        "executive": "Executive view", "executive_q": "is it safe to ship?",
        "executive_lead": "Profile <b>{profile}</b>: a case PASSES only when all four P0 gates were computed and "
                          "passed and no claim is unsupported.",
        "p0_pass_rate": "P0 pass rate", "p0_pass_sub": "{passed} of {cases} PASSED",
        "hallucination_rate": "Hallucination rate", "hallucination_sub": "cases with an unsupported claim",
        "citation_missing": "Citation missing", "citation_missing_sub": "of {claims} claims",
        "review_completion": "Review completion", "review_completion_sub": "{reviewed} of {queued} queued",
        "deflection": "Would escalate to a person", "same_documents": "Same documents ko↔en",
        "same_documents_sub": "{pairs} pairs, top-1 doc", "claim_sets": "Claim sets equivalent",
        "claim_sets_sub": "ko/en answers",
        "supported": "✓ supported", "unsupported": "✗ unsupported", "not_checked": "· not checked",
        "cites": "cites {where}", "cite_wrong": " (citation does not support it)", "no_citation": "no citation",
        "confidence": " · confidence {value}", "nothing": "nothing", "no_claims": "no claims",
        "no_answer": "(no answer)", "reference": "reference: {text}",
        "retrieved": "retrieved: {docs} · context recall {recall} · {scores}",
        "debug": "Model debug view", "debug_q": "where does it break?",
        "claim_failures": "Claim failure patterns, top 5", "no_failing_claim": "no failing claim",
        "failing_stages": "Failing cases by stage", "no_failing_case": "no failing case",
        "distributions": "Metric distributions (red tick = gate)", "ranking": "Retrieval ranking (ranx)",
        "noise": "Noise sensitivity by case (≤ 0.15 wanted)", "noise_empty": "not computed for any case",
        "by_version": "Failure rate by document version", "reason_codes": "Reason codes",
        "how_made": "How every number was made", "worst": "Worst cases, with their claims",
        "no_worst": "No failing case.", "clir_pairs": "Cross-lingual pairs", "yes": "yes", "no": "no",
        "reasons_short": "why", "operations": "Operations", "language_match": "Answers in the asker's language:",
        "new_types": "New question types (full review):", "method": "method",
        "compliance": "Compliance view", "compliance_q": "can every claim be audited?",
        "uncited": "Claims without citation", "uncited_sub": "audit readiness",
        "high_risk": "High-risk claim failures", "high_risk_sub": "{n} exclusion/amount claims",
        "disagreement": "Review disagreement", "disagreement_sub": "{n} reviewed",
        "removed_total": "Removed by the filter", "removed_total_sub": "contacts/departments/citations",
        "review_queue": "Review queue", "queued": "queued", "full_review": "full review",
        "sample_review": "sample review", "reviewed": "reviewed", "decisions": "Decisions",
        "removed": "Removed hallucinations", "removed_by": "(answer filter)", "queue_items": "Queue items",
        "pending": "pending",
        # table headers, "|" between the columns
        "head_pairs": "pair|ko|en|same top-1 doc|doc overlap|claim equivalence|claims without a counterpart",
        "head_versions": "version of top document|cases|not PASSED", "head_codes": "code|cases",
        "head_metrics": "metric|mean|computed|not computable|method|why not computable",
        "head_outliers": "measure|cases|median|outlying cases", "head_queue": "|count",
        "head_decisions": "decision|count", "head_removed": "query|kind|removed|replaced by",
        "head_items": "flag|query|queue|priority|stratum|deadline|decision|reviewer",
        # figures
        "fig_flags": "Flags", "fig_cases": "cases", "fig_gates": "Gate outcomes (cases)", "fig_pass": "pass",
        "fig_fail": "fail", "fig_not_computable": "not computable",
        "fig_groups": "Flags by language, task, complexity and query style", "fig_group_p0": "P0 gates {rate}",
        "fig_target": "PASSED target 70%", "fig_threshold": "threshold", "fig_no_metric": "no computable metric",
        "fig_no_data": "no data", "group_query_language": "language", "group_task": "task",
        "group_complexity": "complexity", "group_style": "style",
    },
    "ko": {
        "html_lang": "ko", "title": "근거 평가 {eval_id}", "h1": "근거 · 평가 보고서",
        "nav_executive": "요약", "nav_debug": "모델 진단", "nav_compliance": "감사 대비",
        "meta": "{eval_id} · {dataset} · 사례 {cases}개 · 판정 기준 {profile} · 답변 방식 {answerer} · "
                "임베딩 {embedder} · {seconds}초 · {timestamp}",
        "na": "값 없음", "none": "없음", "target": "목표 {op} {value}",
        "executive": "요약", "executive_q": "내보내도 안전한가?",
        "executive_lead": "판정 기준 <b>{profile}</b>: 네 가지 P0 기준이 모두 계산되어 통과하고 문서로 뒷받침되지 "
                          "않는 주장이 없을 때만 사례가 통과합니다.",
        "p0_pass_rate": "P0 통과율", "p0_pass_sub": "{cases}개 중 {passed}개 통과",
        "hallucination_rate": "환각 비율", "hallucination_sub": "뒷받침되지 않는 주장이 있는 사례",
        "citation_missing": "출처 누락", "citation_missing_sub": "주장 {claims}개 중",
        "review_completion": "검토 완료율", "review_completion_sub": "대기 {queued}개 중 {reviewed}개 검토",
        "deflection": "담당자에게 넘길 답변", "same_documents": "한·영 같은 문서",
        "same_documents_sub": "질문 쌍 {pairs}개, 1위 문서", "claim_sets": "한·영 주장 일치",
        "claim_sets_sub": "한국어·영어 답변",
        "supported": "✓ 뒷받침됨", "unsupported": "✗ 뒷받침 안 됨", "not_checked": "· 확인 안 함",
        "cites": "인용: {where}", "cite_wrong": " (인용한 구절이 뒷받침하지 않음)", "no_citation": "출처 없음",
        "confidence": " · 확신도 {value}", "nothing": "없음", "no_claims": "주장 없음",
        "no_answer": "(답변 없음)", "reference": "정답(참조): {text}",
        "retrieved": "검색된 문서: {docs} · 검색 재현율 {recall} · {scores}",
        "debug": "모델 진단", "debug_q": "어디서 틀리는가?",
        "claim_failures": "주장 실패 유형 상위 5개", "no_failing_claim": "실패한 주장 없음",
        "failing_stages": "단계별 실패 사례", "no_failing_case": "실패한 사례 없음",
        "distributions": "지표 분포 (빨간 눈금 = 기준)", "ranking": "검색 순위 지표 (ranx)",
        "noise": "사례별 잡음 민감도 (0.15 이하가 목표)", "noise_empty": "계산된 사례 없음",
        "by_version": "문서 버전별 실패율", "reason_codes": "판정 이유",
        "how_made": "각 수치를 낸 방법", "worst": "가장 나쁜 사례와 그 주장",
        "no_worst": "실패한 사례가 없습니다.", "clir_pairs": "한·영 질문 쌍", "yes": "예", "no": "아니요",
        "reasons_short": "사유", "operations": "운영", "language_match": "질문한 언어로 답한 비율:",
        "new_types": "새로운 질문 유형 (전수 검토):", "method": "계산 방법",
        "compliance": "감사 대비", "compliance_q": "모든 주장을 감사할 수 있는가?",
        "uncited": "출처 없는 주장", "uncited_sub": "감사 준비 정도",
        "high_risk": "고위험 주장 실패", "high_risk_sub": "면책·금액 주장 {n}개",
        "disagreement": "검토 불일치", "disagreement_sub": "{n}개 검토",
        "removed_total": "필터가 지운 항목", "removed_total_sub": "연락처·부서·인용",
        "review_queue": "검토 대기열", "queued": "대기", "full_review": "전수 검토",
        "sample_review": "표본 검토", "reviewed": "검토 완료", "decisions": "검토 결정",
        "removed": "지운 환각", "removed_by": "(답변 필터)", "queue_items": "대기열 항목",
        "pending": "검토 전",
        "head_pairs": "질문 쌍|한국어|영어|1위 문서 같음|문서 겹침|주장 일치|짝이 없는 주장",
        "head_versions": "1위 문서의 버전|사례|통과 못 함", "head_codes": "이유|사례",
        "head_metrics": "지표|평균|계산됨|계산 불가|계산 방법|계산하지 못한 이유",
        "head_outliers": "측정값|사례|중앙값|벗어난 사례", "head_queue": "|건수",
        "head_decisions": "결정|건수", "head_removed": "질문|종류|지운 내용|바꾼 말",
        "head_items": "판정|질문|대기열|우선순위|층|기한|결정|검토자",
        "fig_flags": "판정", "fig_cases": "사례", "fig_gates": "기준별 결과 (사례 수)", "fig_pass": "통과",
        "fig_fail": "실패", "fig_not_computable": "계산 불가",
        "fig_groups": "언어·과제·복잡도·질문 유형별 판정", "fig_group_p0": "P0 기준 통과 {rate}",
        "fig_target": "통과 목표 70%", "fig_threshold": "기준", "fig_no_metric": "계산된 지표 없음",
        "fig_no_data": "자료 없음", "group_query_language": "언어", "group_task": "과제",
        "group_complexity": "복잡도", "group_style": "질문 유형",
    },
}

LEVELS: dict[str, dict[str, str]] = {
    "CRITICAL": {"ko": "심각", "en": "CRITICAL"},
    "WARNING": {"ko": "주의", "en": "WARNING"},
    "PASSED": {"ko": "통과", "en": "PASSED"},
}

# codes the summary holds as values (dashboard.py, review.py, answer/filter.py, answer/codes.py), in Korean words;
# the English report shows them as they are
VALUES: dict[str, str] = {
    # failing stages and claim failure patterns (dashboard._stage_of_failure, _claim_failure)
    "retrieval": "검색", "generation": "답변 생성", "other (P1 or not computable)": "기타 (P1 또는 계산 불가)",
    "unsupported": "뒷받침 안 됨", "no citation": "출처 없음",
    "citation does not support the claim": "인용한 구절이 주장을 뒷받침하지 않음",
    "incorrect vs reference": "정답과 다름",
    # document versions (dashboard.model_debug)
    "unversioned": "버전 없음", "nothing retrieved": "검색된 문서 없음",
    # serving gate actions (answer/codes.GateAction; "none" = evaluate/codes.NOT_SERVED, no answer produced)
    "answer": "답변", "warn": "주의와 함께 답변", "regenerate": "다시 작성", "escalate": "담당자에게",
    "none": "답변 없음",
    # claims' risk tags (evaluate/datasets.py, the claim splitter's tags)
    "high_risk": "고위험", "condition": "조건", "amount": "금액", "exclusion": "면책",
    # review decisions and queues (evaluate/review.py)
    "agree": "동의", "disagree": "반대", "partial": "부분 동의", "FULL_REVIEW": "전수 검토",
    "SAMPLE_REVIEW": "표본 검토",
    # what the answer filter removed (answer/filter.py)
    "phone": "전화번호", "email": "이메일", "url": "웹 주소", "address": "주소", "department": "부서",
    "citation": "인용", "injection": "지시문", "contact": "연락처",
    # operations measures (dashboard.operations)
    "latency_ms": "응답 시간 (ms)", "answer_chars": "답변 길이 (글자)",
}

# the evaluation's flag codes (evaluate/gates.py): metric codes end in _BELOW_THRESHOLD, _NOT_COMPUTABLE, …
FLAG_REASONS: dict[str, dict[str, str]] = {
    FlagReason.HALLUCINATED: {"ko": "문서에 없는 내용", "en": "claim not in the documents"},
    FlagReason.SUPERSEDED_VERSION_CITED: {"ko": "이전 버전 인용", "en": "older version cited"},
    FlagReason.DOC_VERSION_SUSPECTED: {"ko": "문서 버전 의심", "en": "document version suspected"},
    FlagReason.OWN_KNOWLEDGE_SUSPECTED: {"ko": "문서 밖 지식 의심", "en": "outside knowledge suspected"},
    FlagReason.ANSWER_INCOMPLETE_SUSPECTED: {"ko": "불완전한 답 의심", "en": "incomplete answer suspected"},
    FlagReason.RETRIEVAL_MISS_SUSPECTED: {"ko": "검색 누락 의심", "en": "retrieval miss suspected"},
}
FLAG_SUFFIX = {MetricSuffix.BELOW_THRESHOLD: {"ko": "기준 미달", "en": "below threshold"},
               MetricSuffix.NOT_COMPUTABLE: {"ko": "계산 불가", "en": "not computable"},
               MetricSuffix.BELOW_TARGET: {"ko": "목표 미달", "en": "below target"},
               MetricSuffix.ABOVE_TARGET: {"ko": "목표 초과", "en": "above target"}}

# the evaluation's metrics (the part of a flag code after "P0-1_" / "P1_")
METRICS: dict[str, dict[str, str]] = {
    "context_recall": {"ko": "검색 재현율", "en": "context recall"},
    "context_precision": {"ko": "검색 정밀도", "en": "context precision"},
    "context_entities_recall": {"ko": "핵심어 검색 재현율", "en": "entity recall"},
    "noise_sensitivity": {"ko": "잡음 민감도", "en": "noise sensitivity"},
    "response_relevancy": {"ko": "답변 관련성", "en": "answer relevancy"},
    "faithfulness": {"ko": "문서 충실도", "en": "faithfulness"},
    "factual_correctness": {"ko": "정답 일치도", "en": "factual correctness"},
    "citation_coverage": {"ko": "출처 표시율", "en": "citation coverage"},
    "summary_faithfulness": {"ko": "요약 충실도", "en": "summary faithfulness"},
    "proviso_preservation": {"ko": "단서 조항 보존", "en": "proviso preservation"},
    "summarization_score": {"ko": "요약 점수", "en": "summarization score"},
    "summary_semantic_drift": {"ko": "요약 의미 이탈", "en": "summary drift"},
    "citation_accuracy": {"ko": "출처 정확도", "en": "citation accuracy"},
    "semantic_similarity": {"ko": "정답과의 의미 유사도", "en": "semantic similarity"},
    "summary_rouge_l": {"ko": "요약 ROUGE-L", "en": "summary ROUGE-L"},
    "judge_correctness": {"ko": "정답 일치도 (LLM 판정)", "en": "correctness (LLM judge)"},
    "judge_completeness": {"ko": "답변 완전성 (LLM 판정)", "en": "completeness (LLM judge)"},
    "judge_citation_accuracy": {"ko": "출처 정확도 (LLM 판정)", "en": "citation accuracy (LLM judge)"},
}


def flag_text(code: str, lang: str) -> str:
    """An evaluation flag code as a short phrase in `lang` (metric codes: the metric's name and what failed)."""
    lang = lang_of(lang)
    if code in FLAG_REASONS:
        return FLAG_REASONS[code][lang]
    for suffix, words in FLAG_SUFFIX.items():
        if code.endswith(suffix):
            metric = code[: -len(suffix)].split("_", 1)[-1].lower()  # "P0-1_CONTEXT_RECALL" → context_recall
            return f"{METRICS.get(metric, {}).get(lang, metric.replace('_', ' '))} {words[lang]}"
    return code.lower().replace("_", " ")


def metric_name(key: str, lang: str) -> str:
    """A metric as the report names it: its key in English (as the report always read), its name in Korean (a
    ranking metric such as recall@10, or a metric with no name here, keeps its key)."""
    if lang_of(lang) == "en":
        return key
    if key.startswith("metric:"):  # an operations measure over a metric
        return metric_name(key.partition(":")[2], lang)
    return METRICS.get(key, {}).get("ko") or VALUES.get(key, key)


def value_word(value: str, lang: str) -> str:
    """A code-like value of the summary in `lang` (a claim failure pattern "unsupported: CODE" keeps its code)."""
    if lang_of(lang) == "en":
        return value
    head, sep, code = value.partition(": ")
    if sep and head in VALUES:
        return f"{VALUES[head]}: {code}"
    return VALUES.get(value, value)


def level_word(level: str, lang: str) -> str:
    return LEVELS.get(level, {}).get(lang_of(lang), level)


def heads(key: str, lang: str) -> list[str]:
    """A table's column headers from `REPORT`."""
    return REPORT[lang_of(lang)][key].split("|")
