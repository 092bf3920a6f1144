"""Proof that the database is real: GDS PageRank, vector and full-text indexes, the catalog
against the server, schema idempotence, server lifecycle and the doctor."""

from __future__ import annotations

import itertools
import json
import urllib.request
import uuid

import numpy as np
import pytest
from click.testing import CliRunner
from graphdatascience import GraphDataScience

import benchmarks  # noqa: F401  (registers bench.*: the benchmarks' statements plan too)
from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.errors import SchemaError
from graphmem.graph.catalog import load_catalog, statement
from graphmem.graph.schema import init_schema
from graphmem.graph.store import GraphStore
from graphmem.ingest.writer import IngestReport, PassageWriter, passage_id
from graphmem.plugin.registry import registry
from graphmem.server import process
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration


# DDL (schema.*) is not EXPLAINable; init applies all of it in the session fixture. The
# registry adds what the designs bring: their folders and the generated core.label_totals.
registry()


@pytest.mark.parametrize("name", sorted(n for n in load_catalog() if not n.startswith("schema.")))
def test_every_catalog_statement_plans(store: GraphStore, name: str) -> None:
    store.explain(name)


def _ingest(store: GraphStore, embedder: Embedder, space: str) -> IngestReport:
    report = IngestReport()
    PassageWriter(store, embedder).write_conversation(space, tiny_conversation(), report)
    return report


def test_pagerank_with_source_nodes_through_graphdatascience(
    store: GraphStore, embedder: Embedder, space: str
) -> None:
    _ingest(store, embedder, space)
    conv = tiny_conversation()
    first = passage_id(conv, conv.sessions[0], conv.sessions[0].turns[0])
    gds = GraphDataScience(store.driver, arrow=False)
    graph_name = f"{space}-proof"
    graph, result = gds.graph.project.cypher(
        statement("gds.project_passages").text, space=space, graph=graph_name
    )
    try:
        assert result.node_count == 12
        node_id = store.read("gds.node_ids", space=space, ids=[first])[0]["node_id"]
        ranks = gds.page_rank.stream(graph, source_nodes=[node_id], damping_factor=0.5)
        top = ranks.sort_values("score", ascending=False).iloc[0]
        assert int(top["nodeId"]) == node_id
        # personalised: mass decays along the NEXT chain away from the source
        scores = dict(zip(ranks["nodeId"], ranks["score"], strict=True))
        assert scores[node_id] > max(s for n, s in scores.items() if n != node_id)
    finally:
        graph.drop()


def test_vector_index_finds_the_matching_passage(
    store: GraphStore, embedder: Embedder, space: str
) -> None:
    # Other tests (and other spaces) hold the same sample turns; a nonce makes this
    # space's passage the one true nearest neighbour in the whole index.
    nonce = uuid.uuid4().hex[:12]
    conv = tiny_conversation(extra=f"My locker code is {nonce} and nobody knows it.")
    PassageWriter(store, embedder).write_conversation(space, conv, IngestReport())
    query = embedder.embed_query(f"What is the locker code {nonce}?")
    hits = store.read("retrieval.dense_passages", space=space, embedding=query, k=3, fetch=100)
    assert hits, "vector index returned nothing for this space"
    top = store.read(
        "core.provenance", space=space, label="Passage", ids=[hits[0]["passage"]["id"]]
    )
    assert nonce in top[0]["passage"]["text"]
    assert all(a["score"] >= b["score"] for a, b in itertools.pairwise(hits))


def test_fulltext_index_finds_the_matching_passage(
    store: GraphStore, embedder: Embedder, space: str
) -> None:
    _ingest(store, embedder, space)
    hits = store.read(
        "retrieval.fulltext_passages", space=space, query="cello grandfather", k=5, fetch=100
    )
    assert hits, "full-text index returned nothing"
    top = store.read(
        "core.provenance", space=space, label="Passage", ids=[hits[0]["passage"]["id"]]
    )[0]
    assert "cello" in top["passage"]["text"]


def test_ingest_is_idempotent(store: GraphStore, embedder: Embedder, space: str) -> None:
    first = _ingest(store, embedder, space)
    counts_before = store.read("core.space_counts", space=space)
    second = _ingest(store, embedder, space)
    assert first.passages_written == 12 and first.sessions_written == 2
    assert second.passages_written == 0 and second.sessions_skipped == 2
    assert store.read("core.space_counts", space=space) == counts_before


class _OtherEmbedder(Embedder):
    name = "test/other"
    dim = 8

    def embed(self, texts: object) -> np.ndarray:  # type: ignore[override]
        raise AssertionError("never called")

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def test_init_is_idempotent_and_refuses_another_embedder(
    store: GraphStore, embedder: Embedder
) -> None:
    again = init_schema(store, embedder)
    assert again["created"] is False and again["dim"] == embedder.dim
    with pytest.raises(SchemaError, match="indexed with"):
        init_schema(store, _OtherEmbedder())


def test_server_start_is_a_noop_when_running(settings: Settings) -> None:
    if settings.external:
        pytest.skip("external server")
    result = process.start(settings)
    assert result["started"] is False and result["already_running"] is True


def test_browser_is_served(settings: Settings) -> None:
    if settings.external:
        pytest.skip("external server: the Browser is the server's business")
    url = f"http://127.0.0.1:{settings.http_port}/browser/"
    with urllib.request.urlopen(url, timeout=10) as resp:
        body = resp.read().decode("utf-8", "replace")
    assert resp.status == 200 and "<title>Neo4j Browser</title>" in body


def test_doctor_passes_on_a_working_setup(store: GraphStore) -> None:
    result = CliRunner().invoke(cli, ["doctor", "--json"])
    report = json.loads(result.output)
    failed = [c for c in report["checks"] if not c["ok"]]
    assert result.exit_code == 0, failed
    assert {c["check"] for c in report["checks"]} >= {"server", "gds", "pagerank", "embedder"}
