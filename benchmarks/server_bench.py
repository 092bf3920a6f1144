"""Server figures for the foundation: warm start to Bolt-ready, idle RSS, and Personalized
PageRank latency on a small graph, against a second local server on spare ports (so a
running dev server is left alone).

    python -m benchmarks server-bench [--runs 3] [--ppr-queries 50] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from graphmem.config import Settings
from graphmem.embed import build_embedder
from graphmem.eval.metrics import percentiles
from graphmem.graph.projections import graph_name
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.server import process
from tests.integration.helpers import tiny_conversation


def _bench_settings(home: Path) -> Settings:
    base = Settings()
    return base.model_copy(update={"home": home, "bolt_port": 27687, "http_port": 27474})


def warm_starts(settings: Settings, runs: int) -> list[float]:
    """Seconds from `server start` to Bolt-ready, jars already fetched."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        process.start(settings)
        times.append(time.perf_counter() - began)
        process.stop(settings)
    return times


def idle_rss_mb(settings: Settings, settle_s: float) -> float:
    process.start(settings)
    time.sleep(settle_s)
    pid = process.running_pid(settings)
    rss = process.rss_bytes(pid) if pid else None
    return round(rss / 2**20, 1) if rss else float("nan")


def ppr_latency(settings: Settings, queries: int) -> dict[str, Any]:
    """PageRank with one source node on a projected passage graph (12 sessions x 6 turns)."""
    space = f"bench-{uuid.uuid4().hex[:8]}"
    with GraphStore(settings) as store:
        memory = Memory(settings, store=store, embedder=build_embedder(settings), tune_process=True)
        memory.init()
        conv = tiny_conversation(sessions=12)
        memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders=[])
        name = graph_name(space, "bench")
        projected = store.write("gds.project_passages", space=space, graph=name)[0]["projection"]
        try:
            source = store.read("gds.probe_node", space=space)[0]["node_id"]
            samples = []
            for _ in range(queries):
                began = time.perf_counter()
                store.read("gds.pagerank_from", graph=name, sources=[source], damping=0.5)
                samples.append((time.perf_counter() - began) * 1000)
        finally:
            memory.forget(space, missing_ok=True)
    return {"nodes": projected["nodeCount"], **percentiles(samples), "runs": queries}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--ppr-queries", type=int, default=50)
    parser.add_argument("--settle-s", type=float, default=20.0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="graphmem-bench-") as tmp:
        settings = _bench_settings(Path(tmp))
        starts = warm_starts(settings, args.runs)
        try:
            rss = idle_rss_mb(settings, args.settle_s)
            ppr = ppr_latency(settings, args.ppr_queries)
        finally:
            process.stop(settings)
    result = {
        "warm_start_s": {"median": round(statistics.median(starts), 2), "all": starts},
        "idle_rss_mb": rss,
        "ppr_ms": ppr,
    }
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "server.json").write_text(json.dumps(result, indent=2))
