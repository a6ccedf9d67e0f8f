"""Ollama through its official SDK and native API (`/api/chat`)."""

from __future__ import annotations

import json as jsonlib
import threading

import httpx

from geunkeo.errors import LLMBadOutput, LLMUnavailable
from geunkeo.llm.base import Completion, Message
from geunkeo.llm.remote import RemoteLLM, TransientError, parse_retry_after, status_error, to_dicts

DEFAULT_HOST = "http://127.0.0.1:11434"


class OllamaLLM(RemoteLLM):
    provider = "ollama"

    def __init__(self, model: str, base_url: str | None = None, **kwargs):
        super().__init__(model, **kwargs)
        import ollama

        self.base_url = base_url or DEFAULT_HOST
        # The SDK turns HTTP errors into ResponseError without the headers; a response hook keeps the
        # Retry-After of the last response per thread so 429s can be honoured.
        self._local = threading.local()
        self._client = ollama.Client(
            host=self.base_url, timeout=self.timeout_s, event_hooks={"response": [self._remember]}
        )
        self._sdk = ollama

    def _remember(self, response: httpx.Response) -> None:
        self._local.retry_after = parse_retry_after(response.headers.get("retry-after"))

    def _complete_once(self, messages: list[Message], *, json: bool, temperature: float,
                       max_tokens: int | None) -> Completion:
        options: dict = {"temperature": temperature}
        if max_tokens is not None:
            options["num_predict"] = max_tokens
        self._local.retry_after = None
        try:
            resp = self._client.chat(
                model=self.model, messages=to_dicts(messages), format="json" if json else None, options=options
            )
        except self._sdk.ResponseError as e:
            raise status_error(e.status_code, str(e.error), "ollama", self._local.retry_after) from e
        except ConnectionError as e:
            raise TransientError(
                f"cannot reach Ollama at {self.base_url}: start it with `ollama serve` or set llm.base_url",
                retryable=False,
            ) from e
        except httpx.TimeoutException as e:
            raise TransientError(f"ollama did not answer within {self.timeout_s:.0f} s (llm.timeout_s)") from e
        except httpx.TransportError as e:
            raise TransientError(f"ollama connection failed: {e}") from e
        except (jsonlib.JSONDecodeError, ValueError) as e:
            raise LLMBadOutput(f"ollama returned a response that is not valid chat JSON: {e}") from e
        except self._sdk.RequestError as e:
            raise LLMUnavailable(f"ollama request rejected: {e.error} — set llm.model") from e
        content = resp.message.content if resp.message is not None else None
        if content is None:
            raise LLMBadOutput("ollama response has no message content")
        return Completion(
            text=content, model=resp.model or self.model, provider=self.provider,
            prompt_tokens=resp.prompt_eval_count, completion_tokens=resp.eval_count,
            raw={"done_reason": resp.done_reason},
        )
