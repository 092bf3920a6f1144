"""``python -m benchmarks growth``: how ingest and query cost grow with the length of what
one space holds: the first 1, 2, 5... LoCoMo conversations ingested together into one
fresh space each time (passages, then the chosen builders), then queried with questions
spread over those conversations, beside the same run's floor. Each space is deleted after
its step."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks import query
from benchmarks.common import BUDGET, TimedEmbedder, first, machine, questions_of, table
from graphmem.config import Settings
from graphmem.embed import build_embedder
from graphmem.graph.readiness import required_builders
from graphmem.ingest.formats import load
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.plugin.registry import strategy_names

BASELINES = ("fulltext", "dense", "hybrid")


def _strategies(builders: Sequence[str]) -> list[str]:
    """The baselines and every strategy whose layers ``builders`` build."""
    return [
        s
        for s in strategy_names()
        if s in BASELINES or (required_builders(s) and set(required_builders(s)) <= set(builders))
    ]


def run_growth(
    data: Path, sizes: Sequence[int], builders: Sequence[str], questions: int
) -> dict[str, Any]:
    settings = Settings()
    embedder = TimedEmbedder(build_embedder(settings))
    dataset = load(data, "locomo")
    names = _strategies(builders)
    out: dict[str, Any] = {
        "builders": list(builders),
        "strategies": names,
        "machine_before": machine(),
        "steps": [],
    }
    with Memory(settings, embedder=embedder, tune_process=True) as memory:
        # The model loads here, not inside the first step's embedding time.
        memory.ingest_dataset(Dataset(conversations=[], qa={}), "bench-growth-warm-up", builders=[])
        for n in sizes:
            part = first(dataset, n)
            space = f"bench-growth{n}-{uuid.uuid4().hex[:8]}"
            try:
                embedder.seconds = 0.0
                report = memory.ingest_dataset(part, space, builders=[]).report
                embedding_s = embedder.seconds
                builds = memory.ingest_dataset(part, space, builders).builds
                qs = questions_of(part, questions)
                step = {
                    "conversations": n,
                    "turns": part.turn_count(),
                    "passages_seconds": round(report.seconds, 2),
                    "embedding_seconds": round(embedding_s, 2),
                    "builders_seconds": {b.builder: round(b.seconds, 2) for b in builds},
                    "query": query.strategies(memory, {space: qs}, names),
                    "load_avg_1m": machine()["load_avg_1m"],
                }
            finally:
                memory.forget(space, missing_ok=True)
            out["steps"].append(step)
    out["machine_after"] = machine()
    return out


def render_growth(r: dict[str, Any]) -> str:
    steps, names = r["steps"], r["strategies"]
    builders = ", ".join(r["builders"]) or "none"
    lines = [
        "# Growth: one space holding 1, 2, 5... conversations",
        "",
        f"Builders: {builders}. Budget {BUDGET}; latency in ms, p50 / p95 (p95 over the "
        "same step's floor p95); ms/turn of each builder.",
        "",
    ]
    rows = []
    for s in steps:
        turns = s["turns"]
        build = "; ".join(
            f"{b} {1000 * sec / turns:.0f}" for b, sec in s["builders_seconds"].items()
        )
        cells: list[object] = [
            s["conversations"],
            turns,
            s["passages_seconds"],
            round(turns / s["passages_seconds"], 1),
            build or "-",
            s["query"]["floor"]["floor"]["p95"],
            s["load_avg_1m"],
        ]
        for n in names:
            q = s["query"][n]
            prep = f", prepare {q['prepare_ms_max']:.0f}" if q["prepare_ms_max"] >= 1 else ""
            cells.append(f"{q['p50']} / {q['p95']} ({q['p95_over_floor']}x{prep})")
        rows.append(cells)
    header = [
        "conversations",
        "turns",
        "passages s",
        "turns/s",
        "builders ms/turn",
        "floor p95",
        "load",
        *names,
    ]
    lines += table(header, rows)
    return "\n".join(lines) + "\n"
