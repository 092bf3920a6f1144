"""AnchorMem's knobs. Environment: ``GRAPHMEM_ANCHORMEM_<FIELD>`` (e.g.
``GRAPHMEM_ANCHORMEM_TAU=0.8``); tests and callers may pass an instance instead.

Kept out of the shared ``Settings`` so the design is self-contained; it is read when a
builder or retriever is constructed, never at import time.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import SettingsConfigDict

from graphmem.plugin import DesignSettings

# Bumped whenever a prompt or the offline rewriting changes what a node says: stored on
# every node so facts written by two versions can be told apart.
PROMPT_VERSION = "anchormem-1"


class AnchorMemConfig(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_ANCHORMEM_", extra="ignore")

    # --- fact-context units --------------------------------------------------------
    window: int = Field(default=3, ge=1, description="turns per context unit")
    step: int = Field(default=2, ge=1, description="turns between two unit starts")
    # Offline, in a conversation with an AI assistant (graphmem/nlp/roles.py): facts kept
    # per assistant turn, its first content sentences. An answer opens with what it
    # answers; the lists, steps and caveats after it would otherwise outnumber the user's
    # facts many times over (graphmem/designs/anchormem/README.md, "User-assistant conversations").
    answer_facts: int = Field(
        default=3, ge=0, description="offline facts per AI-assistant turn (user-assistant chat)"
    )

    # --- associative event graph (paper: tau 0.85, N 3) ----------------------------
    tau: float = Field(
        default=0.85,
        gt=-1.0,
        lt=1.0,
        description="cosine threshold",
        json_schema_extra={"cosine": "passage"},
    )
    neighbours: int = Field(default=3, ge=1, description="N: neighbours per fact")
    # "novelty": ours (a group needs ceil(N/2) facts no kept event integrates yet);
    # "eq9": the paper's (a cluster with ceil(N/2) facts from one context is redundant).
    pruning: Literal["novelty", "eq9"] = Field(
        default="novelty",
        description="redundancy pruning of candidate events: novelty (a group needs ceil(N/2) "
        "facts no kept event integrates yet) or eq9 (the paper's Eq. 9: a group with ceil(N/2) "
        "facts from one context is redundant)",
    )
    # Vector-index candidates read per fact before the space and context filters.
    candidate_pool: int = Field(
        default=12, ge=1, description="nearest facts considered per new fact when grouping"
    )

    # --- retrieval -----------------------------------------------------------------
    # Tokens one fact hit costs on average once passages shared by several facts are
    # de-duplicated; the fact count asked for is budget / this (the
    # package's README.md).
    fact_item_tokens: int = Field(
        default=30, ge=1, description="tokens per fact hit: facts asked for = budget / this"
    )
    min_facts: int = Field(default=10, ge=1, description="fewest facts asked for, any budget")
    # "vector": the paper's anchors; "hybrid": vector and BM25 over fact texts, fused by
    # reciprocal rank (the lexical leg the passage baseline has).
    fact_search: Literal["vector", "hybrid"] = Field(
        default="vector",
        description="fact ranking: vector (the paper) or hybrid (vector and BM25, fused by RRF)",
    )
    # Where the vector ranking runs: "snapshot" (ours, default): exact cosine in-process
    # over the space's facts and events, read once (a version read per query notices
    # changes); "index": the vector indexes, approximate (HNSW) and over-fetched past
    # other spaces' nodes, one statement per query and kind (~2x10 ms at LoCoMo scale).
    search: Literal["snapshot", "index"] = Field(
        default="snapshot",
        description="where vectors are ranked: snapshot (exact, in-process) or index (Neo4j's "
        "approximate vector indexes)",
    )
    # The paper's retrieval: top-k facts (mapped to their contexts) and top-k events, k
    # fixed; 0: k from the budget (fact_item_tokens, facts_per_event).
    paper_top_k: int = Field(
        default=0,
        ge=0,
        description="k facts and k events whatever the budget (the paper); 0: from the budget",
    )
    max_facts: int = Field(default=200, ge=1, description="most facts asked for, any budget")
    # One event per this many facts in the ranked list (paper: equal top-k for both).
    facts_per_event: int = Field(
        default=10,
        ge=1,
        description="one event asked for per this many facts, and shown after each this many",
    )
    min_events: int = Field(default=1, ge=0, description="fewest events asked for, any budget")
    # Where events written by the offline backend go: their narrative is extractive (it
    # retells facts retrieval finds anyway), so by default after all facts ("last");
    # LLM-written events, which add what the source contexts say, are always interleaved.
    extractive_events: Literal["interleave", "last"] = Field(
        default="last",
        description="where offline (extractive) events go: after all facts (last) or among "
        "them (interleave); LLM-written events are always interleaved",
    )
    # When a fact's own sentence is shown next to its context (the paper shows only the
    # context): always, never, or when it has a number its turns lack (a resolved date).
    fact_text: Literal["always", "never", "new_numbers", "new_words"] = Field(
        default="new_numbers",
        description="when a fact's sentence is shown beside its turns: always, never, or when "
        "it has a number (new_numbers) or a word (new_words) the turns lack",
    )

    @model_validator(mode="after")
    def _step_within_window(self) -> AnchorMemConfig:
        if self.step > self.window:
            raise ValueError(f"step ({self.step}) must not exceed window ({self.window})")
        return self

    @property
    def min_new_facts(self) -> int:
        """ceil(N/2): the paper's majority threshold, used by the redundancy pruning."""
        return math.ceil(self.neighbours / 2)

    @property
    def min_index_score(self) -> float:
        """tau on Neo4j's cosine score scale: its vector index reports (1 + cos) / 2."""
        return (1.0 + self.tau) / 2.0
