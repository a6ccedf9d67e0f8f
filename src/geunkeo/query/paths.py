"""Where the query stage keeps user files: `$GEUNKEO_HOME` (default `~/.geunkeo`)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from geunkeo.config import geunkeo_home
from geunkeo.errors import ConfigError


def user_mappings_path(configured: str | None) -> Path:
    """The user's colloquial mapping file (QuerySettings.user_mappings, else <home>/colloquial_mappings.json)."""
    return Path(configured).expanduser() if configured else geunkeo_home() / "colloquial_mappings.json"


def pending_queue_path(configured: str | bool | None) -> Path:
    """The pending-patterns queue (QuerySettings.pending_queue when it is a path, else
    <home>/pending_patterns.jsonl; whether a `false` setting keeps no queue is the caller's decision)."""
    if isinstance(configured, str) and configured:
        return Path(configured).expanduser()
    return geunkeo_home() / "pending_patterns.jsonl"


def user_vocabulary_path() -> Path:
    """The user's domain vocabulary (slang and glossary entries, same schema as data/domain_vocabulary.json)."""
    return geunkeo_home() / "domain_vocabulary.json"


def read_dictionary(name: str, user_path: Path | None = None, hint: str = "fix or remove the file") -> Any:
    """A query dictionary: the packaged `geunkeo/data/<name>`, or the user's file at `user_path`.
    A user file that cannot be read or parsed is a ConfigError naming the file and what to do."""
    if user_path is None:
        return json.loads(resources.files("geunkeo.data").joinpath(name).read_text("utf-8"))
    try:
        return json.loads(user_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{user_path}: cannot read it as {name} ({exc}); {hint}") from exc
