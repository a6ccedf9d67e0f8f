"""Rerankers: dense re-scoring order, LLM listwise with partial/malformed rankings and fallbacks, registry."""

from __future__ import annotations

import numpy as np
import pytest

from geunkeo.config import Settings
from geunkeo.corpus.base import Chunk
from geunkeo.errors import ConfigError, LLMUnavailable
from geunkeo.index.base import Embedder
from geunkeo.llm.base import LLM, Completion
from geunkeo.retrieve.base import Hit
from geunkeo.retrieve.rerankers import get_reranker
from geunkeo.retrieve.rerankers.dense import DenseReranker
from geunkeo.retrieve.rerankers.llm import LLMReranker
from geunkeo.trace import Trace

VOCAB = ["휴학", "복학", "장학금", "등록금", "졸업"]


class KeywordEmbedder(Embedder):
    """Counts vocabulary words: a transparent stand-in whose cosines can be computed by hand."""

    name = "keywords"

    @property
    def dim(self) -> int:
        return len(VOCAB)

    @property
    def version(self) -> str:
        return "keywords-1"

    def _vec(self, text: str) -> np.ndarray:
        v = np.array([text.count(w) for w in VOCAB], dtype=np.float32) + 1e-3
        return v / np.linalg.norm(v)

    def embed_queries(self, texts):
        return np.stack([self._vec(t) for t in texts])

    def embed_passages(self, texts):
        return np.stack([self._vec(t) for t in texts])


def hits(*texts: str) -> list[Hit]:
    return [
        Hit(Chunk(chunk_id=f"d#{i}", doc_id="d", title="학칙", text=t, location=f"학칙 제{i}조"), score=1.0 - i / 10)
        for i, t in enumerate(texts)
    ]


class FixedLLM(LLM):
    provider, model = "fixed", "f1"

    def __init__(self, reply):
        self.reply = reply
        self.prompt = None

    def complete(self, messages, *, json=False, temperature=None, max_tokens=None):
        self.prompt = messages[-1].content
        if isinstance(self.reply, Exception):
            raise self.reply
        return Completion(text=self.reply, model=self.model, provider=self.provider)


def ids(hs: list[Hit]) -> list[str]:
    return [h.chunk_id for h in hs]


def test_dense_reranker_orders_top_n_by_cosine_and_keeps_the_rest():
    hs = hits("등록금 납부", "휴학 신청", "졸업 요건", "휴학 휴학 복학", "장학금")
    out = DenseReranker(KeywordEmbedder()).rerank("휴학", hs, top_n=4, trace=Trace())
    # cosines with (1,0,0,0,0): d#1 ≈ 1.0, d#3 = 2/√5 ≈ 0.894, d#0 and d#2 ≈ 0.001 (tie → input order)
    assert ids(out) == ["d#1", "d#3", "d#0", "d#2", "d#4"]
    assert out[0].scores["dense"] == pytest.approx(1.0, abs=1e-5)
    assert out[1].scores["dense"] == pytest.approx(2 / 5**0.5, abs=1e-3)
    assert [h.ranks["dense"] for h in out[:4]] == [1, 2, 3, 4]
    assert "dense" not in out[4].ranks


def test_llm_reranker_partial_ranking_keeps_input_order_for_the_rest():
    hs = hits("a", "b", "c", "d", "e", "f")
    trace = Trace()
    llm = FixedLLM('{"ranking": [5, 2]}')
    out = LLMReranker(llm, keep=3).rerank("질문", hs, top_n=5, trace=trace)
    assert ids(out) == ["d#4", "d#1", "d#0", "d#2", "d#3", "d#5"]
    assert "[5] 학칙" in llm.prompt and "[6]" not in llm.prompt
    assert trace.warnings == ["llm reranker: partial ranking (2 of 3); the rest keep input order"]
    assert trace.llm_calls[0]["feature"] == "rerank"


@pytest.mark.parametrize("reply", ["I think they are all relevant.", LLMUnavailable("connection refused")])
def test_llm_reranker_falls_back_to_dense(reply):
    hs = hits("등록금", "졸업", "휴학")
    trace = Trace()
    rr = LLMReranker(FixedLLM(reply), keep=2, fallback=DenseReranker(KeywordEmbedder()))
    out = rr.rerank("휴학", hs, top_n=3, trace=trace)
    assert ids(out)[0] == "d#2"
    assert len(out) == 3
    assert trace.warnings[0].startswith("llm reranker skipped:") and trace.warnings[0].endswith("using dense")


