"""What building a space has cost, per design, across every ingest of it.

``Memory.ingest_dataset`` adds each completed build to a ledger node per space and builder
(``(:BuildCost {space, id: builder})``, written by ``core.record_build_cost``; the LLM
judge of changes as ``id: "validity"``, ``graphmem.validity.ingest``): builds,
sessions, turns and seconds, the backends used, and the LLM usage ``run_build`` charged to
the build (calls, cache hits, prompt and completion tokens, seconds in the LLM, errors,
retries, repairs, fallbacks). It lives in the graph, so it survives processes; a re-run
with a warm response cache adds its cache hits and 0 calls; ``graphmem forget`` deletes it
with the space; the digest leaves it out (it is history, not memory). A build that stops
with an error records nothing (its sessions are built again by the next run).
"""

from __future__ import annotations

from typing import Any

from graphmem.graph.store import GraphStore
from graphmem.llm import LLMUsage
from graphmem.plugin.builder import BuildReport
from graphmem.plugin.style import NodeStyle

LABEL = "BuildCost"
# The ledger is the core's own label (no design writes it); graphmem.browser styles it.
STYLE = NodeStyle(
    color="#FFFFFF",
    border="#9E9E9E",
    diameter=45,
    caption="{id} {builds} builds {llm_calls} LLM calls",
    meaning="what building the space has cost, per design (builds, sessions, LLM calls)",
)
_COUNTS = ("builds", "sessions", "turns")


def record_build(store: GraphStore, space: str, report: BuildReport, backend: str) -> None:
    """Add one completed build (a ``run_build`` report) to the space's ledger."""
    store.write(
        "core.record_build_cost",
        space=space,
        builder=report.builder,
        backend=backend,
        sessions=report.sessions,
        turns=int(report.counts.get("turns", 0)),
        seconds=float(report.seconds),
        llm=report.llm.model_dump(),
    )


def _usage(row: dict[str, Any]) -> LLMUsage:
    return LLMUsage(**{name: row[f"llm_{name}"] or 0 for name in LLMUsage.model_fields})


def _figures(counts: dict[str, int], seconds: float, llm: LLMUsage) -> dict[str, Any]:
    """The keys ``graphmem ingest --json`` reports per design: ``llm_calls``, ..."""
    return {**counts, "seconds": round(seconds, 2), **llm.as_dict()}


def space_build_costs(store: GraphStore, space: str) -> dict[str, Any]:
    """Per builder (and in total) what the space's builds have cost; empty when no build of
    the space was recorded (spaces built before the ledger existed have none)."""
    rows = store.read("core.build_costs", space=space)
    if not rows:
        return {}
    designs: dict[str, Any] = {}
    total_llm = LLMUsage()
    total_counts = dict.fromkeys(_COUNTS, 0)
    total_seconds = 0.0
    for row in rows:
        usage = _usage(row)
        counts = {key: int(row[key] or 0) for key in _COUNTS}
        seconds = float(row["seconds"] or 0.0)
        designs[row["builder"]] = {
            **_figures(counts, seconds, usage),
            "backends": list(row["backends"] or []),
        }
        total_llm = total_llm + usage
        total_counts = {key: total_counts[key] + counts[key] for key in _COUNTS}
        total_seconds += seconds
    # (a session appears once per design that built it, so the totals count it per design)
    return {"designs": designs, "total": _figures(total_counts, total_seconds, total_llm)}
