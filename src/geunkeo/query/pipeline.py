"""The one query pipeline: a raw query in, a `QueryPlan` out, every stage timed and explained in the trace.

Stages: validate → formality → colloquial rewrite → terms (the user's own words weigh 1.0, the rewrite's new
terms `rewrite_weight`) → domain vocabulary (slang → regulation terms; the other language's glossary terms when
the query's language differs from the index's documents; weights in data/domain_vocabulary.json) → morphological
variants (`morph_weight`) → synonyms (`synonym_weight`) → hybrid
weights. Each expansion goes through the shared analyzer, so BM25 only ever sees terms in the index's
vocabulary. The dense side sees the user's words first and the formal rewrite second.

Each stage is an object called `(plan, context) -> plan` (`QueryStage`), named as its stage in the trace;
`QueryPipeline.stages` is their list (`default_stages()`), and `plan` runs it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Protocol

from geunkeo.config import Settings
from geunkeo.errors import ConfigError, QueryError
from geunkeo.query.base import QueryPlan
from geunkeo.query.colloquial import ColloquialTransformer, TransformResult
from geunkeo.query.formality import Formality, FormalityDetector
from geunkeo.query.morph import MorphologicalExpander
from geunkeo.query.morphs import analyzer_terms
from geunkeo.query.paths import user_vocabulary_path
from geunkeo.query.synonyms import SynonymExpander
from geunkeo.query.vocabulary import DomainVocabulary
from geunkeo.query.weights import HybridWeightOptimizer
from geunkeo.text.kiwi import get_kiwi
from geunkeo.text.patterns import HANGUL, detect_lang
from geunkeo.trace import StageRecord

TOGGLES = ("colloquial", "morph_expansion", "synonyms", "formality_weights", "vocabulary", "glossary")
OVERRIDES = (*TOGGLES, "dense_weight", "fusion", "mode")
_MODES = ("bm25", "dense", "hybrid")
_CONTROL = re.compile(r"[\u0000-\u0008\u000b-\u001f\u007f\u200b-\u200f\ufeff]")


class QueryPipeline:
    """Builds `QueryPlan`s; one instance per index/process (stages cache their work)."""

    def __init__(self, settings: Settings | None = None, tuned: dict | None = None,
                 index_langs: dict[str, int] | None = None):
        self.settings = settings or Settings()
        # languages of the index's documents (manifest.langs); None = unknown, so the glossary adds both ways
        self.index_langs = index_langs
        qs = self.settings.query
        self.detector = FormalityDetector()
        self.transformer = ColloquialTransformer.from_settings(qs)
        self.transformer.detector = self.detector
        self.expander = MorphologicalExpander(qs.morph_mode)
        self._synonyms: SynonymExpander | None = None  # built on first use: it analyses every group member
        self._vocabulary: DomainVocabulary | None = None
        self.weights = HybridWeightOptimizer(self.settings.retrieve, tuned)
        self.stages: list[QueryStage] = default_stages()
        # Load Kiwi (seconds) and the synonym table now, so stage timings in traces measure the query only.
        get_kiwi()
        if qs.synonyms:
            _ = self.synonyms
        if qs.vocabulary or qs.glossary:
            _ = self.vocabulary

    @property
    def synonyms(self) -> SynonymExpander:
        if self._synonyms is None:
            self._synonyms = SynonymExpander(self.settings.query.user_synonyms)
        return self._synonyms

    @property
    def vocabulary(self) -> DomainVocabulary:
        if self._vocabulary is None:
            self._vocabulary = DomainVocabulary(user_vocabulary_path())
        return self._vocabulary

    def _other_langs(self, lang: str) -> list[str]:
        """Glossary directions for a query in `lang`: the other language, if the index has (or may have) it."""
        other = "ko" if lang == "en" else "en"
        langs = self.index_langs
        return [other] if langs is None or langs.get(other, 0) > 0 else []

    def plan(self, query: str, trace=None, **overrides) -> QueryPlan:
        """The plan for one query. `overrides` flips stage toggles or sets dense_weight / fusion / mode per call.

        Each of `self.stages` takes the plan and the call's `PlanContext` and returns the plan; a stage with a
        `name` is timed in the trace under it."""
        bad = sorted(set(overrides) - set(OVERRIDES))
        if bad:
            raise ConfigError(f"unknown query override(s) {bad}; allowed: {', '.join(OVERRIDES)}")
        qs = self.settings.query
        ctx = PlanContext(self, {t: bool(overrides.get(t, getattr(qs, t))) for t in TOGGLES}, overrides)
        plan = QueryPlan(original=query if isinstance(query, str) else repr(query), text="", rewritten="")
        if trace is not None:
            plan.trace = trace
        ctx.query = query
        for stage in self.stages:
            if stage.timed:
                with plan.trace.stage(stage.name) as ctx.rec:
                    plan = stage(plan, ctx)
            else:
                plan = stage(plan, ctx)
        res = ctx.rewrite
        plan.bm25_terms = ctx.terms
        plan.dense_texts = [plan.text] + ([res.transformed] if res.changed else [])
        plan.info.update(
            transform=res.to_dict(), formality_evidence=ctx.form.evidence, term_sources=ctx.sources,
            stages=dict(ctx.on),
        )
        return plan

    def _validate(self, query, tr) -> str:
        if not isinstance(query, str):
            raise QueryError(f"a query must be text, got {type(query).__name__}")
        bad = _SURROGATE.search(query)
        if bad:
            # a lone UTF-16 half (JSON "\\ud800", a broken copy) is not text: Kiwi fails on it deep inside
            raise QueryError(f"the query is not valid Unicode text: a lone surrogate U+{ord(bad.group()):04X} at "
                             f"character {bad.start() + 1}; retype the question")
        text = unicodedata.normalize("NFC", _CONTROL.sub(" ", query))
        text = " ".join(text.split())
        if not text:
            raise QueryError("the query is empty: type a question or keywords, e.g. '휴학 신청 방법'")
        if not any(c.isalnum() for c in text):
            raise QueryError("the query has no words, only punctuation or symbols: type a question or keywords, "
                             "e.g. '휴학 신청 방법'")
        script = _foreign_script(text)
        if script:
            raise QueryError(f"geunkeo searches Korean and English documents; this query is written in {script}: "
                             "ask in Korean or English (검색은 한국어와 영어로 할 수 있습니다)")
        limit = self.settings.query.max_query_chars
        if len(text) > limit:
            tr.warn(f"query truncated from {len(text)} to {limit} characters (query.max_query_chars)")
            cut = text[:limit]
            # cut at the last space so no word is split in half, unless that would lose most of the text
            text = cut.rsplit(" ", 1)[0] if " " in cut[limit // 2 :] else cut
        return text


@dataclass
class PlanContext:
    """What the stages of one `plan` call share besides the plan: the pipeline's parts, the call's toggles and
    overrides, and the working term table (term → weight, term → where it came from, expansions still allowed)."""

    pipeline: QueryPipeline
    on: dict[str, bool]  # TOGGLES → on/off for this call (settings, then overrides)
    overrides: dict[str, Any]
    query: Any = None  # the raw query, before validation
    form: Formality = field(default_factory=lambda: Formality("formal", 1.0))
    rewrite: TransformResult = field(default_factory=lambda: TransformResult("", ""))
    terms: dict[str, float] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    budget: int = 0
    vocabulary_added: list[str] = field(default_factory=list)
    rec: StageRecord = field(default_factory=lambda: StageRecord(""))  # the running stage's trace record

    def expand(self, term: str, weight: float, source: str, added: list[str]) -> None:
        """Adds an expansion term the table lacks while the stage's `added` is within the budget."""
        if term not in self.terms and len(added) < self.budget:
            self.terms[term], self.sources[term] = weight, source
            added.append(term)


