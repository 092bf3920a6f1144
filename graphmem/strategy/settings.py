"""The ``graphmem`` strategy's knobs (``GRAPHMEM_GRAPHMEM_<FIELD>``, e.g.
``GRAPHMEM_GRAPHMEM_EXCLUDE=premem`` or ``GRAPHMEM_GRAPHMEM_FUSION=agreement``).

Why each default is what it is: ``docs/graphmem-strategy.md``. Reading them does no I/O.
"""

from __future__ import annotations

from math import ceil
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import NoDecode, SettingsConfigDict

from graphmem.plugin.design import DesignSettings

Names = Annotated[tuple[str, ...], NoDecode]


class GraphmemSettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_GRAPHMEM_", extra="forbid", frozen=True)

    # --- who votes -----------------------------------------------------------------------
    members: Names = Field(
        default=(),
        description="strategies to fuse (comma list); empty: every design strategy the space "
        "was built for, plus the baselines below",
    )
    baselines: Names = Field(
        default=("fulltext",),
        description="passage baselines that join the automatic members (BM25: the one "
        "lexical ranker)",
    )
    fallback: str = Field(
        default="hybrid",
        description="the strategy that answers a space with no design built (members "
        "automatic): dense + BM25, the best of the passage baselines",
    )
    exclude: Names = Field(
        default=(), description="strategies left out (the ablation: one design at a time)"
    )
    family: dict[str, str] | None = Field(
        default=None,
        description="member -> the ranker it re-orders; members of one family share one vote "
        "and the family's own strategy is left out when one of them is present (None: as the "
        "designs declare it, Design.reorders; a JSON object in the environment)",
    )
    pagerank: bool = Field(
        default=True,
        description="false: leave out every strategy whose design runs Personalized PageRank "
        "per query (Design.pagerank), so a query skips the question's triples and GDS",
    )

    member_budget_factor: float = Field(
        default=2.0,
        ge=1.0,
        description="members retrieve for this many times the budget: the fused context is "
        "chosen from candidates beyond what any one member would show in the budget",
    )

    # --- the rule ------------------------------------------------------------------------
    fusion: Literal["rrf", "agreement"] = Field(
        default="rrf",
        description="rrf: reciprocal-rank fusion of the members' ranked turns; agreement: "
        "turns several members rank near the top first (CAST's Algorithm 2 generalised), "
        "each group in RRF order",
    )
    agreement_min: float = Field(
        default=2.0, gt=0.0, description="agreement: votes a turn needs to be promoted"
    )
    agreement_turn_tokens: int = Field(
        default=40,
        ge=1,
        description="budget / this many turns is about what a member would show: the RRF k "
        "(its vote for the last of them weighs about half its vote for its first) and, with "
        "agreement, the turns it votes for",
    )

    # --- the context ---------------------------------------------------------------------
    derived_share: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="share of the context's tokens for derived items (facts, fragments, "
        "frame and event summaries); the rest are turns",
    )
    # Not settings: a derived item joins only when shorter than the best-ranked turn it
    # cites, one restating turns the context shows stays only for a number they lack, and
    # the members run one after another (the alternatives measured: docs/research-log.md).

    def depth(self, budget: int) -> int:
        """About how many turns a member would show in ``budget``: also the RRF k, so that a
        member's vote for the last of them weighs about half its vote for its first."""
        return ceil(budget / self.agreement_turn_tokens)

    @field_validator("members", "baselines", "exclude", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value