@pytest.mark.parametrize("reply", [
    "I think the first one is best",
    "Passage 2 is the best one, then 3.",  # ids in prose are not the JSON ranking asked for
    "[3] > [1] > [2]",
    '{"best": [3, 1]}',
])
def test_llm_reranker_bad_output_keeps_input_order_and_is_recorded(reply):
    hs = hits("a", "b", "c", "d")
    trace = Trace()
    out = LLMReranker(FixedLLM(reply), keep=2).rerank("질문", hs, top_n=3, trace=trace)
    assert ids(out) == ["d#0", "d#1", "d#2", "d#3"]
    assert trace.warnings[0].startswith("llm reranker skipped: LLMBadOutput:")
    assert trace.warnings[0].endswith("using input order")
    [decision] = trace.decisions
    assert decision["stage"] == "retrieve.rerank" and decision["error"] == "LLMBadOutput"
    assert trace.llm_calls[0]["feature"] == "rerank"


def test_llm_reranker_reads_fenced_and_truncated_json():
    hs = hits("a", "b", "c", "d")
    out = LLMReranker(FixedLLM('```json\n{"ranking": [3, 1,],}\n```'), keep=2).rerank("q", hs, top_n=4)
    assert ids(out) == ["d#2", "d#0", "d#1", "d#3"]
    out = LLMReranker(FixedLLM('{"ranking": [4, 2'), keep=2).rerank("q", hs, top_n=4)
    assert ids(out) == ["d#3", "d#1", "d#0", "d#2"]


def test_llm_reranker_without_llm_or_fallback_keeps_input_order():
    hs = hits("a", "b", "c")
    trace = Trace()
    out = LLMReranker(None).rerank("q", hs, top_n=3, trace=trace)
    assert ids(out) == ["d#0", "d#1", "d#2"]
    assert trace.warnings == ["llm reranker skipped: no LLM configured (llm.provider = none); using input order"]


def test_registry(tmp_path, monkeypatch):
    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path))
    s = Settings()
    assert get_reranker("none", s).rerank("q", hits("a", "b"), 2) is not None
    dense = get_reranker("dense", s, embedder=KeywordEmbedder())
    # the dense reranker reuses the on-disk vector cache, so repeated chunks are not embedded again
    assert ids(dense.rerank("휴학", hits("졸업", "휴학"), 2)) == ["d#1", "d#0"]
    assert dense.embedder.misses == 3
    dense.rerank("휴학", hits("졸업", "휴학"), 2)
    assert dense.embedder.hits == 3
    llm_rr = get_reranker("llm", s, embedder=KeywordEmbedder(), llm=None)
    assert llm_rr.fallback.name == "dense"
    with pytest.raises(ConfigError, match="choose one of none, dense, llm, cross-encoder"):
        get_reranker("colbert", s)
    with pytest.raises(ConfigError, match="retrieve.reranker_model"):
        get_reranker("cross-encoder", s)


def test_cross_encoder_with_a_tiny_model_built_here(tmp_path):
    pytest.importorskip("torch", reason="torch is not installed (optional extra `st`)")
    st = pytest.importorskip("sentence_transformers", reason="sentence-transformers is not installed (extra `st`)")
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "휴학", "졸업", "신청"]
    (tmp_path / "vocab.txt").write_text("\n".join(vocab), encoding="utf-8")
    tok = BertTokenizerFast(vocab_file=str(tmp_path / "vocab.txt"))
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=8, num_hidden_layers=1, num_attention_heads=1,
                     intermediate_size=16, num_labels=1)
    model = BertForSequenceClassification(cfg)
    model.save_pretrained(tmp_path / "ce")
    tok.save_pretrained(tmp_path / "ce")
    assert st is not None
    rr = get_reranker("cross-encoder", Settings(retrieve={"reranker_model": str(tmp_path / "ce")}))
    hs = hits("휴학 신청", "졸업", "신청")
    out = rr.rerank("휴학", hs, top_n=3, trace=Trace())
    assert sorted(ids(out)) == ["d#0", "d#1", "d#2"]
    scores = [h.scores["cross-encoder"] for h in out]
    assert scores == sorted(scores, reverse=True) and all(np.isfinite(scores))
