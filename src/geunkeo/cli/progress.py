"""Progress of `geunkeo index`: a bar on a terminal, log lines every few seconds otherwise.

A 26-minute build whose output went to a file used to print nothing until the end (issue 12). Off a terminal
each line says how many documents were chunked, how many chunks there are, how far embedding is, its rate
and the time left, so a log shows the build is alive and when it will end.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich.progress is imported only when a bar is drawn
    from rich.progress import Progress, TaskID

_STAGE_WORDS = {"chunk": "chunking documents", "analyze": "analysing chunks (Kiwi)", "embed": "embedding chunks",
                "titles": "embedding titles"}


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes}m{seconds:02d}s" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"


class IndexProgress:
    """A `progress(stage, done, total)` callback for `build_index`, used as a context manager."""

    def __init__(self, console, *, terminal: bool | None = None, every: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.console = console
        self.terminal = console.is_terminal if terminal is None else terminal
        self.every = every
        self.clock = clock
        self.documents = 0
        self.chunks = 0
        self._stage: str | None = None
        self._stage_start = 0.0
        self._last_line = float("-inf")
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> IndexProgress:
        if self.terminal:
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                           TimeRemainingColumn(), console=self.console, transient=True)
            bar.__enter__()
            self._bar, self._task = bar, bar.add_task("indexing", total=None)
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = self.clock()
        if stage == "chunk":
            self.documents = total
        elif stage in ("analyze", "embed"):
            self.chunks = total
        new_stage = stage != self._stage
        if new_stage:
            self._stage, self._stage_start = stage, now
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, description=_STAGE_WORDS.get(stage, stage), completed=done, total=total)
            return
        # off a terminal: a line when a stage starts, every `every` seconds, and when a long stage ends
        finished = done >= total and now - self._stage_start >= self.every
        if new_stage or finished or now - self._last_line >= self.every:
            self._last_line = now
            self.console.print(self.line(stage, done, total, now), highlight=False, markup=False)

    def line(self, stage: str, done: int, total: int, now: float) -> str:
        """One log line: what is being done, how far, how fast and how long it should take."""
        parts = [f"indexing: {_STAGE_WORDS.get(stage, stage)} {done}/{total}"]
        elapsed = now - self._stage_start
        if stage in ("embed", "titles", "chunk") and done and elapsed > 0:
            rate = done / elapsed
            unit = "embeddings/s" if stage in ("embed", "titles") else "documents/s"
            parts.append(f"{rate:.1f} {unit}")
            if done < total:
                parts.append(f"ETA {_duration((total - done) / rate)}")
        parts.append(f"{self.documents} documents, {self.chunks} chunks")
        return ", ".join(parts)
