"""Reference check of the weighted Personalized PageRank: GDS 2.13 takes unweighted
``sourceNodes`` (weighted [node, weight] pairs are refused), so ``semantic.ppr_scores`` runs
one PageRank per seed group and sums the runs scaled by their weights (PageRank is linear
in its restart vector). With one group per seed (levels 0, the ``paper`` preset) that is
exact: networkx, given the same weighted graph and the weighted restart vector, must agree
node by node.

Scale: GDS restarts (1 - d) * weight at every seed of a run without normalising, so on a
graph without dangling nodes its scores sum to the sum of the weights; networkx normalises
the restart vector and its scores sum to 1. The GDS scores divided by the weights' sum are
compared with networkx at an absolute tolerance of 1e-5 (both iterate to 1e-9; GDS computes
in float64, the difference left is the stopping rule)."""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx
import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from graphmem.semantic import HippoRagRetriever, SemanticGraph, SemanticSettings
from graphmem.semantic.exact import PassagePageRank
from graphmem.semantic.seed_cache import seed_cache
from graphmem.semantic.seeds import SeedGroup, quantise
from tests.integration.designs.seem.test_seem import _ingest

pytestmark = pytest.mark.integration

TOLERANCE = 1e-5


@pytest.fixture(autouse=True)
def _drop_projection(store: GraphStore, space: str) -> Iterator[None]:
    yield
    SemanticGraph(store, space).drop()


def _graph(store: GraphStore, name: str) -> nx.Graph:
    graph: nx.Graph = nx.Graph()
    for row in store.read("semantic.graph_edges", graph=name):
        graph.add_edge(int(row["source"]), int(row["target"]), weight=float(row["weight"]))
    return graph


def _gds(store: GraphStore, name: str, groups: list[SeedGroup], damping: float) -> dict[int, float]:
    rows = store.read(
        "semantic.ppr_scores",
        graph=name,
        groups=[g.as_row() for g in groups],
        damping=damping,
        iterations=200,
        tolerance=1e-9,
        concurrency=1,
    )
    pairs = zip(rows[0]["nodes"], rows[0]["scores"], strict=True)
    return {int(node): float(score) for node, score in pairs}


