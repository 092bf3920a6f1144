"""Where an ingest's builder time goes: the first sessions of one LoCoMo conversation built
into a fresh space (passages first, then the builders, timed apart), with the time spent
embedding, the texts embedded, and the database statements by total time.

    python -m benchmarks profile-builders [--sessions 3] [--builders all] [--top 10]

Run it on a database that also holds other spaces to see what a crowded database costs.
"""

from __future__ import annotations

import argparse
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.common import DEFAULT_DATA, TimedEmbedder, machine, table
from graphmem.builders.registry import builder_names
from graphmem.config import Settings
from graphmem.embed import build_embedder
from graphmem.graph.store import GraphStore
from graphmem.ingest.formats import load
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory


@contextmanager
def timed_statements(store: GraphStore) -> Iterator[dict[str, list[float]]]:
    """Count and time every catalog statement ``store`` runs inside the block."""
    spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    execute = store._execute

    def timed(name: str, params: dict[str, Any], routing: str) -> list[dict[str, Any]]:
        started = time.perf_counter()
        try:
            return execute(name, params, routing)
        finally:
            spent[name][0] += 1
            spent[name][1] += time.perf_counter() - started

    store._execute = timed  # type: ignore[method-assign]
    try:
        yield spent
    finally:
        store._execute = execute  # type: ignore[method-assign]


def run(data: Path, sessions: int, builders: list[str], top: int) -> str:
    settings = Settings()
    embedder = TimedEmbedder(build_embedder(settings))
    conv = load(data, "locomo").conversations[0]
    conv = conv.model_copy(update={"sessions": conv.sessions[:sessions]})
    dataset = Dataset(conversations=[conv], qa={})
    turns = sum(len(s.turns) for s in conv.sessions)
    space = f"bench-{uuid.uuid4().hex[:8]}"
    with (
        GraphStore(settings) as store,
        Memory(settings, store=store, embedder=embedder, tune_process=True) as mem,
    ):
        try:
            mem.ingest_dataset(dataset, space, [])
            embedder.seconds, embedder.texts = 0.0, 0
            started = time.perf_counter()
            with timed_statements(store) as spent:
                mem.ingest_dataset(dataset, space, builders)
            wall = time.perf_counter() - started
        finally:
            mem.forget(space, missing_ok=True)
    database = sum(s for _, s in spent.values())
    lines = [
        f"{conv.conversation_id}, first {sessions} sessions, {turns} turns, builders "
        f"{', '.join(builders)}; load average {machine()['load_avg_1m']}",
        "",
        *table(
            ["part", "seconds", "share"],
            [
                ["builders, wall", f"{wall:.2f}", "100 %"],
                [
                    f"embedding ({embedder.texts} texts)",
                    f"{embedder.seconds:.2f}",
                    f"{100 * embedder.seconds / wall:.0f} %",
                ],
                ["database statements", f"{database:.2f}", f"{100 * database / wall:.0f} %"],
                ["turns per second", f"{turns / wall:.1f}", ""],
            ],
        ),
        "",
        *table(
            ["statement", "calls", "seconds"],
            [
                [name, int(n), f"{s:.2f}"]
                for name, (n, s) in sorted(spent.items(), key=lambda kv: -kv[1][1])[:top]
            ],
        ),
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--builders", default="all")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    names = builder_names() if args.builders == "all" else args.builders.split(",")
    print(run(args.data, args.sessions, names, args.top))
