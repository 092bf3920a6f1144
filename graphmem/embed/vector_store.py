"""The vector cache's disk tier: ``GRAPHMEM_CACHE_DIR/vectors/vectors.sqlite3`` (folder
0700, files 0600), SQLite in WAL mode with a busy timeout, so any number of processes read
while one writes and two ingests writing at once wait for each other instead of failing.
Vectors are float32 blobs: a vector read back is bit-identical to the one stored. Capped at
``GRAPHMEM_VECTOR_CACHE_MB`` (0: off); past it the least recently used entries go. Each
entry's uses are recorded (``graphmem.process.uses``), so a forget erases what only it fed.
A corrupt file is replaced by a new one, but only by a process that has it to itself: every
process holds a shared ``flock`` on ``vectors.lock`` while it has the cache open, and the
files are deleted under an exclusive one. Deleting a WAL database's ``-wal`` and ``-shm``
files under another process's open connection is what corrupts it (``graphmem.embed.cache``
puts the tiers together).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from graphmem.config import Settings
from graphmem.process import uses

log = logging.getLogger(__name__)

_TOUCH_S = 3600  # a hit refreshes its entry's use time once it is older than this
_ROW_OVERHEAD = 120  # key, use time and index bytes of an entry, beyond its vector
_KEEP_AFTER_EVICT = 0.9  # eviction goes below the cap, so that it runs rarely
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vec BLOB NOT NULL,"
    " used INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS vectors_used ON vectors (used)",
    "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    *uses.USES_SCHEMA,  # who used each vector: a forget erases what only it used
)
# Counted once, when the meta table is new: a count on every open would read the whole file.
_COUNT = "INSERT INTO meta SELECT 'count', count(*) FROM vectors"


def _now() -> int:
    """Seconds of the wall clock: an entry's use time, compared across processes."""
    return int(time.time())


