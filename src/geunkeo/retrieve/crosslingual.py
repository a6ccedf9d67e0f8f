"""Language bias at the top: a same-language hit that misses the question's concepts yields to an other-language
hit that has them all.

Both retrievers favour the query's language: BM25 matches the user's words in the user's language (the glossary's
translations weigh 0.5) and the small multilingual embedder ranks same-language passages higher. On an index that
holds an English insurance policy and a Korean 학칙, "How much tuition is refunded if I withdraw 45 days after the
semester starts?" then ranks the policy's withdrawal article first (it shares "withdraw", "days", "after"), although
only the Korean 제13조 speaks of 등록금, 반환 and 학기.

The question's *concepts* are the glossary entries the query stage found in it (plan term sources
"glossary:<phrase>→<translation>"). A chunk covers a concept when it holds every term of the phrase or of one of
its translations. When the top hit is in the query's language and covers under half of at least two concepts,
the first other-language hit (within the candidates) that covers all of them moves to the front. Nothing else
moves; a question without glossary concepts, or whose top hit covers them, is left as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from geunkeo.retrieve.base import Hit
from geunkeo.text.analyzer import get_analyzer

GLOSSARY = "glossary:"
MIN_CONCEPTS = 2
CROSSLINGUAL_POOL = 20  # fused candidates searched for the other-language hit
UNINDEXED = 0.999  # VectorStore.term_rarity of a term no chunk holds is 1.0


def glossary_concepts(term_sources: dict[str, str]) -> dict[str, list[frozenset[str]]]:
    """Concept (the glossary phrase found in the query) → its alternatives as term sets: the phrase's own terms and
    each translation term the query stage added for it."""
    analyzer = get_analyzer()
    concepts: dict[str, list[frozenset[str]]] = {}
    for term, source in term_sources.items():
        if not source.startswith(GLOSSARY) or "→" not in source:
            continue
        phrase = source[len(GLOSSARY):].split("→", 1)[0]
        if phrase not in concepts:
            own = frozenset(analyzer.terms(phrase))
            concepts[phrase] = [own] if own else []
        concepts[phrase].append(frozenset((term,)))
    return concepts


def coverage(chunk_terms: set[str], concepts: dict[str, list[frozenset[str]]]) -> float:
    """Share of `concepts` the chunk holds (all terms of at least one alternative)."""
    if not concepts:
        return 0.0
    held = sum(1 for alts in concepts.values() if any(alt <= chunk_terms for alt in alts))
    return held / len(concepts)


def unindexed_concepts(concepts: dict[str, list[frozenset[str]]],
                       rarity_of: Callable[[list[str]], dict[str, float]] | None) -> list[str]:
    """Concepts whose own phrase has a word no chunk of the index holds ("leave of absence" over an index whose
    only English documents are insurance terms): no document in the question's language can be about them."""
    if rarity_of is None:
        return []
    analyzer = get_analyzer()
    out = []
    for phrase in concepts:
        own = analyzer.terms(phrase)
        if own and any(r >= UNINDEXED for r in rarity_of(own).values()):
            out.append(phrase)
    return out


def promote_covering_other_language(hits: list[Hit], query_lang: str, term_sources: dict[str, str],
                                    terms_of: Callable[[str], list[str]],
                                    more: Callable[[], list[Hit]] | None = None,
                                    rarity_of: Callable[[list[str]], dict[str, float]] | None = None,
                                    ) -> tuple[list[Hit], dict | None]:
    """`hits` with an other-language hit covering every concept moved first when the same-language top hit covers
    under half of them; `more` gives further candidates, asked for only then. One concept is enough when a word of
    its phrase is in no chunk of the index (`rarity_of`: VectorStore.term_rarity). The second value describes the
    move (None when nothing moved)."""
    if not hits or hits[0].chunk.lang != query_lang:
        return hits, None
    concepts = glossary_concepts(term_sources)
    if len(concepts) < MIN_CONCEPTS and not unindexed_concepts(concepts, rarity_of):
        return hits, None
    top_cov = coverage(set(terms_of(hits[0].chunk_id)), concepts)
    if top_cov >= 0.5:
        return hits, None
    pool = hits + (more() if more else [])
    for i, hit in enumerate(pool[1:], 1):
        if hit.chunk.lang not in (query_lang, "mixed") and coverage(set(terms_of(hit.chunk_id)), concepts) == 1.0:
            moved = {"chunk_id": hit.chunk_id, "from_rank": i + 1, "concepts": sorted(concepts),
                     "top_coverage": round(top_cov, 3)}
            return [hit, *pool[:i], *pool[i + 1:]], moved
    return hits, None
