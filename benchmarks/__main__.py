"""graphmem benchmarks (see benchmarks/README.md).

    python -m benchmarks all [--conversations 1] [--questions 0] [--out DIR]
    python -m benchmarks growth [--sizes 1,2,5] [--builders semantic] [--out DIR]
    python -m benchmarks plans
    python -m benchmarks embedding [--out DIR]
    python -m benchmarks embedders [--turns 300] [--rounds 2] [--out DIR]
    python -m benchmarks embedspeed [--sessions 0] [--workers 1,2,3] [--out DIR]
    python -m benchmarks scale --home DIR [--spaces 1,10,100,1000] [--out DIR]
    python -m benchmarks <module command> ...   (below; its own options: ... --help)

Every command prints a Markdown table; ``--out`` also writes the JSON (and the table).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.common import DEFAULT_DATA

# Commands that are a module of their own, with their own options (``python -m benchmarks
# graph-stats --help``); they run only through this command.
MODULES = {
    "cli-latency": "wall time of fresh graphmem processes (query, add, status, ...) vs floors",
    "compare": "side-by-side ER@B / ATR@B tables from `graphmem eval locomo --out` results",
    "graph-stats": "the semantic layer's size per conversation next to SEEM's Table 10",
    "graphmem-ablation": "the graphmem strategy's ablation on built LoCoMo spaces",
    "graphmem-paired": "the graphmem strategy against one design, question by question",
    "http-load": "load on `graphmem serve`: concurrent clients, queries and writes",
    "import-size": "a generated 500 MB ChatGPT export read: peak memory against json.load",
    "llm-local": "LLM cost and throughput of every design's builder against a model server",
    "passage-length": "embedding cost per word piece against the run's length (32-512)",
    "profile-builders": "where an ingest's builder time goes",
    "runs-paired": "two evaluation runs question by question: paired bootstrap per group",
    "server-bench": "server figures: warm start to Bolt-ready, idle RSS, PageRank",
    "strategy-parts": "where a graphmem query's time goes: members, fusion, total",
}


def _module(name: str, argv: Sequence[str]) -> None:
    """Runs ``benchmarks.<name>``'s ``main`` with ``argv`` as its command line."""
    module = importlib.import_module(f"benchmarks.{name.replace('-', '_')}")
    sys.argv = [f"python -m benchmarks {name}", *argv]
    module.main()


def _write(out: Path | None, name: str, results: dict[str, Any], text: str) -> None:
    print(text)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{name}.json").write_text(json.dumps(results, indent=2, default=str) + "\n")
        (out / f"{name}.md").write_text(text)


def _all(args: argparse.Namespace) -> None:
    from benchmarks.suite import render_all, run_all

    results = run_all(args.data, args.conversations, args.questions)
    _write(args.out, "benchmarks", results, render_all(results))


def _growth(args: argparse.Namespace) -> None:
    from benchmarks.growth import render_growth, run_growth

    sizes = [int(x) for x in args.sizes.split(",")]
    builders = [b for b in args.builders.split(",") if b]
    results = run_growth(args.data, sizes, builders, args.questions)
    _write(args.out, "growth", results, render_growth(results))


def _embedders(args: argparse.Namespace) -> None:
    from benchmarks.embedders import render_embedders, run_embedders
    from graphmem.config import Settings
    from graphmem.ingest.formats import load

    results = run_embedders(Settings(), load(args.data, "locomo"), args.turns, args.rounds)
    _write(args.out, "embedders", results, render_embedders(results) + "\n")


def _embedding(args: argparse.Namespace) -> None:
    from benchmarks.embedding import (
        query_runtimes,
        render_query_runtimes,
        render_runtimes,
        runtimes,
    )
    from graphmem.config import Settings
    from graphmem.ingest.formats import load

    settings, dataset = Settings(), load(args.data, "locomo")
    # the precisions on the first conversation's turns, the runtimes on every question
    results = {
        "embedding": runtimes(settings, dataset),
        "query_embedding": query_runtimes(settings, dataset),
    }
    text = "\n".join(
        [
            *render_runtimes(results["embedding"]),
            "",
            *render_query_runtimes(results["query_embedding"]),
        ]
    )
    _write(args.out, "embedding", results, text + "\n")


def _embedspeed(args: argparse.Namespace) -> None:
    from benchmarks.embedspeed import render_embedspeed, run_embedspeed
    from graphmem.config import Settings
    from graphmem.ingest.formats import load

    workers = [int(x) for x in args.workers.split(",") if x]
    results = run_embedspeed(Settings(), load(args.data, "locomo"), args.sessions, workers)
    _write(args.out, "embedspeed", results, render_embedspeed(results))


def _plans(args: argparse.Namespace) -> None:
    from benchmarks.plans import render_plans, run_plans

    results = run_plans(args.space)
    _write(args.out, "plans", results, render_plans(results))


def _scale(args: argparse.Namespace) -> None:
    from benchmarks.scale import ScaleArgs, run_scale

    run_scale(ScaleArgs.from_namespace(args))


def main(argv: Sequence[str] | None = None) -> None:
    given = list(sys.argv[1:] if argv is None else argv)
    if given and given[0] in MODULES:
        _module(given[0], given[1:])
        return
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    commands: dict[str, Callable[[argparse.Namespace], None]] = {}

    def command(name: str, fn: Callable[[argparse.Namespace], None], text: str) -> Any:
        commands[name] = fn
        p = sub.add_parser(name, help=text, description=text)
        p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a LoCoMo file")
        p.add_argument("--out", type=Path, help="write <command>.json and .md here")
        return p

    p = command("all", _all, "ingest per builder, query per strategy, memory, writer")
    p.add_argument("--conversations", type=int, default=1, help="first N conversations")
    p.add_argument("--questions", type=int, default=0, help="per conversation (0: all)")
    p = command("growth", _growth, "cost against conversations concatenated in one space")
    p.add_argument("--sizes", default="1,2,5", help="conversations per space, comma list")
    p.add_argument("--builders", default="semantic", help="builders ('' for passages only)")
    p.add_argument("--questions", type=int, default=100, help="questions per size")
    command("embedding", _embedding, "embedding precisions and the query's runtime (torch, onnx)")
    p = command("embedders", _embedders, "every embedder: batch texts/s and question ms")
    p.add_argument("--turns", type=int, default=300, help="turns embedded as one batch")
    p.add_argument("--rounds", type=int, default=2, help="interleaved rounds")
    p = command("embedspeed", _embedspeed, "MiniLM torch against e5 int8 + vector cache")
    p.add_argument("--sessions", type=int, default=0, help="first N sessions (0: all)")
    p.add_argument("--workers", default="1,2,3", help="int8 worker pools to time ('': none)")
    p = command("plans", _plans, "PROFILE of the hot statements: indexes, no label scans")
    p.add_argument("--space", default="", help="a space to profile against (default: a sample)")
    p = command("scale", _scale, "1 to 1,000 spaces on a second, private Neo4j server")
    from benchmarks.scale import add_arguments

    add_arguments(p)
    for name, text in MODULES.items():  # listed for --help; main() runs them before parsing
        sub.add_parser(name, help=text, add_help=False)
    args = parser.parse_args(given)
    commands[args.command](args)


if __name__ == "__main__":
    main()
