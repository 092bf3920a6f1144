"""The ``graphmem`` strategy's ablation on already built LoCoMo spaces (read only).

For each budget B, every member strategy retrieves each question once for
``member_budget_factor`` x B tokens, as the live strategy asks it; the variants (a design
left out, another rule, another split) are then fused from those same results at B, packed
and scored with the harness's metrics, so the default variant is the live strategy. A
variant's latency is the sum of its members' measured times plus its own fusion time (the
strategy runs them one after another). Work the members share for one question (its parse
and embedding, the PageRank SEEM, CAST and HippoRAG run alike) is timed in the first member
that does it, SEEM here, so a variant without SEEM shows less time than it takes: time
such a variant live (``GRAPHMEM_GRAPHMEM_EXCLUDE=seem,cast graphmem eval locomo ...``).
Each member alone (``only:<name>``) is its list for 2 x B packed at B: the member's own
``graphmem eval`` numbers for prefix-consistent members.

    python -m benchmarks graphmem-ablation ../shared/data/locomo/locomo10-dev.json \
        --space-prefix def --budget 1000 --cache /tmp/strategy-cache --out /tmp/ablation \
        [--variant default --variant "share 0.75"]

The spaces ``<prefix>-<sample id>`` must exist and be built: nothing is ingested or built.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from graphmem.eval.aggregate import Scored, aggregate
from graphmem.eval.harness import (
    Question,
    budget_values,
    history_tokens,
    locomo_metric_names,
    locomo_questions,
    locomo_rank_values,
)
from graphmem.eval.metrics import CATEGORY_NAMES
from graphmem.ingest.formats import load
from graphmem.memory import Memory
from graphmem.plugin.design import Design
from graphmem.plugin.registry import registry
from graphmem.plugin.retriever import Hit, RetrievalResult
from graphmem.retrieval.packer import PackedContext, pack
from graphmem.strategy.compose import arrange
from graphmem.strategy.members import plan
from graphmem.strategy.retriever import GraphmemRetriever
from graphmem.strategy.settings import GraphmemSettings

# The members and the ablations follow the registry, so a design added as a plug-in is
# ablated like the built-in ones.
BASELINES = ("fulltext", "dense")


def _designs() -> list[Design]:
    return [d for d in registry().values() if d.kind == "design"]


def members() -> tuple[str, ...]:
    """Every design's strategies, the rankers they re-order, and the passage baselines."""
    names = [s for d in registry().values() if d.kind != "strategy" for s in d.retrievers]
    return tuple(n for n in dict.fromkeys(names) if n in {*_ranked(), *BASELINES})


def _ranked() -> set[str]:
    owned = {s for d in _designs() for s in d.retrievers}
    return owned | {target for d in _designs() for target in d.reorders.values()}


def variants() -> dict[str, dict[str, Any]]:
    reorderers = tuple(s for d in _designs() for s in d.reorders)
    per_query_pagerank = tuple(s for d in registry().values() if d.pagerank for s in d.retrievers)
    own = tuple(d.default_strategy or d.name for d in _designs())
    return {
        "default": {},
        **{f"-{name}": {"exclude": (name,)} for name in (*own, "fulltext")},
        "re-orderers -> their ranker": {"exclude": reorderers},
        "no pagerank": {"exclude": per_query_pagerank},
        "+dense": {"baselines": ("fulltext", "dense")},
        "equal votes": {"family": {}, "exclude": tuple(sorted({*_reordered()}))},
        "agreement": {"fusion": "agreement"},
        "share 0": {"derived_share": 0.0},
        "share 0.25": {"derived_share": 0.25},
        "share 0.75": {"derived_share": 0.75},
        "share 1": {"derived_share": 1.0},
    }


def _reordered() -> set[str]:
    return {target for d in _designs() for target in d.reorders.values()}


EXTRA = ("derived_token_share", "derived_only_evidence")


