"""First query against later ones over real MCP stdio, with and without ``--prepare``.

    python scripts/mcp_first_query.py --space demo [--runs 2] [--later 5]

Starts ``graphmem mcp --spaces SPACE [--prepare]`` as the SDK's stdio client does, and times
(round trip, seen by the client) the start-up to the initialized session, the first
``query`` and ``--later`` more, each with a different question. Prints one JSON line per
server started.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = [
    "What is the dog's name?",
    "Where is Maya moving?",
    "What did Tom cook last weekend?",
    "When does the new job start?",
    "Who is visiting next month?",
    "What book was recommended?",
    "How did the interview go?",
]


def _params(space: str, prepare: bool) -> StdioServerParameters:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    args = ["mcp", "--spaces", space, *(["--prepare"] if prepare else [])]
    return StdioServerParameters(
        command=sys.executable,
        args=["-c", "from graphmem.cli.main import main; main()", *args],
        env=env,
        cwd=str(ROOT),
    )


async def _one_server(space: str, prepare: bool, later: int) -> dict[str, object]:
    started = time.perf_counter()
    async with Client(_params(space, prepare), read_timeout_seconds=600) as client:
        ready = time.perf_counter() - started
        times = []
        for question in QUESTIONS[: later + 1]:
            t0 = time.perf_counter()
            result = await client.call_tool(
                "query", {"question": question, "space": space, "budget": 500}
            )
            times.append(round((time.perf_counter() - t0) * 1000, 1))
            if result.is_error:
                raise SystemExit(f"query failed: {result.content}")
    rest = sorted(times[1:])
    return {
        "prepare": prepare,
        "start_s": round(ready, 1),
        "first_ms": times[0],
        "later_median_ms": rest[len(rest) // 2] if rest else None,
        "later_ms": times[1:],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--space", required=True)
    parser.add_argument("--runs", type=int, default=2, help="servers started per mode")
    parser.add_argument("--later", type=int, default=5, help="queries after the first")
    args = parser.parse_args()
    for _ in range(args.runs):
        for prepare in (False, True):
            row = anyio.run(_one_server, args.space, prepare, args.later)
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
