"""The interface every memory design implements to write its layer into the graph.

Builders run after the core passages of a conversation are stored. They get the sessions
they have not completed yet (tracked on ``Session.built_by``), in chronological order, so
an interrupted build resumes where it stopped and a chunked ingest is incremental.
Every node a builder writes carries ``space``, a content-hash ``id``, ``builder``,
``backend`` and a ``FROM`` relationship to each passage it came from. A node the offline
backend computed because the LLM gave up on its item says so: ``backend = 'offline'`` and
``fallback = true`` (``BuildContext.node_backend``).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic

from typing_extensions import TypeVar

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.rows import chunks
from graphmem.graph.store import GraphStore, Tx
from graphmem.ingest.models import ConversationIn, SessionIn
from graphmem.llm import LLMUsage, StructuredLLM
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.design import DesignSettings

OFFLINE = "offline"
# A builder's settings class. The default makes a bare ``Builder`` mean any builder, for
# code that only runs them (the registry, ``run_build``).
S = TypeVar("S", bound=DesignSettings, covariant=True, default=DesignSettings)


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

    def __post_init__(self) -> None:
        # Cosine thresholds are given on MiniLM's scale; a design reads them on this
        # context's embedder's (graphmem/embed/scale.py).
        object.__setattr__(self, "configs", self.configs.on_embedder(self.embedder))

    @property
    def backend(self) -> str:
        """The run's backend: ``llm:<model>`` with an LLM client, else ``offline``."""
        return f"llm:{self.llm.model_name}" if self.llm else OFFLINE

    def node_backend(self, fallback: bool = False) -> dict[str, Any]:
        """The ``backend`` and ``fallback`` properties of one node: the run's backend, or,
        for a node computed offline because the LLM gave up on its item (an ``Outcome``
        with ``fallback``), ``offline`` and ``fallback = True``. ``fallback`` is None
        otherwise, so re-writing a node without the fallback removes the property."""
        if fallback:
            return {"backend": OFFLINE, "fallback": True}
        return {"backend": self.backend, "fallback": None}


@dataclass(frozen=True)
class SessionBatch:
    """Sessions of one conversation to build, with the ids their core nodes have."""

    conversation: ConversationIn
    sessions: Sequence[SessionIn]
    session_ids: Sequence[str]
    passage_ids: Sequence[Sequence[str]]  # per session, per turn

    def mark_built(self, tx: Tx, space: str, builder: str) -> None:
        """Mark the sessions built by ``builder`` inside ``tx``. A builder whose batch is
        not idempotent (it advances state it loaded from the graph) commits its last writes
        and this mark together, so a rerun after a crash never applies the batch twice. The
        framework marks them again after the build (a no-op then)."""
        tx.run("core.mark_built", space=space, session_ids=list(self.session_ids), builder=builder)


@dataclass
class BuildReport:
    """What one build (or the sum of several) did and cost.

    ``run_build`` fills ``seconds`` and the LLM accounting from the client's counters, so a
    builder reports only its ``counts``; ``llm`` holds calls, cache hits, prompt and
    completion tokens, seconds in the LLM, retries, repairs and fallbacks.
    """

    builder: str
    sessions: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    llm: LLMUsage = field(default_factory=LLMUsage)

    @property
    def llm_calls(self) -> int:
        return self.llm.calls

    @property
    def llm_cache_hits(self) -> int:
        return self.llm.cache_hits

    @property
    def prompt_tokens(self) -> int:
        return self.llm.prompt_tokens

    @property
    def completion_tokens(self) -> int:
        return self.llm.completion_tokens

    @property
    def llm_tokens(self) -> int:
        return self.llm.total_tokens

    @property
    def llm_seconds(self) -> float:
        return self.llm.seconds

    @classmethod
    def total(cls, name: str, reports: Sequence[BuildReport]) -> BuildReport:
        """The sum of several reports (e.g. a design and the layers it required)."""
        out = cls(name)
        for report in reports:
            out.merge(report)
        return out

    def merge(self, part: BuildReport) -> None:
        """Add another report of the same builder (e.g. the next conversation's)."""
        self.sessions += part.sessions
        self.seconds += part.seconds
        self.llm = self.llm + part.llm
        for key, value in part.counts.items():
            self.counts[key] = self.counts.get(key, 0) + value

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "builder": self.builder,
            "sessions": self.sessions,
            "seconds": round(self.seconds, 2),
            **self.llm.as_dict(),
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
                "llm_seconds": round(self.llm_seconds / turns, 3),
            }
        return out


def run_build(builder: Builder, batch: SessionBatch) -> BuildReport:
    """How the framework runs a build: timed, and charged the LLM usage it caused (the
    client's counters after minus before; builds of one client run one at a time)."""
    llm = builder.ctx.llm
    before = llm.usage.snapshot() if llm is not None else LLMUsage()
    started = time.perf_counter()
    report = builder.build(batch)
    report.seconds = time.perf_counter() - started
    if llm is not None:
        report.llm = llm.usage.snapshot() - before
    if "turns" not in report.counts:
        report.counts["turns"] = sum(len(s.turns) for s in batch.sessions)
    return report


class Builder(ABC, Generic[S]):
    """Constructed as ``Builder(ctx, settings)`` by the design registry: ``settings`` is the
    design's resolved settings instance (``ctx.configs.get(name)``), kept as
    ``self.settings``; a required layer's are ``ctx.configs.get(layer)``. The constructor
    does no I/O."""

    name: str

    def __init__(self, ctx: BuildContext, settings: S) -> None:
        self.ctx = ctx
        self.settings = settings

    @abstractmethod
    def build(self, batch: SessionBatch) -> BuildReport:
        """Write this design's layer for the batch; idempotent (MERGE on content ids).

        The framework calls it through ``run_build``, which times it and fills the LLM
        accounting: return only ``counts``. LLM calls on independent items should go through
        ``graphmem.llm.map_with_fallback`` so an item the LLM gives up on goes offline."""

    def finish(self) -> None:  # an optional hook: most builders need none
        """Called once after all conversations of an ingest (e.g. to refresh a projection)."""

    # --- storage: the catalog's statements on this build's space ------------------------
    def _read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self.ctx.store.read(name, space=self.ctx.space, **params)

    def _write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self.ctx.store.write(name, space=self.ctx.space, **params)

    def _write_rows(self, name: str, rows: Sequence[dict[str, Any]], **params: Any) -> None:
        """``UNWIND $rows`` statements in chunks of ``graph.rows.WRITE_CHUNK`` rows, each
        chunk its own transaction."""
        for chunk in chunks(rows):
            self._write(name, rows=list(chunk), **params)
