"""LLM providers by name: `get_llm(settings)` builds the configured one, wrapped in the shared response cache.

Adding a provider is one file under `llm/providers/` plus one line in `PROVIDERS`.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from geunkeo.config import LLMSettings, Settings
from geunkeo.errors import ConfigError
from geunkeo.llm.base import LLM
from geunkeo.llm.cache import CachedLLM, LLMCache, default_cache_path

# Used when llm.model is unset; local servers have no sensible default, so they need llm.model.
DEFAULT_MODELS = {"openai": "gpt-4o-mini", "gemini": "gemini-2.5-flash"}


def _key(s: LLMSettings, *names: str, required: bool, provider: str) -> str | None:
    env_names = [s.api_key_env] if s.api_key_env else list(names)
    for name in env_names:
        value = os.environ.get(name)
        if value:
            return value
    if required:
        raise ConfigError(f"{provider} needs an API key: set the environment variable {' or '.join(env_names)}")
    return None


def _model(s: LLMSettings, provider: str) -> str:
    model = s.model or DEFAULT_MODELS.get(provider)
    if not model:
        raise ConfigError(f"set llm.model for the {provider} provider (GEUNKEO_LLM__MODEL or --model)")
    return model


def _common(s: LLMSettings) -> dict:
    return {"timeout_s": s.timeout_s, "max_retries": s.max_retries, "concurrency": s.concurrency,
            "temperature": s.temperature}


def _ollama(s: LLMSettings) -> LLM:
    from geunkeo.llm.providers.ollama import OllamaLLM

    return OllamaLLM(_model(s, "ollama"), base_url=s.base_url, **_common(s))


def _openai(s: LLMSettings) -> LLM:
    from geunkeo.llm.providers.openai_chat import OpenAIChatLLM

    key = _key(s, "OPENAI_API_KEY", required=True, provider="openai")
    return OpenAIChatLLM(_model(s, "openai"), api_key=key, base_url=s.base_url, **_common(s))


def _openai_compatible(s: LLMSettings) -> LLM:
    from geunkeo.llm.providers.openai_chat import OpenAIChatLLM

    if not s.base_url:
        raise ConfigError(
            "openai-compatible needs llm.base_url, e.g. http://127.0.0.1:1234/v1 (LM Studio) "
            "or http://127.0.0.1:8000/v1 (vLLM, llama.cpp server)"
        )
    # Local servers usually take no key; send one only when configured.
    key = _key(s, "OPENAI_API_KEY", required=False, provider="openai-compatible") if s.api_key_env else None
    return OpenAIChatLLM(_model(s, "openai-compatible"), api_key=key, base_url=s.base_url,
                         provider="openai-compatible", **_common(s))


def _gemini(s: LLMSettings) -> LLM:
    from geunkeo.llm.providers.gemini import GeminiLLM

    key = _key(s, "GEMINI_API_KEY", "GOOGLE_API_KEY", required=True, provider="gemini")
    return GeminiLLM(_model(s, "gemini"), api_key=key, base_url=s.base_url, **_common(s))


def _llamacpp(s: LLMSettings) -> LLM:
    from geunkeo.llm.providers.llamacpp import LlamaCppLLM

    return LlamaCppLLM(s.gguf_path, **_common(s))


PROVIDERS: dict[str, Callable[[LLMSettings], LLM]] = {
    "ollama": _ollama,
    "openai": _openai,
    "openai-compatible": _openai_compatible,
    "gemini": _gemini,
    "llamacpp": _llamacpp,
}


def create_provider(s: LLMSettings) -> LLM:
    """The bare provider for `s.provider` (no cache); ConfigError names the allowed values."""
    factory = PROVIDERS.get(s.provider)
    if factory is None:
        allowed = ", ".join(["none", *PROVIDERS])
        raise ConfigError(f"unknown llm.provider {s.provider!r}: choose one of {allowed}")
    return factory(s)


def get_llm(settings: Settings) -> LLM | None:
    """The configured LLM wrapped in the persistent cache, or None when `llm.provider` is "none"."""
    s = settings.llm
    if s.provider == "none":
        return None
    llm = create_provider(s)
    if not s.cache:
        return llm
    return CachedLLM(llm, LLMCache(default_cache_path(s.cache_path)))
