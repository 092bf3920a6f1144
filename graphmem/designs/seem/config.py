"""Every SEEM / HippoRAG 2 knob, with named defaults (``GRAPHMEM_SEEM_<FIELD>`` overrides).

The defaults follow the papers where they give a number (HippoRAG 2: synonym threshold 0.8,
fact top-k 5, top-5 seed entities, passage node weight 0.05, damping 0.5; SEEM: RPE capped
at twice the initial retrieval). The offline consolidation thresholds are ours and are
documented in ``docs/seem.md``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from graphmem.designs.base import DesignSettings


class SeemConfig(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_SEEM_", extra="ignore", frozen=True)

    # --- semantic layer (entities, facts, synonyms) -----------------------------------
    synonym_threshold: float = Field(default=0.8, description="cosine at or above: SYNONYM edge")
    synonym_top_k: int = Field(default=10, description="at most this many synonyms per new entity")
    synonym_min_alnum: int = Field(default=3, description="shorter entities get no synonym edges")
    merge_threshold: float = Field(
        default=0.95, description="cosine at or above + same head: merge"
    )
    mentions_per_passage: int = Field(default=8, description="key phrases linked per passage")

    # --- episodic frames and consolidation ---------------------------------------------
    frame_window: int = Field(
        default=1, ge=1, description="turns per frame (1 = one frame per turn)"
    )
    fuse_candidates: int = Field(default=5, description="nearest frames fetched per new frame")
    fuse_min_similarity: float = Field(default=0.7, description="offline judge: frame cosine")
    fuse_max_gap_hours: float = Field(default=24.0, description="offline judge: time proximity")
    fuse_require_shared: bool = Field(
        default=True, description="offline judge: a shared participant"
    )
    max_frame_passages: int = Field(default=8, description="a frame never fuses beyond this")
    max_events_per_frame: int = Field(default=8, description="events kept per (fused) frame")
    max_summary_statements: int = Field(default=3, description="offline summary: turns quoted")

    # --- retrieval: seeds and PageRank --------------------------------------------------
    fact_top_k: int = Field(
        default=5, description="facts selected by the query (HippoRAG 2 linking)"
    )
    fact_min_score: float = Field(default=0.3, description="facts below this cosine are ignored")
    entity_match_min_score: float = Field(default=0.8, description="query phrase -> entity cosine")
    entity_match_weight: float = Field(default=1.0, description="a matched phrase's seed share")
    seed_entities: int = Field(default=5, description="entity seeds kept (largest weights)")
    passage_node_weight: float = Field(default=0.05, description="dense score factor for passages")
    passage_seed_levels: int = Field(
        default=4, ge=1, description="weight levels (one PPR run each)"
    )
    passage_prior: Literal["pagerank", "restart"] = Field(
        default="restart", description="passage seeds: PageRank runs or restart mass only"
    )
    entity_seed_levels: int = Field(default=3, description="weight levels (0: one run each)")
    ppr_concurrency: int = Field(default=1, description="GDS threads per PageRank run")
    damping: float = Field(default=0.5, gt=0.0, lt=1.0, description="PageRank damping factor")
    max_iterations: int = Field(default=20, description="PageRank iterations at most")
    tolerance: float = Field(default=1e-4, description="PageRank stops below this change")
    query_texts: int = Field(default=4, description="query + quadruples + phrases embedded")
    entity_match: Literal["embedding", "name"] = Field(
        default="name",
        description="query phrase -> entity: same normalised name, or nearest embedding",
    )
    in_memory_index: bool = Field(
        default=True, description="search facts/entities in memory (else the vector indexes)"
    )

    # --- retrieval: context --------------------------------------------------------------
    rpe_factor: float = Field(default=2.0, description="RPE: final passages <= factor * initial")
    rpe_decay: float = Field(default=0.1, description="RPE: a frame-mate's share of its score")
    context_facts: int = Field(default=3, description="top facts shown as memories")
    facts_first: bool = Field(default=False, description="facts lead (else follow their sources)")
    frame_summaries: Literal["all", "fused", "llm", "none"] = Field(
        default="llm", description="which frames show their summary (llm: LLM-built ones)"
    )
