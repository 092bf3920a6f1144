"""SEEM's own knobs (``GRAPHMEM_SEEM_<FIELD>``): event frames, their consolidation and
Reverse Provenance Expansion. The semantic layer it builds on has its own settings
(``graphmem.semantic.settings.SemanticSettings``, ``GRAPHMEM_SEMANTIC_<FIELD>``).

The offline consolidation thresholds are ours and are documented in the package's ``README.md``;
the ``paper`` preset (``design.py``) holds the values SEEM publishes, with their sources.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from graphmem.plugin import DesignSettings


class SeemSettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_SEEM_", extra="forbid", frozen=True)

    # --- episodic frames and consolidation ---------------------------------------------
    frame_window: int = Field(
        default=1, ge=1, description="turns per frame (1 = one frame per turn)"
    )
    fuse_candidates: int = Field(default=5, description="nearest frames fetched per new frame")
    fuse_min_similarity: float = Field(
        default=0.7,
        description="offline judge: frame cosine",
        json_schema_extra={"cosine": "passage"},
    )
    fuse_max_gap_hours: float = Field(default=24.0, description="offline judge: time proximity")
    fuse_require_shared: bool = Field(
        default=True, description="offline judge: a shared participant"
    )
    max_frame_passages: int = Field(default=8, description="a frame never fuses beyond this")
    max_events_per_frame: int = Field(default=8, description="events kept per (fused) frame")
    max_summary_statements: int = Field(default=3, description="offline summary: turns quoted")

    # --- retrieval: context --------------------------------------------------------------
    rpe_factor: float = Field(
        default=2.0, ge=1.0, description="RPE: final passages <= factor * initial (1: no RPE)"
    )
    rpe_top_k: int = Field(
        default=0,
        ge=0,
        description="RPE: passages expanded and kept (0: every ranked passage the budget "
        "allows; k: only the top k, the final set capped at factor * k)",
    )
    rpe_decay: float = Field(default=0.1, description="RPE: a frame-mate's share of its score")
    context_facts: int = Field(default=3, description="top facts shown as memories")
    facts_first: bool = Field(default=False, description="facts lead (else follow their sources)")
    frame_summaries: Literal["all", "fused", "llm", "none"] = Field(
        default="fused",
        description="which frames show their summary (fused: those spanning several "
        "passages, whose summary says more than one turn; llm: LLM-built ones)",
    )
