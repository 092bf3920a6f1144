"""Incremental equals batch, on real conversations (SEEM's Table: 78.0 vs 77.6 J).

    python -m benchmarks seem-incremental [--conversations 1] [--chunks 4] [--budget 1000]
                                          [--data FILE] [--out DIR]

The first ``--conversations`` conversations of a LoCoMo file go into two fresh spaces with
the ``seem`` builder: once whole, once in ``--chunks`` chronological chunks of sessions (each
chunk one ``ingest_dataset`` call, so consolidation meets the frames of earlier chunks only
through the graph). Both spaces are evaluated with ``seem`` and ``hipporag`` by the same
harness as ``graphmem eval locomo``; the report gives both and their difference, and the
shape of both graphs (entities, facts, frames). Both spaces are deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphmem.config import Settings
from graphmem.eval.harness import run_locomo
from graphmem.ingest.formats import load
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.memory import Memory
from graphmem.stats import space_stats

DEFAULT_DATA = Path("/work/shared/data/locomo/locomo10-dev.json")
STRATEGIES = ("seem", "hipporag")
METRICS = ("evidence_recall_at_budget", "answer_token_recall_at_budget", "evidence_recall_at_10")
SHAPE = ("entities", "facts", "temporal_anchors", "synonym_edges", "frames", "events")


def chunks_of(conversation: ConversationIn, chunks: int) -> list[ConversationIn]:
    """The sessions in ``chunks`` chronological runs of (nearly) equal length."""
    sessions = conversation.sessions
    step = -(-len(sessions) // max(1, chunks))
    return [
        conversation.model_copy(update={"sessions": sessions[i : i + step]})
        for i in range(0, len(sessions), step)
    ]


def _shape(memory: Memory, spaces: Sequence[str]) -> dict[str, int]:
    total: dict[str, int] = dict.fromkeys(SHAPE, 0)
    for space in spaces:
        seem = space_stats(memory.store, space).get("seem", {})
        for key in SHAPE:
            total[key] += int(seem.get(key, 0) or 0)
    return total


def _overall(results: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    return {
        r["strategy"]: {m: round(100 * float(r["overall"][m]), 1) for m in METRICS} for r in results
    }


def run(data: Path, conversations: int, chunks: int, budget: int) -> dict[str, Any]:
    dataset = load(data, "locomo")
    chosen = dataset.conversations[:conversations]
    tag = uuid.uuid4().hex[:8]
    batch, chunked = f"incr-batch-{tag}", f"incr-chunked-{tag}"
    spaces = [f"{prefix}-{c.conversation_id}" for prefix in (batch, chunked) for c in chosen]
    with Memory(Settings(), tune_process=True) as memory:
        try:
            started = time.perf_counter()
            for conv in chosen:  # the chunked space first: the harness then finds it stored
                for part in chunks_of(conv, chunks):
                    one = Dataset(conversations=[part], qa={})
                    memory.ingest_dataset(one, f"{chunked}-{conv.conversation_id}", ["seem"])
            chunked_s = time.perf_counter() - started
            kwargs: dict[str, Any] = {"limit_conversations": conversations, "progress": False}
            started = time.perf_counter()
            whole = run_locomo(memory, data, STRATEGIES, [budget], space_prefix=batch, **kwargs)
            batch_s = time.perf_counter() - started
            parts = run_locomo(memory, data, STRATEGIES, [budget], space_prefix=chunked, **kwargs)
            shape = {
                "batch": _shape(memory, spaces[: len(chosen)]),
                "chunked": _shape(memory, spaces[len(chosen) :]),
            }
        finally:
            for space in spaces:
                memory.forget(space)
    scores = {"batch": _overall(whole), "chunked": _overall(parts)}
    return {
        "config": {
            "data": str(data),
            "conversations": [c.conversation_id for c in chosen],
            "chunks": chunks,
            "budget": budget,
            "questions": whole[0]["meta"]["n_questions"],
        },
        "scores": scores,
        "difference": {
            s: {m: round(scores["chunked"][s][m] - scores["batch"][s][m], 1) for m in METRICS}
            for s in STRATEGIES
        },
        "shape": shape,
        "seconds": {"chunked_ingest_build": round(chunked_s, 1), "batch_run": round(batch_s, 1)},
    }


def render(results: dict[str, Any]) -> str:
    config = results["config"]
    lines = [
        f"# Incremental ({config['chunks']} chunks) vs batch ingest",
        "",
        f"{', '.join(config['conversations'])}; {config['questions']} questions; "
        f"budget {config['budget']} tokens. Percent.",
        "",
        "| strategy | ingest | " + " | ".join(METRICS) + " |",
        "|---|---|" + "---|" * len(METRICS),
    ]
    for strategy in STRATEGIES:
        for mode in ("batch", "chunked"):
            row = results["scores"][mode][strategy]
            lines.append(
                f"| {strategy} | {mode} | " + " | ".join(str(row[m]) for m in METRICS) + " |"
            )
        diff = results["difference"][strategy]
        lines.append(
            f"| {strategy} | difference | " + " | ".join(str(diff[m]) for m in METRICS) + " |"
        )
    lines += ["", "| graph | " + " | ".join(SHAPE) + " |", "|---|" + "---|" * len(SHAPE)]
    for mode in ("batch", "chunked"):
        shape = results["shape"][mode]
        lines.append(f"| {mode} | " + " | ".join(str(shape[k]) for k in SHAPE) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks seem-incremental", description=__doc__
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a LoCoMo file")
    parser.add_argument("--conversations", type=int, default=1, help="the first N conversations")
    parser.add_argument("--chunks", type=int, default=4, help="chronological chunks of sessions")
    parser.add_argument("--budget", type=int, default=1000, help="context budget in tokens")
    parser.add_argument("--out", type=Path, help="write incremental.json and incremental.md here")
    args = parser.parse_args(argv)
    results = run(args.data, args.conversations, args.chunks, args.budget)
    text = render(results)
    print(text)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "incremental.json").write_text(json.dumps(results, indent=2))
        (args.out / "incremental.md").write_text(text + "\n")


if __name__ == "__main__":
    main()
