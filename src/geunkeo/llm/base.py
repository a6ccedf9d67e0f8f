"""LLM stage interface: one small contract for every provider (Ollama, OpenAI, Gemini, OpenAI-compatible)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Message:
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass
class Completion:
    text: str
    model: str
    provider: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached: bool = False
    ms: float = 0.0
    raw: dict[str, Any] = field(default_factory=dict)


class LLM(ABC):
    """A chat model. `complete` raises `LLMUnavailable` or `LLMBadOutput` (from geunkeo.errors) on failure;
    callers catch those and degrade."""

    provider: str = "llm"
    model: str = ""

    @abstractmethod
    def complete(
        self, messages: list[Message], *, json: bool = False, temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> Completion: ...

    async def acomplete(self, messages: list[Message], **kwargs: Any) -> Completion:
        import asyncio

        return await asyncio.to_thread(self.complete, messages, **kwargs)
