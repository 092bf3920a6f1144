"""One embedding of the question for every member.

Each member embeds the question itself (and HippoRAG-based ones its phrases too); with six
members that is six forward passes of the same text. The members get this wrapper in their
context instead of the embedder: texts seen during the current query are embedded once.
It also serialises calls into the model and tokenizer, which a fast tokenizer needs when
the members run in threads ("Already borrowed").
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from graphmem.embed import Embedder
from graphmem.embed.base import Kind, Vectors

_KEEP = 256  # texts kept: one query's question, quadruples and phrases, many times over


class SharedQueryEmbedder(Embedder):
    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self._vectors: dict[tuple[Kind, str], np.ndarray] = {}
        self._lock = threading.Lock()

    def remember(self, query: str) -> None:
        """A new query: forget the texts of old ones once there are too many."""
        with self._lock:
            if len(self._vectors) > _KEEP:
                self._vectors.clear()

    def embed(self, texts: Sequence[str], kind: Kind = "passage") -> Vectors:
        with self._lock:
            fresh = [t for t in dict.fromkeys(texts) if (kind, t) not in self._vectors]
            if fresh:
                for text, vector in zip(fresh, self.inner.embed(fresh, kind), strict=True):
                    self._vectors[kind, text] = vector
            if not texts:
                return np.zeros((0, self.dim), dtype=np.float32)
            rows = [self._vectors[kind, t] for t in texts]
            return np.stack(rows).astype(np.float32, copy=False)

    def count_tokens(self, text: str) -> int:
        with self._lock:
            return self.inner.count_tokens(text)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        with self._lock:
            return self.inner.count_tokens_many(texts)
