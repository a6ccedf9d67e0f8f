"""The run-level embedding pass covers every text the metrics embed: after it, scoring a case embeds nothing."""

from __future__ import annotations

from test_metrics_fakes import FixedEmbedder, answer, hit

from geunkeo.checks.similarity import VectorCache
from geunkeo.checks.support import SupportChecker
from geunkeo.config import Settings
from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.metrics import compute_case_metrics
from geunkeo.evaluate.metrics.inputs import CaseInputs, case_texts, prefetch_vectors, text_sentences


class CountingEmbedder(FixedEmbedder):
    def __init__(self):
        super().__init__()
        self.calls: list[list[str]] = []

    def embed_queries(self, texts):
        self.calls.append(list(texts))
        return super().embed_queries(texts)


def _case_inputs(emb: CountingEmbedder) -> CaseInputs:
    hits = [hit("reg#제1조", "제1조(휴학) 학생은 휴학을 2회까지 할 수 있다. 휴학은 학기 단위로 한다."),
            hit("reg#제2조", "등록금은 학기 개시 전에 납부한다.")]
    case = QACase("q1", "휴학은 몇 번 할 수 있나요?", reference_answer="휴학은 2회까지 할 수 있고 학기 단위로 한다.",
                  expected_chunk_ids=["reg#제1조"])
    ans = answer("학생은 휴학을 2회까지 할 수 있다 [1]. 등록금은 학기 개시 전에 납부한다 [2].", hits,
                 sentences=[("학생은 휴학을 2회까지 할 수 있다 [1].", [1]), ("등록금은 학기 개시 전에 납부한다 [2].", [2])])
    vectors = VectorCache(emb)
    return CaseInputs(case, ans, hits, Settings(), vectors, SupportChecker(vectors))


def test_prefetch_embeds_everything_in_one_pass():
    emb = CountingEmbedder()
    x = _case_inputs(emb)
    n = prefetch_vectors(x.vectors, [x])
    assert len(emb.calls) == 1 and len(emb.calls[0]) == n  # one batched call, each distinct text once
    texts = case_texts(x)
    assert x.case.query in texts and "휴학은 2회까지 할 수 있다" in texts  # a reference claim
    assert set(text_sentences(x.contexts[0].chunk.embed_text())) <= set(texts)
    out = compute_case_metrics(x.case, x.answer, x.retrieved, x.settings, inputs=x)
    assert out["faithfulness"].computable and out["factual_correctness"].computable
    assert len(emb.calls) == 1, f"metrics embedded texts the prefetch missed: {emb.calls[1:]}"


def test_without_prefetch_the_metrics_embed_piecemeal():
    emb = CountingEmbedder()
    x = _case_inputs(emb)
    compute_case_metrics(x.case, x.answer, x.retrieved, x.settings, inputs=x)
    assert len(emb.calls) > 1  # the check above could fail: unprefetched, every claim check embeds
