"""The one place Amory touches the shared semantic layer (``Entity``, ``Fact``).

Semanticization writes side facts as ``Fact`` nodes (builder ``amory``) with their subject
and object ``Entity`` nodes, FROM their turns, and links each to the story that shed it
(``(:Narrative)-[:SEMANTICIZED]->(:Fact)``). Until the layer's own package
(``graphmem.semantic``) lands, this module writes through the layer's catalog statements
(``semantic.*``) with the layer's identity rule (an entity is its normalised name); when it
lands, only this module changes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from graphmem.designs.amory.timeline import SideFact
from graphmem.embed import Embedder
from graphmem.ingest.writer import content_id
from graphmem.store import GraphStore

BUILDER = "amory"
_EDGE = " \t\n\"'.,;:!?()[]{}-–—*_"
_DETERMINERS = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "some",
        "any",
        "my",
        "your",
        "his",
        "her",
        "its",
        "our",
        "their",
    ]
)
_SPACES = re.compile(r"\s+")


def entity_key(name: str) -> str:
    """Lower case, single spaces, no edge punctuation or leading determiners."""
    words = _SPACES.sub(" ", name).strip(_EDGE).lower().split(" ")
    while len(words) > 1 and words[0] in _DETERMINERS:
        words.pop(0)
    return " ".join(words).strip(_EDGE)


def entity_id(key: str) -> str:
    return content_id("entity", key)


def fact_text(fact: SideFact) -> str:
    when = f" ({fact.time})" if fact.time else ""
    return f"{fact.subject} {fact.relation} {fact.object}{when}"


class SemanticMemory:
    """Writes one batch of side facts into the shared layer."""

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        space: str,
        backend: str,
        prompt_version: str,
    ) -> None:
        self.store, self.embedder, self.space = store, embedder, space
        self.tags = {"builder": BUILDER, "backend": backend}
        self.prompt_version = prompt_version

    def write(self, facts: Sequence[SideFact]) -> int:
        usable = [f for f in facts if entity_key(f.subject) and entity_key(f.object)]
        usable = [f for f in usable if entity_key(f.subject) != entity_key(f.object)]
        if not usable:
            return 0
        names: dict[str, str] = {}
        for fact in usable:
            names.setdefault(entity_key(fact.subject), fact.subject.strip())
            names.setdefault(entity_key(fact.object), fact.object.strip())
        keys = sorted(names)
        found = self.store.read(
            "semantic.existing_entities", space=self.space, ids=[entity_id(k) for k in keys]
        )
        existing = {row["id"] for row in found}
        fresh = [k for k in keys if entity_id(k) not in existing]
        vectors = self.embedder.embed(fresh)
        entity_rows = [
            {"id": entity_id(k), "key": k, "name": names[k], "embedding": v.tolist()}
            for k, v in zip(fresh, vectors, strict=True)
        ]
        self.store.write(
            "semantic.upsert_entities", space=self.space, rows=entity_rows, **self.tags
        )
        rows = self._fact_rows(usable)
        self.store.write(
            "semantic.upsert_facts",
            space=self.space,
            rows=rows,
            prompt_version=self.prompt_version,
            **self.tags,
        )
        links = [
            {"story_id": f.story, "fact_id": r["id"]} for f, r in zip(usable, rows, strict=True)
        ]
        self.store.write("amory.link_side_facts", space=self.space, rows=links)
        return len({r["id"] for r in rows})

    def _fact_rows(self, facts: Sequence[SideFact]) -> list[dict[str, Any]]:
        rows = []
        for fact in facts:
            subject, obj = entity_key(fact.subject), entity_key(fact.object)
            relation = " ".join(fact.relation.lower().split())
            rows.append(
                {
                    "id": content_id(
                        "fact", entity_id(subject), relation, entity_id(obj), fact.time or ""
                    ),
                    "subject_id": entity_id(subject),
                    "object_id": entity_id(obj),
                    "passage_id": fact.passage_id,
                    "subject": fact.subject,
                    "relation": relation,
                    "object": fact.object,
                    "time": fact.time,
                    "text": fact_text(fact),
                }
            )
        vectors = self.embedder.embed([fact_text(f) for f in facts])
        for row, vector in zip(rows, vectors, strict=True):
            row["embedding"] = vector.tolist()
        return rows


def side_facts(store: GraphStore, space: str) -> list[dict[str, Any]]:
    """Every side fact of the space with its names, embedding and source turns."""
    return store.read("amory.side_facts", space=space)
