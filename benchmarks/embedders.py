"""Every embedder graphmem ships, side by side in one run: a batch of turns embedded as
passages (texts/s; what an ingest pays) and one question per call (ms; what a query pays),
the embedders taking turns round by round so that each sees the same machine.

    python -m benchmarks embedders [--data F] [--out DIR] [--turns 300] [--rounds 2]
"""

from __future__ import annotations

import statistics
from typing import Any

from benchmarks.common import latency_summary, table, timed_ms
from graphmem.config import Settings
from graphmem.embed import Embedder, build_embedder
from graphmem.ingest.models import Dataset
from graphmem.ingest.render import render_turn
from graphmem.ingest.writer import session_date_text

EMBEDDERS = (
    ("minilm", "float32"),
    ("minilm", "int8"),
    ("e5-small-v2", "int8"),
    ("e5-small-v2", "float32"),
    ("bge-small-en-v1.5", "int8"),
    ("bge-small-en-v1.5", "float32"),
)


def run_embedders(
    settings: Settings, dataset: Dataset, turns: int = 300, rounds: int = 2
) -> dict[str, Any]:
    texts = [
        render_turn(t.speaker, t.text, date_text=session_date_text(s), caption=t.caption)
        for conv in dataset.conversations
        for s in conv.sessions
        for t in s.turns
    ][:turns]
    questions = [q.question for qa in dataset.qa.values() for q in qa][:50]
    embedders: dict[str, Embedder] = {}
    for name, precision in EMBEDDERS:
        update = {"embedder": name, "embedding_precision": precision}
        embedders[f"{name}/{precision}"] = build_embedder(settings.model_copy(update=update))
    for e in embedders.values():
        e.embed(["warm-up"] * 8)  # loads (and first fetches) the model
    rates: dict[str, list[float]] = {k: [] for k in embedders}
    one: dict[str, list[float]] = {k: [] for k in embedders}
    for index in range(rounds):
        order = list(embedders) if index % 2 == 0 else list(reversed(embedders))
        for key in order:
            e = embedders[key]
            _, ms = timed_ms(e.embed, texts, "passage")
            rates[key].append(len(texts) / (ms / 1000))
            one[key].extend(timed_ms(e.embed, [q], "query")[1] for q in questions)
    out: dict[str, Any] = {"texts": len(texts), "questions": len(questions), "rounds": rounds}
    for key, e in embedders.items():
        out[key] = {
            "name": e.name,
            "texts_per_s": round(statistics.median(rates[key]), 1),
            "all_texts_per_s": [round(r, 1) for r in rates[key]],
            "question_ms": latency_summary(one[key]),
        }
    return out


def render_embedders(e: dict[str, Any]) -> str:
    keys = [f"{n}/{p}" for n, p in EMBEDDERS]
    return "\n".join(
        [
            f"## Embedders ({e['texts']} turns as one batch, {e['questions']} questions one "
            f"per call, {e['rounds']} rounds, interleaved)",
            "",
            *table(
                ["embedder", "pinned as", "texts/s", "question p50 ms", "question p95 ms"],
                [
                    [
                        k,
                        e[k]["name"],
                        e[k]["texts_per_s"],
                        e[k]["question_ms"]["p50"],
                        e[k]["question_ms"]["p95"],
                    ]
                    for k in keys
                ],
            ),
        ]
    )
