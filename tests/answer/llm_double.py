"""A test double for an LLM's replies (the product itself never fakes one): shared by the answer-stage tests."""

from __future__ import annotations

from geunkeo.llm.base import LLM, Completion


class ScriptedLLM(LLM):
    """Replies from a list, one per call, and records the prompts; an exception in the list is raised instead."""

    provider = "scripted"
    model = "test"

    def __init__(self, replies):
        self.replies = list(replies)
        self.calls = []

    def complete(self, messages, *, json=False, temperature=None, max_tokens=None):
        self.calls.append(messages)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return Completion(text=reply, model=self.model, provider=self.provider)
