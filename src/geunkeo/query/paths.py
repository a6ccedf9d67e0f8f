"""Where the query stage keeps user files: `$GEUNKEO_HOME` (default `~/.geunkeo`)."""

from __future__ import annotations

from pathlib import Path

from geunkeo.config import geunkeo_home


def user_mappings_path(configured: str | None) -> Path:
    """The user's colloquial mapping file (QuerySettings.user_mappings, else <home>/colloquial_mappings.json)."""
    return Path(configured).expanduser() if configured else geunkeo_home() / "colloquial_mappings.json"


def pending_queue_path(configured: str | None) -> Path:
    """The pending-patterns queue (QuerySettings.pending_queue, else <home>/pending_patterns.jsonl)."""
    return Path(configured).expanduser() if configured else geunkeo_home() / "pending_patterns.jsonl"


def user_vocabulary_path() -> Path:
    """The user's domain vocabulary (slang and glossary entries, same schema as data/domain_vocabulary.json)."""
    return geunkeo_home() / "domain_vocabulary.json"
