"""The pending-patterns queue: colloquial queries no mapping explained, kept for dictionary growth.

JSONL. `add` appends one small line per sighting (an O_APPEND write, atomic for lines this short, so it is
cheap on the search path and safe across processes); `entries` folds the lines into one row per distinct
(whitespace-normalised) query with its count, first and last sighting. When the file holds many more lines than
distinct queries it is compacted to one line per query.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

_COMPACT_AT = 2000  # lines; compaction rewrites the file with one line per distinct query


def _norm(query: str) -> str:
    return " ".join(query.split())


class PendingQueue:
    """A deduplicating JSONL queue of unexplained colloquial queries."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    def _lines(self) -> list[dict]:
        if not self.path.is_file():
            return []
        rows = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn line from a crash must not block the queue
            if isinstance(row, dict) and row.get("query"):
                rows.append(row)
        return rows

    def entries(self) -> list[dict]:
        """One row per distinct query — `{query, count, first_seen, last_seen, …}` — most frequent first."""
        merged: dict[str, dict] = {}
        for row in self._lines():
            key = _norm(row["query"])
            n = int(row.get("count", 1))
            cur = merged.get(key)
            if cur is None:
                merged[key] = {**row, "query": key, "count": n,
                               "first_seen": row.get("first_seen", row.get("last_seen", "")),
                               "last_seen": row.get("last_seen", row.get("first_seen", ""))}
                continue
            cur["count"] += n
            cur["first_seen"] = min(cur["first_seen"], row.get("first_seen", cur["first_seen"]))
            cur["last_seen"] = max(cur["last_seen"], row.get("last_seen", cur["last_seen"]))
            cur.update({k: v for k, v in row.items() if k not in ("query", "count", "first_seen", "last_seen")})
        return sorted(merged.values(), key=lambda r: (-r["count"], r["first_seen"]))

    def add(self, query: str, **info) -> None:
        """Record one sighting of `query`."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        line = json.dumps({"query": _norm(query), "count": 1, "first_seen": now, "last_seen": now, **info},
                          ensure_ascii=False) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, line.encode("utf-8"))
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if size > _COMPACT_AT * 120:  # only then count lines: most calls never read the file
            self.compact()

    def compact(self) -> int:
        """Rewrite the file with one line per distinct query; returns the number of queries kept."""
        rows = self.entries()
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".pending-", suffix=".jsonl")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        os.replace(tmp, self.path)
        return len(rows)
