"""graphmem benchmarks on the LoCoMo dev conversations (see benchmarks/README.md).

    python -m benchmarks.run [--quick] [--out DIR] [--data FILE]

(a) ingest throughput (core layer only) into a fresh space, then the idempotent re-ingest;
(b) retrieval latency per strategy over LoCoMo questions;
(c) dense retrieval against a brute-force numpy search over the same passage vectors.
The benchmark space is deleted at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from graphmem.config import Settings
from graphmem.embed import Embedder, build_embedder
from graphmem.embed.base import Vectors
from graphmem.eval.metrics import CATEGORY_NAMES, percentiles
from graphmem.ingest.formats import load
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.retrieval.base import RetrievalContext, k_for_budget
from graphmem.retrieval.passages import DenseRetriever
from graphmem.retrieval.registry import build_retriever

DEFAULT_DATA = Path("/work/shared/data/locomo/locomo10-dev.json")
BUDGET = 1000
TOP = 10
T = TypeVar("T")


class TimedEmbedder(Embedder):
    """Delegates to an embedder and adds up the wall time spent in ``embed``."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.seconds = 0.0

    def embed(self, texts: Sequence[str]) -> Vectors:
        started = time.perf_counter()
        try:
            return self.inner.embed(texts)
        finally:
            self.seconds += time.perf_counter() - started

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        return self.inner.count_tokens_many(texts)


def latency_summary(values_ms: Sequence[float]) -> dict[str, float]:
    summary = {**percentiles(values_ms), "mean": statistics.fmean(values_ms)}
    return {key: round(value, 3) for key, value in summary.items()}


