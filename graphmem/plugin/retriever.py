"""What every retriever returns, and the interface they share.

A ``Hit`` is any ranked node (a passage, a fact, a frame, an event...) with its score, the
path that produced it (for ``--explain``) and its provenance: the source passages it came
from. The packer only ever needs hits; it never knows which design produced them.
"""

from __future__ import annotations

import atexit
import functools
import gc
import math
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Generic, final

from typing_extensions import TypeVar

from graphmem.config import Settings

if TYPE_CHECKING:
    from graphmem.llm import Message, StructuredLLM
    from graphmem.retrieval.packer import PackedContext
from graphmem.embed import Embedder
from graphmem.graph.store import GraphStore
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.design import DesignSettings
from graphmem.plugin.hits import Hit, PassageRef, RetrievalResult

__all__ = [
    "Hit",
    "PassageRef",
    "RetrievalContext",
    "RetrievalResult",
    "Retriever",
    "SearchRetriever",
    "TokenCounter",
    "k_for_budget",
    "settle",
]

# A retriever's settings class. The default makes a bare ``Retriever`` mean any retriever,
# for code that only queries them (the registry, ``Memory``, the evaluation).
S = TypeVar("S", bound=DesignSettings, covariant=True, default=DesignSettings)


@dataclass(frozen=True)
class RetrievalContext:
    """What a retriever needs, passed down once: no retriever opens its own connection."""

    store: GraphStore
    embedder: Embedder
    settings: Settings
    space: str
    # Every design's resolved settings: a retriever reads its own and its layers'.
    configs: DesignConfigs = field(default_factory=DesignConfigs)
    # The Memory's one LLM client (None: offline), shared with its builders and ``ask``;
    # a retriever that reasons with an LLM at query time (Amory) uses this one.
    llm: StructuredLLM | None = None
    # When the questions are asked: a relative date in a question ("last week") counts
    # from it. None: from the space's latest session.
    now: datetime | None = None
    # Answer as things stood then (``graphmem query --as-of``): no turn said after it, and a
    # statement superseded only later is current (graphmem/validity/retrieval.py). Unlike
    # ``now``, which only dates the question, it hides what was said later.
    as_of: datetime | None = None
    # How many questions the space is about to get, when known (an evaluation): one-off
    # work in ``prepare`` that only pays back over many queries is cut to what they can use.
    # None: a long-lived process, as many as come.
    expected_queries: int | None = None

    def __post_init__(self) -> None:
        # Cosine thresholds are given on MiniLM's scale; a design reads them on this
        # context's embedder's (graphmem/embed/scale.py).
        object.__setattr__(self, "configs", self.configs.on_embedder(self.embedder))


