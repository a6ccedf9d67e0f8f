"""Gate decisions per profile, not-computable handling and both disagreement patterns (hand-set values)."""

from __future__ import annotations

import pytest

from geunkeo.errors import ConfigError
from geunkeo.evaluate.base import Claim, MetricResult
from geunkeo.evaluate.claim_log import build_flag_record
from geunkeo.evaluate.gates import assign_flag, load_profile


def _m(**values):
    out = {}
    for name, v in values.items():
        if v is None:
            out[name] = MetricResult.not_computable(name, "test", "no reference answer")
        else:
            out[name] = MetricResult(name, v, "test")
    return out


GOOD = dict(context_recall=0.95, faithfulness=0.96, factual_correctness=0.91, citation_coverage=0.98,
            context_precision=0.8, context_entities_recall=0.9, noise_sensitivity=0.1, response_relevancy=0.8)


def test_all_pass_dev_but_not_advanced():
    dev = assign_flag(_m(**GOOD), [], load_profile("dev"))
    assert dev.flag.level == "PASSED" and dev.flag.reason_codes == [] and not dev.full_review
    # advanced: recall 0.95 ≥ 0.93, faithfulness 0.96 ≥ 0.95, factual 0.91 ≥ 0.90, citation 0.98 ≥ 0.97
    assert assign_flag(_m(**GOOD), [], load_profile("advanced")).flag.level == "PASSED"
    tighter = {**GOOD, "citation_coverage": 0.96}
    adv = assign_flag(_m(**tighter), [], load_profile("advanced"))
    assert adv.flag.level == "CRITICAL" and adv.flag.reason_codes == ["P0-4_CITATION_COVERAGE_BELOW_THRESHOLD"]
    assert assign_flag(_m(**tighter), [], load_profile("stabilization")).flag.level == "PASSED"


def test_threshold_is_inclusive_and_stabilization_values():
    edge = {**GOOD, "context_recall": 0.90, "faithfulness": 0.92, "factual_correctness": 0.85,
            "citation_coverage": 0.95}
    assert assign_flag(_m(**edge), [], load_profile("stabilization")).flag.level == "PASSED"
    below = {**edge, "context_recall": 0.899}
    out = assign_flag(_m(**below), [], load_profile("stabilization"))
    assert out.flag.reason_codes == ["P0-1_CONTEXT_RECALL_BELOW_THRESHOLD"] and out.flag.level == "CRITICAL"


def test_hallucinated_claim_is_critical():
    claims = [Claim("c1", "a", supported=True), Claim("c2", "b", supported=False),
              Claim("r1", "ref", source="reference", supported=False), Claim("c3", "c", supported=None)]
    out = assign_flag(_m(**GOOD), claims, load_profile("dev"))
    assert out.flag.level == "CRITICAL"
    assert out.flag.reason_codes == ["HALLUCINATED_CLAIM_DETECTED"]
    assert out.hallucinated_claims == ["c2"] and out.full_review


def test_factual_correctness_is_graded_in_the_profile_mode():
    dev = load_profile("dev")
    assert {load_profile(p).p0["factual_correctness"].mode for p in ("dev", "stabilization", "advanced")} == \
        {"recall"}
    # value computed in f1 mode, recall 0.9 in the details: the gate grades recall 0.9 ≥ 0.80
    m = _m(**GOOD)
    m["factual_correctness"] = MetricResult("factual_correctness", 0.5, "t",
                                            details={"mode": "f1", "precision": 0.34, "recall": 0.9, "f1": 0.5})
    out = assign_flag(m, [], dev)
    chk = next(c for c in out.checks if c.metric == "factual_correctness")
    assert (chk.value, chk.status, chk.mode) == (0.9, "pass", "recall") and out.flag.level == "PASSED"
    # recall 0.7 in recall mode fails; a result in another mode without a recall value is not computable
    m["factual_correctness"] = MetricResult("factual_correctness", 0.7, "t", details={"mode": "recall"})
    assert assign_flag(m, [], dev).flag.reason_codes[0] == "P0-3_FACTUAL_CORRECTNESS_BELOW_THRESHOLD"
    m["factual_correctness"] = MetricResult("factual_correctness", 0.9, "t", details={"mode": "precision"})
    assert "P0-3_FACTUAL_CORRECTNESS_NOT_COMPUTABLE" in assign_flag(m, [], dev).flag.reason_codes


def test_faithful_but_incorrect_is_doc_version_warning():
    out = assign_flag(_m(**{**GOOD, "factual_correctness": 0.5, "context_recall": 0.5}), [], load_profile("dev"))
    assert out.flag.level == "CRITICAL"  # context recall is a CRITICAL gate
    assert out.flag.reason_codes == ["P0-1_CONTEXT_RECALL_BELOW_THRESHOLD", "P0-3_FACTUAL_CORRECTNESS_BELOW_THRESHOLD",
                                     "DISAGREEMENT_DOC_VERSION_SUSPECTED"]
    assert out.full_review


def test_doc_version_is_suspected_only_when_another_version_was_retrieved():
    bad = _m(**{**GOOD, "factual_correctness": 0.5, "context_recall": 0.5})
    one = assign_flag(bad, [], load_profile("dev"), several_versions=False)
    assert one.flag.reason_codes[-1] == "DISAGREEMENT_RETRIEVAL_MISS_SUSPECTED" and one.full_review
    two = assign_flag(bad, [], load_profile("dev"), several_versions=True)
    assert two.flag.reason_codes[-1] == "DISAGREEMENT_DOC_VERSION_SUSPECTED"


