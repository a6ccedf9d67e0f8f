"""API keys with roles (reader ⊂ reviewer ⊂ admin), stored hashed in SQLite, and the login of the pages.

    geunkeo keys create --name alice --role reviewer     # prints the key once
    curl -H "Authorization: Bearer gk_…" …                # the JSON API
    /login                                                # the pages: paste the key, kept in an HttpOnly cookie

Only sha256(key) is stored (a key is 32 random bytes, so a plain hash cannot be brute-forced). Review writes always
need a reviewer key; reading (ask, search, runs) is open unless `server.read_auth` is true. The reviewer's
identity on a decision is the key's name, never a form field.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from geunkeo.config import Settings, geunkeo_home
from geunkeo.errors import ConfigError

ROLES = ("reader", "reviewer", "admin")
COOKIE = "geunkeo_key"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, role TEXT NOT NULL, key_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL, revoked_at TEXT
);
"""


@dataclass(frozen=True)
class Principal:
    name: str
    role: str

    def can(self, role: str) -> bool:
        return ROLES.index(self.role) >= ROLES.index(role)


ANONYMOUS = Principal("anonymous", "reader")


def db_path(settings: Settings) -> Path:
    return Path(settings.server.db_path).expanduser() if settings.server.db_path else geunkeo_home() / "server.db"


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class KeyStore:
    """API keys in one SQLite file (the server's `server.db`)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=10, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._db.executescript(_SCHEMA)

    def create(self, name: str, role: str) -> str:
        """A new key for `name` with `role`; the key itself is returned once and never stored."""
        if role not in ROLES:
            raise ConfigError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        if not name.strip():
            raise ConfigError("a key needs a name (the reviewer's identity on decisions)")
        key = "gk_" + secrets.token_urlsafe(32)
        with self._db:
            self._db.execute("INSERT INTO api_keys (name, role, key_hash, created_at) VALUES (?,?,?,?)",
                             (name.strip(), role, _hash(key), datetime.now(UTC).isoformat(timespec="seconds")))
        return key

    def verify(self, key: str | None) -> Principal | None:
        if not key:
            return None
        row = self._db.execute("SELECT name, role FROM api_keys WHERE key_hash=? AND revoked_at IS NULL",
                               (_hash(key.strip()),)).fetchone()
        return Principal(row["name"], row["role"]) if row else None

    def list(self) -> list[dict]:
        return [dict(r) for r in self._db.execute(
            "SELECT id, name, role, created_at, revoked_at FROM api_keys ORDER BY id")]

    def revoke(self, key_id: int) -> bool:
        with self._db:
            cur = self._db.execute("UPDATE api_keys SET revoked_at=? WHERE id=? AND revoked_at IS NULL",
                                   (datetime.now(UTC).isoformat(timespec="seconds"), key_id))
        return cur.rowcount == 1


def _key_of(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.cookies.get(COOKIE)


def current(request: Request) -> Principal | None:
    """The caller's principal from the bearer key or the login cookie, else None."""
    store: KeyStore = request.app.state.keys
    return store.verify(_key_of(request))


def require_role(role: str):
    """A FastAPI dependency: the caller's principal when it has `role` (401 without a valid key, 403 with a
    weaker role); reading is open when `server.read_auth` is off."""
    if role not in ROLES:
        raise ValueError(role)

    def dependency(request: Request) -> Principal:
        who = current(request)
        if who is None:
            if role == "reader" and not request.app.state.settings.server.read_auth:
                return ANONYMOUS
            raise HTTPException(401, f"this needs a {role} key: Authorization: Bearer <key>, or log in at /login",
                                headers={"WWW-Authenticate": "Bearer"})
        if not who.can(role):
            raise HTTPException(403, f"{who.name} has the role {who.role}; this needs {role}")
        return who

    return dependency


router = APIRouter()


@router.get("/login", response_class=HTMLResponse, include_in_schema=False)
def login_page(request: Request, next: str = "/review", error: str | None = None):
    from geunkeo.server.views import render_page

    return render_page(request, "login.html", page="login", next=next if next.startswith("/") else "/review",
                       error=error, who=current(request))


@router.post("/login", include_in_schema=False)
def login(request: Request, key: str = Form(...), next: str = Form("/review")):
    who = request.app.state.keys.verify(key)
    target = next if next.startswith("/") and not next.startswith("//") else "/review"
    if who is None:
        return RedirectResponse(f"/login?error=invalid&next={target}", status_code=303)
    resp = RedirectResponse(target, status_code=303)
    resp.set_cookie(COOKIE, key.strip(), httponly=True, samesite="strict", max_age=12 * 3600)
    return resp


@router.post("/logout", include_in_schema=False)
def logout():
    resp = RedirectResponse("/", status_code=303)
    resp.delete_cookie(COOKIE)
    return resp


@router.get("/api/whoami", tags=["auth"])
def whoami(who: Principal = Depends(require_role("reader"))) -> dict:
    """The caller's name and role."""
    return {"name": who.name, "role": who.role}
