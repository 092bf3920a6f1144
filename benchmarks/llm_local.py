"""LLM cost and throughput of every design's builder against a live model server.

    graphmem llm serve &          # or any OpenAI-compatible server
    export GRAPHMEM_LLM_BASE_URL=http://127.0.0.1:8765/v1 GRAPHMEM_LLM_MODEL=smollm2-135m-instruct
    python -m benchmarks llm-local [--turns 6] [--concurrency 1,4] [--designs seem,anchormem]
                                   [--server-log FILE] [--out DIR]

For each design and concurrency the first ``--turns`` turns of the sample conversation go
into a fresh space with the response cache off, so every LLM step is a real request. Per
run: calls, cache hits, prompt and completion tokens, seconds in the LLM, repairs,
fallbacks, wall seconds and turns/s. With ``--server-log`` (the server's stdout), the
chat requests the server logged during the run are counted too: they must equal the calls.
Spaces are deleted at the end. Numbers of a weak model say nothing about memory quality.
"""

from __future__ import annotations

import argparse
import json
import re
import time
import uuid
from pathlib import Path
from typing import Any

from graphmem.config import Settings
from graphmem.ingest.formats import load
from graphmem.ingest.models import Dataset
from graphmem.llm.openai_llm import OpenAIStructuredLLM
from graphmem.memory import Memory
from graphmem.plugin.builder import BuildReport
from graphmem.plugin.registry import builder_names

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample_conversation.jsonl"
_LOGGED_CHAT = re.compile(r'"POST /v1/chat/completions HTTP/1\.1" \d{3}')


def first_turns(dataset: Dataset, turns: int) -> Dataset:
    conv = dataset.conversations[0]
    sessions, left = [], turns
    for session in conv.sessions:
        if left <= 0:
            break
        sessions.append(session.model_copy(update={"turns": session.turns[:left]}))
        left -= len(session.turns)
    return Dataset(conversations=[conv.model_copy(update={"sessions": sessions})], qa={})


def logged_requests(path: Path | None) -> int:
    if path is None or not path.exists():
        return -1
    return len(_LOGGED_CHAT.findall(path.read_text(errors="replace")))


def run_one(
    memory_settings: Settings, dataset: Dataset, design: str, concurrency: int, log: Path | None
) -> dict[str, Any]:
    settings = memory_settings.model_copy(
        update={"llm_cache": False, "llm_concurrency": concurrency}
    )
    space = f"llm-bench-{design}-{concurrency}-{uuid.uuid4().hex[:6]}"
    logged_before = logged_requests(log)
    with (
        OpenAIStructuredLLM(settings) as llm,
        Memory(settings, llm=llm, tune_process=True) as memory,
    ):
        started = time.perf_counter()
        try:
            reports = memory.ingest_dataset(dataset, space, [design]).builds
            wall = time.perf_counter() - started
        finally:
            memory.forget(space, missing_ok=True)
    # the design and the layers it requires (SEEM: the semantic layer), as one row
    report = BuildReport.total(design, reports)
    turns = max((r.counts.get("turns", 0) for r in reports), default=0)
    logged = logged_requests(log)
    return {
        "design": design,
        "builders": [r.builder for r in reports],
        "concurrency": concurrency,
        "turns": turns,
        "wall_s": round(wall, 1),
        "turns_per_s": round(turns / wall, 3) if wall else None,
        "server_logged_requests": logged - logged_before if logged >= 0 else None,
        **report.llm.as_dict(),
        "calls_per_turn": round(report.llm_calls / turns, 2) if turns else None,
        "tokens_per_turn": round(report.llm_tokens / turns, 1) if turns else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--concurrency", default="1,4")
    parser.add_argument("--designs", default=",".join(builder_names()))
    parser.add_argument("--server-log", type=Path)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args()
    settings = Settings()
    if not settings.llm_enabled:
        raise SystemExit("set GRAPHMEM_LLM_BASE_URL and GRAPHMEM_LLM_MODEL first")
    dataset = first_turns(load(SAMPLE), args.turns)
    rows = [
        run_one(settings, dataset, design, int(c), args.server_log)
        for design in args.designs.split(",")
        for c in args.concurrency.split(",")
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "llm_local.json"
    path.write_text(json.dumps({"model": settings.llm_model, "rows": rows}, indent=2))
    for row in rows:
        print(json.dumps(row))
    print(f"wrote {path}")
