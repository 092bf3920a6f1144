"""What every benchmark shares: timing, latency summaries, question picking, the machine's
state next to the numbers, Markdown tables and the memory figures (client RSS, Neo4j heap,
GDS projections)."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.embed.base import Kind, Vectors
from graphmem.eval.code_identity import code_identity
from graphmem.eval.metrics import CATEGORY_NAMES, percentiles
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset, QAItem
from graphmem.plugin.retriever import Retriever, settle

DEFAULT_DATA = Path("/work/shared/data/locomo/locomo10-dev.json")
BUDGET = 1000
T = TypeVar("T")


class TimedEmbedder(Embedder):
    """Delegates to an embedder and adds up the wall time spent in ``embed``."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.seconds = 0.0
        self.texts = 0

    def embed(self, texts: Sequence[str], kind: Kind = "passage") -> Vectors:
        started = time.perf_counter()
        try:
            return self.inner.embed(texts, kind)
        finally:
            self.seconds += time.perf_counter() - started
            self.texts += len(texts)

    def identity(self) -> str:
        return self.inner.identity()

    def side(self, kind: Kind) -> str:
        return self.inner.side(kind)

    def heads(self, texts: Sequence[str], kind: Kind = "passage") -> list[str]:
        return self.inner.heads(texts, kind)

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        return self.inner.count_tokens_many(texts)


def latency_summary(values_ms: Sequence[float]) -> dict[str, float]:
    summary = {**percentiles(values_ms), "mean": statistics.fmean(values_ms)}
    return {key: round(value, 2) for key, value in summary.items()}


def timed_ms(fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    started = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, (time.perf_counter() - started) * 1000


def first(dataset: Dataset, n: int) -> Dataset:
    """The first ``n`` conversations with their questions. Past the end of the file the
    conversations are replayed under new ids (``conv-26~2``: new passages, same text), so a
    space can hold 10 conversations of a 7-conversation file."""
    have = dataset.conversations
    convs, qa = [], {}
    for i in range(min(n, len(have) * 1000)):
        source = have[i % len(have)]
        lap = i // len(have)
        cid = source.conversation_id if lap == 0 else f"{source.conversation_id}~{lap + 1}"
        convs.append(source if lap == 0 else source.model_copy(update={"conversation_id": cid}))
        qa[cid] = dataset.qa.get(source.conversation_id, [])
    return Dataset(conversations=convs, qa=qa)


def questions_of(dataset: Dataset, n: int) -> list[QAItem]:
    """``n`` questions of categories 1-4 spread evenly over the conversations (all when
    ``n`` is 0)."""
    found = [
        q
        for conv in dataset.conversations
        for q in dataset.qa.get(conv.conversation_id, [])
        if q.category in CATEGORY_NAMES
    ]
    if n <= 0 or n >= len(found):
        return found
    step = len(found) / n
    return [found[int(i * step)] for i in range(n)]


def machine() -> dict[str, Any]:
    """What skews wall-clock numbers: other work on the cores. Kept with every result."""
    # The commit of the graphmem that was imported, not of the working directory's checkout.
    code = code_identity()
    return {
        "cpus": os.cpu_count(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "commit": code["commit"] or "",
        "code_path": code["path"],
    }


def client_rss_mb() -> dict[str, float]:
    """This process's resident memory now and at its peak (Linux ``/proc``)."""
    out: dict[str, float] = {}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out["rss_mb" if key == "VmRSS" else "peak_rss_mb"] = round(
                    int(value.split()[0]) / 1024, 1
                )
    except OSError:
        pass
    return out


def neo4j_heap_mb(store: GraphStore) -> dict[str, float]:
    """The server's heap: used and max now, and the old generation after the last
    collection (the part that stays: projections, caches)."""
    row = store.read("bench.neo4j_heap")[0]
    mb = 2**20
    out = {"used_mb": round(row["used"] / mb), "max_mb": round(row["max"] / mb)}
    if row["old_after_gc"] is not None:
        out["old_gen_after_gc_mb"] = round(row["old_after_gc"] / mb)
    return out


def gds_graphs(store: GraphStore, prefix: str = "graphmem-") -> list[dict[str, Any]]:
    """The in-memory graphs (projections) whose name starts with ``prefix``."""
    return store.read("bench.gds_graphs", prefix=prefix)


def row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    return [row(header), row(["---"] * len(header)), *(row(r) for r in rows)]


def fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


WARM_UP = 5  # questions asked before timing a prepared retriever


def require_built(store: GraphStore, space: str) -> None:
    """Stop when ``space`` holds no session: the benchmarks over built spaces never ingest."""
    if not store.read("core.space_built", space=space)[0]["sessions"]:
        raise SystemExit(f"space {space} is empty: build it first (this never ingests)")


def warm_up(
    retriever: Retriever, questions: Sequence[str], budget: int, settings: Settings
) -> None:
    """A few questions, then ``settle``, as the eval harness does: what the first queries
    loaded lazily (spaCy's pipeline, the date parsers) joins the frozen state, out of full
    GC passes."""
    for question in questions[:WARM_UP]:
        retriever.retrieve(question, budget)
    settle(settings)
