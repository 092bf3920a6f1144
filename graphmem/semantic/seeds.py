"""PageRank seeds (HippoRAG 2): pure functions, no I/O.

- each selected fact's score goes to its subject and object entities, divided by the number
  of passages mentioning that entity (a phrase found everywhere says little);
- a query phrase matched to an entity adds its match score the same way;
- the ``top_n`` heaviest entities are kept;
- passages get their min-max normalised dense score times ``passage_weight``.

GDS 2.13 PageRank takes unweighted ``sourceNodes``. PageRank is linear in its
personalisation vector, so a weighted seed set is run as groups of equally weighted nodes
and the results are added up, each scaled by its weight: exact for the entities (one group
each), and for passages after quantising their weights to ``levels`` values. Each run
costs a few milliseconds, so passages can instead be credited with the first-order term of
their own PageRank, their restart mass ``(1 - damping) * weight`` (``restart_prior``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeedEntity:
    id: str
    node_id: int
    passages: int  # passages mentioning it
    name: str = ""


@dataclass(frozen=True)
class Scored:
    entity: SeedEntity
    score: float


@dataclass(frozen=True)
class SeedGroup:
    nodes: list[int]
    weight: float

    def as_row(self) -> dict[str, object]:
        return {"nodes": self.nodes, "weight": self.weight}


def entity_weights(contributions: Sequence[Scored], top_n: int) -> dict[SeedEntity, float]:
    """Sum of score / passages per entity, the ``top_n`` largest (ties: by id)."""
    weights: dict[SeedEntity, float] = {}
    for item in contributions:
        if item.score <= 0:
            continue
        share = item.score / max(1, item.entity.passages)
        weights[item.entity] = weights.get(item.entity, 0.0) + share
    ranked = sorted(weights.items(), key=lambda kv: (-kv[1], kv[0].id))[:top_n]
    return dict(ranked)


def passage_weights(
    scores: Sequence[tuple[int, float]], passage_weight: float
) -> list[tuple[int, float]]:
    """Dense scores min-max normalised, times ``passage_weight``; the minimum gets no
    weight (as after HippoRAG 2's normalisation) and is left out."""
    if not scores or passage_weight <= 0:
        return []
    values = [s for _, s in scores]
    low, span = min(values), max(values) - min(values)
    normalised = ((node, (score - low) / span if span > 0 else 1.0) for node, score in scores)
    return [(node, norm * passage_weight) for node, norm in normalised if norm > 0]


def quantise(weights: Sequence[tuple[int, float]], levels: int) -> list[SeedGroup]:
    """Weighted nodes as PageRank runs: ``levels`` 0 keeps one group per node (exact);
    else equal-width bins between 0 and the largest weight, each group weighted by the
    mean of its members (heaviest group first)."""
    positive = [(node, w) for node, w in weights if w > 0]
    if levels <= 0:
        return [SeedGroup([node], w) for node, w in positive]
    top = max((w for _, w in positive), default=0.0)
    bins: dict[int, list[tuple[int, float]]] = {}
    for node, weight in positive:
        bins.setdefault(min(levels - 1, int(weight / top * levels)), []).append((node, weight))
    return [
        SeedGroup(
            sorted(n for n, _ in bins[level]), sum(w for _, w in bins[level]) / len(bins[level])
        )
        for level in sorted(bins, reverse=True)
    ]


def passage_groups(
    scores: Sequence[tuple[int, float]], passage_weight: float, levels: int
) -> list[SeedGroup]:
    """Passage seeds as ``levels`` PageRank runs (see ``passage_weights``, ``quantise``)."""
    return quantise(passage_weights(scores, passage_weight), max(1, levels))


def seed_groups(
    entities: dict[SeedEntity, float], passages: Sequence[SeedGroup], levels: int = 0
) -> list[SeedGroup]:
    """The entity groups (one per entity unless ``levels``) followed by the passage groups."""
    out = quantise([(e.node_id, w) for e, w in entities.items()], levels)
    return out + [g for g in passages if g.nodes and g.weight > 0]