class QueryStage(Protocol):
    """One step of `QueryPipeline.plan`: `(plan, context) -> plan`. `name` is its trace stage; an untimed stage
    (`timed = False`) only records decisions. `toggles` are the settings / overrides that switch it off."""

    name: str
    timed: bool
    toggles: tuple[str, ...]

    def __call__(self, plan: QueryPlan, ctx: PlanContext) -> QueryPlan: ...


class _Stage:
    name = ""
    timed = True
    toggles: tuple[str, ...] = ()


class Validate(_Stage):
    """Normalise the text (NFC, controls, spaces), refuse what is not a question, truncate; detect its language."""

    name = "query.validate"

    def __call__(self, plan: QueryPlan, ctx: PlanContext) -> QueryPlan:
        plan.text = ctx.pipeline._validate(ctx.query, plan.trace)
        plan.lang = detect_lang(plan.text)
        ctx.rec.info.update(chars=len(plan.text), lang=plan.lang)
        return plan


class DetectFormality(_Stage):
    name = "query.formality"

    def __call__(self, plan: QueryPlan, ctx: PlanContext) -> QueryPlan:
        form = ctx.form = ctx.pipeline.detector.detect(plan.text)
        plan.formality, plan.formality_score = form.label, form.score
        ctx.rec.info.update(label=form.label, score=form.score, ending=form.ending)
        plan.trace.decide("query.formality", form.label, score=form.score, evidence=form.evidence)
        return plan


