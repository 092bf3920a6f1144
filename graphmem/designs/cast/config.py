"""CAST's settings (``GRAPHMEM_CAST_<FIELD>``, e.g. ``GRAPHMEM_CAST_WINDOW=0``).

Values the paper gives carry its section in ``design.PRESETS``; the rest are ours and are
explained in ``graphmem/designs/cast/README.md`` ("ours"). Reading them does no I/O.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from graphmem.plugin import DesignSettings

# Stored on every scene whose summary an LLM wrote: the paper publishes no prompt, the one
# in ``summary.py`` is ours, and a changed prompt must be told apart from the old one.
PROMPT_VERSION = "cast-summary-1"


class CastSettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_CAST_", extra="forbid", frozen=True)

    # --- views (paper 3.1) ------------------------------------------------------------
    window: int = Field(default=1, ge=0, description="w: neighbours on each side of a view")

    # --- character streams and roles (paper 3.2, 3.3.1) ---------------------------------
    participants: Literal["all", "speakers"] = Field(
        default="all",
        description="who gets a view in their stream: speakers and mentioned persons, or "
        "speakers only (the paper's speaker_only ablation)",
    )

    # --- scene aggregation, Algorithm 1 (paper 3.3.2, 4.1) -------------------------------
    delta_t_days: float = Field(default=1.0, ge=0.0, description="Delta_t: time gap, days")
    delta_l: float = Field(
        default=0.0, ge=0.0, description="Delta_l: place distance (0 = same place, 1 = other)"
    )
    delta_tau: float = Field(
        default=0.7,
        ge=0.0,
        le=2.0,
        description="Delta_tau: 1 - cosine to the topic centroid",
        json_schema_extra={"cosine": "distance-passage"},
    )
    summary_tokens: int = Field(
        default=128, ge=16, description="offline scene summary: token cap (encoder tokens)"
    )

    # --- retrieval and fusion, Algorithm 2 (paper 3.3.3, 4.1) ----------------------------
    semantic_k: int | None = Field(
        default=None,
        ge=1,
        description="k of the semantic list; None: as many entries as the budget holds",
    )
    episodic_k: int = Field(default=5, ge=1, description="k of the episodic list (scenes)")
    fusion: Literal["promote", "off", "slot3"] = Field(
        default="promote",
        description="promote: Algorithm 2; off: semantic only; slot3: the paper's ablation",
    )
    cues: Literal["filter", "boost", "off"] = Field(
        default="filter",
        description="question names/places/times: rank matching scenes first, add a bonus, "
        "or ignore them",
    )
    cue_boost: float = Field(default=0.1, ge=0.0, description="boost mode: bonus per cue kind")
    relative_cues: bool = Field(
        default=True,
        description="a question with a date of its own (LongMemEval's, `query --as-of`): its "
        "relative dates ('last week', 'on May 10') are time cues too; else only dates naming "
        "their year",
    )
    view_turns: Literal["window", "centre"] = Field(
        default="centre",
        description="what an entry shows the reader: its whole view (the paper) or its "
        "centre turn only (ours, under a token budget; the view stays in the graph)",
    )