def is_corrupt(exc: BaseException) -> bool:
    """SQLite says the file is damaged or no database: replacing it loses nothing."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _wal(db: sqlite3.Connection, deadline: float) -> None:
    """Put ``db`` in WAL mode, waiting while another process holds the file.

    The switch needs the file to itself, and SQLite answers "database is locked" at once
    rather than calling the busy handler when a second process is opening or writing a new
    cache at the same moment; so this waits here. A cache already in WAL mode needs no lock.
    """
    while True:
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _empty_wal(db: sqlite3.Connection, tries: int = 20) -> None:
    """Copy the write-ahead log into the file and empty it, so the deleted entries' bytes
    leave it; a reader in another process holds it back a moment, so this tries again."""
    for _ in range(tries):
        (busy, _, _) = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if not busy:
            return
        time.sleep(0.05)
    log.warning("vector cache: another process kept the write-ahead log; it empties later")


def cache_path(settings: Settings) -> Path:
    return settings.cache_dir / "vectors" / "vectors.sqlite3"


class VectorStore:
    """The on-disk tier. Not thread-safe by itself: ``CachedEmbedder`` holds its lock."""

    def __init__(self, path: Path, cap_bytes: int) -> None:
        self.path = path
        self._cap_bytes = cap_bytes
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lock_fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_SH)  # exclusive holders hold it briefly
            self._db = self._connect(path)
        except BaseException:
            os.close(self._lock_fd)
            raise

    @classmethod
    def open(cls, settings: Settings) -> VectorStore | None:
        """The cache of ``settings``; None when it is off or cannot be used (one warning)."""
        if settings.vector_cache_mb <= 0:
            return None
        path = cache_path(settings)
        cap = settings.vector_cache_mb << 20
        try:
            return cls(path, cap)
        except sqlite3.DatabaseError as exc:
            if not is_corrupt(exc):  # locked, unreadable, full disk: nothing to replace
                log.warning("vector cache %s unused: %s", path, exc)
                return None
            if not discard(path):
                log.warning("vector cache %s unused: %s (in use by another process)", path, exc)
                return None
            log.warning("vector cache %s was unreadable (%s): starting a new one", path, exc)
        except OSError as exc:
            log.warning("vector cache %s unused: %s", path, exc)
            return None
        try:
            return cls(path, cap)
        except (OSError, sqlite3.Error) as exc:
            log.warning("vector cache %s unused: %s", path, exc)
            return None

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        # Created 0600 before SQLite opens it: its -wal and -shm files take the same mode.
        # Only when it does not exist: closing any descriptor of a database file drops every
        # POSIX lock this process holds on it, the locks of its open connections included
        # (SQLite still counts them as held), and another process that then believes it is
        # the last user checkpoints and deletes the WAL under them: a damaged database.
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
        db = sqlite3.connect(path, timeout=60.0, isolation_level=None, check_same_thread=False)
        try:
            _wal(db, deadline=time.monotonic() + 60.0)
            db.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses the last writes only
            db.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA:
                db.execute(statement)
            if db.execute("SELECT 1 FROM meta WHERE name = 'count'").fetchone() is None:
                db.execute(_COUNT)
            db.execute("COMMIT")
        except BaseException:
            db.close()
            raise
        return db

    def get(self, keys: Sequence[bytes], dim: int) -> dict[bytes, np.ndarray]:
        found: dict[bytes, np.ndarray] = {}
        stale: list[bytes] = []
        now = _now()
        for start in range(0, len(keys), 500):  # SQLite's bound-parameter limit
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT key, vec, used FROM vectors WHERE key IN ({marks})"
            for key, blob, used in self._db.execute(query, chunk):
                if len(blob) == 4 * dim:
                    found[key] = np.frombuffer(blob, dtype="<f4")
                    if now - used > _TOUCH_S:
                        stale.append(key)
        scoped = uses.current() is not None and found
        if stale or scoped:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "UPDATE vectors SET used = ? WHERE key = ?", ((now, k) for k in stale)
                )
                uses.mark(self._db, found)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return found

    def put(self, rows: Sequence[tuple[bytes, np.ndarray]]) -> None:
        if not rows:
            return
        now = _now()
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            before = db.total_changes
            db.executemany(
                "INSERT OR IGNORE INTO vectors VALUES (?, ?, ?)",
                ((k, np.asarray(v, dtype="<f4").tobytes(), now) for k, v in rows),
            )
            added = db.total_changes - before
            uses.mark(db, (k for k, _ in rows))
            db.execute("UPDATE meta SET value = value + ? WHERE name = 'count'", (added,))
            self._evict(len(rows[0][1]))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _evict(self, dim: int) -> None:
        """Inside ``put``'s transaction: the least recently used entries past the cap."""
        cap_rows = max(1, self._cap_bytes // (4 * dim + _ROW_OVERHEAD))
        (count,) = self._db.execute("SELECT value FROM meta WHERE name = 'count'").fetchone()
        if count <= cap_rows:
            return
        drop = count - int(cap_rows * _KEEP_AFTER_EVICT)
        self._db.execute(
            "DELETE FROM vectors WHERE key IN (SELECT key FROM vectors ORDER BY used LIMIT ?)",
            (drop,),
        )
        self._db.execute("DELETE FROM uses WHERE key NOT IN (SELECT key FROM vectors)")
        (left,) = self._db.execute("SELECT count(*) FROM vectors").fetchone()
        self._db.execute("UPDATE meta SET value = ? WHERE name = 'count'", (left,))

    def delete(self, keys: Sequence[bytes]) -> int:
        """Remove entries (a forget's turns) and their uses."""

        def drop(db: sqlite3.Connection) -> None:
            for start in range(0, len(keys), 500):  # SQLite's bound-parameter limit
                chunk = list(keys[start : start + 500])
                marks = ",".join("?" * len(chunk))
                db.execute(f"DELETE FROM uses WHERE key IN ({marks})", chunk)
                db.execute(f"DELETE FROM vectors WHERE key IN ({marks})", chunk)

        return self._erase(drop)

    def touch(self, keys: Sequence[bytes]) -> None:
        """Record the current scope's use of ``keys`` (held elsewhere too)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            uses.mark(self._db, keys)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def sweep(self, space: str, conversations: Sequence[str] | None, before: float) -> int:
        """Remove the entries only the swept uses held (``uses.sweep``)."""
        return self._erase(lambda db: uses.sweep(db, "vectors", space, conversations, before))

    def _erase(self, change: Callable[[sqlite3.Connection], object]) -> int:
        """Run a deleting ``change``: SQLite overwrites the freed bytes (``secure_delete``)
        and the write-ahead log is emptied after, so the file keeps nothing of them."""
        db = self._db
        db.execute("PRAGMA secure_delete = ON")
        db.execute("BEGIN IMMEDIATE")
        try:
            before = db.execute("SELECT count(*) FROM vectors").fetchone()[0]
            change(db)
            (left,) = db.execute("SELECT count(*) FROM vectors").fetchone()
            db.execute("UPDATE meta SET value = ? WHERE name = 'count'", (left,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        _empty_wal(db)
        return int(before - left)

    def count(self) -> int:
        (n,) = self._db.execute("SELECT count(*) FROM vectors").fetchone()
        return int(n)

    def close(self) -> None:
        self._db.close()
        if self._lock_fd >= 0:
            os.close(self._lock_fd)  # releases the shared lock
            self._lock_fd = -1


def discard(path: Path) -> bool:
    """Deletes the cache at ``path`` if no process has it open (an exclusive ``flock`` on its
    lock file, not waited for); False when another process holds it."""
    fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return True
    finally:
        os.close(fd)  # releases the lock
