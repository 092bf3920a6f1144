"""Baseline retrievers over passages: dense (vector index), fulltext (Lucene BM25) and
hybrid (reciprocal rank fusion of the two)."""

from __future__ import annotations

import math
import re
from typing import Any

from graphmem.retrieval.base import Hit, PassageRef, RetrievalContext, SearchRetriever

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_LUCENE_OPERATORS = re.compile(r"\b(AND|OR|NOT|TO)\b")


def lucene_query(text: str) -> str:
    """A user question as a safe Lucene query: special characters escaped, operators
    lower-cased (the english analyzer drops them as stop words), terms OR-ed."""
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", text)
    return _LUCENE_OPERATORS.sub(lambda m: m.group(0).lower(), escaped).strip() or "*"


class _FetchPlanner:
    """Vector and full-text indexes span every space; over-fetch in proportion to the share
    of passages that belong to the queried space so that k survive the space filter."""

    def __init__(self, ctx: RetrievalContext) -> None:
        self._ctx = ctx
        self._totals: tuple[int, int] | None = None

    def _load(self) -> tuple[int, int]:
        if self._totals is None:
            row = self._ctx.store.read("retrieval.passage_totals", space=self._ctx.space)[0]
            self._totals = (int(row["total"]), int(row["in_space"]))
        return self._totals

    def fetch(self, k: int) -> int:
        total, mine = self._load()
        ratio = total / mine if mine else 1.0
        return int(min(max(total, k), math.ceil(k * ratio * 1.5) + 10))

    def scan_is_cheaper(self, k: int) -> bool:
        """An exact scan touches the space's passages; the index would touch ``fetch``."""
        return self._load()[1] <= self.fetch(k)


def _hits(rows: list[dict[str, Any]], strategy: str, path: str) -> list[Hit]:
    return [
        Hit(
            node_id=row["id"],
            label="Passage",
            score=float(row["score"]),
            strategy=strategy,
            path=[f"{path} rank {i + 1} score {float(row['score']):.3f}"],
            passages=[PassageRef.from_row(row)],
        )
        for i, row in enumerate(rows)
    ]


class DenseRetriever(SearchRetriever):
    name = "dense"

    def __init__(self, ctx: RetrievalContext, config: object = None) -> None:
        super().__init__(ctx)
        self._planner = _FetchPlanner(ctx)

    def search(self, query: str, k: int) -> list[Hit]:
        embedding = self.ctx.embedder.embed_one(query)
        if self._planner.scan_is_cheaper(k):
            rows = self.ctx.store.read(
                "retrieval.dense_passages_exact", space=self.ctx.space, embedding=embedding, k=k
            )
            return _hits(rows, self.name, "exact cosine over the space's passages")
        rows = self.ctx.store.read(
            "retrieval.dense_passages",
            space=self.ctx.space,
            embedding=embedding,
            k=k,
            fetch=self._planner.fetch(k),
        )
        return _hits(rows, self.name, "vector index passage_embedding")


class FulltextRetriever(SearchRetriever):
    name = "fulltext"

    def __init__(self, ctx: RetrievalContext, config: object = None) -> None:
        super().__init__(ctx)
        self._planner = _FetchPlanner(ctx)

    def search(self, query: str, k: int) -> list[Hit]:
        rows = self.ctx.store.read(
            "retrieval.fulltext_passages",
            space=self.ctx.space,
            query=lucene_query(query),
            k=k,
            fetch=self._planner.fetch(k),
        )
        return _hits(rows, self.name, "full-text index passage_search (BM25)")


def rrf(rankings: list[list[Hit]], strategy: str, k: int = 60) -> list[Hit]:
    """Reciprocal rank fusion: score(d) = sum over lists of 1 / (k + rank(d))."""
    fused: dict[str, Hit] = {}
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking, start=1):
            scores[hit.node_id] = scores.get(hit.node_id, 0.0) + 1.0 / (k + rank)
            if hit.node_id in fused:
                fused[hit.node_id].path.extend(hit.path)
            else:
                fused[hit.node_id] = hit.model_copy(update={"path": list(hit.path)})
    order = sorted(fused, key=lambda node: scores[node], reverse=True)
    return [
        fused[node].model_copy(update={"score": scores[node], "strategy": strategy})
        for node in order
    ]


class HybridRetriever(SearchRetriever):
    """Dense + BM25, fused by reciprocal rank (k = 60, as in the RRF paper)."""

    name = "hybrid"
    rrf_k = 60

    def __init__(self, ctx: RetrievalContext, config: object = None) -> None:
        super().__init__(ctx)
        self._dense = DenseRetriever(ctx)
        self._fulltext = FulltextRetriever(ctx)

    def search(self, query: str, k: int) -> list[Hit]:
        dense = self._dense.search(query, k)
        sparse = self._fulltext.search(query, k)
        return rrf([dense, sparse], self.name, self.rrf_k)[:k]
