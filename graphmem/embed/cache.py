"""Every distinct text is embedded once: a content-hash vector cache in front of an embedder.

``build_embedder`` returns every embedder behind ``CachedEmbedder``, so ingest, the builders,
``graphmem reembed`` and queries share it. A vector is found by
``sha256(identity, side, text)``: the embedder's identity (its pinned name, with ``:int8``
or ``:bfloat16`` and the pinned graph's checksum where they change a vector), the side's
effective prefix (e5's ``query: `` and ``passage: ``; one side for symmetric models) and
the text. Two tiers:

- in memory, the last ``_MEMO`` texts (the question a query's members each ask for, the
  phrases of the next question): always on;
- on disk, ``graphmem.embed.vector_store``: SQLite under ``GRAPHMEM_CACHE_DIR/vectors``,
  shared by processes, capped, each entry's uses recorded for a forget.

The cache changes speed, never a result: a file that cannot be opened, read or written
(corrupt, read-only, full disk) costs one warning, and the process embeds without it (a
corrupt one is replaced: ``vector_store``).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from graphmem.config import Settings
from graphmem.embed.base import Embedder, Kind, Vectors
from graphmem.embed.vector_store import VectorStore, cache_path, discard, is_corrupt
from graphmem.process import uses

log = logging.getLogger(__name__)

_MEMO = 1024  # texts kept in memory: a query's, many times over (1.5 MB at 384-d)

__all__ = ["CachedEmbedder", "VectorStore", "cache_path", "discard"]


class CachedEmbedder(Embedder):
    """``inner`` behind the two tiers. Calls into the model are serialised (a fast
    tokenizer shared by threads fails with "Already borrowed"); ``inner`` may still use
    threads of its own within a call (int8 runs, ``embed/onnx_jar_embedder.py``)."""

    def __init__(self, inner: Embedder, store: VectorStore | None) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.store = store
        self._identity = inner.identity()
        self._memo: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._count_lock = threading.Lock()

    @classmethod
    def wrap(cls, inner: Embedder, settings: Settings | None = None) -> CachedEmbedder:
        """``inner`` behind the cache (``settings``' disk tier, or memory only); an embedder
        already behind one is returned as it is."""
        if isinstance(inner, CachedEmbedder):
            return inner
        return cls(inner, VectorStore.open(settings) if settings is not None else None)

    def identity(self) -> str:
        return self._identity

    def side(self, kind: Kind) -> str:
        return self.inner.side(kind)

    def heads(self, texts: Sequence[str], kind: Kind = "passage") -> list[str]:
        return self.inner.heads(texts, kind)

    def key(self, text: str, kind: Kind) -> bytes:
        head = f"{self._identity}\x00{self.inner.side(kind)}\x00".encode()
        return hashlib.sha256(head + text.encode("utf-8", "surrogatepass")).digest()

    def embed(self, texts: Sequence[str], kind: Kind = "passage") -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        keys = [self.key(t, kind) for t in texts]
        with self._lock:
            known = {k: self._memo[k] for k in keys if k in self._memo}
            for k in known:
                self._memo.move_to_end(k)
            wanted = {k: t for k, t in zip(keys, texts, strict=True) if k not in known}
            if wanted:
                known |= self._fetch(list(wanted))
                fresh = {k: t for k, t in wanted.items() if k not in known}
                if fresh:
                    vectors = self.inner.embed(list(fresh.values()), kind)
                    made = list(zip(fresh, vectors.astype(np.float32, copy=False), strict=True))
                    self._save(made)
                    known |= dict(made)
                for k in wanted:
                    self._remember(k, known[k])
        return np.stack([known[k] for k in keys]).astype(np.float32, copy=False)

    def forget(self, texts: Sequence[str], kind: Kind = "passage") -> int:
        keys = [self.key(t, kind) for t in texts]
        with self._lock:
            for key in keys:
                self._memo.pop(key, None)
            if self.store is None or not keys:
                return 0
            try:
                return self.store.delete(keys)
            except (sqlite3.Error, OSError) as exc:
                self._give_up(exc)
                return 0

    def sweep(self, space: str, conversations: Sequence[str] | None, before: float) -> int:
        with self._lock:
            self._memo.clear()  # a speed tier: the kept vectors are on disk
            if self.store is None:
                return 0
            try:
                return self.store.sweep(space, conversations, before)
            except (sqlite3.Error, OSError) as exc:
                self._give_up(exc)
                return 0

    def touch(self, texts: Sequence[str], kind: Kind = "passage") -> None:
        if self.store is None or not texts or uses.current() is None:
            return
        keys = [self.key(t, kind) for t in texts]
        with self._lock:
            try:
                self.store.touch(keys)
            except (sqlite3.Error, OSError) as exc:
                self._give_up(exc)

    def clear_memory(self) -> None:
        """Empty the in-memory tier, so that the next uses reach the disk and are recorded
        (a forget's rebuild: ``sweep`` keeps what it used again)."""
        with self._lock:
            self._memo.clear()

    def _remember(self, key: bytes, vector: np.ndarray) -> None:
        self._memo[key] = vector
        if len(self._memo) > _MEMO:
            self._memo.popitem(last=False)

    def _fetch(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        if self.store is None:
            return {}
        try:
            return self.store.get(keys, self.dim)
        except (sqlite3.Error, OSError) as exc:
            self._give_up(exc)
            return {}

    def _save(self, rows: list[tuple[bytes, np.ndarray]]) -> None:
        if self.store is None:
            return
        try:
            self.store.put(rows)
        except (sqlite3.Error, OSError) as exc:
            self._give_up(exc)

    def _give_up(self, exc: Exception) -> None:
        """One warning; this process embeds without the disk tier from now on. A corrupt file
        is deleted when no other process has it open, so the next process starts a new one."""
        store = self.store
        assert store is not None
        self.store = None
        with contextlib.suppress(sqlite3.Error, OSError):
            store.close()
        fate = ""
        if is_corrupt(exc):
            with contextlib.suppress(OSError):
                fate = "; deleted" if discard(store.path) else ""
        log.warning("vector cache %s unused from now on: %s%s", store.path, exc, fate)

    def count_tokens(self, text: str) -> int:
        with self._count_lock:
            return self.inner.count_tokens(text)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        with self._count_lock:
            return self.inner.count_tokens_many(texts)
