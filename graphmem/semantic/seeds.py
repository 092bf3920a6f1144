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

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from spacy.lang.en.stop_words import STOP_WORDS


class _HasText(Protocol):
    @property
    def text(self) -> str: ...


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


def min_max(values: Sequence[float]) -> list[float]:
    """Scores scaled to [0, 1] (all 1 when they are equal), as HippoRAG 2 scales both its
    fact and its passage scores before seeding."""
    if not values:
        return []
    low, span = min(values), max(values) - min(values)
    return [(v - low) / span if span > 0 else 1.0 for v in values]


def mean_entity_weights(contributions: Sequence[Scored], top_n: int) -> dict[SeedEntity, float]:
    """HippoRAG 2's phrase weights: each fact's (normalised) score divided by the number of
    passages mentioning the phrase, averaged over the facts the phrase appears in (not
    summed); the ``top_n`` largest kept (ties: by id). Zero-score facts count in the mean."""
    totals: dict[SeedEntity, float] = {}
    counts: dict[SeedEntity, int] = {}
    for item in contributions:
        share = max(0.0, item.score) / max(1, item.entity.passages)
        totals[item.entity] = totals.get(item.entity, 0.0) + share
        counts[item.entity] = counts.get(item.entity, 0) + 1
    weights = {e: total / counts[e] for e, total in totals.items() if total > 0}
    return dict(sorted(weights.items(), key=lambda kv: (-kv[1], kv[0].id))[:top_n])


def passage_weights(
    scores: Sequence[tuple[int, float]], passage_weight: float
) -> list[tuple[int, float]]:
    """Dense scores min-max normalised, times ``passage_weight``; the minimum gets no
    weight (as after HippoRAG 2's normalisation) and is left out."""
    if not scores or passage_weight <= 0:
        return []
    normalised = zip((node for node, _ in scores), min_max([s for _, s in scores]), strict=True)
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
    """Passage seeds as ``levels`` PageRank runs (see ``passage_weights``, ``quantise``);
    ``levels`` 0: one run per passage, exact."""
    return quantise(passage_weights(scores, passage_weight), levels)


def seed_groups(
    entities: dict[SeedEntity, float], passages: Sequence[SeedGroup], levels: int = 0
) -> list[SeedGroup]:
    """The entity groups (one per entity unless ``levels``) followed by the passage groups."""
    out = quantise([(e.node_id, w) for e, w in entities.items()], levels)
    return out + [g for g in passages if g.nodes and g.weight > 0]


_WORD = re.compile(r"[a-z0-9]{3,}")


def content_words(text: str) -> set[str]:
    """Lower-cased words of 3+ letters or digits that are not English stop words."""
    return {w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS}


def lexical_filter(query: str, facts: Sequence[_HasText]) -> list[int]:
    """Offline stand-in for HippoRAG 2's recognition-memory filter (an LLM that drops the
    linked facts unrelated to the query): the indexes of the facts sharing at least one
    content word with the query."""
    words = content_words(query)
    return [i for i, fact in enumerate(facts) if content_words(fact.text) & words]
