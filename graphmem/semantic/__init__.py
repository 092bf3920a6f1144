"""The HippoRAG 2 semantic layer, shared by the designs that build on it (SEEM, CAST, Amory):
Entity phrase nodes, Fact quadruples (subject, relation, object, time) ``FROM`` their
passages, ``MENTIONS`` (passage -> entity), ``SYNONYM`` (entity - entity) and the speakers'
``IS`` links; the per-space GDS projection and the ``hipporag`` retriever (Personalized
PageRank from the query's facts and phrases).

It sits below the designs: nothing here imports ``graphmem.designs.<name>``.

Public API for a design:

- **Build on it**: declare ``requires=("semantic",)`` in your ``Design``; the ``semantic``
  builder then runs before yours for every batch, and your builder can read the stored
  entities (``stored_entity_ids(ctx, names)`` maps phrases to their entity ids).
- **Retrieve with it**: ``HippoRagRetriever(ctx, ctx.configs.get("semantic"))``, or subclass
  it and override ``_hits`` (what the ranked passages and facts become) and ``_read_space``
  (what else to keep with the snapshot of the space), as SEEM's retriever does.
- **Add facts of your own** (e.g. Amory's semanticization): build ``PassageFacts`` (the
  passage id, its ``Quadruple``s and mentioned phrases) and call
  ``write_facts(ctx, facts, builder="<your design>")``: the facts are tagged with your
  builder and point ``FROM`` their passages; their phrases resolve to the layer's entities
  (new ones get synonym edges, tagged ``semantic``); the space's projection is dropped so
  the next query walks them.
- **Settings**: ``SemanticSettings`` (``GRAPHMEM_SEMANTIC_<FIELD>``, presets ``default`` and
  ``paper``), read as ``ctx.configs.get("semantic")``.
- **Read what it holds**: ``SpaceSnapshot`` (a space's entities and facts, as the
  retriever keeps them), ``FactHit``, ``GraphInfo`` (the projection), and the phrase helpers
  (``normalise_name``, ``is_name``, ``names_only``, ``head_noun``, ``human_date``, ...).

A design imports these names from ``graphmem.semantic``, never its submodules
(tests/unit/plugin/test_plugin_layers.py).
"""

from graphmem.semantic.builder import SemanticBuilder
from graphmem.semantic.extract import (
    PassageFacts,
    PassageIn,
    Quadruple,
    batch_passages,
    batch_speakers,
    llm_facts,
    offline_facts,
    offline_facts_many,
)
from graphmem.semantic.names import (
    entity_id,
    head_noun,
    human_date,
    human_datetime,
    is_name,
    names_only,
    normalise_name,
)
from graphmem.semantic.projection import GraphInfo, SemanticGraph
from graphmem.semantic.retriever import HippoRagRetriever, RankedPassage
from graphmem.semantic.settings import SemanticSettings
from graphmem.semantic.snapshot import FactHit, SpaceSnapshot
from graphmem.semantic.writer import Resolution, stored_entity_ids, write_facts

__all__ = [
    "FactHit",
    "GraphInfo",
    "HippoRagRetriever",
    "PassageFacts",
    "PassageIn",
    "Quadruple",
    "RankedPassage",
    "Resolution",
    "SemanticBuilder",
    "SemanticGraph",
    "SemanticSettings",
    "SpaceSnapshot",
    "batch_passages",
    "batch_speakers",
    "entity_id",
    "head_noun",
    "human_date",
    "human_datetime",
    "is_name",
    "llm_facts",
    "names_only",
    "normalise_name",
    "offline_facts",
    "offline_facts_many",
    "stored_entity_ids",
    "write_facts",
]
