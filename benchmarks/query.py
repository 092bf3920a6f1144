"""Query latency per strategy beside the same run's floor, and evidence recall.

The floor of one question is what any dense search over the space must spend: embedding the
question plus an exact numpy search over the space's passage vectors (read once into a
matrix). Each strategy's p50/p95/p99 is reported with its ratio to the floor's, both
measured in the same run, so a busy machine inflates both alike.

Each time is one ``Retriever.retrieve`` call on a retriever kept across questions (as
``Memory.query`` keeps them), after its one-off ``prepare()`` (timed apart) and a warm-up
question. Evidence recall is computed from the same calls: ER@10 over the ranked turns and
ER@B over the context packed into the budget (``graphmem eval``'s definitions).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.common import BUDGET, latency_summary, timed_ms
from graphmem.embed.base import Vectors
from graphmem.eval.metrics import evidence_recall_at_k, evidence_recall_in, mean_defined
from graphmem.ingest.models import QAItem
from graphmem.memory import Memory
from graphmem.plugin.design import NoSettings
from graphmem.plugin.retriever import k_for_budget, settle
from graphmem.retrieval.packer import pack
from graphmem.retrieval.passages import DenseRetriever

TOP = 10


def numpy_top_k(matrix: npt.NDArray[np.float32], query: Vectors, k: int) -> npt.NDArray[np.intp]:
    """Exact top-k rows by dot product (unit vectors: cosine), best first."""
    scores = matrix @ query
    top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    ordered: npt.NDArray[np.intp] = top[np.argsort(-scores[top])]
    return ordered


def passage_matrix(memory: Memory, space: str) -> tuple[list[str], npt.NDArray[np.float32]]:
    rows = memory.store.read("retrieval.space_passage_vectors", space=space)
    ids = [row["source_id"] for row in rows]
    return ids, np.asarray([row["embedding"] for row in rows], dtype=np.float32)


def floor_samples(memory: Memory, space: str, questions: Sequence[str]) -> dict[str, list[float]]:
    """Question embedding + numpy top-k per question, the dense search's lower bound."""
    _, matrix = passage_matrix(memory, space)
    k = k_for_budget(BUDGET)
    memory.embedder.embed_query("warm-up question")
    out: dict[str, list[float]] = {"embedding": [], "numpy": [], "floor": []}
    for question in questions:
        vector, e_ms = timed_ms(memory.embedder.embed_query, question)
        _, s_ms = timed_ms(numpy_top_k, matrix, np.asarray(vector, dtype=np.float32), k)
        out["embedding"].append(e_ms)
        out["numpy"].append(s_ms)
        out["floor"].append(e_ms + s_ms)
    return out


def strategy_samples(
    memory: Memory, space: str, strategy: str, questions: Sequence[QAItem], budget: int
) -> dict[str, list[float | None]]:
    retriever = memory.retriever(strategy, space)
    _, prepare_ms = timed_ms(retriever.prepare)
    settle(memory.settings)  # as Memory.query does after a retriever's first query
    retriever.retrieve("warm-up question about nothing", budget)
    out: dict[str, list[float | None]] = {
        "prepare_ms": [prepare_ms],
        "ms": [],
        "er_at_10": [],
        "er_at_budget": [],
    }
    for q in questions:
        result, ms = timed_ms(retriever.retrieve, q.question, budget)
        out["ms"].append(ms)
        gold = set(q.evidence)
        out["er_at_10"].append(evidence_recall_at_k(result.ranked_source_ids(), gold, TOP))
        packed = pack(result.hits, budget, memory.embedder.count_tokens)
        out["er_at_budget"].append(evidence_recall_in(packed.source_ids, gold))
    return out


def _percent(values: Sequence[float | None]) -> float | None:
    mean, _ = mean_defined(values)
    return None if mean is None else round(100 * mean, 1)


def strategies(
    memory: Memory,
    spaces: Mapping[str, Sequence[QAItem]],
    names: Sequence[str],
    budget: int = BUDGET,
) -> dict[str, Any]:
    """Every strategy over every space (each with its own questions), samples pooled over
    the spaces; each strategy's percentiles beside the floor of the same questions."""
    pooled: dict[str, list[float]] = {"embedding": [], "numpy": [], "floor": []}
    for space, qs in spaces.items():
        for part, values in floor_samples(memory, space, [q.question for q in qs]).items():
            pooled[part].extend(values)
    floor = {part: latency_summary(values) for part, values in pooled.items()}
    out: dict[str, Any] = {"floor": floor}
    for name in names:
        samples: dict[str, list[float | None]] = {}
        for space, qs in spaces.items():
            for key, found in strategy_samples(memory, space, name, qs, budget).items():
                samples.setdefault(key, []).extend(found)
        times = [float(x) for x in samples["ms"] if x is not None]
        summary = latency_summary(times)
        prepare = [float(x) for x in samples["prepare_ms"] if x is not None]
        out[name] = {
            **summary,
            "questions": len(times),
            "prepare_ms_max": round(max(prepare), 1),
            "p50_over_floor": round(summary["p50"] / floor["floor"]["p50"], 1),
            "p95_over_floor": round(summary["p95"] / floor["floor"]["p95"], 1),
            "p99_over_p95": round(summary["p99"] / summary["p95"], 2),
            "er_at_10": _percent(samples["er_at_10"]),
            "er_at_budget": _percent(samples["er_at_budget"]),
        }
    return out


def dense_parts(memory: Memory, space: str, questions: Sequence[str]) -> dict[str, Any]:
    """Where a dense query's time goes: embedding, the Cypher statement the retriever uses
    (vector index with over-fetch, or the exact scan of the space), and numpy over the
    same vectors; overlap@10 of the statement's top ids with numpy's exact top."""
    ids, matrix = passage_matrix(memory, space)
    k = k_for_budget(BUDGET)
    dense = DenseRetriever(memory.retrieval_context(space), NoSettings())
    dense.retrieve("warm-up question about nothing", BUDGET)
    counts = dense._totals.get("Passage")  # the over-fetch the retriever itself computes
    exact = counts.in_space <= counts.fetch(k)
    times: dict[str, list[float]] = {"embedding": [], "statement": [], "numpy": []}
    overlap = []
    for question in questions:
        vector, ms = timed_ms(memory.embedder.embed_query, question)
        times["embedding"].append(ms)
        params: dict[str, Any] = {"space": space, "embedding": vector, "k": k}
        name = "retrieval.dense_passages_exact"
        if not exact:
            name, params["fetch"] = "retrieval.dense_passages", counts.fetch(k)
        rows, ms = timed_ms(memory.store.read, name, **params)
        times["statement"].append(ms)
        top, ms = timed_ms(numpy_top_k, matrix, np.asarray(vector, dtype=np.float32), k)
        times["numpy"].append(ms)
        want = {ids[int(i)] for i in top[:TOP]}
        overlap.append(len(want & {r["passage"]["source_id"] for r in rows[:TOP]}) / TOP)
    return {
        "path": "exact scan of the space" if exact else "vector index",
        "passages_in_space": counts.in_space,
        "passages_total": counts.total,
        "index_fetch": None if exact else counts.fetch(k),
        "k": k,
        **{part: latency_summary(values) for part, values in times.items()},
        f"overlap_at_{TOP}": round(statistics.fmean(overlap), 4),
    }
