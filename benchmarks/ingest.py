"""Ingest throughput: passages and each builder, the writer's embedding batch, the UNWIND
batch size, and a session streamed turn by turn through ``add_messages``.

Each comparison runs its variants in the same run, interleaved round by round (A B A B),
each into a fresh space, so that load from other work on the machine falls on both.
"""

from __future__ import annotations

import functools
import statistics
import time
import uuid
from collections.abc import Sequence
from typing import Any

from benchmarks.common import TimedEmbedder
from graphmem.builders.registry import builder_names
from graphmem.graph.store import Tx
from graphmem.ingest.models import Dataset
from graphmem.ingest.writer import content_id
from graphmem.memory import Memory


def _space(tag: str) -> str:
    return f"bench-{tag}-{uuid.uuid4().hex[:8]}"


def builders(
    memory: Memory, embedder: TimedEmbedder, dataset: Dataset, space_of: dict[str, str]
) -> dict[str, Any]:
    """Each conversation into its own space (``space_of``): turns/s of the passages (with
    the embedding share), then of each builder; then the same input again (every session
    found stored and built). The spaces are kept for the query benchmark."""
    turns = dataset.turn_count()
    # Load the model and check the schema first (an empty ingest), so that neither is
    # counted as the first conversation's embedding time.
    memory.ingest_dataset(
        Dataset(conversations=[], qa={}), next(iter(space_of.values())), builders=[]
    )
    passages_s = embedding_s = reingest_s = 0.0
    per_builder: dict[str, float] = {}
    skipped = 0
    for conv in dataset.conversations:
        one = Dataset(conversations=[conv], qa={})
        space = space_of[conv.conversation_id]
        # Passages first, alone, so that the embedding share is the writer's (builders embed
        # entity names, facts...); the builders then build every session as pending.
        embedder.seconds = 0.0
        report = memory.ingest_dataset(one, space, builders=[]).report
        embedding_s += embedder.seconds
        passages_s += report.seconds
        reports = memory.ingest_dataset(one, space, builder_names()).builds
        for r in reports:
            per_builder[r.builder] = per_builder.get(r.builder, 0.0) + r.seconds
        started = time.perf_counter()
        again = memory.ingest_dataset(one, space, builder_names()).report
        reingest_s += time.perf_counter() - started
        skipped += again.sessions_skipped
    total_s = passages_s + sum(per_builder.values())
    return {
        "conversations": len(dataset.conversations),
        "turns": turns,
        "passages": {
            "seconds": round(passages_s, 2),
            "turns_per_s": round(turns / passages_s, 1),
            "embedding_share": round(embedding_s / passages_s, 3),
        },
        "builders": {
            name: {
                "seconds": round(seconds, 2),
                "turns_per_s": round(turns / seconds, 1) if seconds else None,
                "ms_per_turn": round(1000 * seconds / turns, 2),
            }
            for name, seconds in per_builder.items()
        },
        "all_builders_turns_per_s": round(turns / total_s, 1),
        "all_seconds": round(total_s, 1),
        "reingest_seconds": round(reingest_s, 2),
        "reingest_sessions_skipped": skipped,
    }


def writer_batches(
    memory: Memory,
    embedder: TimedEmbedder,
    dataset: Dataset,
    batches: Sequence[int] = (1, 256),
    rounds: int = 2,
) -> dict[str, Any]:
    """Passages only, with ``ingest_batch_turns`` 1 (each session embedded alone, as before
    the cross-session batch) and larger: seconds, embedding seconds and the rest (Cypher,
    transactions, tokenising)."""
    samples: dict[int, list[tuple[float, float]]] = {b: [] for b in batches}
    for _ in range(rounds):
        for batch in batches:
            settings = memory.settings.model_copy(update={"ingest_batch_turns": batch})
            variant = Memory(settings, store=memory.store, embedder=embedder, tune_process=True)
            space = _space(f"batch{batch}")
            try:
                embedder.seconds = 0.0
                report = variant.ingest_dataset(dataset, space, builders=[]).report
                samples[batch].append((report.seconds, embedder.seconds))
            finally:
                memory.forget(space, missing_ok=True)
    turns = dataset.turn_count()
    out: dict[str, Any] = {"turns": turns, "rounds": rounds}
    for batch, runs in samples.items():
        total = statistics.median(s for s, _ in runs)
        embed = statistics.median(e for _, e in runs)
        out[str(batch)] = {
            "seconds": round(total, 2),
            "turns_per_s": round(turns / total, 1),
            "embedding_seconds": round(embed, 2),
            "other_seconds": round(total - embed, 2),
            "all_seconds": [round(s, 2) for s, _ in runs],
        }
    base = out[str(batches[0])]["seconds"]
    for batch in batches:
        out[str(batch)]["speed_up"] = round(base / out[str(batch)]["seconds"], 2)
    return out


