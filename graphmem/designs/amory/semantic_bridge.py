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

from graphmem.builders.base import BuildContext
from graphmem.designs.amory.timeline import SideFact
from graphmem.ingest.writer import content_id
from graphmem.semantic import PassageFacts, Quadruple
from graphmem.semantic.writer import write_facts
from graphmem.store import GraphStore

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
        try:
            subject, obj = resolution.of(fact.subject), resolution.of(fact.object)
        except KeyError:  # a phrase the layer does not keep (e.g. a bare pronoun)
            continue
        relation = " ".join(fact.relation.lower().split())
        fact_id = content_id("fact", subject, relation, obj, fact.time or "")
        links.append({"story_id": fact.story, "fact_id": fact_id})
    return links


def side_facts(store: GraphStore, space: str) -> list[dict[str, Any]]:
    """Every side fact of the space with its names, embedding and source turns."""
    return store.read("amory.side_facts", space=space)
