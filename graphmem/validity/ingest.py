"""Valid time after an ingest: who judges the candidate pairs (``Settings.validity_judge``)
and what an LLM judge cost, charged to the space's build ledger like a design's build."""

from __future__ import annotations

import time

from graphmem.builders.cost import record_build
from graphmem.config import Settings
from graphmem.graph.store import GraphStore
from graphmem.llm import LLMUsage, StructuredLLM
from graphmem.plugin.builder import BuildReport
from graphmem.validity.llm import LLMJudge
from graphmem.validity.update import Judge, offline_judge, refresh

# The ledger entry (``BuildCost {id}``) of the LLM judge's calls.
LEDGER_ID = "validity"


def pick_judge(settings: Settings, llm: StructuredLLM | None) -> Judge | None:
    """``llm`` without a configured model: nobody judges (the setting says who may)."""
    if settings.validity_judge == "llm" and llm is not None:
        return LLMJudge(llm)
    return offline_judge if settings.validity_judge == "offline" else None


def refresh_after_ingest(
    store: GraphStore, space: str, settings: Settings, llm: StructuredLLM | None, backend: str
) -> BuildReport | None:
    """Refresh the space's valid time; an LLM judge's calls, cache hits and seconds go to
    the ledger as ``validity`` and are returned, to be reported with the ingest's builds
    (the offline rules cost no call and are not recorded: None)."""
    judge = pick_judge(settings, llm)
    before = llm.usage.snapshot() if llm is not None else LLMUsage()
    started = time.perf_counter()
    done = refresh(store, space, settings.assistant_speakers, judge)
    if isinstance(judge, LLMJudge) and llm is not None and done.candidates:
        report = BuildReport(
            LEDGER_ID,
            counts={"turns": 0},
            seconds=time.perf_counter() - started,
            llm=llm.usage.snapshot() - before,
        )
        record_build(store, space, report, backend)
        return report
    return None
