"""The kept seed PageRank runs (``ppr_cache``) against one GDS run per seed group per query,
in one process on built spaces: query latency of a strategy with each setting, and the
ratio, per conversation and overall. ``--vary embedding_runtime`` compares the question's
embedding on torch against ONNX Runtime the same way (each with its own embedder).

    python -m benchmarks ppr-cache ../shared/data/locomo/locomo10-dev.json \\
        --space-prefix v12 [--strategy graphmem] [--budget 1000] [--limit 2] [--json F] \\
        [--vary ppr_cache|embedding_runtime]

For each conversation both retrievers are built and prepared (``warm`` runs every entity's
PageRank then; its time is the ``prepare s`` column), a few questions warm them up, and
then every question of categories 1-4 runs with one setting and again with the other, the
order alternating between conversations: both see the same machine within a minute or two
(a machine whose speed drifts by tens of percent within an hour, as this one does, makes
runs an hour apart incomparable). Members share their reads and the question's embedding
inside one retriever only, so each setting pays its own. It never ingests: build the
spaces first (``graphmem eval`` does).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from benchmarks.common import latency_summary, require_built, table, warm_up
from graphmem.designs.configure import DesignConfigs
from graphmem.embed import build_embedder
from graphmem.eval.harness import locomo_questions
from graphmem.ingest.formats import load
from graphmem.memory import Memory
from graphmem.retrieval.base import Retriever
from graphmem.retrieval.registry import build_retriever

# What is varied: the baseline value first, the new one second (ratios are new / baseline).
VARIED = {
    "ppr_cache": ("off", "warm"),
    "embedding_runtime": ("torch", "onnx"),
}


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--space-prefix", default="v12")
    parser.add_argument("--strategy", default="graphmem")
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument("--limit", type=int, help="only the first N conversations")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    parser.add_argument("--vary", choices=sorted(VARIED), default="ppr_cache")
    return parser.parse_args()


def retrievers(
    base: Memory, space: str, strategy: str, vary: str
) -> dict[str, tuple[Retriever, float]]:
    """One prepared retriever per value (a Memory each, for its settings; one store, and one
    embedder unless the embedder is what varies), with its preparation time in seconds."""
    out = {}
    for mode in VARIED[vary]:
        if vary == "ppr_cache":
            values: dict[str, dict[str, Any]] = {"semantic": {"ppr_cache": mode}}
            configs = DesignConfigs(overrides=values)
            memory = Memory(
                base.settings, store=base.store, embedder=base.embedder, configs=configs
            )
        else:
            settings = base.settings.model_copy(update={vary: mode})
            memory = Memory(settings, store=base.store, embedder=build_embedder(settings))
        retriever = build_retriever(strategy, memory.retrieval_context(space))
        started = time.perf_counter()
        retriever.prepare()
        out[mode] = (retriever, time.perf_counter() - started)
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    dataset = load(args.data, "locomo")
    base = Memory()
    times: dict[str, dict[str, list[float]]] = {}
    prepared: dict[str, dict[str, float]] = {}
    try:
        for index, conv in enumerate(dataset.conversations[: args.limit]):
            space = f"{args.space_prefix}-{conv.conversation_id}"
            require_built(base.store, space)
            questions = [q.text for q, _ in locomo_questions(conv, dataset)]
            modes = VARIED[args.vary]
            built = retrievers(base, space, args.strategy, args.vary)
            prepared[space] = {mode: round(built[mode][1], 1) for mode in modes}
            order = modes if index % 2 == 0 else tuple(reversed(modes))
            for mode in order:
                retriever = built[mode][0]
                warm_up(retriever, questions, args.budget, base.settings)
                spent = times.setdefault(space, {}).setdefault(mode, [])
                for question in questions:
                    spent.append(retriever.retrieve(question, args.budget).timings_ms["total"])
    finally:
        base.close()
    return {"times": times, "prepared_s": prepared, "modes": list(VARIED[args.vary])}


def report(numbers: dict[str, Any]) -> list[str]:
    old, new = numbers.get("modes", VARIED["ppr_cache"])
    rows = []
    everything: dict[str, list[float]] = {old: [], new: []}
    for space, by_mode in numbers["times"].items():
        summary = {mode: latency_summary(by_mode[mode]) for mode in (old, new)}
        for mode in (old, new):
            everything[mode].extend(by_mode[mode])
        rows.append(_row(space, summary[old], summary[new], numbers["prepared_s"][space][new]))
    total = {mode: latency_summary(everything[mode]) for mode in (old, new)}
    prepare = sum(p[new] for p in numbers["prepared_s"].values())
    rows.append(_row("all", total[old], total[new], prepare))
    header = [f"{old} p50", f"{old} p95", f"{new} p50", f"{new} p95", "p50 ratio", "p95 ratio"]
    return table(["space", *header, f"{new} prepare s"], rows)


def _row(name: str, old: dict[str, float], new: dict[str, float], prepare_s: float) -> list[object]:
    return [
        name,
        f"{old['p50']:.1f}",
        f"{old['p95']:.1f}",
        f"{new['p50']:.1f}",
        f"{new['p95']:.1f}",
        f"{new['p50'] / old['p50']:.2f}",
        f"{new['p95'] / old['p95']:.2f}",
        f"{prepare_s:.1f}",
    ]


def main() -> None:
    args = arguments()
    numbers = run(args)
    old, new = VARIED[args.vary]
    print(f"{args.strategy} at {args.budget} tokens, ms per query; ratio = {new} / {old}")
    print("\n".join(report(numbers)))
    if args.json:
        args.json.write_text(json.dumps(numbers))


if __name__ == "__main__":
    main()
