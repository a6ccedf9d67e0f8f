"""LLM query stages: multi-query expansion (seed 001), HyDE with a hypothetical answer and title (seed 004), and
the question translated into the documents' language when the index holds none in the question's (`translate`).

Both are opt-in (`query.multi_query`, `query.hyde`), run in parallel, go through the shared response cache,
and degrade: an unreachable, slow or malformed LLM skips the feature with a warning in the trace, and the plan
is otherwise left exactly as it was. The retriever executes what they add (`variants`, `hyde_*`).

Malformed means anything but the JSON the prompt asks for (`{"queries": [...]}` or a bare list of strings;
`{"title": ..., "answer": ...}`), after the repairs of `geunkeo.llm.parsing`: the reply raises LLMBadOutput, the
stage is skipped and the trace says so. Multi-query variants must also look like queries for this question
(`on_topic`); when none does, that is LLMBadOutput too.
"""

from __future__ import annotations

import re
from concurrent.futures import Future, ThreadPoolExecutor, wait

from geunkeo.config import Settings
from geunkeo.errors import LLMBadOutput, LLMError
from geunkeo.llm import prompts
from geunkeo.llm.base import LLM
from geunkeo.llm.calls import complete_traced
from geunkeo.llm.parsing import parse_fields, parse_string_list
from geunkeo.query.base import QueryPlan
from geunkeo.text.patterns import HANGUL, LATIN
from geunkeo.trace import Trace

MAX_VARIANTS = 3
# A "query" longer than this is the model answering instead of rewriting.
MAX_VARIANT_CHARS = 300
MAX_HYDE_CHARS = 1500

# One shared pool: stages of concurrent searches queue here instead of spawning threads per query.
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="geunkeo-llm")


_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+|(?<=다\.)|(?<=요\.)")
_WORD = re.compile(r"\w{2,}")
# The letters a variant of a question in this language should be written in ("mixed": either).
_SCRIPTS = {"ko": (HANGUL,), "en": (LATIN,), "mixed": (HANGUL, LATIN)}


def _norm(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())


def dedupe_variants(candidates: list[str], existing: list[str], limit: int = MAX_VARIANTS,
                    max_chars: int = MAX_VARIANT_CHARS) -> list[str]:
    """Variants that differ from the query texts and from each other (ignoring case, spaces, punctuation)."""
    seen = {_norm(t) for t in existing if t}
    out: list[str] = []
    for c in candidates:
        c = " ".join(c.split())
        key = _norm(c)
        if not key or key in seen or len(c) > max_chars:
            continue
        seen.add(key)
        out.append(c)
        if len(out) == limit:
            break
    return out


def on_topic(variant: str, question_texts: list[str], terms: list[str], lang: str) -> bool:
    """Whether `variant` can be a search query for the question: it shares a word with it, or it is written in
    the question's script.

    A shared word is one of the question's analysed terms (`terms`, the Kiwi terms of the plan) found in the
    variant, or a word of two or more characters that both contain. The script is Hangul for a Korean question,
    Latin letters for an English one, either for a mixed one. So "housing payment" for "기숙사비 어떻게 내?" is
    dropped (no Hangul, nothing shared), "HSK score" for "HSK 점수 기준" is kept (shares HSK). This only
    catches replies that are clearly not queries for this question; the JSON shape is the main rule."""
    v = variant.casefold()
    if any(t and t.casefold() in v for t in terms):
        return True
    words = {w for t in question_texts if t for w in _WORD.findall(t.casefold())}
    if words & set(_WORD.findall(v)):
        return True
    return any(script.search(variant) for script in _SCRIPTS.get(lang, (HANGUL, LATIN)))


def drop_repeated_sentences(text: str) -> str:
    """Small models at temperature 0 loop ("A. B. B. B. B…"): keep each sentence once, in order."""
    seen: set[str] = set()
    kept: list[str] = []
    for sentence in _SENTENCE_END.split(text.strip()):
        key = _norm(sentence)
        # a cut-off copy of an earlier sentence (the output hit max_tokens mid-loop) counts as a repeat
        if key and key not in seen and not any(k.startswith(key) for k in seen):
            seen.add(key)
            kept.append(sentence.strip())
    return " ".join(kept)


