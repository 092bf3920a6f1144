"""A persistent cache of LLM answers, so re-running an ingest costs no tokens.

Entries are keyed by everything that determines the answer at temperature 0: the
model, the conversation and the JSON schema the answer must follow. The stored value
is the raw JSON text, re-validated on every hit, so a cache never returns an object
the current schema would reject.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from graphmem.errors import ConfigError
from graphmem.llm.types import Message
from graphmem.process import uses

if TYPE_CHECKING:
    from graphmem.config import Settings

log = logging.getLogger(__name__)

CACHE_FILE_NAME = "llm-cache.sqlite"
# Bump when the key recipe changes, so old entries are simply never hit again.
_KEY_VERSION = 1

_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS responses (
    key        TEXT PRIMARY KEY,
    model      TEXT NOT NULL,
    schema     TEXT NOT NULL,
    content    TEXT NOT NULL,
    created_at REAL NOT NULL
)
"""


def cache_key(model: str, messages: Sequence[Message], schema: type[BaseModel]) -> str:
    """sha256 of the canonical JSON of (model, messages, schema's JSON schema)."""
    payload = {
        "v": _KEY_VERSION,
        "model": model,
        "messages": [{"role": m.role, "content": m.content} for m in messages],
        "schema": schema.model_json_schema(),
    }
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _private(path: Path) -> None:
    """Prompts and answers quote the conversations: a new cache file is this user's only,
    like the files under GRAPHMEM_HOME (sqlite gives its journals the file's mode). One
    of this user's made before that rule is tightened; someone else's (a shared cache) or
    a read-only one is left as it is and still read."""
    try:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
        return
    except FileExistsError:
        pass
    try:
        mode = path.stat()
        if mode.st_uid == os.geteuid() and mode.st_mode & 0o077:
            os.chmod(path, mode.st_mode & 0o700)  # the owner's own bits as they were
    except OSError as exc:
        log.warning("LLM cache %s keeps its permissions: %s", path, exc)


class ResponseCache:
    """An sqlite file shared by threads (one connection behind a lock) and processes
    (sqlite's own file locking). Opening is lazy: constructing one does no I/O."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    @classmethod
    def for_settings(cls, settings: Settings, path: Path | None = None) -> ResponseCache | None:
        """The cache the settings ask for (``path`` overrides the location), or None."""
        if not settings.llm_cache:
            return None
        return cls(path if path is not None else settings.cache_dir / CACHE_FILE_NAME)

    def _connection(self) -> sqlite3.Connection:
        # Caller holds self._lock.
        if self._conn is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                _private(self.path)
                conn = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False)
                conn.execute(_SCHEMA_SQL)
                for statement in uses.USES_SCHEMA:  # who asked: a forget erases what only it did
                    conn.execute(statement)
                conn.commit()
            except (OSError, sqlite3.Error) as exc:
                raise ConfigError(
                    f"cannot open the LLM response cache at {self.path}: {exc}",
                    hint="point GRAPHMEM_CACHE_DIR at a writable folder, "
                    "or set GRAPHMEM_LLM_CACHE=false",
                ) from exc
            self._conn = conn
        return self._conn

    def get(self, key: str) -> str | None:
        with self._lock:
            conn = self._connection()
            try:
                row = conn.execute("SELECT content FROM responses WHERE key = ?", (key,)).fetchone()
            except sqlite3.Error as exc:
                # A busy or damaged cache costs tokens, not correctness: treat as a miss.
                log.warning("LLM cache read failed (%s); calling the model instead", exc)
                return None
            if row is not None and uses.current() is not None:
                self._mark(conn, key)
        return None if row is None else str(row[0])

    @staticmethod
    def _mark(conn: sqlite3.Connection, key: str) -> None:
        """Record a hit's use; a busy cache only loses the record (the entry may then go at
        a forget that needed it kept: a cost, never a leak)."""
        try:
            uses.mark(conn, [key])
            conn.commit()
        except sqlite3.Error as exc:
            conn.rollback()
            log.warning("LLM cache use not recorded (%s)", exc)

    def put(self, key: str, content: str, *, model: str = "", schema: str = "") -> None:
        with self._lock:
            conn = self._connection()
            try:
                conn.execute(
                    "INSERT OR REPLACE INTO responses (key, model, schema, content, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (key, model, schema, content, time.time()),
                )
                uses.mark(conn, [key])
                conn.commit()
            except sqlite3.Error as exc:
                conn.rollback()
                log.warning("LLM cache write failed (%s); the answer is not cached", exc)

    def delete(self, key: str) -> None:
        """Drop one entry, e.g. one the current schema no longer accepts."""
        with self._lock:
            conn = self._connection()
            try:
                conn.execute("DELETE FROM responses WHERE key = ?", (key,))
                conn.execute("DELETE FROM uses WHERE key = ?", (key,))
                conn.commit()
            except sqlite3.Error as exc:
                log.warning("LLM cache delete failed (%s)", exc)

    def sweep(self, space: str, conversations: Sequence[str] | None, before: float) -> int:
        """Drop the answers only the swept uses held (``graphmem.process.uses``: the scopes
        ``conversations`` of ``space`` before ``before``). SQLite overwrites their bytes
        (``secure_delete``). A cache file never opened is left unopened."""
        if self._conn is None and not self.path.is_file():
            return 0
        with self._lock:
            conn = self._connection()
            try:
                conn.execute("PRAGMA secure_delete = ON")
                gone = uses.sweep(conn, "responses", space, conversations, before)
                conn.commit()
            except sqlite3.Error as exc:
                conn.rollback()
                raise ConfigError(
                    f"cannot erase from the LLM response cache at {self.path}: {exc}",
                    hint=f"delete {self.path} (it fills again as needed)",
                ) from exc
        return gone

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