def timed_ms(fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    started = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, (time.perf_counter() - started) * 1000


def pick_questions(dataset: Dataset, n: int) -> list[str]:
    """``n`` questions of categories 1-4 spread evenly over the conversations."""
    questions = [
        q.question
        for conv in dataset.conversations
        for q in dataset.qa.get(conv.conversation_id, [])
        if q.category in CATEGORY_NAMES
    ]
    step = max(1, len(questions) // n)
    return questions[::step][:n]


def bench_ingest(
    memory: Memory, embedder: TimedEmbedder, dataset: Dataset, space: str
) -> dict[str, Any]:
    turns = dataset.turn_count()
    embedder.seconds = 0.0
    (report, _), ms = timed_ms(memory.ingest_dataset, dataset, space, ())
    embed_s = embedder.seconds
    (again, _), again_ms = timed_ms(memory.ingest_dataset, dataset, space, ())
    return {
        "conversations": len(dataset.conversations),
        "turns": turns,
        "passages_written": report.passages_written,
        "seconds": round(ms / 1000, 2),
        "turns_per_s": round(turns / (ms / 1000), 1),
        "embedding_seconds": round(embed_s, 2),
        "embedding_share": round(embed_s / (ms / 1000), 3),
        "reingest_seconds": round(again_ms / 1000, 2),
        "reingest_turns_per_s": round(turns / (again_ms / 1000), 1),
        "reingest_sessions_skipped": again.sessions_skipped,
        "reingest_passages_written": again.passages_written,
    }


def bench_strategies(
    ctx: RetrievalContext, strategies: Sequence[str], questions: Sequence[str]
) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name in strategies:
        retriever = build_retriever(name, ctx)
        retriever.retrieve("warm-up question about nothing", BUDGET)  # plans, caches
        times = [timed_ms(retriever.retrieve, q, BUDGET)[1] for q in questions]
        out[name] = latency_summary(times)
    return out


def numpy_top_k(matrix: npt.NDArray[np.float32], query: Vectors, k: int) -> npt.NDArray[np.intp]:
    """Exact top-k rows by dot product (unit vectors: cosine), best first."""
    scores = matrix @ query
    top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    ordered: npt.NDArray[np.intp] = top[np.argsort(-scores[top])]
    return ordered


PARTS = ("dense_full", "query_embedding", "db_vector_index", "db_exact_scan", "numpy")


def _one_query(
    dense: DenseRetriever,
    question: str,
    query: Vectors,
    matrix: npt.NDArray[np.float32],
    ids: Sequence[str],
    fetch: int,
) -> tuple[dict[str, float], dict[str, list[str]]]:
    """Times of every part for one question, and each search's top ids."""
    ctx, k = dense.ctx, k_for_budget(BUDGET)
    times: dict[str, float] = {}
    _, times["dense_full"] = timed_ms(dense.retrieve, question, BUDGET)
    _, times["query_embedding"] = timed_ms(ctx.embedder.embed_one, question)
    vector = [float(x) for x in query]
    index_rows, times["db_vector_index"] = timed_ms(
        ctx.store.read,
        "retrieval.dense_passages",
        space=ctx.space,
        embedding=vector,
        k=k,
        fetch=fetch,
    )
    exact_rows, times["db_exact_scan"] = timed_ms(
        ctx.store.read, "retrieval.dense_passages_exact", space=ctx.space, embedding=vector, k=k
    )
    top, times["numpy"] = timed_ms(numpy_top_k, matrix, query, k)
    tops = {
        "index": [row["id"] for row in index_rows],
        "exact": [row["id"] for row in exact_rows],
        "numpy": [ids[int(i)] for i in top],
    }
    return times, tops


def bench_dense_vs_numpy(ctx: RetrievalContext, questions: Sequence[str]) -> dict[str, Any]:
    rows = ctx.store.read("retrieval.space_passage_vectors", space=ctx.space)
    ids = [row["id"] for row in rows]
    matrix = np.asarray([row["embedding"] for row in rows], dtype=np.float32)
    queries = ctx.embedder.embed(list(questions))
    k = k_for_budget(BUDGET)
    dense = DenseRetriever(ctx)
    dense.retrieve("warm-up question about nothing", BUDGET)
    planner = dense._planner  # the over-fetch and path choice the retriever itself makes
    fetch = planner.fetch(k)
    times: dict[str, list[float]] = {part: [] for part in PARTS}
    overlap: dict[str, list[float]] = {"index": [], "exact": []}
    for question, query in zip(questions, queries, strict=True):
        one, tops = _one_query(dense, question, query, matrix, ids, fetch)
        for part, ms in one.items():
            times[part].append(ms)
        exact_top = set(tops["numpy"][:TOP])
        for name in overlap:
            overlap[name].append(len(exact_top & set(tops[name][:TOP])) / TOP)
    summaries = {part: latency_summary(values) for part, values in times.items()}
    numpy_p50 = max(summaries["numpy"]["p50"], 1e-6)
    return {
        "passages": len(ids),
        "k": k,
        "index_fetch": fetch,
        "retriever_path": "exact scan" if planner.scan_is_cheaper(k) else "vector index",
        **summaries,
        "p50_ratio_to_numpy": {
            part: round(summaries[part]["p50"] / numpy_p50, 1) for part in PARTS
        },
        f"overlap_at_{TOP}_index_vs_numpy": round(statistics.fmean(overlap["index"]), 4),
        f"overlap_at_{TOP}_exact_vs_numpy": round(statistics.fmean(overlap["exact"]), 4),
    }


# ---------------------------------------------------------------- output


def _row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def render(results: dict[str, Any]) -> str:
    ing, dense = results["ingest"], results["dense_vs_numpy"]
    lines = [
        "# graphmem benchmarks",
        "",
        f"{results['config']['conversations']} conversations, "
        f"{results['config']['questions']} questions, budget {BUDGET} tokens, "
        f"embedder {results['config']['embedder']}, load average (1 min) "
        f"{results['config']['load_avg_1m_before']} before / "
        f"{results['config']['load_avg_1m_after']} after on {results['config']['cpus']} CPUs.",
        "",
        "## Ingest (core layer, no builders)",
        "",
        _row(
            ["turns", "seconds", "turns/s", "embedding share", "re-ingest s", "re-ingest turns/s"]
        ),
        _row(["---"] * 6),
        _row(
            [
                ing["turns"],
                ing["seconds"],
                ing["turns_per_s"],
                f"{100 * ing['embedding_share']:.0f}%",
                ing["reingest_seconds"],
                ing["reingest_turns_per_s"],
            ]
        ),
        "",
        f"## Retrieval latency (ms, budget {BUDGET})",
        "",
        _row(["strategy", "p50", "p95", "p99", "mean"]),
        _row(["---"] * 5),
    ]
    for name, s in results["retrieval"].items():
        lines.append(_row([name, s["p50"], s["p95"], s["p99"], s["mean"]]))
    lines += [
        "",
        f"## Dense vs brute-force numpy ({dense['passages']} passages, k={dense['k']}, "
        f"index fetch {dense['index_fetch']}; the retriever uses the {dense['retriever_path']})",
        "",
        f"overlap@{TOP} with numpy: vector index "
        f"{dense[f'overlap_at_{TOP}_index_vs_numpy']:.3f}, exact scan "
        f"{dense[f'overlap_at_{TOP}_exact_vs_numpy']:.3f}.",
        "",
        _row(["part", "p50", "p95", "p99", "mean", "p50 / numpy"]),
        _row(["---"] * 6),
    ]
    for part in PARTS:
        s = dense[part]
        ratio = f"{dense['p50_ratio_to_numpy'][part]:.1f}x"
        lines.append(_row([part, s["p50"], s["p95"], s["p99"], s["mean"], ratio]))
    return "\n".join(lines) + "\n"


def run(data: Path, quick: bool) -> dict[str, Any]:
    settings = Settings()
    embedder = TimedEmbedder(build_embedder(settings))
    dataset = load(data, "locomo")
    if quick:
        first = dataset.conversations[0]
        dataset = Dataset(
            conversations=[first], qa={first.conversation_id: dataset.qa[first.conversation_id]}
        )
    questions = pick_questions(dataset, 50 if quick else 200)
    space = f"bench-{uuid.uuid4().hex[:10]}"
    load_before = os.getloadavg()[0]
    with Memory(settings, embedder=embedder) as memory:
        try:
            memory.query("warm-up", space, "dense", 100)  # loads the model, checks the schema
            ingest = bench_ingest(memory, embedder, dataset, space)
            ctx = RetrievalContext(memory.store, embedder, settings, space)
            retrieval = bench_strategies(ctx, ["dense", "fulltext", "hybrid"], questions)
            dense = bench_dense_vs_numpy(ctx, questions)
        finally:
            memory.forget(space)
    config = {
        "data": str(data),
        "quick": quick,
        "conversations": len(dataset.conversations),
        "questions": len(questions),
        "budget": BUDGET,
        "embedder": embedder.name,
        "space": space,
        # Other work on the machine skews wall-clock numbers: keep the evidence with them.
        "load_avg_1m_before": round(load_before, 2),
        "load_avg_1m_after": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
    }
    return {"config": config, "ingest": ingest, "retrieval": retrieval, "dense_vs_numpy": dense}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="1 conversation, 50 questions")
    parser.add_argument("--out", type=Path, help="write benchmarks.json and benchmarks.md here")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a LoCoMo file")
    args = parser.parse_args(argv)
    results = run(args.data, args.quick)
    text = render(results)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "benchmarks.json").write_text(json.dumps(results, indent=2) + "\n")
        (args.out / "benchmarks.md").write_text(text)


if __name__ == "__main__":
    main()
