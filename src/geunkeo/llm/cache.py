"""A persistent LLM response cache (SQLite, WAL) shared by every LLM feature, with persisted hit/miss counts.

The key is a hash of provider, model, messages and generation parameters, so a repeated prompt is served
from disk across processes and runs; failures are never cached.
"""

from __future__ import annotations

import hashlib
import json as jsonlib
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from geunkeo.config import geunkeo_home
from geunkeo.errors import ConfigError
from geunkeo.llm.base import LLM, Completion, Message

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
  key TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL, text TEXT NOT NULL,
  prompt_tokens INTEGER, completion_tokens INTEGER, ms REAL, created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


def default_cache_path(configured: str | None = None) -> Path:
    """`llm.cache_path`, else `$GEUNKEO_HOME/llm_cache.sqlite`, else `~/.geunkeo/llm_cache.sqlite`."""
    if configured:
        return Path(configured).expanduser()
    return geunkeo_home() / "llm_cache.sqlite"


def cache_key(provider: str, model: str, messages: list[Message], params: dict[str, Any]) -> str:
    """Stable hash of everything that determines a response."""
    payload = {
        "provider": provider, "model": model,
        "messages": [[m.role, m.content] for m in messages], "params": params,
    }
    blob = jsonlib.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass
class CacheStats:
    path: str
    entries: int
    hits: int
    misses: int
    bytes: int

    @property
    def hit_rate(self) -> float | None:
        total = self.hits + self.misses
        return self.hits / total if total else None


class LLMCache:
    """SQLite store of completions; one short-lived connection per operation keeps it thread- and process-safe."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(self._connect()) as con, con:
                con.execute("PRAGMA journal_mode=WAL")
                con.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as e:
            raise ConfigError(f"cannot open the LLM cache at {self.path}: {e} — set llm.cache_path or GEUNKEO_HOME") from e

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, timeout=10.0)
        # WAL + NORMAL: commits do not fsync (a crash may lose the last few cached answers, never corrupt).
        con.execute("PRAGMA synchronous=NORMAL")
        return con

    def get(self, key: str) -> Completion | None:
        """The stored completion for `key` (counted as a hit), or None (counted as a miss)."""
        with closing(self._connect()) as con, con:
            row = con.execute(
                "SELECT provider, model, text, prompt_tokens, completion_tokens, ms FROM responses WHERE key=?", (key,)
            ).fetchone()
            self._bump(con, "hits" if row else "misses")
        if row is None:
            return None
        provider, model, text, pt, ct, ms = row
        return Completion(text=text, model=model, provider=provider, prompt_tokens=pt, completion_tokens=ct,
                          cached=True, raw={"original_ms": ms})

    def put(self, key: str, c: Completion) -> None:
        with closing(self._connect()) as con, con:
            con.execute(
                "INSERT OR REPLACE INTO responses VALUES (?,?,?,?,?,?,?,?)",
                (key, c.provider, c.model, c.text, c.prompt_tokens, c.completion_tokens, c.ms, time.time()),
            )

    @staticmethod
    def _bump(con: sqlite3.Connection, name: str) -> None:
        con.execute(
            "INSERT INTO counters(name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1",
            (name,),
        )

    def stats(self) -> CacheStats:
        with closing(self._connect()) as con:
            entries = con.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
            counters = dict(con.execute("SELECT name, value FROM counters").fetchall())
        size = sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())
        return CacheStats(str(self.path), entries, counters.get("hits", 0), counters.get("misses", 0), size)

    def clear(self) -> int:
        """Delete every stored response and reset the counters; returns how many responses were removed."""
        with closing(self._connect()) as con, con:
            n = con.execute("DELETE FROM responses").rowcount
            con.execute("DELETE FROM counters")
        with closing(self._connect()) as con:
            con.execute("VACUUM")
        return n


class CachedLLM(LLM):
    """Wraps any LLM: a repeated (provider, model, messages, parameters) is answered from the cache."""

    def __init__(self, inner: LLM, cache: LLMCache):
        self.inner = inner
        self.cache = cache
        self.provider = inner.provider
        self.model = inner.model

    def complete(self, messages: list[Message], *, json: bool = False, temperature: float | None = None,
                 max_tokens: int | None = None) -> Completion:
        """The cached completion when there is one; otherwise the inner LLM's, stored for next time."""
        # An unset temperature means the provider default, which is part of what determines the answer.
        temp = temperature if temperature is not None else getattr(self.inner, "temperature", None)
        params = {"json": json, "temperature": temp, "max_tokens": max_tokens}
        key = cache_key(self.provider, self.model, messages, params)
        start = time.perf_counter()
        hit = self.cache.get(key)
        if hit is not None:
            hit.ms = (time.perf_counter() - start) * 1000.0
            return hit
        out = self.inner.complete(messages, json=json, temperature=temperature, max_tokens=max_tokens)
        self.cache.put(key, out)
        return out
