"""Who used a cache entry: so a forget erases what only the forgotten turns fed.

The vector cache and the LLM answer cache are keyed by content hashes shared by every
space: a key says nothing of whose text it was made from. So each cache records, beside
its entries, every *use* of one under a scope: the space and conversation a build step
ran for (``""`` for a space-wide step: a query, an answer, a pass over the whole space),
with the time. A forget notes when it started, builds the kept turns again (what they
need is used again, after the start), then sweeps: the touched scopes' uses from before
the start go, and an entry no use holds any more goes with them. An entry that another
space or conversation also used stays (a kept text shares it).

The scope is a context variable set by the callers that know it (``Memory``'s ingest,
query and answer); a use outside any scope is not recorded, and an entry written before
uses were recorded is never swept (docs/privacy.md says to delete such a cache).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple


class Scope(NamedTuple):
    space: str
    conversation: str = ""  # "": a space-wide step of a build


# The scope of a space's questions (queries and answers): a forget sweeps their uses up to
# its end, since one asked while it ran read the graph as it was.
QUESTIONS = "?"


_SCOPE: ContextVar[Scope | None] = ContextVar("graphmem_cache_scope", default=None)

USES_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS uses (key BLOB NOT NULL, space TEXT NOT NULL,"
    " conversation TEXT NOT NULL, used_at REAL NOT NULL,"
    " PRIMARY KEY (key, space, conversation)) WITHOUT ROWID",
    # A sweep reads one space's scopes: without it, the whole table under the write lock.
    "CREATE INDEX IF NOT EXISTS uses_scope ON uses (space, conversation, used_at)",
)
_MARK = "INSERT OR REPLACE INTO uses VALUES (?, ?, ?, ?)"


@contextmanager
def scope(space: str, conversation: str = "") -> Iterator[None]:
    """Cache entries used inside are recorded as used by (space, conversation)."""
    token = _SCOPE.set(Scope(space, conversation))
    try:
        yield
    finally:
        _SCOPE.reset(token)


def current() -> Scope | None:
    return _SCOPE.get()


def mark(db: sqlite3.Connection, keys: Iterable[bytes | str]) -> None:
    """Record ``keys`` as used now by the current scope (none: nothing). Inside the
    caller's transaction."""
    where = current()
    if where is None:
        return
    now = time.time()
    db.executemany(_MARK, ((k, where.space, where.conversation, now) for k in keys))


def sweep(
    db: sqlite3.Connection,
    table: str,
    space: str,
    conversations: Sequence[str] | None,
    before: float,
) -> int:
    """Inside the caller's transaction: drop the uses of ``space`` in ``conversations``
    (scopes: a conversation, ``""`` for the build's space-wide steps, ``QUESTIONS``; None:
    every scope) made before ``before``, then the entries of ``table`` (a trusted name,
    keyed by ``key``) that no use holds any more. The entries deleted."""
    chosen = "" if conversations is None else _among(len(conversations))
    params: list[object] = [space, before]
    if conversations is not None:
        params += list(conversations)
    condition = f"space = ? AND used_at < ?{chosen}"
    db.execute("DROP TABLE IF EXISTS temp.swept")
    db.execute(
        f"CREATE TEMP TABLE swept AS SELECT DISTINCT key FROM uses WHERE {condition}", params
    )
    db.execute(f"DELETE FROM uses WHERE {condition}", params)
    before_changes = db.total_changes
    db.execute(
        f"DELETE FROM {table} WHERE key IN (SELECT key FROM temp.swept)"
        " AND key NOT IN (SELECT key FROM uses)"
    )
    gone = db.total_changes - before_changes
    db.execute("DROP TABLE temp.swept")
    return gone


def _among(n: int) -> str:
    return f" AND conversation IN ({','.join('?' * n)})"