def unwind_sizes(
    memory: Memory, dataset: Dataset, sizes: Sequence[int] = (8, 32, 128, 512), rounds: int = 2
) -> dict[str, Any]:
    """``core.upsert_passages`` alone (vectors precomputed): the same 512 passages written
    with ``size`` rows per statement and transaction, into one fresh session each time."""
    conv = dataset.conversations[0]
    turns = [t for s in conv.sessions for t in s.turns][:512]
    vectors = memory.embedder.embed([t.text for t in turns])
    rows = [
        {
            "id": content_id("unwind", i),
            "source_id": t.source_id,
            "speaker": t.speaker,
            "speaker_id": content_id("speaker", t.speaker),
            "text": t.text,
            "caption": t.caption,
            "ts": t.timestamp,
            "turn_index": i,
            "tokens": 0,
            "embedding": [float(x) for x in v],
        }
        for i, (t, v) in enumerate(zip(turns, vectors, strict=True))
    ]
    samples: dict[int, list[float]] = {size: [] for size in sizes}
    for _ in range(rounds):
        for size in sizes:
            space = _space(f"unwind{size}")
            try:
                samples[size].append(_write_rows(memory, space, rows, size))
            finally:
                memory.forget(space, missing_ok=True)
    return {
        "passages": len(rows),
        **{
            str(size): {"ms_per_passage": round(statistics.median(v), 3), "all": v}
            for size, v in samples.items()
        },
    }


def _write_rows(memory: Memory, space: str, rows: list[dict[str, Any]], size: int) -> float:
    store = memory.store
    store.write(
        "core.upsert_conversation",
        space=space,
        conversation_id="c",
        source_id="c",
        speakers=[],
        title=None,
    )
    store.write(
        "core.upsert_session",
        space=space,
        conversation_id="c",
        session_id="s",
        index=0,
        source_id="s",
        started_at=None,
        date_text=None,
        content_hash="",
        passages=len(rows),
    )
    started = time.perf_counter()
    for i in range(0, len(rows), size):
        store.retrying(functools.partial(_upsert, space, rows[i : i + size]))
    return round(1000 * (time.perf_counter() - started) / len(rows), 3)


def _upsert(space: str, rows: list[dict[str, Any]], tx: Tx) -> None:
    tx.run("core.upsert_passages", space=space, session_id="s", rows=rows)


def streamed_session(memory: Memory, embedder: TimedEmbedder, dataset: Dataset) -> dict[str, Any]:
    """The longest session of the first conversation sent through ``add_messages`` one turn
    at a time, each call with every turn so far (as a live agent would): texts embedded
    against the turns, which re-embedding every resent turn would make n(n+1)/2."""
    session = max(dataset.conversations[0].sessions, key=lambda s: len(s.turns))
    messages = [
        {"speaker": t.speaker, "text": t.text, "id": t.source_id, "caption": t.caption}
        for t in session.turns
    ]
    space = _space("stream")
    embedder.texts, embedder.seconds = 0, 0.0
    started = time.perf_counter()
    try:
        for n in range(1, len(messages) + 1):
            memory.add_messages(space, "stream", session.source_id, messages[:n], builders=[])
    finally:
        seconds = time.perf_counter() - started
        memory.forget(space, missing_ok=True)
    n = len(messages)
    return {
        "turns": n,
        "calls": n,
        "texts_embedded": embedder.texts,
        "texts_without_reuse": n * (n + 1) // 2,
        "seconds": round(seconds, 2),
        "embedding_seconds": round(embedder.seconds, 2),
    }
