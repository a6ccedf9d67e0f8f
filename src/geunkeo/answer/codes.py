"""The serving gate's actions and reason codes, defined once; a module without imports, so the CLI can read them
without loading the answer stage (answer/base.py re-exports them)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["GateAction", "GateReason"]


class GateAction(StrEnum):
    """What the serving gate does with an answer (answer/gate.py); str-valued, so JSON holds the plain word."""

    ANSWER = "answer"
    WARN = "warn"  # served with a warning sentence first
    REGENERATE = "regenerate"  # an LLM answer is written once more
    ESCALATE = "escalate"  # withheld: the nearest documents are listed instead


class GateReason(StrEnum):
    """The serving gate's reason codes: a reason is "code: details" (server/strings.py words each code)."""

    NO_CONTEXT = "no_context"
    NO_ANSWER = "no_answer"
    RETRIEVAL_LOW_CONFIDENCE = "retrieval_low_confidence"
    NOT_ANSWERED = "not_answered"  # the documents do not hold the answer
    VERIFICATION = "verification"
    CITATION_COVERAGE = "citation_coverage"
    INSTRUCTION_LIKE_CONTEXT = "instruction_like_context"
    UNSUPPORTED_ITEMS = "unsupported_items"
    UNVERIFIED_NUMBERS = "unverified_numbers"
    SUPERSEDED_VERSION_CITED = "superseded_version_cited"
    REGENERATION_FAILED = "regeneration_failed"

    @classmethod
    def of(cls, reason: str) -> GateReason | None:
        """The code a reason string starts with (None for a reason without a known code)."""
        code = reason.split(":", 1)[0].strip()
        return cls(code) if code in cls._value2member_map_ else None
