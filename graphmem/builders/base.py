"""The interface every memory design implements to write its layer into the graph.

Builders run after the core passages of a conversation are stored. They get the sessions
they have not completed yet (tracked on ``Session.built_by``), in chronological order, so
an interrupted build resumes where it stopped and a chunked ingest is incremental.
Every node a builder writes carries ``space``, a content-hash ``id``, ``builder``,
``backend`` and a ``FROM`` relationship to each passage it came from.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graphmem.config import Settings
from graphmem.designs.configure import DesignConfigs
from graphmem.embed import Embedder
from graphmem.ingest.models import ConversationIn, SessionIn
from graphmem.llm import StructuredLLM
from graphmem.store import GraphStore


@dataclass(frozen=True)
class BuildContext:
    store: GraphStore
    embedder: Embedder
    settings: Settings
    space: str
    llm: StructuredLLM | None = None
    # Every design's resolved settings (preset, config file, environment): a builder reads
    # its own and those of the layers it requires.
    configs: DesignConfigs = field(default_factory=DesignConfigs)

    @property
    def backend(self) -> str:
        return f"llm:{self.llm.model_name}" if self.llm else "offline"


@dataclass(frozen=True)
class SessionBatch:
    """Sessions of one conversation to build, with the ids their core nodes have."""

    conversation: ConversationIn
    sessions: Sequence[SessionIn]
    session_ids: Sequence[str]
    passage_ids: Sequence[Sequence[str]]  # per session, per turn


@dataclass
class BuildReport:
    builder: str
    sessions: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    llm_calls: int = 0
    llm_tokens: int = 0

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "builder": self.builder,
            "sessions": self.sessions,
            "seconds": round(self.seconds, 2),
            "llm_calls": self.llm_calls,
            "llm_tokens": self.llm_tokens,
            **self.counts,
        }
        # A builder that counts the turns it read gets its construction cost per turn
        # (computed from the totals, so it stays right after reports are merged).
        turns = self.counts.get("turns", 0)
        if turns:
            out["per_turn"] = {
                "ms": round(1000 * self.seconds / turns, 2),
                "llm_calls": round(self.llm_calls / turns, 3),
                "llm_tokens": round(self.llm_tokens / turns, 1),
            }
        return out


class Builder(ABC):
    """Constructed as ``Builder(ctx, settings)`` by the design registry (``settings`` is the
    design's resolved settings instance); the constructor does no I/O."""

    name: str

    def __init__(self, ctx: BuildContext, config: Any = None) -> None:
        self.ctx = ctx

    @abstractmethod
    def build(self, batch: SessionBatch) -> BuildReport:
        """Write this design's layer for the batch; idempotent (MERGE on content ids)."""

    def finish(self) -> None:  # noqa: B027  (optional hook; most builders need none)
        """Called once after all conversations of an ingest (e.g. to refresh a projection)."""
