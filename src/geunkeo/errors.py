"""One error hierarchy for geunkeo: every message says what went wrong and what to do."""

from __future__ import annotations


class GeunkeoError(Exception):
    """Base class of every error geunkeo raises on purpose."""


class ConfigError(GeunkeoError):
    """A setting is missing or has a value outside its allowed set."""


class IngestError(GeunkeoError):
    """A file could not be read or parsed into a document."""

    def __init__(self, message: str, path: str | None = None):
        super().__init__(message)
        self.path = path


class IndexError_(GeunkeoError):
    """An index directory is missing, corrupt or incompatible."""


class IndexBusy(IndexError_):
    """Another process is writing this index (see index/lock.py)."""


class QueryError(GeunkeoError):
    """A query cannot be searched (empty, unusable)."""


class LLMError(GeunkeoError):
    """An LLM call failed; features catch this and degrade."""


class LLMUnavailable(LLMError):
    """The provider is unreachable, timed out or returned a server error."""


class LLMBadOutput(LLMError):
    """The provider answered, but the output could not be parsed."""


class ReviewConflict(GeunkeoError):
    """A review decision based on a version of the case that another decision has replaced meanwhile."""
