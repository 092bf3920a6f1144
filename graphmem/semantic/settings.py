"""The semantic layer's knobs (``GRAPHMEM_SEMANTIC_<FIELD>``): entity resolution, synonym
edges, fact linking, PageRank seeds and PageRank itself. Every design that builds on the
layer (SEEM, CAST, Amory) reads these through ``ctx.configs.get("semantic")``.

The defaults are the values the project measured (``docs/semantic.md``); the ``paper``
preset (``graphmem/semantic/design.py``) holds HippoRAG 2's, with their sources.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from graphmem.plugin.design import DesignSettings


class SemanticSettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_SEMANTIC_", extra="forbid", frozen=True)

    # --- building: entities, facts, synonyms ------------------------------------------
    synonym_threshold: float = Field(
        default=0.8,
        description="cosine at or above: SYNONYM edge",
        json_schema_extra={"cosine": "symmetric"},
    )
    synonym_top_k: int = Field(default=10, description="at most this many synonyms per new entity")
    synonym_min_alnum: int = Field(default=3, description="shorter entities get no synonym edges")
    merge_threshold: float = Field(
        default=0.95,
        description="cosine at or above + same head noun: one entity",
        json_schema_extra={"cosine": "symmetric"},
    )
    fact_session_time: bool = Field(
        default=False, description="facts without a time of their own get the turn's date"
    )
    mentions_per_passage: int = Field(default=8, description="key phrases linked per passage")
    entities: Literal["things", "phrases"] = Field(
        default="things",
        description="which phrases become entities: things (a noun phrase naming something, "
        "graphmem/nlp/things.py; a fact with another end keeps no edge to it) or phrases "
        "(every fact end and key phrase, HippoRAG 2's phrase nodes)",
    )

    # --- retrieval: seeds -----------------------------------------------------------------
    fact_top_k: int = Field(default=5, description="facts selected by the query (linking)")
    fact_min_score: float = Field(
        default=0.3,
        description="facts below this cosine are ignored",
        json_schema_extra={"cosine": "query"},
    )
    entity_match_min_score: float = Field(
        default=0.8,
        description="query phrase -> entity cosine",
        json_schema_extra={"cosine": "symmetric"},
    )
    entity_match_weight: float = Field(default=1.0, description="a matched phrase's seed share")
    entity_match: Literal["embedding", "name"] = Field(
        default="name",
        description="query phrase -> entity: same normalised name, or nearest embedding",
    )
    seed_entities: int = Field(default=5, description="entity seeds kept (largest weights)")
    passage_node_weight: float = Field(default=0.05, description="dense score factor for passages")
    passage_prior: Literal["pagerank", "restart"] = Field(
        default="restart", description="passage seeds: PageRank runs or restart mass only"
    )
    passage_seed_levels: int = Field(
        default=4, ge=0, description="passage weight levels (one PageRank run each; 0: exact)"
    )
    seed_formula: Literal["tuned", "hipporag2"] = Field(
        default="tuned",
        description="tuned: summed raw cosines + name matches; hipporag2: HippoRAG 2's mean "
        "of min-max normalised fact scores per phrase",
    )
    fact_filter: Literal["none", "lexical"] = Field(
        default="none",
        description="offline stand-in for HippoRAG 2's LLM fact filter: keep facts sharing "
        "a content word with the query",
    )
    entity_seed_levels: int = Field(default=3, description="entity weight levels (0: one run each)")
    query_texts: int = Field(default=4, description="query + quadruples + phrases embedded")

    # --- retrieval: PageRank --------------------------------------------------------------
    damping: float = Field(default=0.5, gt=0.0, lt=1.0, description="PageRank damping factor")
    max_iterations: int = Field(default=20, description="PageRank iterations at most")
    tolerance: float = Field(default=1e-4, description="PageRank stops below this change")
    ppr_concurrency: int = Field(default=1, description="GDS threads per PageRank run")
    ppr_cache: Literal["warm", "lazy", "off"] = Field(
        default="warm",
        description="each seed's PageRank run by GDS once per projection and kept, a query's "
        "PageRank their weighted sum (seed_cache.py): warm: prepare() runs every entity "
        "(at most what the expected questions can use); lazy: a query runs the seeds not "
        "seen before; off: one run per seed group per query",
    )
    ppr_cache_mb: float = Field(
        default=32.0,
        gt=0,
        description="memory for one projection's kept runs (least recently used dropped); "
        "8 projections are kept",
    )
    in_memory_index: bool = Field(
        default=True, description="search facts/entities in memory (else the vector indexes)"
    )