def split_values(context: PackedContext, evidence: Sequence[str]) -> dict[str, float | None]:
    """How the context divides: derived items' share of its tokens, and the share of the
    gold evidence that only derived items cite (not shown as turns)."""
    derived = sum(i.tokens for i in context.items if i.passage is None)
    shown = {p.source_id for p in context.passages}
    only = [e for e in evidence if e in context.source_ids and e not in shown]
    return {
        "derived_token_share": derived / context.tokens if context.tokens else None,
        "derived_only_evidence": len(only) / len(evidence) if evidence else None,
    }


def collect(memory: Memory, space: str, questions: Sequence[Question], budget: int) -> list[Any]:
    retriever = GraphmemRetriever(
        memory.retrieval_context(space), GraphmemSettings(members=members(), family={})
    )
    current = retriever.plan()
    for name in current.members:
        retriever.member(name).prepare()
    out = []
    for question in questions:
        results, timings = retriever.run_members(current.members, question.text, budget)
        out.append((question, results, timings))
    return out


def score(
    rows: Mapping[int, Sequence[Any]],
    built: Sequence[str],
    count: Callable[[str], int],
    history: int,
    chosen: Sequence[str] = (),
) -> dict[str, dict[int, list[Scored]]]:
    """Every variant (or the ``chosen`` ones) at every budget, fused from the members'
    results for that budget, as the live strategy is (it is not prefix-consistent: the eval
    harness asks it again at each budget)."""
    scored: dict[str, dict[int, list[Scored]]] = {}
    wanted = {n: o for n, o in variants().items() if not chosen or n in chosen}
    for budget, questions in rows.items():
        how = ((budget,), count, history)
        for question, results, timings in questions:
            for m, r in results.items():
                record(scored.setdefault(f"only:{m}", {}), question, r.hits, timings[m], how)
            for name, overrides in wanted.items():
                config = GraphmemSettings(**overrides)
                current = plan(config, built)
                started = time.perf_counter()
                hits = arrange(results, current, config, budget, count).hits
                fusion = (time.perf_counter() - started) * 1000
                latency = fusion + sum(timings[m] for m in current.members)
                record(scored.setdefault(name, {}), question, hits, latency, how)
    return scored


def record(
    into: dict[int, list[Scored]],
    question: Question,
    hits: list[Hit],
    latency: float,
    how: tuple[Sequence[int], Callable[[str], int], int],
) -> None:
    """One variant's hits for one question, packed and scored at every budget (``how``:
    the budgets, the token counter, the conversation's tokens)."""
    budgets, count, history = how
    ranked = locomo_rank_values(question, RetrievalResult(query="", strategy="", hits=hits))
    for budget in budgets:
        context = pack(hits, budget, count)
        values = {
            **ranked,
            **budget_values(question, context, None, history),
            **split_values(context, question.evidence),
        }
        into.setdefault(budget, []).append(Scored(question.group, latency, values))