@pytest.mark.parametrize("damping", [0.5, 0.85])
def test_weighted_ppr_matches_networkx(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str, damping: float
) -> None:
    memory = Memory(settings, store=store, embedder=embedder)
    _ingest(memory, space)
    semantic = SemanticGraph(store, space)
    semantic.ensure()
    graph = _graph(store, semantic.name)
    assert graph.number_of_nodes() > 50 and nx.is_weighted(graph)
    # Seeds of unequal weights spread over the graph (as entity and passage seeds are).
    nodes = sorted(graph.nodes)[:: max(1, graph.number_of_nodes() // 9)][:9]
    weights = [(node, 0.05 + 0.1 * i) for i, node in enumerate(nodes)]
    groups = quantise(weights, 0)  # one run per seed: the paper preset's exact mode
    assert len(groups) == len(weights)

    gds = _gds(store, semantic.name, groups, damping)
    total = sum(w for _, w in weights)
    reference = nx.pagerank(
        graph,
        alpha=damping,
        personalization=dict(weights),
        weight="weight",
        tol=1e-12,
        max_iter=1000,
    )
    for node, expected in reference.items():
        assert abs(gds.get(node, 0.0) / total - expected) <= TOLERANCE, (node, expected)
    assert set(gds) <= set(reference)  # GDS scored no node outside the weighted graph


def test_quantised_seeds_are_not_exact(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """The tuned preset's quantised passage seeds differ from the exact vector: the check
    above can tell the two apart (it is not vacuous)."""
    memory = Memory(settings, store=store, embedder=embedder)
    _ingest(memory, space)
    semantic = SemanticGraph(store, space)
    semantic.ensure()
    graph = _graph(store, semantic.name)
    nodes = sorted(graph.nodes)[:: max(1, graph.number_of_nodes() // 9)][:9]
    weights = [(node, 0.05 + 0.1 * i) for i, node in enumerate(nodes)]
    gds = _gds(store, semantic.name, quantise(weights, 2), 0.5)
    total = sum(w for _, w in weights)
    reference = nx.pagerank(graph, alpha=0.5, personalization=dict(weights), weight="weight")
    worst = max(abs(gds.get(n, 0.0) / total - v) for n, v in reference.items())
    assert worst > 10 * TOLERANCE


def test_precomputed_passage_pagerank_equals_the_per_seed_runs(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """The paper preset's exact passage seeds come from every passage's own PageRank,
    computed once per projection and combined per query: the same numbers as running the
    weighted passages one by one and summing (linearity)."""
    memory = Memory(settings, store=store, embedder=embedder)
    _ingest(memory, space)
    config = SemanticSettings(damping=0.5, tolerance=1e-9, max_iterations=200)
    retriever = HippoRagRetriever(memory.retrieval_context(space), config)
    snapshot = retriever.snapshot()
    exact = PassagePageRank.load(store, retriever.graph.name, snapshot, config)
    weights = [(node, 0.01 * (i % 7 + 1)) for i, node in enumerate(sorted(snapshot.by_node))]
    combined = exact.combine(weights)
    runs = _gds(store, retriever.graph.name, quantise(weights, 0), 0.5)
    assert combined
    for node in snapshot.by_node:
        assert abs(combined.get(node, 0.0) - runs.get(node, 0.0)) <= TOLERANCE, node


def test_kept_seed_runs_sum_to_the_group_runs(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """``ppr_cache``: a group's PageRank is the sum of its seeds' single-seed runs (GDS
    restarts (1 - d) at every source), so the kept runs, weighted, give the passages the
    same scores as running the groups; a seed is run once per projection."""
    memory = Memory(settings, store=store, embedder=embedder)
    _ingest(memory, space)
    config = SemanticSettings(damping=0.5, tolerance=1e-9, max_iterations=200)
    retriever = HippoRagRetriever(memory.retrieval_context(space), config)
    snapshot = retriever.snapshot()
    entities = [int(r["node"]) for r in store.read("semantic.entity_nodes", space=space)]
    seeds = entities[:: max(1, len(entities) // 8)][:8] + sorted(snapshot.by_node)[:3]
    groups = quantise([(node, 0.1 + 0.05 * i) for i, node in enumerate(seeds)], 3)
    assert any(len(g.nodes) > 1 for g in groups)  # the sum inside a group is exercised

    cache = seed_cache(
        store.database, retriever.graph.name, snapshot.created, snapshot.by_node, config
    )
    runs, need = cache.take(seeds)
    assert runs == {} and need == sorted(set(seeds))
    created, fresh = cache.fill(store, retriever.graph.name, need, config)
    assert created == snapshot.created and set(fresh) == set(seeds)
    kept, need = cache.take(seeds)
    assert need == [] and set(kept) == set(seeds) and len(cache) == len(set(seeds))
    combined = cache.combine(groups, kept)
    runs_per_group = _gds(store, retriever.graph.name, groups, 0.5)
    assert combined
    for node in snapshot.by_node:
        assert abs(combined.get(node, 0.0) - runs_per_group.get(node, 0.0)) <= TOLERANCE, node
    same = seed_cache(
        store.database, retriever.graph.name, snapshot.created, snapshot.by_node, config
    )
    assert same is cache  # SEEM's and CAST's layers share the runs

    retriever.graph.drop()
    again = retriever.graph.ensure()
    fresh_cache = seed_cache(
        store.database, retriever.graph.name, again.created, snapshot.by_node, config
    )
    assert fresh_cache is not cache and fresh_cache.missing(seeds) == sorted(set(seeds))
    # Runs made on another projection than the cache's are reported and not kept.
    assert cache.fill(store, retriever.graph.name, seeds[:1], config) == (again.created, {})
    assert len(cache) == len(set(seeds))


def test_kept_runs_stay_within_their_memory(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """``ppr_cache_mb``: beyond the runs it can hold, the least recently used go; a query
    still gets every run it asked for; ``prepare`` keeps the most mentioned entities."""
    memory = Memory(settings, store=store, embedder=embedder)
    _ingest(memory, space)
    context = memory.retrieval_context(space)
    probe = HippoRagRetriever(context, context.configs.get("semantic"))
    passages = len(probe.snapshot().by_node)
    config = SemanticSettings(ppr_cache_mb=3 * 8 * passages / 2**20)  # room for 3 runs
    retriever = HippoRagRetriever(memory.retrieval_context(space), config)
    retriever.prepare()
    snapshot = retriever.snapshot()
    cache = seed_cache(
        store.database, retriever.graph.name, snapshot.created, snapshot.by_node, config
    )
    assert cache.capacity == 3 and len(cache) == 3
    rows = store.read("semantic.entity_nodes", space=space)
    ranked = [int(r["node"]) for r in rows]
    mentions = [int(r["mentions"]) for r in rows]
    assert mentions == sorted(mentions, reverse=True) and len(ranked) > 8
    assert cache.missing(ranked[:3]) == []  # the three most mentioned were warmed
    five = ranked[3:8]
    _, fresh = cache.fill(store, retriever.graph.name, five, config)
    assert set(fresh) == set(five) and len(cache) == 3  # all five given, three kept
    assert cache.missing(five[2:]) == [] and cache.missing(ranked[:3]) == sorted(ranked[:3])
    result = retriever.retrieve("Who ran the Lisbon marathon with Ben?", 500)
    assert "PPR from entities" in result.hits[0].path[0]


def test_prepare_warms_what_the_expected_queries_can_use(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """A space about to get one question (a LongMemEval haystack) warms the runs one query
    can seed, the most mentioned entities first, not every entity; the question still
    ranks as with every run warmed."""
    memory = Memory(settings, store=store, embedder=embedder)
    _ingest(memory, space)
    config = SemanticSettings(fact_top_k=2, seed_entities=3)
    question = "Who ran the Lisbon marathon with Ben?"
    ctx = memory.retrieval_context(space, expected_queries=1)
    one = HippoRagRetriever(ctx, config)
    one.prepare()
    snapshot = one.snapshot()
    cache = seed_cache(store.database, one.graph.name, snapshot.created, snapshot.by_node, config)
    ranked = [int(r["node"]) for r in store.read("semantic.entity_nodes", space=space)]
    assert len(ranked) > 8
    assert len(cache) == 4  # one query: at most 2 * fact_top_k entities
    assert cache.missing(ranked[:4]) == []
    first = one.retrieve(question, 500)
    SemanticGraph(store, space).drop()  # a new projection: an empty cache for the next
    every = HippoRagRetriever(memory.retrieval_context(space), config)
    every.prepare()
    again = every.snapshot()
    full = seed_cache(store.database, every.graph.name, again.created, again.by_node, config)
    assert len(full) == len(ranked)
    second = every.retrieve(question, 500)
    assert [h.node_id for h in first.hits] == [h.node_id for h in second.hits]


def test_cached_and_per_query_pagerank_rank_alike(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """The retriever with kept runs and the one running its groups per query rank the
    passages the same (iterated to convergence, so only the order of exact ties could
    differ)."""
    memory = Memory(settings, store=store, embedder=embedder)
    _ingest(memory, space)
    exact = SemanticSettings(tolerance=1e-9, max_iterations=200)
    ctx = memory.retrieval_context(space)
    kept = HippoRagRetriever(ctx, exact)
    runs = HippoRagRetriever(ctx, exact.model_copy(update={"ppr_cache": "off"}))
    kept.prepare()
    for question in ("Who ran the Lisbon marathon with Ben?", "What did the vet say Pixel ate?"):
        a, b = kept.retrieve(question, 500), runs.retrieve(question, 500)
        assert "PPR from entities" in a.hits[0].path[0]
        assert [h.node_id for h in a.hits] == [h.node_id for h in b.hits]
        for x, y in zip(a.hits, b.hits, strict=True):
            assert abs(x.score - y.score) <= TOLERANCE
