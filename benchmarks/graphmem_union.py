"""The ``graphmem`` strategy with a Personalized PageRank over the union of every design's
provenance graph as its turn ranking, against reciprocal-rank fusion (the default).

The issue's first example of a rule: one walk over the union projection, so that a seed one
design found can surface turns another design organised. The graph: every derived node of
every design (facts, frames, views, scenes, fragments, insights, stories, atomic facts,
events ...) and every turn, joined by the ``FROM`` edges in both directions
(``cypher/bench/provenance_edges.cypher``). The seeds: each member's hits, hit at rank r of
member m weighing weight(m) / (k + r), the RRF mass (a turn hit seeds its turn). The
candidates are the RRF pool (every turn a member returned: the walk re-orders it; letting
the walk add turns nobody returned changed nothing measurable); derived items, the split
and the packing are the default rule's. Variants:

- ``union PPR d=0.5``: HippoRAG 2's damping; ``d=0.85``: PageRank's;
- ``RRF + union PPR as a voter``: the walk's ranking is one more member in the RRF.

An experiment, not a setting: the PageRank runs in-process (networkx) on the members'
cached results of ``benchmarks.graphmem_ablation`` (same ``--cache``), so both tables
compare on the same retrievals:

    python -m benchmarks.graphmem_union ../shared/data/locomo/locomo10-dev.json \\
        --space-prefix def --budget 1000 --budget 2000 --cache /tmp/strategy-cache \\
        --out reports/graphmem-union
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import networkx as nx

from benchmarks.graphmem_ablation import (
    Scores,
    arguments,
    conversations,
    merge,
    record,
    token_counter,
    write,
)
from graphmem.memory import Memory
from graphmem.retrieval.base import Hit, RetrievalResult
from graphmem.strategy.compose import Fuse, arrange
from graphmem.strategy.fusion import FusedTurn, fuse_turns
from graphmem.strategy.members import plan
from graphmem.strategy.settings import GraphmemSettings

Results = Mapping[str, RetrievalResult]


def provenance_graph(memory: Memory, space: str) -> nx.Graph:
    graph = nx.Graph()
    for row in memory.store.read("bench.provenance_edges", space=space):
        graph.add_edge(row["node"], row["passage"])
    return graph


def seeds(results: Results, weights: Mapping[str, float], k: int) -> dict[str, float]:
    """RRF mass on every hit's node (a turn hit: on its turns, shared)."""
    out: dict[str, float] = {}
    for member, result in results.items():
        weight = weights.get(member, 1.0)
        for rank, hit in enumerate(result.hits, start=1):
            mass = weight / (k + rank)
            if hit.label == "Passage" or not hit.text:
                for passage in hit.passages:
                    out[passage.id] = out.get(passage.id, 0.0) + mass / len(hit.passages)
            else:
                out[hit.node_id] = out.get(hit.node_id, 0.0) + mass
    return out


def union_walk(
    graph: nx.Graph, damping: float, results: Results, weights: Mapping[str, float], k: int
) -> list[FusedTurn]:
    """The RRF pool re-ordered by the walk's score (ties: the RRF order)."""
    pool = fuse_turns(results, weights, k)
    personal = {n: m for n, m in seeds(results, weights, k).items() if n in graph}
    if not personal:
        return pool
    scores = nx.pagerank(graph, alpha=damping, personalization=personal, max_iter=500)
    for turn in pool:
        turn.score = float(scores.get(turn.ref.id, 0.0))
    return sorted(pool, key=lambda t: -t.score)


def walk_votes(
    graph: nx.Graph, damping: float, results: Results, weights: Mapping[str, float], k: int
) -> list[FusedTurn]:
    """RRF with the walk's ranking as one more member of weight 1."""
    walked = union_walk(graph, damping, results, weights, k)
    hits = [
        Hit(node_id=t.ref.id, label="Passage", score=t.score, strategy="union", passages=[t.ref])
        for t in walked
    ]
    voter = RetrievalResult(query="", strategy="union", hits=hits)
    return fuse_turns({**results, "union": voter}, {**weights, "union": 1.0}, k)


def variants(graph: nx.Graph) -> dict[str, Fuse]:
    return {
        "RRF (default)": fuse_turns,
        "union PPR d=0.5": partial(union_walk, graph, 0.5),
        "union PPR d=0.85": partial(union_walk, graph, 0.85),
        "RRF + union PPR d=0.85 as a voter": partial(walk_votes, graph, 0.85),
    }


def score(
    rows: Mapping[int, Sequence[Any]],
    built: Sequence[str],
    graph: nx.Graph,
    count: Callable[[str], int],
    history: int,
) -> Scores:
    """Each variant at each budget, from the members' results for that budget."""
    config = GraphmemSettings()
    current = plan(config, built)
    scored: Scores = {}
    for budget, questions in rows.items():
        for question, results, timings in questions:
            members_ms = sum(timings[m] for m in current.members)
            for name, fuse in variants(graph).items():
                started = time.perf_counter()
                hits = arrange(results, current, config, budget, count, fuse).hits
                latency = members_ms + (time.perf_counter() - started) * 1000
                how = ((budget,), count, history)
                record(scored.setdefault(name, {}), question, hits, latency, how)
    return scored


def main() -> None:
    args = arguments(__doc__.split("\n\n")[0])
    budgets = sorted(set(args.budgets or [500, 1000, 2000]))
    memory = Memory()
    count = token_counter(memory)
    everything: Scores = {}
    for space, built, rows, history in conversations(args, memory, budgets, count):
        graph = provenance_graph(memory, space)
        merge(everything, score(rows, built, graph, count, history))
        print(f"{space}: {graph.number_of_nodes()} nodes", flush=True)
    write(everything, args.out)


if __name__ == "__main__":
    main()
