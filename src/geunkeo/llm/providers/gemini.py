"""Google Gemini through the official `google-genai` SDK (`models.generate_content`)."""

from __future__ import annotations

import json as jsonlib

from geunkeo.errors import ConfigError, LLMBadOutput
from geunkeo.llm.base import Completion, Message
from geunkeo.llm.remote import RemoteLLM, TransientError, httpx_errors, parse_retry_after, status_error


class GeminiLLM(RemoteLLM):
    provider = "gemini"

    def __init__(self, model: str, *, api_key: str | None, base_url: str | None = None, **kwargs):
        super().__init__(model, **kwargs)
        from google import genai
        from google.genai import errors, types

        if not api_key:
            raise ConfigError("gemini needs an API key: set GEMINI_API_KEY (or GOOGLE_API_KEY, or llm.api_key_env)")
        self._types = types
        self._errors = errors
        # HttpOptions.timeout is in milliseconds; the SDK's own retries stay off (ours apply).
        opts = types.HttpOptions(base_url=base_url, timeout=int(self.timeout_s * 1000))
        self._client = genai.Client(api_key=api_key, http_options=opts)
        self._timeouts = httpx_errors("TimeoutException")
        self._transport = httpx_errors("TransportError")

    def _request(self, messages: list[Message], json: bool, temperature: float, max_tokens: int | None):
        types = self._types
        system = "\n\n".join(m.content for m in messages if m.role == "system") or None
        contents = [
            types.Content(role="model" if m.role == "assistant" else "user", parts=[types.Part(text=m.content)])
            for m in messages
            if m.role != "system"
        ]
        config = types.GenerateContentConfig(
            system_instruction=system, temperature=temperature, max_output_tokens=max_tokens,
            response_mime_type="application/json" if json else None,
        )
        return contents, config

    def _complete_once(self, messages: list[Message], *, json: bool, temperature: float,
                       max_tokens: int | None) -> Completion:
        contents, config = self._request(messages, json, temperature, max_tokens)
        try:
            resp = self._client.models.generate_content(model=self.model, contents=contents, config=config)
        except self._errors.APIError as e:
            headers = getattr(getattr(e, "response", None), "headers", None) or {}
            retry_after = parse_retry_after(headers.get("retry-after"))
            raise status_error(int(e.code or 0), str(e.message or e.details), "gemini", retry_after) from e
        except self._timeouts as e:
            raise TransientError(f"gemini did not answer within {self.timeout_s:.0f} s (llm.timeout_s)") from e
        except self._transport as e:
            raise TransientError(f"cannot reach gemini: {e}", retryable="refused" not in str(e).lower()) from e
        except (jsonlib.JSONDecodeError, ValueError) as e:
            raise LLMBadOutput(f"gemini returned a response that is not valid JSON: {e}") from e
        try:
            text = resp.text
        except ValueError as e:  # the SDK raises when the candidate has no text parts
            raise LLMBadOutput(f"gemini response has no text: {e}") from e
        if text is None:
            raise LLMBadOutput("gemini response has no candidates with text (blocked or empty)")
        usage = resp.usage_metadata
        return Completion(
            text=text, model=resp.model_version or self.model, provider=self.provider,
            prompt_tokens=getattr(usage, "prompt_token_count", None),
            completion_tokens=getattr(usage, "candidates_token_count", None),
        )
