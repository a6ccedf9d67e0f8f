"""OpenAI and OpenAI-compatible servers (LM Studio, vLLM, llama.cpp server) through the official `openai` SDK."""

from __future__ import annotations

import json as jsonlib

from geunkeo.errors import LLMBadOutput, LLMUnavailable
from geunkeo.llm.base import Completion, Message
from geunkeo.llm.remote import RemoteLLM, TransientError, parse_retry_after, status_error, to_dicts


class OpenAIChatLLM(RemoteLLM):
    """`/v1/chat/completions`. With `base_url` it talks to any compatible server; local servers need no key."""

    def __init__(self, model: str, *, api_key: str | None, base_url: str | None = None,
                 provider: str = "openai", **kwargs):
        super().__init__(model, **kwargs)
        import openai

        self.provider = provider
        self.base_url = base_url
        self._sdk = openai
        # Retries are ours (same policy for every provider), so the SDK's are off.
        self._client = openai.OpenAI(
            api_key=api_key or "not-needed", base_url=base_url, timeout=self.timeout_s, max_retries=0
        )

    def _complete_once(self, messages: list[Message], *, json: bool, temperature: float,
                       max_tokens: int | None) -> Completion:
        sdk = self._sdk
        kwargs: dict = {"model": self.model, "messages": to_dicts(messages), "temperature": temperature}
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        if json:
            kwargs["response_format"] = {"type": "json_object"}
        where = self.base_url or "api.openai.com"
        try:
            resp = self._client.chat.completions.create(**kwargs)
        except sdk.APITimeoutError as e:
            raise TransientError(f"{self.provider} did not answer within {self.timeout_s:.0f} s (llm.timeout_s)") from e
        except sdk.APIConnectionError as e:
            refused = isinstance(e.__cause__, ConnectionRefusedError) or "refused" in str(e.__cause__ or "").lower()
            raise TransientError(f"cannot reach {self.provider} at {where}: is the server running?",
                                 retryable=not refused) from e
        except sdk.APIStatusError as e:
            retry_after = parse_retry_after(e.response.headers.get("retry-after"))
            raise status_error(e.status_code, e.response.text, self.provider, retry_after) from e
        except (sdk.APIResponseValidationError, jsonlib.JSONDecodeError, ValueError) as e:
            raise LLMBadOutput(f"{self.provider} returned a response that is not valid chat JSON: {e}") from e
        except sdk.OpenAIError as e:
            raise LLMUnavailable(f"{self.provider} call failed: {e}") from e
        choices = getattr(resp, "choices", None)
        if not choices or choices[0].message is None or choices[0].message.content is None:
            raise LLMBadOutput(f"{self.provider} response has no choices[0].message.content")
        usage = getattr(resp, "usage", None)
        return Completion(
            text=choices[0].message.content, model=getattr(resp, "model", None) or self.model,
            provider=self.provider,
            prompt_tokens=getattr(usage, "prompt_tokens", None), completion_tokens=getattr(usage, "completion_tokens", None),
            raw={"finish_reason": choices[0].finish_reason},
        )
