"""Answerers by name. Adding one is a new module plus one line in `ANSWERERS`."""

from __future__ import annotations

from collections.abc import Callable

from geunkeo.answer.base import Answerer
from geunkeo.answer.extractive import ExtractiveAnswerer
from geunkeo.answer.llm_answerer import LLMAnswerer
from geunkeo.config import Settings
from geunkeo.errors import ConfigError
from geunkeo.llm.base import LLM


def llm_answerer(settings: Settings, llm: LLM | None) -> LLMAnswerer:
    """The LLM answerer (typed as itself: the gate's one regeneration passes it `avoid`)."""
    if llm is None:
        raise ConfigError("the llm answerer needs an LLM: set llm.provider (GEUNKEO_LLM__PROVIDER or --llm)")
    return LLMAnswerer(llm, settings.answer)


ANSWERERS: dict[str, Callable[[Settings, LLM | None], Answerer]] = {
    "extractive": lambda settings, llm: ExtractiveAnswerer(settings.answer),
    "llm": llm_answerer,
}


def resolve_name(name: str | None, settings: Settings) -> str:
    """'auto' (or None) → 'llm' when an LLM provider is configured, else 'extractive'."""
    name = name or settings.answer.answerer
    if name == "auto":
        return "llm" if settings.llm.provider != "none" else "extractive"
    if name not in ANSWERERS:
        raise ConfigError(f"unknown answerer {name!r}: choose one of auto, {', '.join(ANSWERERS)}")
    return name


def get_answerer(name: str, settings: Settings, llm: LLM | None = None) -> Answerer:
    """The answerer called `name` ('extractive' or 'llm')."""
    if name not in ANSWERERS:
        raise ConfigError(f"unknown answerer {name!r}: choose one of {', '.join(ANSWERERS)}")
    return ANSWERERS[name](settings, llm)
