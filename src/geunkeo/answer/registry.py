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


class Answerers:
    """The registered answerers for one configuration, each built once: the extractive one up front (every answer's
    gate reads its ranked units), the others on first use, an LLM-backed one once per LLM client."""

    def __init__(self, settings: Settings):
        self._settings = settings
        self.extractive = ExtractiveAnswerer(settings.answer)
        # keyed by the client's id; the client is kept beside its answerer, so the id cannot be reused meanwhile
        self._built: dict[tuple[str, int], tuple[LLM | None, Answerer]] = {}

    def resolve(self, name: str | None) -> str:
        """The answerer's name, 'auto' or None resolved as `resolve_name` does."""
        return resolve_name(name, self._settings)

    def get(self, name: str, llm: LLM | None = None) -> Answerer:
        """The answerer called `name`, over `llm` when it uses one."""
        if name == "extractive":
            return self.extractive
        if name == "llm":
            return self.llm(llm)
        key = (name, id(llm))
        if key not in self._built:
            self._built[key] = (llm, get_answerer(name, self._settings, llm))
        return self._built[key][1]

    def llm(self, llm: LLM | None) -> LLMAnswerer:
        """The LLM answerer over `llm` (typed as itself: the gate's one regeneration passes it `avoid`)."""
        key = ("llm", id(llm))
        if key not in self._built:
            self._built[key] = (llm, llm_answerer(self._settings, llm))
        found = self._built[key][1]
        if not isinstance(found, LLMAnswerer):
            raise TypeError(f"expected the LLM answerer, found {type(found).__name__}")
        return found
