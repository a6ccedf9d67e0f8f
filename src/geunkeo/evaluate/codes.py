"""The evaluation's flag levels and reason codes, defined once (str-valued: the JSON of a run holds the plain
words). A module without imports, so the CLI and the pages can read them without loading the evaluation."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["MOST_SEVERE_FIRST", "NOT_SERVED", "FlagLevel", "FlagReason", "MetricSuffix"]


class FlagLevel(StrEnum):
    """A case's flag (seed 003 §3.1), from least to most severe in `FlagLevel.ordered()`."""

    PASSED = "PASSED"
    WARNING = "WARNING"
    CRITICAL = "CRITICAL"

    @property
    def severity(self) -> int:
        """0 PASSED, 1 WARNING, 2 CRITICAL."""
        return list(FlagLevel).index(self)


# the levels as reports list them
MOST_SEVERE_FIRST = (FlagLevel.CRITICAL, FlagLevel.WARNING, FlagLevel.PASSED)


class FlagReason(StrEnum):
    """The reason codes that are not about one metric (those are a gate's code plus a `MetricSuffix`)."""

    HALLUCINATED = "HALLUCINATED_CLAIM_DETECTED"
    DOC_VERSION_SUSPECTED = "DISAGREEMENT_DOC_VERSION_SUSPECTED"
    OWN_KNOWLEDGE_SUSPECTED = "DISAGREEMENT_OWN_KNOWLEDGE_SUSPECTED"
    ANSWER_INCOMPLETE_SUSPECTED = "DISAGREEMENT_ANSWER_INCOMPLETE_SUSPECTED"
    RETRIEVAL_MISS_SUSPECTED = "DISAGREEMENT_RETRIEVAL_MISS_SUSPECTED"
    SUPERSEDED_VERSION_CITED = "SUPERSEDED_VERSION_CITED"


class MetricSuffix(StrEnum):
    """What a metric's gate code is followed by in a reason ("P0-1_CONTEXT_RECALL" + "_BELOW_THRESHOLD")."""

    BELOW_THRESHOLD = "_BELOW_THRESHOLD"
    NOT_COMPUTABLE = "_NOT_COMPUTABLE"
    BELOW_TARGET = "_BELOW_TARGET"
    ABOVE_TARGET = "_ABOVE_TARGET"


NOT_SERVED = "none"  # a case's serving action when no answer was produced (else a GateAction's value)
