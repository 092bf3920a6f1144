"""A one-shot ``graphmem query`` (a fresh process: imports, models, the space's snapshots,
one question), with spaCy's import keeping torch out (the default) against letting it in
(``GRAPHMEM_SPACY_TORCH=true``): wall time and peak memory of each process, and the ratios.

    python -m benchmarks oneshot --space v12-conv-26 [--rounds 3] [--strategy graphmem]

The two settings alternate, round by round, so both see the same machine. Each process runs
the real command line (``graphmem.cli.main``) and reports its own peak resident set size
(``getrusage``) on its way out. It never ingests: the space must be built.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from typing import Any

from benchmarks.common import fmt, machine, table

QUESTION = "Would Caroline pursue writing as a career option?"
# What each process runs: the command line, then its own peak RSS (KiB on Linux) to stderr.
_CHILD = (
    "import resource, sys\n"
    "from graphmem.cli.main import main\n"
    "try:\n"
    "    main()\n"
    "finally:\n"
    "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "    print(f'ONESHOT_RSS_KB={peak}', file=sys.stderr)\n"
)
SETTINGS = {"kept out": "false", "allowed": "true"}  # the new way first; ratios new / old


def one(space: str, strategy: str, question: str, torch: str) -> tuple[float, float]:
    """Seconds and peak MB of one ``graphmem query`` process."""
    env = {**os.environ, "GRAPHMEM_SPACY_TORCH": torch}
    argv = ["query", question, "--space", space, "--strategy", strategy, "--json"]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *argv], env=env, capture_output=True, text=True
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"graphmem query failed ({done.returncode}): {done.stderr[-500:]}")
    marks = [ln for ln in done.stderr.splitlines() if ln.startswith("ONESHOT_RSS_KB=")]
    return seconds, int(marks[-1].split("=")[1]) / 1024


def run_oneshot(space: str, strategy: str, question: str, rounds: int) -> dict[str, Any]:
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in SETTINGS}
    for index in range(rounds):
        order = list(SETTINGS) if index % 2 == 0 else list(reversed(SETTINGS))
        for name in order:
            runs[name].append(one(space, strategy, question, SETTINGS[name]))
    return {
        "config": {"space": space, "strategy": strategy, "question": question, "rounds": rounds},
        "machine": machine(),
        "runs": {name: [[round(s, 3), round(mb, 1)] for s, mb in v] for name, v in runs.items()},
    }


def render_oneshot(results: dict[str, Any]) -> str:
    runs = results["runs"]
    median = {
        name: (
            statistics.median(s for s, _ in runs[name]),
            statistics.median(mb for _, mb in runs[name]),
        )
        for name in SETTINGS
    }
    new, old = median["kept out"], median["allowed"]
    rows = [
        [f"torch {name}", fmt(median[name][0], 2), fmt(median[name][1], 0)] for name in SETTINGS
    ]
    rows.append(["ratio (kept out / allowed)", fmt(new[0] / old[0], 2), fmt(new[1] / old[1], 2)])
    config = results["config"]
    title = (
        f"One-shot `graphmem query` on {config['space']} ({config['strategy']}), "
        f"median of {config['rounds']} alternating rounds"
    )
    lines = [title, "", *table(["spaCy's import", "wall s", "peak MB"], rows)]
    return "\n".join(lines) + "\n"
