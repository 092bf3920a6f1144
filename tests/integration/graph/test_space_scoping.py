"""Queries of one space stay inside it without reading every other space: the hot
statements seek the space indexes (no label or all-nodes scan in their plans), and the
full-text search is filtered to the space inside Lucene with the question searched in the
passage text only."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from graphmem.embed import Embedder
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.plugin.design import NoSettings
from graphmem.plugin.registry import registry
from graphmem.retrieval.passages import FulltextRetriever, space_lucene_query
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration


def _operators(plan: dict[str, Any]) -> list[str]:
    out = [str(plan.get("operatorType", "")).split("@")[0]]
    for child in plan.get("children", []):
        out.extend(_operators(child))
    return out


def _scanned_labels(plan: dict[str, Any]) -> list[str]:
    """The labels of the plan's NodeByLabelScan operators (details read ``n:Label``)."""
    out = []
    if str(plan.get("operatorType", "")).startswith("NodeByLabelScan"):
        out.append(str(plan.get("args", {}).get("Details", "")).split(":")[-1].strip())
    for child in plan.get("children", []):
        out.extend(_scanned_labels(child))
    return out


def _space_indexed(store: GraphStore) -> set[str]:
    with store.driver.session() as session:
        rows = session.run(
            "SHOW RANGE INDEXES YIELD labelsOrTypes, properties, entityType "
            "WHERE entityType = 'NODE' AND properties = ['space'] RETURN labelsOrTypes"
        )
        return {labels[0] for (labels,) in rows}


def test_hot_statements_seek_the_space_indexes(store: GraphStore, embedder: Embedder) -> None:
    vector = embedder.embed_query("a question")
    one = {"space": "s"}
    registry()  # core.label_totals and others are generated from the designs' labels
    statements = {
        "retrieval.dense_passages_exact": {**one, "embedding": vector, "k": 10},
        "core.label_totals": one,
        "core.space_label_counts": one,
        "core.delete_space_labelled_batch": {**one, "batch": 10},
        "semantic.space_passages": one,
        "semantic.space_entities": one,
        "semantic.space_facts": one,
        "core.session_turns": {**one, "session_ids": ["a"]},
        "core.release_session": {**one, "session_id": "a"},
        "core.prune_session": {**one, "session_id": "a", "keep": ["x"]},
    }
    # A plug-in registered by another test may declare a label without a `space` index:
    # the generated statements can only scan that label (never every node).
    indexed = _space_indexed(store)
    for name, params in statements.items():
        plan = store.plan(name, **params)
        ops = _operators(plan)
        assert "AllNodesScan" not in ops, f"{name} scans every node: {ops}"
        scanned = [label for label in _scanned_labels(plan) if label in indexed]
        assert not scanned, f"{name} scans labels that have a space index: {scanned}"
        assert any("Index" in op for op in ops), f"{name} uses no index: {ops}"


@pytest.fixture
def spaces(memory: Memory) -> Iterator[list[str]]:
    base = f"test-{uuid.uuid4().hex[:8]}"
    # The second name holds the first's words (the Lucene phrase matches both) and the
    # third holds words of the conversation itself.
    names = [base, f"{base}-copy", f"marathon kitten {base}"]
    for name in names:
        memory.ingest_dataset(
            Dataset(conversations=[tiny_conversation()], qa={}), name, builders=[]
        )
    yield names
    for name in names:
        memory.forget(name)


def test_fulltext_stays_in_its_space_and_ranks_as_alone(memory: Memory, spaces: list[str]) -> None:
    question = "Who ran the marathon in Lisbon?"
    ranked = []
    for space in spaces:
        fulltext = FulltextRetriever(memory.retrieval_context(space), NoSettings())
        hits = fulltext.search(question, 10)
        assert hits and all(h.passages[0].id for h in hits)
        rows = memory.store.read(
            "retrieval.fulltext_passages",
            space=space,
            query=space_lucene_query(space, question),
            k=10,
            fetch=1000,
        )
        assert {r["passage"]["id"] for r in rows} == {h.node_id for h in hits}
        # Only passages that hold a question word: none found through the space's name.
        assert all(
            "marathon" in h.passages[0].text.lower() or "lisbon" in h.passages[0].text.lower()
            for h in hits
        )
        ranked.append([h.passages[0].source_id for h in hits])
    assert ranked[0] == ranked[1] == ranked[2]


def test_space_names_are_quoted_for_lucene() -> None:
    query = space_lucene_query('we "said" \\ hi', "what did Ana adopt?")
    assert query.startswith('+space:"we \\"said\\" \\\\ hi"^0 +(')
    assert "(text:adopt\\? caption:adopt\\? speaker:adopt\\?)" in query