class Transform(_Stage):
    """Colloquial → formal rewrite (the dense side's second text; new terms at `rewrite_weight`)."""

    name = "query.transform"
    toggles: tuple[str, ...] = ("colloquial",)

    def __call__(self, plan: QueryPlan, ctx: PlanContext) -> QueryPlan:
        text, form = plan.text, ctx.form
        if ctx.on["colloquial"]:
            res = ctx.pipeline.transformer.transform(text, form, queue=False)
        else:
            res = TransformResult(text, text, formality=form.label, reason="stage off")
        ctx.rewrite = res
        plan.rewritten = res.transformed
        ctx.rec.info.update(changed=res.changed, patterns=[p.pattern for p in res.patterns], reason=res.reason)
        plan.trace.decide("query.transform", "rewritten" if res.changed else "kept", rewritten=res.transformed,
                          contexts=res.contexts, confidence=res.confidence, reason=res.reason)
        return plan


class Terms(_Stage):
    """The user's own analyzer terms at 1.0, the rewrite's new ones at `rewrite_weight`."""

    name = "query.terms"

    def __call__(self, plan: QueryPlan, ctx: PlanContext) -> QueryPlan:
        qs, res, terms, sources = ctx.pipeline.settings.query, ctx.rewrite, ctx.terms, ctx.sources
        for t in analyzer_terms(plan.text):
            terms.setdefault(t, 1.0)
            sources.setdefault(t, "query")
        if res.changed:
            for t in analyzer_terms(res.transformed):
                # The rewrite is a noun phrase; a verb lemma from it is Kiwi misreading a bare noun out of
                # context (안내 → 안 + 내다), so only the user's own text contributes verbs.
                if t not in terms and not (t.endswith("다") and HANGUL.search(t)):
                    terms[t], sources[t] = qs.rewrite_weight, "rewrite"
        ctx.rec.info.update(n=len(terms))
        ctx.budget = qs.max_expansions
        return plan