def _multi_query(plan: QueryPlan, llm: LLM, trace: Trace) -> list[str]:
    # the rule rewrite, not the user's own words: with the local 1.5B model the colloquial original gave worse
    # variants (autorag-ko dev colloquial hit@1 0.662 with the rewrite, 0.634 with the original; benchmarks/colloquial.py)
    question = plan.rewritten or plan.text
    messages = prompts.multi_query(question, MAX_VARIANTS, plan.lang)
    out = complete_traced(llm, messages, trace=trace, feature="multi_query", json=True, max_tokens=160)
    candidates = parse_string_list(out.text, key="queries")
    texts = [plan.original, plan.text, plan.rewritten]
    kept = [c for c in candidates if on_topic(c, texts, list(plan.bm25_terms), plan.lang)]
    if len(kept) < len(candidates):
        dropped = [c for c in candidates if c not in kept]
        trace.decide("query.multi_query", f"dropped {len(dropped)} variants not in the question's language",
                     dropped=dropped,
                     reason=f"no word in common with the question and not in its script (lang {plan.lang})")
    if not kept:
        raise LLMBadOutput(f"no variant shares a word or the script with the question: {candidates[:3]!r}")
    variants = dedupe_variants(kept, texts)
    if not variants:
        raise LLMBadOutput("the model's variants all repeat the query")
    return variants


def _translate(plan: QueryPlan, llm: LLM, trace: Trace, target: str) -> str:
    messages = prompts.translate(plan.original, target)
    out = complete_traced(llm, messages, trace=trace, feature="translate", json=True, max_tokens=120)
    text = " ".join(parse_fields(out.text, ("query",))["query"].split())
    if not text or len(text) > MAX_VARIANT_CHARS:
        raise LLMBadOutput(f"the translation is empty or too long ({len(text)} characters)")
    if not any(script.search(text) for script in _SCRIPTS.get(target, (HANGUL, LATIN))):
        raise LLMBadOutput(f"the translation is not written in the documents' language ({target}): {text[:80]!r}")
    return text


def add_translation(plan: QueryPlan, translation: str, weight: float = 1.0) -> None:
    """Search the translation too: its BM25 terms join the plan's (source "translation"; the answer stage reads
    them as the question's words in the documents' language) and it is embedded as a variant."""
    from geunkeo.text.analyzer import get_analyzer

    sources = plan.info.setdefault("term_sources", {})
    for term in get_analyzer().terms(translation):
        if term not in plan.bm25_terms:
            plan.bm25_terms[term] = weight
            sources[term] = "translation"
    plan.variants = [*plan.variants, translation]
    plan.info["translation"] = translation


def _hyde(plan: QueryPlan, llm: LLM, trace: Trace) -> tuple[str | None, str | None]:
    messages = prompts.hyde(plan.rewritten or plan.text, plan.lang)
    out = complete_traced(llm, messages, trace=trace, feature="hyde", json=True, max_tokens=240)
    # the prompt asks for {"title": "...", "answer": "..."}; parse_fields accepts that object and nothing else
    fields = parse_fields(out.text, ("title", "answer"))
    answer = drop_repeated_sentences(fields["answer"])[:MAX_HYDE_CHARS] or None
    title = " ".join(fields["title"].split())[:MAX_VARIANT_CHARS] or None
    if not answer and not title:
        raise LLMBadOutput("HyDE output has neither an answer nor a title")
    return answer, title


def _hyde_mode(wanted: str, answer: str | None, title: str | None) -> str:
    """The mode the generated texts support: combined needs both; with one missing, use the other."""
    if wanted == "combined" and answer and title:
        return "combined"
    if wanted in ("combined", "content") and answer:
        return "content"
    if wanted in ("combined", "title") and title:
        return "title"
    return "off"


# what a stage's job returns: multi_query its variants, hyde (answer, title), translate the translation
_StageResult = list[str] | tuple[str | None, str | None] | str


