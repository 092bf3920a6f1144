"""The union-PageRank experiment's pure parts: seeds and the walk's re-ordering."""

from __future__ import annotations

import networkx as nx
import pytest

from benchmarks.graphmem_union import seeds, union_walk, walk_votes
from graphmem.strategy.fusion import fuse_turns
from tests.unit.test_graphmem_strategy import result, text_hit, turns_hit


def test_seeds_put_rrf_mass_on_derived_nodes_and_on_turns() -> None:
    results = {"a": result(turns_hit(1), text_hit("f", "fact", 2))}
    mass = seeds(results, {"a": 0.5}, k=60)
    assert mass == pytest.approx({"p1": 0.5 / 61, "f": 0.5 / 62})


def test_the_walk_raises_a_turn_that_derived_nodes_of_other_designs_point_at() -> None:
    # RRF: p1 first (rank 1 of members a and b; p2 is rank 2 of a and rank 1 of c). The
    # walk: member c's three items all come from p2, so p2 gathers their mass and overtakes.
    graph = nx.Graph([("f", "p2"), ("g", "p2"), ("i", "p2"), ("h", "p1")])
    c = result(text_hit("f", "fact", 2), text_hit("g", "other", 2), text_hit("i", "more", 2))
    results = {"a": result(turns_hit(1), turns_hit(2)), "b": result(turns_hit(1)), "c": c}
    weights = {"a": 1.0, "b": 1.0, "c": 1.0}
    assert [t.ref.id for t in fuse_turns(results, weights, 60)] == ["p1", "p2"]
    walked = union_walk(graph, 0.85, results, weights, 60)
    assert [t.ref.id for t in walked] == ["p2", "p1"]
    assert walked[0].score > walked[1].score > 0
    # As a voter the walk is one more list in the RRF: same pool, a "union" vote on each.
    voted = walk_votes(graph, 0.85, results, weights, 60)
    assert {t.ref.id for t in voted} == {"p1", "p2"}
    assert all(any(v.member == "union" for v in t.votes) for t in voted)


def test_no_seed_in_the_graph_keeps_the_rrf_order() -> None:
    results = {"a": result(turns_hit(1), turns_hit(2))}
    walked = union_walk(nx.Graph([("x", "y")]), 0.5, results, {"a": 1.0}, 60)
    assert [t.ref.id for t in walked] == ["p1", "p2"]