class TokenCounter:
    """``count(text)``: the embedder's token count, remembered per text. Retrievers that
    count the same turns at every query (to fit a budget) keep one for their lifetime."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._known: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        found = self._known.get(text)
        if found is None:
            found = self._known[text] = self._embedder.count_tokens(text)
        return found


def settle(settings: Settings, collect: bool = True) -> None:
    """Leave everything alive now out of the cyclic garbage collector's full passes.

    A prepared retriever keeps its snapshot of the space (thousands of rows, models,
    vectors) for the life of the process, next to the embedding and spaCy models. Each full
    collection walks all of it: a pause of 100-200 ms that lands on whichever query is
    running (the graphmem strategy's p95 on conv-26 went from 385 to 190 ms). Reference
    counting still frees whatever is dropped later; only cyclic garbage among these objects
    stays. Called once a retriever is prepared (``Memory.query``, the eval harness). At exit
    the objects go back to the collector: extension modules (triton, under torch) print
    "leaked instances" when shutdown finds them frozen. ``GRAPHMEM_SETTLE_GC=false``: a no-op.

    Each call first gives what an earlier call froze back to the collector and collects
    once: a retriever dropped since (the Memory's least recently used one, the eval's last
    haystack) holds reference cycles that, frozen, would never be freed. Without that, an
    evaluation over 250 LongMemEval haystacks in one process grew by about 50 MB a haystack
    until the machine paged. The one full pass costs what the freeze saves on a few queries,
    and lands where a retriever is prepared anyway. ``collect=False`` only freezes what is
    new since the last call (what a first query loaded lazily): nothing was dropped in
    between, and the full pass cost 0.5-1 s a haystack in evaluations.
    """
    if not settings.settle_gc:
        return
    _unfreeze_at_exit()
    if collect:
        gc.unfreeze()
        gc.collect()
    gc.freeze()


# The collector's thresholds once the process is tuned for graphmem: building a space
# allocates millions of short-lived objects (parses, rows, vectors) that reference counting
# frees, yet every 700 allocations started a young pass and every 7,000 or so a pass over
# everything alive (spaCy's and the embedder's state, an evaluation's whole dataset): 6% of
# the CPU of a LongMemEval evaluation. Young passes every 10,000 allocations and full ones
# after 100 middle passes still collect young cycles, and ``settle`` collects fully where a
# retriever is prepared. Results are the same; only when cyclic garbage is freed changes.
_THRESHOLDS = (10_000, 50, 100)


def space_out_collections(settings: Settings) -> None:
    """With ``settle_gc``: the collector's passes spaced out (``_THRESHOLDS``); process-wide,
    so only a tuned process (``Memory(tune_process=True)``, the CLI's) calls it."""
    if settings.settle_gc:
        gc.set_threshold(*_THRESHOLDS)


@functools.cache
def _unfreeze_at_exit() -> None:
    atexit.register(gc.unfreeze)  # once per process


def k_for_budget(budget: int, per_item_tokens: int = 12, floor: int = 20, cap: int = 300) -> int:
    """How many hits to ask for so that the packer can fill ``budget`` tokens even after
    de-duplication: about one hit per ``per_item_tokens`` tokens, at least ``floor``."""
    return max(floor, min(cap, math.ceil(budget / per_item_tokens)))


class Retriever(ABC, Generic[S]):
    """``retrieve(query, budget)`` returns hits with scores and provenance, best first.

    Constructed as ``Retriever(ctx, settings)`` by the design registry: ``settings`` is the
    design's resolved settings instance (``ctx.configs.get(name)``), kept as
    ``self.settings``; a required layer's are ``ctx.configs.get(layer)``. The constructor
    does no I/O. A retriever implements ``_retrieve``; ``retrieve`` times it."""

    name: str
    # True when the hits for a smaller budget are the first hits for a larger one, so an
    # evaluation may retrieve once at its largest budget and pack every smaller one from
    # that list. False (CAST: the list is cut to the budget, then reordered) makes the
    # evaluation retrieve at each budget.
    prefix_consistent: bool = True

    def __init__(self, ctx: RetrievalContext, settings: S) -> None:
        self.ctx = ctx
        self.settings = settings

    @final
    def retrieve(self, query: str, budget: int) -> RetrievalResult:
        """``_retrieve``'s result with ``timings_ms["total"]``, the milliseconds of the whole
        call (what ``graphmem query`` reports as its latency). A retriever's own timings
        (its parts) come first, as it set them."""
        started = time.perf_counter()
        result = self._retrieve(query, budget)
        total = (time.perf_counter() - started) * 1000
        # A new dict: a result copied from another (a wrapper's) may share the one it has.
        result.timings_ms = {**result.timings_ms, "total": total}
        return result

    @abstractmethod
    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        """Hits for ``query`` that fill ``budget`` tokens, best first; ``timings_ms`` may
        hold the milliseconds of the retriever's parts (``total`` is ``retrieve``'s)."""

    def answer_messages(self, question: str, context: PackedContext) -> list[Message] | None:
        """The design's own reader prompt for ``ask`` (SEEM: its Prompt 3); None: the
        shared answer prompt."""
        return None

    def refresh(self) -> None:  # an optional hook, a no-op by default
        """This process wrote to the space: whatever the retriever keeps of it (a snapshot
        trusted for ``snapshot_recheck_seconds``) is read again at the next query. A
        retriever that keeps a snapshot must implement it (``Versioned.forget``);
        ``Memory.ingest_dataset`` calls it."""

    def prepare(self) -> None:  # an optional hook, a no-op by default
        """Do now the one-off work the first query would do (SEEM: project the space's graph,
        read its snapshot), so that query latency measures queries."""


class SearchRetriever(Retriever[S]):
    """A retriever whose whole work is one ranked search for ``k`` hits."""

    @abstractmethod
    def search(self, query: str, k: int) -> list[Hit]: ...

    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        hits = self.search(query, k_for_budget(budget))
        return RetrievalResult(query=query, strategy=self.name, hits=hits)