def arguments(
    description: str, extra: Callable[[argparse.ArgumentParser], None] | None = None
) -> argparse.Namespace:
    """The options of this harness; a tool built on its cache (``extra``) replaces the
    variants and the output directory with its own options."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("data", type=Path)
    parser.add_argument("--space-prefix", default="def")
    parser.add_argument("--budget", type=int, action="append", dest="budgets")
    parser.add_argument("--limit", type=int, help="only the first N conversations")
    parser.add_argument("--cache", type=Path, help="keep the members' results here (pickle)")
    if extra is not None:
        extra(parser)
        return parser.parse_args()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--variant", action="append", dest="variants", default=[], help="only these (repeatable)"
    )
    return parser.parse_args()


# space, builders, the members' results by budget, the conversation's tokens
Conversation = tuple[str, Sequence[str], dict[int, list[Any]], int]


def conversations(
    args: argparse.Namespace, memory: Memory, budgets: Sequence[int], count: Callable[[str], int]
) -> Iterator[Conversation]:
    """Each conversation's space, its builders, the members' results for every question at
    every budget (asked, as live, for ``member_budget_factor`` times it; from the cache when
    there) and the conversation's tokens."""
    factor = GraphmemSettings().member_budget_factor
    dataset = load(args.data, "locomo")
    for conv in dataset.conversations[: args.limit]:
        space = f"{args.space_prefix}-{conv.conversation_id}"
        built = memory.store.read("core.space_built", space=space)[0]
        if not built["sessions"]:
            raise SystemExit(f"space {space} is empty: build it first (this never ingests)")
        memory._ready()
        questions = [q for q, _ in locomo_questions(conv, dataset)]
        rows: dict[int, list[Any]] = {}
        for budget in budgets:
            asked = math.ceil(budget * factor)
            cached = args.cache / f"{space}-{asked}.pickle" if args.cache else None
            if cached is not None and cached.exists():
                rows[budget] = pickle.loads(cached.read_bytes())
                continue
            rows[budget] = collect(memory, space, questions, asked)
            if cached is not None:
                cached.parent.mkdir(parents=True, exist_ok=True)
                cached.write_bytes(pickle.dumps(rows[budget]))
        yield space, built["builders"], rows, history_tokens(conv, count)


def token_counter(memory: Memory) -> Callable[[str], int]:
    tokens: dict[str, int] = {}

    def count(text: str) -> int:
        if text not in tokens:
            tokens[text] = memory.embedder.count_tokens(text)
        return tokens[text]

    return count


Scores = dict[str, dict[int, list[Scored]]]  # variant -> budget -> records


def merge(into: Scores, part: Scores) -> None:
    for name, by_budget in part.items():
        for budget, records in by_budget.items():
            into.setdefault(name, {}).setdefault(budget, []).extend(records)


def main() -> None:
    args = arguments(__doc__.split("\n\n")[0])
    budgets = sorted(set(args.budgets or [500, 1000, 2000]))
    memory = Memory()
    count = token_counter(memory)
    everything: dict[str, dict[int, list[Scored]]] = {}
    for space, built, rows, history in conversations(args, memory, budgets, count):
        merge(everything, score(rows, built, count, history, args.variants))
        print(f"{space}: {len(next(iter(rows.values())))} questions", flush=True)
    write(everything, args.out)


def write(scored: dict[str, dict[int, list[Scored]]], out: Path) -> None:
    names = [*locomo_metric_names(False), *EXTRA]
    groups = list(CATEGORY_NAMES.values())
    results = []
    for name, by_budget in scored.items():
        for budget, records in sorted(by_budget.items()):
            overall, by_group = aggregate(records, names, groups)
            results.append({"variant": name, "budget": budget, "overall": overall, "by": by_group})
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    (out / "report.md").write_text(render(results, groups), encoding="utf-8")
    print(render(results, groups))


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def render(results: list[dict[str, Any]], groups: list[str]) -> str:
    head = "| variant | B | ER@10 | ER@B | ATR@B | " + " | ".join(groups)
    head += " | derived tok % | ER derived-only | p50 / p95 ms |"
    lines = [head, "|" + "---|" * (8 + len(groups))]
    for r in sorted(results, key=lambda r: (r["budget"], r["variant"])):
        o = r["overall"]
        cats = [
            f"{_pct(r['by'][g]['evidence_recall_at_budget'])} / "
            f"{_pct(r['by'][g]['answer_token_recall_at_budget'])}"
            for g in groups
        ]
        lat = o["latency_ms"] or {}
        lines.append(
            f"| {r['variant']} | {r['budget']} | {_pct(o['evidence_recall_at_10'])} | "
            f"{_pct(o['evidence_recall_at_budget'])} | "
            f"{_pct(o['answer_token_recall_at_budget'])} | "
            + " | ".join(cats)
            + f" | {_pct(o['derived_token_share'])} | {_pct(o['derived_only_evidence'])} | "
            f"{lat.get('p50', 0):.0f} / {lat.get('p95', 0):.0f} |"
        )
    return "\n".join(lines) + "\n"
