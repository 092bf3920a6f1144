"""Amory's knobs. Environment: ``GRAPHMEM_AMORY_<FIELD>`` (e.g.
``GRAPHMEM_AMORY_CONSOLIDATION=rapid``). The paper's values (T, N, k, inactivity after one
step, filler discarded) are the defaults; every other value is ours and says why in
the package's README.md. Read when a builder or retriever is constructed, never at
import time.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from graphmem.plugin import DesignSettings

# Stored on every node the builder writes; bumped whenever a prompt or an offline rule
# changes what a node says, so stories written by two versions can be told apart.
PROMPT_VERSION = "amory-1"
OFFLINE_VERSION = "amory-offline-1"

Consolidation = Literal["none", "rapid", "inactive"]


class AmorySettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_AMORY_", extra="ignore")

    # --- the paper's hyper-parameters (section 4.1) --------------------------------
    init_turns: int = Field(default=20, ge=2, description="T: turns before memory init")
    consolidation_window: int = Field(
        default=10, ge=2, description="N: unconsolidated excerpts one consolidation analyses"
    )
    top_k: int = Field(default=2, ge=1, description="k: stories (leaves) retrieved")
    inactive_after: int = Field(
        default=1, ge=1, description="steps without a new excerpt before a story is inactive"
    )
    consolidation: Consolidation = Field(
        default="inactive", description="when stories consolidate: none, rapid, inactive"
    )
    drop_filler: bool = Field(default=True, description="discard turns without content")

    # --- offline memory binding (ours) ---------------------------------------------
    new_story_threshold: float = Field(
        default=0.35, gt=-1.0, lt=1.0, description="below this similarity a pair starts a story"
    )
    recency_bonus: float = Field(default=0.1, ge=0.0, description="added for active stories")
    recent_excerpts: int = Field(default=6, ge=1, description="excerpts a story is compared by")
    headline_weight: float = Field(
        default=0.5, ge=0.0, le=1.0, description="share of the headline in a story's vector"
    )
    headline_phrases: int = Field(default=4, ge=1, description="key phrases in a headline")

    # --- consolidation (ours where the paper leaves it to the LLM) -----------------
    rapid_interval: int = Field(default=10, ge=1, description="steps between rapid rounds")
    min_subplot_items: int = Field(default=3, ge=1, description="smallest subplot")

    # --- semanticization (ours) ----------------------------------------------------
    side_facts_per_item: int = Field(default=2, ge=0, description="side facts kept per excerpt")

    # --- retrieval -------------------------------------------------------------------
    fill_budget: bool = Field(
        default=True, description="after the k stories, more memory fills the budget"
    )
    fill: Literal["stories", "excerpts"] = Field(
        default="excerpts",
        description="what fills the budget after the k stories: the next-ranked stories "
        "whole, or the best excerpts of every other story one by one (the excerpt score)",
    )
    fact_k: int = Field(default=2, ge=0, description="semantic memories retrieved")
    name_boost: float = Field(default=0.1, ge=0.0, description="per question name a story has")
    content_weight: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="offline: share of the best excerpt's similarity in a story's score",
    )
    cypher_row_cap: int = Field(default=50, ge=1, description="rows a generated query may return")
    cypher_timeout_s: float = Field(default=2.0, gt=0.0, description="generated query timeout")