class Vocabulary(_Stage):
    """Domain vocabulary: slang → regulation terms; the other language's glossary terms when the index has it."""

    name = "query.vocabulary"
    toggles: tuple[str, ...] = ("vocabulary", "glossary")

    def __call__(self, plan: QueryPlan, ctx: PlanContext) -> QueryPlan:
        pipe, on, text, sources = ctx.pipeline, ctx.on, plan.text, ctx.sources
        added = ctx.vocabulary_added
        own = analyzer_terms(text)
        found: list[tuple[str, str, float]] = []  # (term, source, weight)
        vw = pipe.vocabulary.weights if (on["vocabulary"] or on["glossary"]) else {}
        if on["vocabulary"] and HANGUL.search(text):
            found += [(h.term, f"slang:{h.source}", vw["slang"]) for h in pipe.vocabulary.expand_slang(text, list(own))]
        targets = pipe._other_langs(plan.lang) if on["glossary"] else []
        if "ko" in targets:
            found += [(h.term, f"glossary:{h.source}", vw["glossary"]) for h in pipe.vocabulary.expand_en_ko(list(own))]
        elif "en" in targets:
            found += [(h.term, f"glossary:{h.source}", vw["glossary"])
                      for h in pipe.vocabulary.expand_ko_en(text, list(own))]
        for t, src, w in found:
            ctx.expand(t, w, src, added)
        ctx.rec.info.update(added=added, glossary_to=targets)
        what = ("stage off" if not (on["vocabulary"] or on["glossary"]) else f"added {len(added)}")
        plan.trace.decide("query.vocabulary", what, terms={t: sources[t] for t in added}, glossary_to=targets,
                          index_langs=sorted(pipe.index_langs) if pipe.index_langs is not None else "unknown")
        ctx.budget -= len(added)
        return plan


class QueuePending(_Stage):
    """Queue for review a colloquial query that neither the pattern dictionary nor the vocabulary explained."""

    name = "query.pending"
    timed = False

    def __call__(self, plan: QueryPlan, ctx: PlanContext) -> QueryPlan:
        res, tr = ctx.rewrite, plan.trace
        if res.unexplained:
            if any(ctx.sources[t].startswith("slang:") for t in ctx.vocabulary_added):
                res.reason += "; the domain vocabulary explained it: not queued"
            else:
                ctx.pipeline.transformer.queue(res)
                if res.queued:
                    tr.warn(f"colloquial query not covered by the pattern dictionary; queued for review: "
                            f"{plan.text[:80]}")
            tr.decide("query.pending", "queued" if res.queued else "not queued", reason=res.reason)
        return plan


class Morph(_Stage):
    """Morphological variants of a Korean query at `morph_weight`."""

    name = "query.morph"
    toggles: tuple[str, ...] = ("morph_expansion",)

    def __call__(self, plan: QueryPlan, ctx: PlanContext) -> QueryPlan:
        pipe = ctx.pipeline
        added: list[str] = []
        if ctx.on["morph_expansion"] and plan.lang != "en":
            exp = pipe.expander.expand(plan.text)
            # Lemmas are built in the analyzer's own term format (noun + 하 + 다, stem + 다; a test holds
            # this), so they need no second Kiwi pass; Kiwi's alternative nouns do go through the analyzer.
            # Surface forms (휴학한, 휴학할) fold back into 휴학 + 휴학하다 under the analyzer, which the
            # lemma already yields, so they are listed in the trace but add no BM25 term.
            pairs = [(v, (v,)) for v in exp.lemmas] + [(v, analyzer_terms(v)) for v in exp.alternatives]
            for v, vterms in pairs:
                for t in vterms:
                    ctx.expand(t, pipe.settings.query.morph_weight, f"morph:{v}", added)
            ctx.rec.info.update(mode=pipe.expander.mode, variants=exp.as_dict())
        ctx.rec.info.update(added=added)
        plan.trace.decide("query.morph", f"added {len(added)}" if ctx.on["morph_expansion"] else "stage off",
                          terms=added)
        ctx.budget -= len(added)
        return plan