def _skip(plan: QueryPlan, feature: str, reason: str, error: str | None = None) -> None:
    """Record a skipped stage: a warning, and a decision naming the error class (e.g. LLMBadOutput) if any."""
    plan.trace.warn(f"{feature} skipped: {reason}")
    detail = {"error": error} if error else {}
    plan.trace.decide(f"query.{feature}", "skipped", reason=reason, **detail)


def apply_llm_stages(plan: QueryPlan, llm: LLM | None, settings: Settings, *, multi_query: bool | None = None,
                     hyde: str | None = None, translate_to: str | None = None) -> QueryPlan:
    """Add LLM variants, HyDE texts and (`translate_to`: the documents' language) the question's translation to
    `plan` as `settings.query` asks (`multi_query` and `hyde` override it for this call); never raises for LLM
    failures."""
    qs = settings.query
    want_hyde = qs.hyde if hyde is None else hyde
    wanted = {"multi_query": qs.multi_query if multi_query is None else multi_query, "hyde": want_hyde != "off",
              "translate": translate_to is not None}
    if not any(wanted.values()):
        return plan
    names = [f for f, on in wanted.items() if on]
    if llm is None:
        for f in names:
            _skip(plan, f, "no LLM configured (llm.provider = none)")
        return plan
    # Each job records its LLM call in a trace of its own, merged only if it finishes in time: a call that
    # outlives the deadline must not write into a trace the caller has already been given.
    jobs: dict[str, Future[_StageResult]] = {}
    job_traces: dict[str, Trace] = {}
    for feature, fn in (("multi_query", _multi_query), ("hyde", _hyde), ("translate", _translate)):
        if wanted[feature]:
            job_traces[feature] = Trace()
            extra = (translate_to,) if feature == "translate" else ()
            jobs[feature] = _POOL.submit(fn, plan, llm, job_traces[feature], *extra)
    applied: list[str] = []
    translations: list[str] = []
    with plan.trace.stage("query.llm_stages", features=names) as rec:
        done, _pending = wait(jobs.values(), timeout=qs.llm_deadline_s)
        for feature, fut in jobs.items():
            if fut not in done:
                # The call goes on in the background and lands in the cache for the next identical query.
                plan.trace.llm_calls.append({
                    "provider": llm.provider, "model": llm.model, "feature": feature, "cached": False,
                    "ms": round(qs.llm_deadline_s * 1000.0, 2),
                    "error": "deadline passed; the call goes on in the background and fills the cache"})
                _skip(plan, feature, f"no answer within {qs.llm_deadline_s:g} s (query.llm_deadline_s)")
                continue
            plan.trace.llm_calls.extend(job_traces[feature].llm_calls)
            plan.trace.decisions.extend(job_traces[feature].decisions)
            try:
                result = fut.result()
            except LLMError as e:
                _skip(plan, feature, f"{type(e).__name__}: {e}", error=type(e).__name__)
                continue
            except Exception as e:  # a bug in a stage must not take search down; it is reported, not hidden
                _skip(plan, feature, f"unexpected {type(e).__name__}: {e}", error=type(e).__name__)
                continue
            applied.append(feature)
            if isinstance(result, str):  # translate
                translations.append(result)
            elif isinstance(result, list):  # multi_query
                plan.variants = [*result, *plan.variants]
                plan.trace.decide("query.multi_query", f"{len(result)} variants", variants=result)
            else:  # hyde
                answer, title = result
                mode = _hyde_mode(want_hyde, answer, title)
                if mode != want_hyde:
                    plan.trace.warn(f"hyde: asked for {want_hyde}, generated texts support only {mode}")
                plan.hyde_answer, plan.hyde_title, plan.hyde_mode = answer, title, mode
                plan.trace.decide("query.hyde", f"mode {mode}", title=title, answer_chars=len(answer or ""))
        for translation in translations:
            add_translation(plan, translation)
            plan.trace.decide("query.translate", f"searched in {translate_to} too", translation=translation)
        rec.info["applied"] = applied
    return plan
