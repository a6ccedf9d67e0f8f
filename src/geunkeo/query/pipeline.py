"""The one query pipeline: a raw query in, a `QueryPlan` out, every stage timed and explained in the trace.

Stages: validate → formality → colloquial rewrite → terms (the user's own words weigh 1.0, the rewrite's new
terms `rewrite_weight`) → domain vocabulary (slang → regulation terms; the other language's glossary terms when
the query's language differs from the index's documents; weights in data/domain_vocabulary.json) → morphological
variants (`morph_weight`) → synonyms (`synonym_weight`) → hybrid
weights. Each expansion goes through the shared analyzer, so BM25 only ever sees terms in the index's
vocabulary. The dense side sees the user's words first and the formal rewrite second.
"""

from __future__ import annotations

import re
import unicodedata

from geunkeo.config import Settings
from geunkeo.errors import ConfigError, QueryError
from geunkeo.query.base import QueryPlan
from geunkeo.query.colloquial import ColloquialTransformer, TransformResult
from geunkeo.query.formality import FormalityDetector
from geunkeo.query.morph import MorphologicalExpander
from geunkeo.query.morphs import analyzer_terms
from geunkeo.query.paths import user_vocabulary_path
from geunkeo.query.synonyms import SynonymExpander
from geunkeo.query.vocabulary import DomainVocabulary
from geunkeo.query.weights import HybridWeightOptimizer
from geunkeo.text.kiwi import get_kiwi
from geunkeo.text.patterns import HANGUL, detect_lang

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
        """The plan for one query. `overrides` flips stage toggles or sets dense_weight / fusion / mode per call."""
        bad = sorted(set(overrides) - set(OVERRIDES))
        if bad:
            raise ConfigError(f"unknown query override(s) {bad}; allowed: {', '.join(OVERRIDES)}")
        qs = self.settings.query
        on = {t: bool(overrides.get(t, getattr(qs, t))) for t in TOGGLES}
        plan = QueryPlan(original=query if isinstance(query, str) else repr(query), text="", rewritten="")
        if trace is not None:
            plan.trace = trace
        tr = plan.trace

        with tr.stage("query.validate") as rec:
            text = self._validate(query, tr)
            plan.text = text
            plan.lang = detect_lang(text)
            rec.info.update(chars=len(text), lang=plan.lang)

        with tr.stage("query.formality") as rec:
            form = self.detector.detect(text)
            plan.formality, plan.formality_score = form.label, form.score
            rec.info.update(label=form.label, score=form.score, ending=form.ending)
            tr.decide("query.formality", form.label, score=form.score, evidence=form.evidence)

        with tr.stage("query.transform") as rec:
            if on["colloquial"]:
                res = self.transformer.transform(text, form, queue=False)
            else:
                res = TransformResult(text, text, formality=form.label, reason="stage off")
            plan.rewritten = res.transformed
            rec.info.update(changed=res.changed, patterns=[p.pattern for p in res.patterns], reason=res.reason)
            tr.decide("query.transform", "rewritten" if res.changed else "kept", rewritten=res.transformed,
                      contexts=res.contexts, confidence=res.confidence, reason=res.reason)

        sources: dict[str, str] = {}
        with tr.stage("query.terms") as rec:
            terms: dict[str, float] = {}
            for t in analyzer_terms(text):
                terms.setdefault(t, 1.0)
                sources.setdefault(t, "query")
            if res.changed:
                for t in analyzer_terms(res.transformed):
                    # The rewrite is a noun phrase; a verb lemma from it is Kiwi misreading a bare noun out of
                    # context (안내 → 안 + 내다), so only the user's own text contributes verbs.
                    if t not in terms and not (t.endswith("다") and HANGUL.search(t)):
                        terms[t], sources[t] = qs.rewrite_weight, "rewrite"
            rec.info.update(n=len(terms))
        budget = qs.max_expansions

        with tr.stage("query.vocabulary") as rec:
            added: list[str] = []
            own = analyzer_terms(text)
            found: list[tuple[str, str, float]] = []  # (term, source, weight)
            vw = self.vocabulary.weights if (on["vocabulary"] or on["glossary"]) else {}
            if on["vocabulary"] and HANGUL.search(text):
                found += [(h.term, f"slang:{h.source}", vw["slang"]) for h in self.vocabulary.expand_slang(text, list(own))]
            targets = self._other_langs(plan.lang) if on["glossary"] else []
            if "ko" in targets:
                found += [(h.term, f"glossary:{h.source}", vw["glossary"]) for h in self.vocabulary.expand_en_ko(list(own))]
            elif "en" in targets:
                found += [(h.term, f"glossary:{h.source}", vw["glossary"])
                          for h in self.vocabulary.expand_ko_en(text, list(own))]
            for t, src, w in found:
                if t not in terms and len(added) < budget:
                    terms[t], sources[t] = w, src
                    added.append(t)
            rec.info.update(added=added, glossary_to=targets)
            what = ("stage off" if not (on["vocabulary"] or on["glossary"]) else f"added {len(added)}")
            tr.decide("query.vocabulary", what, terms={t: sources[t] for t in added}, glossary_to=targets,
                      index_langs=sorted(self.index_langs) if self.index_langs is not None else "unknown")
        budget -= len(added)
        if res.unexplained:
            # queue only what neither the pattern dictionary nor the domain vocabulary explained
            if any(sources[t].startswith("slang:") for t in added):
                res.reason += "; the domain vocabulary explained it: not queued"
            else:
                self.transformer.queue(res)
                if res.queued:
                    tr.warn(f"colloquial query not covered by the pattern dictionary; queued for review: {text[:80]}")
            tr.decide("query.pending", "queued" if res.queued else "not queued", reason=res.reason)

        with tr.stage("query.morph") as rec:
            added = []
            if on["morph_expansion"] and plan.lang != "en":
                exp = self.expander.expand(text)
                # Lemmas are built in the analyzer's own term format (noun + 하 + 다, stem + 다; a test holds
                # this), so they need no second Kiwi pass; Kiwi's alternative nouns do go through the analyzer.
                # Surface forms (휴학한, 휴학할) fold back into 휴학 + 휴학하다 under the analyzer, which the
                # lemma already yields, so they are listed in the trace but add no BM25 term.
                pairs = [(v, (v,)) for v in exp.lemmas] + [(v, analyzer_terms(v)) for v in exp.alternatives]
                for v, vterms in pairs:
                    for t in vterms:
                        if t not in terms and len(added) < budget:
                            terms[t], sources[t] = qs.morph_weight, f"morph:{v}"
                            added.append(t)
                rec.info.update(mode=self.expander.mode, variants=exp.as_dict())
            rec.info.update(added=added)
            tr.decide("query.morph", f"added {len(added)}" if on["morph_expansion"] else "stage off", terms=added)
        budget -= len(added)

        with tr.stage("query.synonyms") as rec:
            added = []
            # A formal query is already in the documents' register: on the sample gold set synonyms only ever
            # cost formal queries rank, so they bridge vocabulary for the other registers unless configured.
            skip_formal = form.label == "formal" and not qs.synonyms_for_formal
            if on["synonyms"] and not skip_formal:
                for hit in self.synonyms.expand(list(terms)):
                    if hit.term not in terms and len(added) < budget:
                        terms[hit.term], sources[hit.term] = qs.synonym_weight, hit.source
                        added.append(hit.term)
            rec.info.update(added=added)
            what = "stage off" if not on["synonyms"] else "formal query: skipped" if skip_formal else f"added {len(added)}"
            tr.decide("query.synonyms", what, terms={t: sources[t] for t in added})

        with tr.stage("query.weights") as rec:
            d = self.weights.decide(form.label, on["formality_weights"], overrides.get("fusion"),
                                    overrides.get("dense_weight"))
            plan.fusion, plan.dense_weight = d.fusion, d.dense_weight
            mode = overrides.get("mode") or self.settings.retrieve.mode
            if mode not in _MODES:
                raise ConfigError(f"mode must be one of {', '.join(_MODES)}, got {mode!r}")
            if not terms and mode != "dense":
                tr.warn("the query has no searchable words for BM25 (emoji or symbols only?): dense search only")
                mode = "dense"
            plan.mode = mode
            rec.info.update(d.to_dict(), mode=mode)
            tr.decide("query.weights", f"{d.fusion} dense={d.dense_weight}", source=d.source, reason=d.reason,
                      mode=mode)

        plan.bm25_terms = terms
        plan.dense_texts = [text] + ([res.transformed] if res.changed else [])
        plan.info.update(
            transform=res.to_dict(), formality_evidence=form.evidence, term_sources=sources,
            stages={k: v for k, v in on.items()},
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
