"""Embedding runtimes that keep the pinned model (all-MiniLM-L6-v2): float32 (the default)
against bfloat16 autocast, on the same texts, interleaved round by round; and a question's
embedding on torch against ONNX Runtime (``GRAPHMEM_EMBEDDING_RUNTIME``), alternating.

    python -m benchmarks embedding [--data F] [--out DIR]

"The same vectors" is checked, not assumed: cosine of each bfloat16 vector to its float32
twin, and the overlap of the ten nearest turns of each question under both; for the query
runtimes the largest difference of any coordinate.
"""

from __future__ import annotations

import statistics
from typing import Any

import numpy as np

from benchmarks.common import latency_summary, table, timed_ms
from graphmem.config import Settings
from graphmem.embed.base import MiniLMEmbedder
from graphmem.ingest.models import Dataset
from graphmem.ingest.render import render_turn
from graphmem.ingest.writer import session_date_text

PRECISIONS = ("float32", "bfloat16")
QUERY_RUNTIMES = ("torch", "onnx")


def runtimes(settings: Settings, dataset: Dataset, rounds: int = 3) -> dict[str, Any]:
    conv = dataset.conversations[0]
    texts = [
        render_turn(t.speaker, t.text, date_text=session_date_text(s), caption=t.caption)
        for s in conv.sessions
        for t in s.turns
    ]
    questions = [q.question for q in dataset.qa.get(conv.conversation_id, [])][:100]
    embedders = {
        # torch for questions too: this compares precisions (query_runtimes compares runtimes)
        p: MiniLMEmbedder(
            settings.model_copy(update={"embedding_precision": p, "embedding_runtime": "torch"})
        )
        for p in PRECISIONS
    }
    for e in embedders.values():
        e.embed(["warm-up"] * 8)
    rates: dict[str, list[float]] = {p: [] for p in PRECISIONS}
    one: dict[str, list[float]] = {p: [] for p in PRECISIONS}
    vectors: dict[str, Any] = {}
    for _ in range(rounds):
        for p, e in embedders.items():
            vectors[p], ms = timed_ms(e.embed, texts)
            rates[p].append(len(texts) / (ms / 1000))
            one[p].extend(timed_ms(e.embed_query, q)[1] for q in questions[:30])
    queries = {p: e.embed(questions) for p, e in embedders.items()}
    base, other = vectors["float32"], vectors["bfloat16"]
    cosine = np.sum(base * other, axis=1)
    overlap = [
        len(set(np.argsort(-base @ qa)[:10]) & set(np.argsort(-other @ qb)[:10])) / 10
        for qa, qb in zip(queries["float32"], queries["bfloat16"], strict=True)
    ]
    out: dict[str, Any] = {"texts": len(texts), "rounds": rounds}
    for p in PRECISIONS:
        out[p] = {
            "texts_per_s": round(statistics.median(rates[p]), 1),
            "all_texts_per_s": [round(r, 1) for r in rates[p]],
            "question_ms": latency_summary(one[p]),
        }
    out["bfloat16"]["speed_up"] = round(
        out["bfloat16"]["texts_per_s"] / out["float32"]["texts_per_s"], 2
    )
    out["bfloat16"]["cosine_to_float32"] = {
        "mean": round(float(cosine.mean()), 6),
        "min": round(float(cosine.min()), 6),
    }
    out["bfloat16"]["top10_overlap"] = round(statistics.fmean(overlap), 3)
    return out


def query_runtimes(settings: Settings, dataset: Dataset, rounds: int = 3) -> dict[str, Any]:
    """One question per call, as a query embeds it: torch against ONNX Runtime, the order
    alternating round by round so that both see the same machine."""
    questions = [q.question for qa in dataset.qa.values() for q in qa][:300]
    embedders = {
        r: MiniLMEmbedder(settings.model_copy(update={"embedding_runtime": r}))
        for r in QUERY_RUNTIMES
    }
    for e in embedders.values():
        e.embed(["warm-up"])  # loads the model; ONNX exports or reads its graph here
    spent: dict[str, list[float]] = {r: [] for r in QUERY_RUNTIMES}
    for index in range(rounds):
        order = QUERY_RUNTIMES if index % 2 == 0 else tuple(reversed(QUERY_RUNTIMES))
        for r in order:
            spent[r].extend(timed_ms(embedders[r].embed, [q])[1] for q in questions)
    gap = max(
        float(np.abs(embedders["onnx"].embed([q]) - embedders["torch"].embed([q])).max())
        for q in questions
    )
    out: dict[str, Any] = {"questions": len(questions), "rounds": rounds}
    for r in QUERY_RUNTIMES:
        out[r] = {"ms": latency_summary(spent[r]), "used": embedders[r].runtime}
    for p in ("p50", "p95"):
        out[f"{p}_ratio"] = round(out["onnx"]["ms"][p] / out["torch"]["ms"][p], 2)
    out["max_abs_difference"] = gap
    return out


def render_query_runtimes(e: dict[str, Any]) -> list[str]:
    return [
        f"## Query embedding runtime ({e['questions']} questions, one per call, "
        f"{e['rounds']} rounds; ratio = onnx / torch)",
        "",
        *table(
            ["runtime", "used", "p50 ms", "p95 ms", "p99 ms", "p50 ratio", "p95 ratio"],
            [
                [
                    r,
                    e[r]["used"],
                    e[r]["ms"]["p50"],
                    e[r]["ms"]["p95"],
                    e[r]["ms"]["p99"],
                    e["p50_ratio"] if r == "onnx" else "1",
                    e["p95_ratio"] if r == "onnx" else "1",
                ]
                for r in QUERY_RUNTIMES
            ],
        ),
        "",
        f"Largest coordinate difference between the two runtimes' vectors: "
        f"{e['max_abs_difference']:.1e}.",
    ]


def render_runtimes(e: dict[str, Any]) -> list[str]:
    f, b = e["float32"], e["bfloat16"]
    return [
        f"## Embedding runtime (all-MiniLM-L6-v2, {e['texts']} turns, {e['rounds']} rounds)",
        "",
        *table(
            [
                "precision",
                "texts/s",
                "question p50 ms",
                "cosine to float32 (mean / min)",
                "top-10 overlap",
            ],
            [
                ["float32 (default)", f["texts_per_s"], f["question_ms"]["p50"], "1", "1"],
                [
                    f"bfloat16 ({b['speed_up']}x)",
                    b["texts_per_s"],
                    b["question_ms"]["p50"],
                    f"{b['cosine_to_float32']['mean']} / {b['cosine_to_float32']['min']}",
                    b["top10_overlap"],
                ],
            ],
        ),
    ]