class Synonyms(_Stage):
    """Synonym groups at `synonym_weight` (not for a formal query unless `synonyms_for_formal`)."""

    name = "query.synonyms"
    toggles: tuple[str, ...] = ("synonyms",)

    def __call__(self, plan: QueryPlan, ctx: PlanContext) -> QueryPlan:
        qs, terms, sources = ctx.pipeline.settings.query, ctx.terms, ctx.sources
        added: list[str] = []
        # A formal query is already in the documents' register: on the sample gold set synonyms only ever
        # cost formal queries rank, so they bridge vocabulary for the other registers unless configured.
        skip_formal = ctx.form.label == "formal" and not qs.synonyms_for_formal
        if ctx.on["synonyms"] and not skip_formal:
            for hit in ctx.pipeline.synonyms.expand(list(terms)):
                ctx.expand(hit.term, qs.synonym_weight, hit.source, added)
        ctx.rec.info.update(added=added)
        what = "stage off" if not ctx.on["synonyms"] else "formal query: skipped" if skip_formal else \
            f"added {len(added)}"
        plan.trace.decide("query.synonyms", what, terms={t: sources[t] for t in added})
        return plan


class Weights(_Stage):
    """Fusion method, dense weight (by formality, tuned or overridden) and search mode."""

    name = "query.weights"
    toggles: tuple[str, ...] = ("formality_weights",)

    def __call__(self, plan: QueryPlan, ctx: PlanContext) -> QueryPlan:
        pipe, overrides, tr = ctx.pipeline, ctx.overrides, plan.trace
        d = pipe.weights.decide(ctx.form.label, ctx.on["formality_weights"], overrides.get("fusion"),
                                overrides.get("dense_weight"))
        plan.fusion, plan.dense_weight = d.fusion, d.dense_weight
        mode = overrides.get("mode") or pipe.settings.retrieve.mode
        if mode not in _MODES:
            raise ConfigError(f"mode must be one of {', '.join(_MODES)}, got {mode!r}")
        if not ctx.terms and mode != "dense":
            tr.warn("the query has no searchable words for BM25 (emoji or symbols only?): dense search only")
            mode = "dense"
        plan.mode = mode
        ctx.rec.info.update(d.to_dict(), mode=mode)
        tr.decide("query.weights", f"{d.fusion} dense={d.dense_weight}", source=d.source, reason=d.reason, mode=mode)
        return plan


def default_stages() -> list[QueryStage]:
    """The stages in order; their names are the trace's."""
    return [Validate(), DetectFormality(), Transform(), Terms(), Vocabulary(), QueuePending(), Morph(), Synonyms(),
            Weights()]


_SURROGATE = re.compile("[\ud800-\udfff]")
_SCRIPTS = (("Japanese", ("\u3040", "\u30ff")), ("Chinese", ("\u4e00", "\u9fff")), ("Cyrillic", ("\u0400", "\u04ff")),
            ("Arabic", ("\u0600", "\u06ff")), ("Thai", ("\u0e00", "\u0e7f")), ("Greek", ("\u0370", "\u03ff")),
            ("Devanagari", ("\u0900", "\u097f")), ("Hebrew", ("\u0590", "\u05ff")))


def _foreign_script(text: str) -> str | None:
    """The script a query is written in when it has no Hangul and no Latin letter at all (a question with a few
    Hanja or a Greek symbol among Korean words is Korean)."""
    letters = [c for c in text if c.isalpha()]
    if not letters or any(HANGUL.match(c) or ("a" <= c.lower() <= "z") or c in "ÀÁÂÄÇÈÉÊËÍÎÏÑÓÔÖÚÛÜàáâäçèéêëíîïñóôöúûü"
                          for c in letters):
        return None
    counts = {name: sum(1 for c in letters if lo <= c <= hi) for name, (lo, hi) in _SCRIPTS}
    name, n = max(counts.items(), key=lambda kv: kv[1])
    if counts["Japanese"]:
        name, n = "Japanese", n  # kana mark Japanese even among kanji
    return name if n else "a script other than Korean or English"
