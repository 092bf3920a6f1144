"""Run the real CLI (``graphmem ARGS...``) in this process and interrupt it right before a
chosen write statement (a test helper, run as a subprocess by
tests/integration/builders/test_crash_faults.py and test_server_faults.py).

    python -m tests.faults.cli_until_killed ACTION POINT RECORD -- ARGS...

Every write statement reaches ``graphmem.graph.store.FAULTS.hook`` with its catalog name (and
``begin``/``commit`` around explicit transactions). POINT is ``NAME#N``, the N-th hook call
named NAME (from 1), or ``-`` for none. ACTION is what happens there:

- ``kill``: SIGKILL this process (no cleanup, no rollback call);
- ``pause:DIR``: create DIR/paused, then wait until DIR/go exists (a test runs a second
  ingest meanwhile);
- ``stop-server``: kill -9 the local Neo4j server of this process's settings, then carry on
  (the next statement finds the server gone).

RECORD is a file that gets each hook name on a line as they come (``-`` for none): the
counting run that generates the write points.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections import Counter
from pathlib import Path

from graphmem.cli.main import main as cli_main
from graphmem.config import Settings
from graphmem.graph.store import FAULTS
from graphmem.server import process

PAUSE_LIMIT_S = 600


def _act(action: str) -> None:
    if action == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif action.startswith("pause:"):
        folder = Path(action.removeprefix("pause:"))
        (folder / "paused").touch()
        deadline = time.monotonic() + PAUSE_LIMIT_S
        while not (folder / "go").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
    elif action == "stop-server":
        pid = process.running_pid(Settings())
        assert pid is not None, "no local server to stop"
        os.killpg(pid, signal.SIGKILL)
    else:
        raise SystemExit(f"unknown action {action!r}")


def main() -> None:
    action, point, record, sep, *args = sys.argv[1:]
    if sep != "--":
        raise SystemExit("usage: ACTION POINT RECORD -- ARGS...")
    name, _, nth = point.partition("#")
    seen: Counter[str] = Counter()
    out = open(record, "w", encoding="utf-8") if record != "-" else None  # noqa: SIM115

    def hook(statement: str) -> None:
        seen[statement] += 1
        if out is not None:
            out.write(statement + "\n")
            out.flush()
        if statement == name and seen[statement] == int(nth):
            _act(action)

    FAULTS.hook = hook
    sys.argv = ["graphmem", *args]
    cli_main()


if __name__ == "__main__":
    main()
