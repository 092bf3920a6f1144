"""In-process exact ranking (``search = "snapshot"``) against the statement it replaced.

For PREMem (against ``premem.search``, the same exact cosine in Cypher) and AnchorMem
(against its two vector-index searches): on each question, whether the two hit lists are
equal, how much of the statement's top 30 the snapshot also returns, and each side's
p50 / p95 latency with the ratio snapshot / statement, both measured in the same run, one
question after the other.

    python -m benchmarks exact-search [FILE] --space-prefix def --conversations conv-26,conv-30
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from benchmarks.common import DEFAULT_DATA, latency_summary, timed_ms
from graphmem.designs.anchormem.retriever import AnchorMemRetriever
from graphmem.designs.premem.retriever import PremRetriever
from graphmem.ingest.formats import load
from graphmem.memory import Memory
from graphmem.retrieval.base import Retriever

TOP = 30
MEMBER_BUDGET = 2000  # what the graphmem strategy asks each member for at 1,000 tokens


def pair(memory: Memory, design: str, space: str) -> tuple[Retriever, Retriever]:
    ctx = memory.retrieval_context(space)
    config = ctx.configs.get(design)
    if design == "premem":
        other = {"search": "cypher"}
        return (
            PremRetriever(ctx, config.model_copy(update={"search": "snapshot"})),
            PremRetriever(ctx, config.model_copy(update=other)),
        )
    return (
        AnchorMemRetriever(ctx, config.model_copy(update={"search": "snapshot"})),
        AnchorMemRetriever(ctx, config.model_copy(update={"search": "index"})),
    )


def compare(memory: Memory, design: str, spaces: dict[str, list[str]]) -> dict[str, float]:
    same = total = 0
    overlap: list[float] = []
    times: dict[str, list[float]] = {"snapshot": [], "statement": []}
    for space, questions in spaces.items():
        snap, statement = pair(memory, design, space)
        for retriever in (snap, statement):
            retriever.prepare()
            retriever.retrieve("a warm-up question", MEMBER_BUDGET)
        for question in questions:
            a, ms_a = timed_ms(snap.retrieve, question, MEMBER_BUDGET)
            b, ms_b = timed_ms(statement.retrieve, question, MEMBER_BUDGET)
            times["snapshot"].append(ms_a)
            times["statement"].append(ms_b)
            ids_a, ids_b = [h.node_id for h in a.hits], [h.node_id for h in b.hits]
            total += 1
            same += ids_a == ids_b
            top = set(ids_b[:TOP])
            overlap.append(len(top & set(ids_a[:TOP])) / len(top) if top else 1.0)
    fast, slow = latency_summary(times["snapshot"]), latency_summary(times["statement"])
    return {
        "questions": total,
        "same": same,
        "overlap": 100 * statistics.fmean(overlap),
        "snap_p50": fast["p50"],
        "snap_p95": fast["p95"],
        "stmt_p50": slow["p50"],
        "stmt_p95": slow["p95"],
        "ratio": fast["p50"] / slow["p50"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--space-prefix", default="def")
    parser.add_argument("--conversations", default="conv-26,conv-30")
    parser.add_argument("--questions", type=int, default=60, help="per conversation")
    args = parser.parse_args()
    dataset = load(args.file)
    spaces = {
        f"{args.space_prefix}-{conv}": [
            q.question for q in dataset.qa[conv] if q.category in (1, 2, 3, 4)
        ][: args.questions]
        for conv in args.conversations.split(",")
    }
    memory = Memory()
    print(
        f"| design | questions | same hits | top-{TOP} overlap % | snapshot p50 / p95 ms "
        "| statement p50 / p95 ms | p50 ratio |"
    )
    print("|---|---|---|---|---|---|---|")
    for design in ("premem", "anchormem"):
        r = compare(memory, design, spaces)
        print(
            f"| {design} | {r['questions']:.0f} | {r['same']:.0f} | {r['overlap']:.1f} "
            f"| {r['snap_p50']:.1f} / {r['snap_p95']:.1f} | {r['stmt_p50']:.1f} / "
            f"{r['stmt_p95']:.1f} | {r['ratio']:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
