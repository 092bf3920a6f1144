"""The exact neighbour scans the builders use in a young space (or a crowded database) find
what the vector index finds on a database holding that space alone: the graph a builder
writes must not depend on the other spaces of the database."""

from __future__ import annotations

import uuid

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.memory import Memory
from graphmem.overfetch import label_totals
from graphmem.store import GraphStore
from tests.integration.sample_space import SAMPLE

pytestmark = pytest.mark.integration


def test_exact_scans_agree_with_the_index(
    settings: Settings, store: GraphStore, embedder: Embedder
) -> None:
    space = f"exact-{uuid.uuid4().hex[:10]}"
    memory = Memory(settings, store=store, embedder=embedder)
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
        exact = store.read("semantic.entity_neighbours_exact", space=space, rows=rows, k=3)
        assert index and len(exact) == len(index) == 3 * len(names)
        assert [(r["key"], r["id"]) for r in exact] == [(r["key"], r["id"]) for r in index]
        assert [r["cosine"] for r in exact] == pytest.approx([r["cosine"] for r in index], abs=1e-5)

        records, _, _ = store.driver.execute_query(
            "MATCH (f:AtomicFact {space: $space}) RETURN f.id AS id", space=space
        )
        facts = [r["id"] for r in records]
        total = label_totals(store, space)["AtomicFact"].total
        args = {"space": space, "ids": facts, "min_score": 0.5}
        by_index = store.read("anchormem.fact_neighbours", fetch=total, **args)
        by_scan = store.read("anchormem.fact_neighbours_exact", k=len(facts), **args)
        assert by_index and {(r["id"], r["neighbour"]) for r in by_scan} == {
            (r["id"], r["neighbour"]) for r in by_index
        }
        few = store.read("anchormem.fact_neighbours_exact", k=2, **args)
        per_fact: dict[str, int] = {}
        for row in few:
            per_fact[row["id"]] = per_fact.get(row["id"], 0) + 1
        assert per_fact and max(per_fact.values()) <= 2  # at most k per fact
    finally:
        memory.forget(space)
