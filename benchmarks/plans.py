"""``python -m benchmarks plans``: PROFILE of the statements every query and every ingest
runs, against a real space: which index each one seeks, database hits, rows, and any
label or all-nodes scan (a scan grows with every other space in the database).

Read statements are profiled (run in a read transaction); writes are only planned
(EXPLAIN). Without ``--space`` the sample conversation is ingested with the semantic layer
into a fresh space, deleted at the end.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from benchmarks.common import table
from graphmem.config import Settings
from graphmem.graph.catalog import statement
from graphmem.graph.projections import graph_name
from graphmem.memory import Memory
from graphmem.plugin.retriever import k_for_budget
from graphmem.retrieval.passages import space_lucene_query

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sample_conversation.jsonl"
SCANS = ("NodeByLabelScan", "AllNodesScan", "DirectedAllRelationshipsScan")
QUESTION = "When did Caroline go to the LGBTQ support group?"


def operators(plan: dict[str, Any]) -> list[dict[str, Any]]:
    """Every operator of a plan tree, depth first."""
    out = [plan]
    for child in plan.get("children", []):
        out.extend(operators(child))
    return out


def kind(op: dict[str, Any]) -> str:
    return str(op.get("operatorType", "")).split("@")[0]


def details(op: dict[str, Any]) -> str:
    return str(op.get("args", {}).get("Details", ""))


def _summary(plan: dict[str, Any]) -> dict[str, Any]:
    ops = operators(plan)
    return {
        "index_ops": sorted(
            {
                f"{kind(op)} {details(op)[:70]}"
                for op in ops
                if "Index" in kind(op) or "db.index." in details(op)
            }
        ),
        "scans": sorted({f"{kind(op)} {details(op)[:60]}" for op in ops if kind(op) in SCANS}),
        "db_hits": sum(int(op.get("dbHits", 0) or 0) for op in ops),
        "rows": int(plan.get("rows", 0) or 0),
    }


def _read_params(memory: Memory, space: str) -> dict[str, dict[str, Any]]:
    vector = memory.embedder.embed_query(QUESTION)
    k = k_for_budget(1000)
    sessions = [
        dict(r["props"])["id"]
        for r in memory.store.read("bench.space_nodes", space=space)
        if "Session" in r["labels"]
    ]
    one = {"space": space}
    return {
        "retrieval.dense_passages": {**one, "embedding": vector, "k": k, "fetch": 2 * k},
        "retrieval.dense_passages_exact": {**one, "embedding": vector, "k": k},
        "retrieval.fulltext_passages": {
            **one,
            "query": space_lucene_query(space, QUESTION),
            "k": k,
            "fetch": 2 * k,
        },
        "core.label_totals": one,
        "semantic.space_passages": one,
        "semantic.space_entities": one,
        "semantic.space_facts": one,
        "semantic.graph_info": {"graph": graph_name(space, "semantic")},
        "core.session_states": {**one, "session_ids": sessions},
        "core.stored_turn_vectors": {**one, "session_ids": sessions[:1]},
        "core.session_turns": {**one, "session_ids": sessions[:1]},
    }


WRITES = (
    "core.upsert_passages",
    "core.release_session",
    "core.prune_session",
    "core.link_passages",
    "semantic.project",
    "core.delete_space_batch",
)


def run_plans(space: str) -> dict[str, Any]:
    with Memory(Settings(), tune_process=True) as memory:
        made = not space
        if made:
            space = f"bench-plans-{uuid.uuid4().hex[:8]}"
            memory.ingest(SAMPLE, space, builders=["semantic"])
        try:
            out: dict[str, Any] = {"space": space, "profiled": {}, "planned": {}}
            for name, params in _read_params(memory, space).items():
                out["profiled"][name] = _summary(memory.store.plan(name, profile=True, **params))
            for name in WRITES:
                nulls: dict[str, Any] = dict.fromkeys(statement(name).params)
                planned = memory.store.plan(name, **nulls)
                out["planned"][name] = _summary(planned)
        finally:
            if made:
                memory.forget(space, missing_ok=True)
    return out


def render_plans(r: dict[str, Any]) -> str:
    lines = [f"# Plans of the hot statements (space {r['space']})", ""]
    rows = [
        [
            name,
            s["rows"],
            s["db_hits"],
            "<br>".join(s["index_ops"]) or "-",
            "<br>".join(s["scans"]) or "none",
        ]
        for name, s in r["profiled"].items()
    ]
    lines += table(["statement (PROFILE)", "rows", "db hits", "index operators", "scans"], rows)
    lines += [""]
    rows = [
        [name, "<br>".join(s["index_ops"]) or "-", "<br>".join(s["scans"]) or "none"]
        for name, s in r["planned"].items()
    ]
    lines += table(["statement (EXPLAIN)", "index operators", "scans"], rows)
    return "\n".join(lines) + "\n"
