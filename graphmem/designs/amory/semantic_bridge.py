"""The one place Amory writes to the shared semantic layer (``graphmem.semantic``).

Semanticization hands its side facts to the layer's ``write_facts`` (tagged builder
``amory``, ``FROM`` their turns, phrases resolved to the layer's entities) and links each
fact to the story that shed it: ``(:Narrative)-[:SEMANTICIZED]->(:Fact)``. A fact the layer
already held (the ``semantic`` builder extracted the same triple first) keeps its first
builder tag and still gets the link: the link, not the tag, is what makes it Amory's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphmem.designs.amory.timeline import SideFact
from graphmem.plugin import BuildContext, GraphStore
from graphmem.semantic import PassageFacts, Quadruple, is_name, write_facts

BUILDER = "amory"


def write_side_facts(
    ctx: BuildContext, facts: Sequence[SideFact], prompt_version: str
) -> list[dict[str, str]]:
    """Store ``facts`` in the semantic layer (idempotent and resumable: content ids, and the
    layer finishes an interrupted synonym pass); returns the story -> fact links for
    ``amory.link_side_facts``, which the builder writes with its stories."""
    if not facts:
        return []
    # Facts semanticized offline after an LLM fallback are written as the offline backend's.
    by_passage: dict[tuple[str, bool], PassageFacts] = {}
    for fact in facts:
        quad = Quadruple(fact.subject, fact.relation, fact.object, fact.time)
        key = (fact.passage_id, fact.fallback)
        found = by_passage.setdefault(key, PassageFacts(fact.passage_id, fallback=fact.fallback))
        found.quadruples.append(quad)
    resolution = write_facts(
        ctx, list(by_passage.values()), builder=BUILDER, prompt_version=prompt_version
    )
    links = []
    for fact in facts:
        # The layer writes no fact with an end that names nothing (e.g. "-"), nor one
        # whose two ends are one entity.
        if not (is_name(fact.subject) and is_name(fact.object)):
            continue
        if resolution.end(fact.subject) == resolution.end(fact.object):
            continue
        fact_id = resolution.fact_id(fact.subject, fact.relation, fact.object, fact.time)
        links.append({"story_id": fact.story, "fact_id": fact_id})
    return links


def side_facts(store: GraphStore, space: str) -> list[dict[str, Any]]:
    """Every side fact of the space with its names, embedding and source turns."""
    return store.read("amory.side_facts", space=space)