def test_an_answer_citing_a_superseded_version_is_flagged_for_review():
    out = assign_flag(_m(**GOOD), [], load_profile("dev"), several_versions=True, superseded_cited=1)
    assert out.flag.level == "WARNING" and out.flag.reason_codes == ["SUPERSEDED_VERSION_CITED"]
    assert out.full_review


def test_faithful_but_incorrect_with_the_facts_in_context_is_an_incomplete_answer():
    # the passages state the reference's facts (context recall passes), the answer is faithful but misses them
    out = assign_flag(_m(**{**GOOD, "factual_correctness": 0.5}), [], load_profile("dev"))
    assert out.flag.level == "WARNING"
    assert out.flag.reason_codes == ["P0-3_FACTUAL_CORRECTNESS_BELOW_THRESHOLD",
                                     "DISAGREEMENT_ANSWER_INCOMPLETE_SUSPECTED"]
    assert out.full_review


def test_unfaithful_but_correct_is_own_knowledge():
    out = assign_flag(_m(**{**GOOD, "faithfulness": 0.6}), [], load_profile("dev"))
    assert out.flag.level == "CRITICAL"
    assert out.flag.reason_codes == ["P0-2_FAITHFULNESS_BELOW_THRESHOLD", "DISAGREEMENT_OWN_KNOWLEDGE_SUSPECTED"]


def test_not_computable_never_passes():
    out = assign_flag(_m(**{**GOOD, "factual_correctness": None, "response_relevancy": None}), [],
                      load_profile("dev"))
    assert out.flag.level == "WARNING"
    assert out.flag.reason_codes == ["P0-3_FACTUAL_CORRECTNESS_NOT_COMPUTABLE"]  # P1 only noted
    assert out.flag.notes == ["factual_correctness not computable: no reference answer",
                              "P1 response_relevancy not computable"]
    assert out.full_review
    statuses = {c.metric: c.status for c in out.checks}
    assert statuses["factual_correctness"] == "not_computable" and statuses["context_recall"] == "pass"
    # a metric the metric layer did not return at all counts the same way
    missing = dict(_m(**GOOD))
    del missing["citation_coverage"]
    out = assign_flag(missing, [], load_profile("dev"))
    assert out.flag.reason_codes == ["P0-4_CITATION_COVERAGE_NOT_COMPUTABLE"]
    assert out.flag.notes == ["citation_coverage not computable: metric missing"]


def test_p1_targets_are_warnings():
    out = assign_flag(_m(**{**GOOD, "context_precision": 0.69, "noise_sensitivity": 0.2}), [], load_profile("dev"))
    assert out.flag.level == "WARNING" and not out.full_review
    assert out.flag.reason_codes == ["P1_CONTEXT_PRECISION_BELOW_TARGET", "P1_NOISE_SENSITIVITY_ABOVE_TARGET"]


def test_unknown_profile_and_flag_record():
    with pytest.raises(ConfigError, match="choose one of advanced, dev, stabilization"):
        load_profile("prod")
    out = assign_flag(_m(**{**GOOD, "faithfulness": 0.5}), [], load_profile("dev"))
    rec = build_flag_record("eval_1", "q_1", "2026-01-07T10:30:00Z", out).to_dict()
    assert rec["flag"] == {"level": "CRITICAL", "auto_assigned": True,
                           "reasons": ["P0-2_FAITHFULNESS_BELOW_THRESHOLD", "DISAGREEMENT_OWN_KNOWLEDGE_SUSPECTED"]}
    assert rec["review_status"]["in_queue"] is False and rec["review_result"]["completed"] is False
    assert list(rec) == ["eval_id", "query_id", "timestamp", "flag", "review_status", "review_result",
                         "record_version"]


def test_serving_action_is_the_live_gates_not_a_second_policy():
    # the evaluation records what the one serving gate (answer/gate.py) did; failing P0 metrics flag the case
    # for review but do not invent another serving decision
    dev = load_profile("dev")
    assert assign_flag(_m(**GOOD), [], dev).serving_action == "none"
    assert assign_flag(_m(**{**GOOD, "context_recall": 0.2}), [], dev, served="answer").serving_action == "answer"
    assert assign_flag(_m(**GOOD), [], dev, served="escalate").serving_action == "escalate"


def test_a_summary_is_graded_by_the_summary_gates():
    dev = load_profile("dev")
    good = {"summary_faithfulness": MetricResult("summary_faithfulness", 1.0, "t"),
            "proviso_preservation": MetricResult("proviso_preservation", 1.0, "t"),
            "summarization_score": MetricResult("summarization_score", 0.6, "t"),
            "summary_semantic_drift": MetricResult("summary_semantic_drift", 0.1, "t"),
            # a paraphrasing reference summary: QA gates would fail it, summary gates do not read them
            "context_recall": MetricResult("context_recall", 0.2, "t"),
            "factual_correctness": MetricResult("factual_correctness", 0.1, "t")}
    assert assign_flag(good, [], dev, task="summary").flag.level == "PASSED"
    lost = {**good, "proviso_preservation": MetricResult("proviso_preservation", 0.5, "t")}
    out = assign_flag(lost, [], dev, task="summary")
    assert out.flag.level == "CRITICAL" and out.flag.reason_codes == ["P0-S2_PROVISO_PRESERVATION_BELOW_THRESHOLD"]
