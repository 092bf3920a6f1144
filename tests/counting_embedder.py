"""An embedder wrapper for tests of the vector cache: the real model, counting its texts."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.embed.base import Embedder, Kind, Vectors


class Counting(Embedder):
    """A real embedder, counting the texts it is asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str], kind: Kind = "passage") -> Vectors:
        self.seen.extend(texts)
        return self.inner.embed(texts, kind)

    def identity(self) -> str:
        return self.inner.identity()

    def side(self, kind: Kind) -> str:
        return self.inner.side(kind)

    def heads(self, texts: Sequence[str], kind: Kind = "passage") -> list[str]:
        return self.inner.heads(texts, kind)

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)
