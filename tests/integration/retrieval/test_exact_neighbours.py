"""The builders' in-memory nearest-neighbour searches (exact cosine over the space's nodes,
``ExactIndex.top_many``) find what the vector index finds on a database holding that space
alone: the graph a builder writes must not depend on the other spaces of the database."""

from __future__ import annotations

import uuid
from types import SimpleNamespace
from typing import cast

import pytest

from graphmem.config import Settings
from graphmem.designs.anchormem.builder import AnchorMemBuilder
from graphmem.designs.anchormem.config import AnchorMemConfig
from graphmem.designs.anchormem.extract import FactDraft
from graphmem.embed import Embedder
from graphmem.graph.overfetch import label_totals, over_fetch
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from graphmem.plugin.builder import BuildContext
from graphmem.semantic.writer import SemanticWriter
from tests.integration.sample_space import SAMPLE

pytestmark = pytest.mark.integration

# The same search through the vector index, asked for every node of the label (so the
# space filter keeps all of the space's): what a database holding the space alone returns.
FACTS_BY_INDEX = """
UNWIND $ids AS fid
MATCH (f:AtomicFact {space: $space, id: fid})
CALL db.index.vector.queryNodes('atomic_fact_embedding', $fetch, f.embedding)
YIELD node, score
WITH fid, node, score
WHERE node.space = $space AND node.id <> fid AND score >= $min_score
RETURN fid AS id, node.id AS neighbour, score
"""


def test_in_memory_searches_agree_with_the_index(
    settings: Settings, store: GraphStore, embedder: Embedder
) -> None:
    space = f"exact-{uuid.uuid4().hex[:10]}"
    memory = Memory(settings, store=store, embedder=embedder)
    ctx = BuildContext(store=store, embedder=embedder, settings=settings, space=space)
    try:
        memory.ingest(SAMPLE, space, builders=["semantic", "anchormem"])
        names = ["pottery class", "Maya's dog", "a camping trip"]
        rows = [
            {"key": n, "embedding": v.tolist()}
            for n, v in zip(names, embedder.embed(names), strict=True)
        ]
        everything = label_totals(store, space)["Entity"].total  # the index reads it all
        index = store.read(
            "semantic.entity_neighbours", space=space, rows=rows, fetch=everything, k=3
        )
        writer = SemanticWriter(ctx, ctx.configs.get("semantic"), None)
        exact = writer._vectors(rows, 3)
        assert index and len(exact) == len(index) == 3 * len(names)
        assert [(r["key"], r["id"]) for r in exact] == [(r["key"], r["id"]) for r in index]
        assert [r["cosine"] for r in exact] == pytest.approx([r["cosine"] for r in index], abs=1e-5)

        records, _, _ = store.driver.execute_query(
            "MATCH (f:AtomicFact {space: $space}) RETURN f.id AS id", space=space
        )
        facts = [r["id"] for r in records]
        drafts = cast(list[FactDraft], [SimpleNamespace(id=f) for f in facts])
        total = label_totals(store, space)["AtomicFact"].total
        everyone = AnchorMemConfig(candidate_pool=len(facts), tau=0.0)  # cos >= 0
        found, contexts = AnchorMemBuilder(ctx, everyone)._candidates(drafts)
        by_index, _, _ = store.driver.execute_query(
            FACTS_BY_INDEX, space=space, ids=facts, fetch=total, min_score=everyone.min_index_score
        )
        assert by_index and {(f, n.id) for f, ns in found.items() for n in ns} == {
            (r["id"], r["neighbour"]) for r in by_index
        }
        assert set(contexts) == set(facts)
        few, _ = AnchorMemBuilder(ctx, AnchorMemConfig(candidate_pool=1, tau=0.0))._candidates(
            drafts
        )
        most = max(len(ns) for ns in few.values())
        # at most what a lone space's index returns for a pool of 1
        assert few and most <= over_fetch(1, len(facts), len(facts))
        for fid, ns in few.items():  # the best candidates of the full list, in its order
            assert [n.id for n in ns] == [n.id for n in found[fid]][: len(ns)]
    finally:
        memory.forget(space)
