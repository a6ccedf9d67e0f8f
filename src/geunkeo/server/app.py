"""HTTP front end (FastAPI) over the same Python API as the CLI: /health, /search, /ask.

    geunkeo serve --index DIR [--host 127.0.0.1 --port 8000]

No logic lives here: requests are parsed, the index is searched or asked, results are returned as JSON.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, Field

from geunkeo.config import Settings
from geunkeo.errors import GeunkeoError, QueryError


class SearchRequest(BaseModel):
    query: str
    k: int = Field(10, ge=1, le=100)
    mode: Literal["bm25", "dense", "hybrid"] | None = None


class AskRequest(BaseModel):
    query: str
    k: int = Field(5, ge=1, le=20)


def create_app(index_dir: str | Path, settings: Settings | None = None) -> FastAPI:
    """An app serving one index (opened once, shared by all requests)."""
    import geunkeo

    settings = settings or Settings()
    index = geunkeo.open_index(index_dir, settings)
    app = FastAPI(title="geunkeo", version=geunkeo.__version__)

    @app.get("/health")
    def health() -> dict:
        m = index.manifest
        return {"status": "ok", "documents": m.documents, "chunks": m.chunks, "embedder": m.embedder_version,
                "llm": settings.llm.provider}

    @app.post("/search")
    def search(req: SearchRequest) -> dict:
        try:
            return index.search(req.query, k=req.k, mode=req.mode).to_dict()
        except QueryError as exc:
            raise HTTPException(status_code=422, detail=str(exc)) from exc
        except GeunkeoError as exc:
            raise HTTPException(status_code=500, detail=str(exc)) from exc

    @app.post("/ask")
    def ask(req: AskRequest) -> dict:
        from geunkeo.answer import ask as ask_fn

        try:
            return ask_fn(req.query, index, settings, k=req.k).to_dict()
        except QueryError as exc:
            raise HTTPException(status_code=422, detail=str(exc)) from exc
        except GeunkeoError as exc:
            raise HTTPException(status_code=500, detail=str(exc)) from exc

    return app
