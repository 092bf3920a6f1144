"""Baseline retrievers over passages: dense (vector index), fulltext (BM25 over the space's
turns) and hybrid (reciprocal rank fusion of the two)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel

from graphmem.graph.overfetch import SpaceTotals
from graphmem.graph.rows import read_typed
from graphmem.plugin.design import NoSettings
from graphmem.plugin.retriever import Hit, PassageRef, RetrievalContext, SearchRetriever
from graphmem.retrieval.bm25 import SpaceBM25
from graphmem.retrieval.exact import Versioned

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_LUCENE_OPERATORS = re.compile(r"\b(AND|OR|NOT|TO)\b")


# Lucene refuses a query of more than 1,024 clauses (TooManyClauses), and
# space_lucene_query spends 4 per term (a group of three fields) plus 2: the first 250
# words of a question are searched, the rest left out. Retrieval itself ranks in memory
# (graphmem.retrieval.bm25); these queries serve ad-hoc use and the plan benchmark.
MAX_LUCENE_TERMS = 250


def lucene_query(text: str) -> str:
    """A user question as a safe Lucene query: special characters escaped, operators
    lower-cased (the english analyzer drops them as stop words), terms OR-ed, at most
    ``MAX_LUCENE_TERMS`` of them."""
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", text)
    lowered = _LUCENE_OPERATORS.sub(lambda m: m.group(0).lower(), escaped)
    return " ".join(lowered.split()[:MAX_LUCENE_TERMS]) or "*"


# The fields a question is searched in; passage_search also indexes `space`, for the filter.
_TEXT_FIELDS = ("text", "caption", "speaker")


def space_lucene_query(space: str, text: str) -> str:
    """The question as a Lucene query over the passage text fields, required to be in
    ``space``: a phrase of the space name's tokens, so Lucene itself keeps (about) that
    space's passages instead of ranking every space's. The phrase can also match a space
    whose name contains the same words (``alice`` in ``alice-2``) and is dropped by the
    analyzer when the name is all stop words: the statement's exact ``p.space`` filter and
    the over-fetch still apply. Scores are those of the plain question: the space clause
    is boosted to 0, and each term is searched in the text fields as one group, as the
    index's default multi-field parsing does (a different grouping sums the same scores in
    another order, and float rounding then reorders near ties)."""
    terms = lucene_query(text)
    if terms == "*":
        return terms
    name = space.replace("\\", "\\\\").replace('"', '\\"')
    groups = " ".join(
        "(" + " ".join(f"{field}:{term}" for field in _TEXT_FIELDS) + ")" for term in terms.split()
    )
    return f'+space:"{name}"^0 +({groups})'


class ScoredPassage(BaseModel):
    """A row of the passage searches (``retrieval.*_passages``)."""

    passage: PassageRef
    score: float


def _hits(rows: list[ScoredPassage], strategy: str, path: str) -> list[Hit]:
    return [
        Hit(
            node_id=row.passage.id,
            label="Passage",
            score=row.score,
            strategy=strategy,
            path=[f"{path} rank {i + 1} score {row.score:.3f}"],
            passages=[row.passage],
        )
        for i, row in enumerate(rows)
    ]


class DenseRetriever(SearchRetriever[NoSettings]):
    name = "dense"

    def __init__(self, ctx: RetrievalContext, settings: NoSettings) -> None:
        super().__init__(ctx, settings)
        self._totals = SpaceTotals(ctx.store, ctx.space)

    def search(self, query: str, k: int) -> list[Hit]:
        embedding = self.ctx.embedder.embed_query(query)
        counts = self._totals.get("Passage")
        if counts.scan_is_cheaper(k):
            rows = read_typed(
                self.ctx.store,
                "retrieval.dense_passages_exact",
                ScoredPassage,
                space=self.ctx.space,
                embedding=embedding,
                k=k,
            )
            return _hits(rows, self.name, "exact cosine over the space's passages")
        rows = self._totals.search(
            "Passage",
            k,
            lambda fetch: read_typed(
                self.ctx.store,
                "retrieval.dense_passages",
                ScoredPassage,
                space=self.ctx.space,
                embedding=embedding,
                k=k,
                fetch=fetch,
            ),
        )
        return _hits(rows, self.name, "vector index passage_embedding")


@dataclass(frozen=True)
class TurnIndex:
    """One read of a space's turns and their BM25 index."""

    passages: list[PassageRef]
    bm25: SpaceBM25


class FulltextRetriever(SearchRetriever[NoSettings]):
    """BM25 over the space's own turns (``graphmem.retrieval.bm25``): text, caption and
    speaker, as the ``passage_search`` full-text index holds them, scored with this space's
    statistics, so no other space moves its ranking. The index is built in memory from one
    read of the space's turns and read again when ``retrieval.passage_version`` changes."""

    name = "fulltext"

    def __init__(self, ctx: RetrievalContext, settings: NoSettings) -> None:
        super().__init__(ctx, settings)
        self._turns = Versioned.of(ctx, "retrieval.passage_version", self._load, share="bm25")

    def refresh(self) -> None:
        self._turns.forget()

    def prepare(self) -> None:
        self._turns.get()

    def _load(self) -> TurnIndex:
        rows = self.ctx.store.read("retrieval.space_passages", space=self.ctx.space)
        passages = [PassageRef.from_row(row["passage"]) for row in rows]
        fields: dict[str, list[str | None]] = {
            "text": [p.text for p in passages],
            "caption": [p.caption for p in passages],
            "speaker": [p.speaker for p in passages],
        }
        bm25 = SpaceBM25(fields)
        return TurnIndex(passages=passages, bm25=bm25)

    def search(self, query: str, k: int) -> list[Hit]:
        turns = self._turns.get()
        rows = [
            ScoredPassage(passage=turns.passages[i], score=score)
            for i, score in turns.bm25.top(query, k)
        ]
        return _hits(rows, self.name, "BM25 over the space's turns")


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


class HybridRetriever(SearchRetriever[NoSettings]):
    """Dense + BM25, fused by reciprocal rank (k = 60, as in the RRF paper)."""

    name = "hybrid"
    rrf_k = 60

    def __init__(self, ctx: RetrievalContext, settings: NoSettings) -> None:
        super().__init__(ctx, settings)
        self._dense = DenseRetriever(ctx, settings)
        self._fulltext = FulltextRetriever(ctx, settings)

    def refresh(self) -> None:
        self._fulltext.refresh()

    def prepare(self) -> None:
        self._fulltext.prepare()

    def search(self, query: str, k: int) -> list[Hit]:
        dense = self._dense.search(query, k)
        sparse = self._fulltext.search(query, k)
        return rrf([dense, sparse], self.name, self.rrf_k)[:k]
