"""``python -m benchmarks all``: ingest, query and memory figures in one table (and JSON).

Each of the first N LoCoMo conversations goes into its own fresh space with every builder;
every strategy is then queried over the conversations' own questions (categories 1-4)
beside the floor (question embedding + numpy search); memory is read while the spaces and
their projections exist; then the passage writer's variants (embedding batch, UNWIND size,
a streamed session) are compared. Every space is deleted at the end, whatever happens.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from benchmarks import embedding, ingest, query
from benchmarks.common import (
    BUDGET,
    TimedEmbedder,
    client_rss_mb,
    first,
    fmt,
    gds_graphs,
    machine,
    neo4j_heap_mb,
    questions_of,
    table,
)
from graphmem.config import Settings
from graphmem.embed import build_embedder
from graphmem.graph.projections import graph_prefix
from graphmem.ingest.formats import load
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.plugin.registry import strategy_names

# Targets of issue 18 (2 cores, offline backend, LoCoMo scale).
TARGET_PASSAGES_TURNS_S = 500
TARGET_ALL_BUILDERS_TURNS_S = 50
TARGET_P95_MS = 30
TARGET_P99_OVER_P95 = 1.5
TARGET_PREPARE_MS = 1000


def run_all(data: Path, conversations: int, questions: int) -> dict[str, Any]:
    settings = Settings()
    embedder = TimedEmbedder(build_embedder(settings))
    dataset = first(load(data, "locomo"), conversations)
    tag = uuid.uuid4().hex[:8]
    space_of = {
        c.conversation_id: f"bench-{tag}-{c.conversation_id}" for c in dataset.conversations
    }
    results: dict[str, Any] = {
        "config": {
            "data": str(data),
            "conversations": [c.conversation_id for c in dataset.conversations],
            "budget": BUDGET,
            "embedder": embedder.name,
            "ingest_batch_turns": settings.ingest_batch_turns,
        },
        "machine_before": machine(),
    }
    with Memory(settings, embedder=embedder, tune_process=True) as memory:
        try:
            results["ingest"] = ingest.builders(memory, embedder, dataset, space_of)
            spaces = {
                space_of[c.conversation_id]: questions_of(first_one(dataset, i), questions)
                for i, c in enumerate(dataset.conversations)
            }
            results["query"] = query.strategies(memory, spaces, strategy_names())
            space, qs = next(iter(spaces.items()))
            results["dense_parts"] = query.dense_parts(memory, space, [q.question for q in qs])
            results["memory"] = memory_figures(memory, list(space_of.values()))
        finally:
            for space in space_of.values():
                memory.forget(space, missing_ok=True)
        one = first(dataset, 1)
        results["writer_batches"] = ingest.writer_batches(memory, embedder, one)
        results["unwind"] = ingest.unwind_sizes(memory, one)
        results["streamed_session"] = ingest.streamed_session(memory, embedder, one)
    results["embedding"] = embedding.runtimes(settings, one)
    results["query_embedding"] = embedding.query_runtimes(settings, one)
    results["machine_after"] = machine()
    return results


def first_one(dataset: Dataset, index: int) -> Dataset:
    conv = dataset.conversations[index]
    return Dataset(
        conversations=[conv], qa={conv.conversation_id: dataset.qa[conv.conversation_id]}
    )


def memory_figures(memory: Memory, spaces: list[str]) -> dict[str, Any]:
    """Client RSS, Neo4j heap, and the GDS projections each space holds after its queries."""
    graphs = {
        space: [
            {k: g[k] for k in ("graph", "nodes", "relationships", "bytes")}
            for g in gds_graphs(memory.store, graph_prefix(space))
        ]
        for space in spaces
    }
    per_space = [sum(g["bytes"] for g in gs) for gs in graphs.values()]
    return {
        "client": client_rss_mb(),
        "neo4j_heap": neo4j_heap_mb(memory.store),
        "gds_projections": graphs,
        "gds_mb_per_space": round(max(per_space, default=0) / 2**20, 1),
    }


# ---------------------------------------------------------------- rendering


def _mark(ok: bool) -> str:
    return "met" if ok else "**not met**"


def render_all(r: dict[str, Any]) -> str:
    ing, q, mem = r["ingest"], r["query"], r["memory"]
    floor = q["floor"]
    m0, m1 = r["machine_before"], r["machine_after"]
    lines = [
        "# graphmem benchmarks",
        "",
        f"{len(r['config']['conversations'])} LoCoMo conversation(s) "
        f"({', '.join(r['config']['conversations'])}), {ing['turns']} turns, budget "
        f"{BUDGET} tokens, offline backend, {m0['cpus']} CPUs, load average "
        f"{m0['load_avg_1m']} before / {m1['load_avg_1m']} after, commit {m0['commit']}.",
        "",
        "## Ingest (turns per second)",
        "",
    ]
    rows: list[list[object]] = [
        [
            "passages (embedded + indexed)",
            ing["passages"]["turns_per_s"],
            f"embedding {100 * ing['passages']['embedding_share']:.0f}% of the time",
            f">= {TARGET_PASSAGES_TURNS_S}: {_mark(ing['passages']['turns_per_s'] >= 500)}",
        ]
    ]
    for name, b in ing["builders"].items():
        rows.append([f"builder {name}", fmt(b["turns_per_s"]), f"{b['ms_per_turn']} ms/turn", ""])
    all_ok = ing["all_builders_turns_per_s"] >= TARGET_ALL_BUILDERS_TURNS_S
    rows.append(
        [
            "passages + all builders",
            ing["all_builders_turns_per_s"],
            f"{ing['all_seconds']} s",
            f">= {TARGET_ALL_BUILDERS_TURNS_S}: {_mark(all_ok)}",
        ]
    )
    lines += table(["what", "turns/s", "note", "target"], rows)
    lines += [
        "",
        f"Re-ingest of the same input: {ing['reingest_seconds']} s "
        f"({ing['reingest_sessions_skipped']} sessions found stored, nothing written).",
        "",
        f"## Query latency (ms, one retrieve call, {BUDGET}-token budget)",
        "",
        f"Floor per question = question embedding + numpy exact search over the space's "
        f"passages: p50 {floor['floor']['p50']} / p95 {floor['floor']['p95']} / p99 "
        f"{floor['floor']['p99']} ms (embedding p50 {floor['embedding']['p50']}, numpy p50 "
        f"{floor['numpy']['p50']}).",
        "",
    ]
    rows = []
    for name, s in q.items():
        if name == "floor":
            continue
        ok = (
            s["p95"] <= TARGET_P95_MS
            and s["p99_over_p95"] <= TARGET_P99_OVER_P95
            and s["prepare_ms_max"] <= TARGET_PREPARE_MS
        )
        rows.append(
            [
                name,
                s["p50"],
                s["p95"],
                s["p99"],
                f"{s['p95_over_floor']}x",
                s["p99_over_p95"],
                s["prepare_ms_max"],
                fmt(s["er_at_10"]),
                fmt(s["er_at_budget"]),
                _mark(ok),
            ]
        )
    lines += table(
        [
            "strategy",
            "p50",
            "p95",
            "p99",
            "p95 / floor p95",
            "p99 / p95",
            "prepare ms",
            "ER@10",
            "ER@B",
            f"p95 <= {TARGET_P95_MS}, p99 <= 1.5 p95, prepare <= 1 s",
        ],
        rows,
    )
    lines += ["", *_render_dense(r["dense_parts"]), "", *_render_memory(mem), ""]
    lines += _render_writer(r)
    lines += ["", *embedding.render_runtimes(r["embedding"])]
    if "query_embedding" in r:
        lines += ["", *embedding.render_query_runtimes(r["query_embedding"])]
    return "\n".join(lines) + "\n"


def _render_dense(d: dict[str, Any]) -> list[str]:
    fetch = f", index fetch {d['index_fetch']}" if d["index_fetch"] else ""
    return [
        f"Dense, by part (first space: {d['passages_in_space']} of {d['passages_total']} "
        f"passages in the database, k={d['k']}; the retriever uses the {d['path']}{fetch}; "
        f"overlap@10 with numpy {d['overlap_at_10']}):",
        "",
        *table(
            ["part", "p50", "p95", "p99"],
            [
                [p, d[p]["p50"], d[p]["p95"], d[p]["p99"]]
                for p in ("embedding", "statement", "numpy")
            ],
        ),
    ]


def _render_memory(mem: dict[str, Any]) -> list[str]:
    heap = mem["neo4j_heap"]
    return [
        "## Memory",
        "",
        *table(
            ["client RSS MB (peak)", "Neo4j heap used / max MB", "GDS projections per space MB"],
            [
                [
                    f"{mem['client'].get('rss_mb')} ({mem['client'].get('peak_rss_mb')})",
                    f"{heap['used_mb']} / {heap['max_mb']}",
                    mem["gds_mb_per_space"],
                ]
            ],
        ),
    ]


def _render_writer(r: dict[str, Any]) -> list[str]:
    wb, un, st = r["writer_batches"], r["unwind"], r["streamed_session"]
    rows = [
        [
            key,
            v["seconds"],
            v["turns_per_s"],
            v["embedding_seconds"],
            v["other_seconds"],
            f"{v['speed_up']}x",
        ]
        for key, v in wb.items()
        if isinstance(v, dict)
    ]
    lines = [
        "## Passage writer (same run, interleaved, medians)",
        "",
        f"Embedding batch ({wb['turns']} turns, {wb['rounds']} rounds; 1 = each session alone):",
        "",
        *table(
            ["turns per embed call", "seconds", "turns/s", "embedding s", "other s", "speed-up"],
            rows,
        ),
        "",
        f"UNWIND rows per statement, `core.upsert_passages` alone ({un['passages']} passages, "
        "vectors precomputed):",
        "",
        *table(
            ["rows", "ms per passage"],
            [[k, v["ms_per_passage"]] for k, v in un.items() if isinstance(v, dict)],
        ),
        "",
        f"A {st['turns']}-turn session streamed through `add_messages` one turn at a time: "
        f"{st['texts_embedded']} texts embedded (without reusing stored vectors: "
        f"{st['texts_without_reuse']}), {st['seconds']} s, of which embedding "
        f"{st['embedding_seconds']} s.",
    ]
    return lines
