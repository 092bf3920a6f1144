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
  ``SemanticRetriever[YourSettings]`` (constructed with your settings and the layer's) and
  override ``_hits`` (what the ranked passages and facts become) and ``_read_space`` (what
  else to keep with the snapshot of the space), as SEEM's retriever does.
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

# Names load on first use (a module ``__getattr__``), so that reading the layer's record
# (``graphmem.semantic.design``, which the registry and ``graphmem --help`` read) imports
# none of its code: the builder, the retriever, spaCy and the driver.
import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from graphmem.semantic.retriever import HippoRagRetriever, RankedPassage, SemanticRetriever
    from graphmem.semantic.settings import SemanticSettings
    from graphmem.semantic.snapshot import FactHit, SpaceSnapshot
    from graphmem.semantic.writer import Resolution, stored_entity_ids, write_facts

# public name -> the module that defines it
_HOME = {
    "FactHit": "graphmem.semantic.snapshot",
    "GraphInfo": "graphmem.semantic.projection",
    "HippoRagRetriever": "graphmem.semantic.retriever",
    "PassageFacts": "graphmem.semantic.extract",
    "PassageIn": "graphmem.semantic.extract",
    "Quadruple": "graphmem.semantic.extract",
    "RankedPassage": "graphmem.semantic.retriever",
    "Resolution": "graphmem.semantic.writer",
    "SemanticBuilder": "graphmem.semantic.builder",
    "SemanticGraph": "graphmem.semantic.projection",
    "SemanticRetriever": "graphmem.semantic.retriever",
    "SemanticSettings": "graphmem.semantic.settings",
    "SpaceSnapshot": "graphmem.semantic.snapshot",
    "batch_passages": "graphmem.semantic.extract",
    "batch_speakers": "graphmem.semantic.extract",
    "entity_id": "graphmem.semantic.names",
    "head_noun": "graphmem.semantic.names",
    "human_date": "graphmem.semantic.names",
    "human_datetime": "graphmem.semantic.names",
    "is_name": "graphmem.semantic.names",
    "llm_facts": "graphmem.semantic.extract",
    "names_only": "graphmem.semantic.names",
    "normalise_name": "graphmem.semantic.names",
    "offline_facts": "graphmem.semantic.extract",
    "offline_facts_many": "graphmem.semantic.extract",
    "stored_entity_ids": "graphmem.semantic.writer",
    "write_facts": "graphmem.semantic.writer",
}

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
    "SemanticRetriever",
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


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'graphmem.semantic' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value  # the next read is a plain lookup
    return value
