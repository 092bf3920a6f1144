"""The CLI as a user feels it: the wall time of fresh ``graphmem`` processes, each command
run ``--runs`` times in turn (the OS cache warm after the first round), against two floors
measured in the same run: the interpreter alone and ``graphmem --version`` (click and the
command table, no command's code).

    python -m benchmarks cli-latency --space S [--runs 10] [--json F]

``S`` is a built space (a LoCoMo conversation with every design for the issue's targets);
``add`` writes into ``S-cli-latency`` (a scratch space, forgotten at the end) with every
builder. The local server must be running. Run it alone on the machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import fmt, machine, table

QUESTION = "What did they talk about last time?"
# The targets of "Fast where users are", item 1 (seconds, median of fresh processes).
TARGETS = {
    "query": 1.0,
    "add": 1.5,
    "server status": 1.0,
    "spaces": 1.0,
    "stats": 1.0,
    "doctor": 1.0,
}
# The console script a user runs (its start reads the entry points), next to this Python.
GRAPHMEM = str(Path(sys.executable).with_name("graphmem"))


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--space", required=True, help="a built space")
    parser.add_argument("--runs", type=int, default=10, help="fresh processes per command")
    parser.add_argument("--json", type=Path, help="also write the results here")
    return parser.parse_args()


def commands(space: str) -> dict[str, list[str]]:
    gm = [GRAPHMEM]
    scratch = f"{space}-cli-latency"
    return {
        "python -c pass (floor)": [sys.executable, "-c", "pass"],
        "graphmem --version (floor)": [*gm, "--version"],
        "server status": [*gm, "server", "status"],
        "spaces": [*gm, "spaces"],
        "stats": [*gm, "stats", "--space", space],
        "doctor": [*gm, "doctor"],
        "query": [*gm, "query", QUESTION, "--space", space],
        "add": [*gm, "add", "I watered the tomatoes.", "--space", scratch, "--speaker", "Ana"],
    }


def wall_s(command: list[str]) -> float:
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    took = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[1:])} failed:\n{done.stderr[-2000:]}")
    return took


def main() -> None:
    args = arguments()
    runs = commands(args.space)
    times: dict[str, list[float]] = {name: [] for name in runs}
    try:
        for _ in range(args.runs):  # rounds, so that drift falls on every command alike
            for name, command in runs.items():
                times[name].append(wall_s(command))
    finally:
        scratch = f"{args.space}-cli-latency"
        subprocess.run([GRAPHMEM, "forget", "--space", scratch, "--yes"], capture_output=True)
    floor = statistics.median(times["graphmem --version (floor)"])
    rows: list[list[object]] = []
    results: dict[str, Any] = {"machine": machine(), "space": args.space, "commands": {}}
    for name, found in times.items():
        median = statistics.median(found)
        worst = max(found)
        target = TARGETS.get(name.split(" (")[0])
        rows.append([name, fmt(median, 2), fmt(worst, 2), fmt(median / floor, 1), fmt(target, 1)])
        results["commands"][name] = {"median_s": median, "max_s": worst, "runs": found}
    header = ["command", "median s", "max s", "x --version", "target s"]
    print("\n".join(table(header, rows)))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
