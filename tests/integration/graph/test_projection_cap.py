"""Per-space GDS projections are capped (``GRAPHMEM_MAX_PROJECTIONS``): projecting one
more drops the oldest of the same kind, never the one just made; a retriever whose graph
was dropped projects it again and answers as before."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator

import pytest

from graphmem.graph.projections import evict_oldest, graph_name
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.semantic import HippoRagRetriever, SemanticGraph
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration


@pytest.fixture
def spaces(memory: Memory) -> Iterator[list[str]]:
    names = [f"test-{uuid.uuid4().hex[:10]}" for _ in range(3)]
    for name in names:
        memory.ingest_dataset(
            Dataset(conversations=[tiny_conversation()], qa={}), name, builders=[]
        )
    yield names
    for name in names:
        memory.forget(name)


def _alive(store: GraphStore, names: list[str]) -> list[str]:
    listed = {row["graph"] for row in store.read("gds.list_graphs", prefix="graphmem-")}
    return [n for n in names if n in listed]


def test_the_oldest_of_a_kind_goes_first_and_the_kept_one_never(
    store: GraphStore, spaces: list[str]
) -> None:
    # A kind of this test's own: graphs of other kinds (and other tests) are never counted.
    kind = f"captest{uuid.uuid4().hex[:6]}"
    names = [graph_name(space, kind) for space in spaces]
    for space, name in zip(spaces, names, strict=True):
        store.write("gds.project_passages", space=space, graph=name)
    assert evict_oldest(store, 2, names[2], kind) == [names[0]]
    assert _alive(store, names) == names[1:]
    # The one to keep is the oldest: the next oldest goes instead.
    assert evict_oldest(store, 1, names[1], kind) == [names[2]]
    assert _alive(store, names) == [names[1]]


def test_a_retriever_whose_graph_was_dropped_projects_it_again(
    memory: Memory, store: GraphStore, space: str
) -> None:
    memory.ingest_dataset(Dataset(conversations=[tiny_conversation()], qa={}), space, ["semantic"])
    # Checked at every query (else the snapshot and its kept PageRank runs are trusted for
    # snapshot_recheck_seconds, and the drop is noticed that much later).
    always = memory.settings.model_copy(update={"snapshot_recheck_seconds": 0.0})
    ctx = dataclasses.replace(memory.retrieval_context(space), settings=always)
    retriever = HippoRagRetriever(ctx, ctx.configs.get("semantic"))
    question = "Where did Ben run the marathon?"
    try:
        before = retriever.retrieve(question, 300)
        graph = SemanticGraph(store, space)
        first = graph.info()
        graph.drop()  # what the cap does to the oldest projection
        after = retriever.retrieve(question, 300)
        again = graph.info()
        assert first is not None and again is not None and again.created != first.created
        assert [h.node_id for h in after.hits] == [h.node_id for h in before.hits]
    finally:
        SemanticGraph(store, space).drop()
