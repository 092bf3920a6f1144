"""PREMem's knobs. Environment: ``GRAPHMEM_PREMEM_<FIELD>`` (e.g. ``GRAPHMEM_PREMEM_THETA=0.7``).

Read when a builder or retriever is constructed, never at import time.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from graphmem.plugin import DesignSettings

# Bumped whenever a prompt or an offline rule changes what a node says: stored on every node
# so fragments and insights written by two versions can be told apart.
PROMPT_VERSION = "premem-1"


class PremSettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_PREMEM_", extra="ignore")

    # --- Step 2: clustering and the persistent pool ----------------------------------
    theta: float = Field(
        default=0.6,
        gt=-1.0,
        lt=1.0,
        description="centroid cosine above which clusters connect",
        json_schema_extra={"cosine": "passage"},
    )
    max_clusters: int = Field(
        default=10, ge=2, description="largest k tried by the silhouette search per session"
    )
    random_state: int = Field(default=0, description="KMeans seed: clustering is deterministic")
    n_init: int = Field(default=10, ge=1, description="KMeans restarts per k")

    # --- offline reasoning --------------------------------------------------------------
    max_listed_dates: int = Field(
        default=4, ge=1, description="dates an offline accumulation insight lists"
    )

    # --- retrieval ----------------------------------------------------------------------
    insights: bool = Field(
        default=True, description="rank insights with the fragments (false: fragments only)"
    )
    offline_insights: bool = Field(
        default=False,
        description="rank insights the offline rules wrote too (they restate fragments: a "
        "count with dates, or two fragments joined); false: only LLM-written insights",
    )
    messages: bool = Field(
        default=True,
        description="rank the original turns with the fragments and insights by the same "
        "cosine, and show a chosen turn as it was said (the paper's Limitations suggest the "
        "original messages for single-hop questions; the paper's method: false)",
    )
    item_tokens: int = Field(
        default=20, ge=1, description="tokens one rendered item costs on average (sizes top-k)"
    )
    max_items: int = Field(default=400, ge=1, description="largest top-k asked for")
    search: Literal["snapshot", "cypher"] = Field(
        default="snapshot",
        description="where the exact cosine runs: in-process over the space's items read "
        "once (snapshot; a version read per query notices changes) or in one Cypher "
        "statement per query (cypher: nothing held in memory; same ranking, slower)",
    )
