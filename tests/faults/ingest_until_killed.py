"""Run an ingest and SIGKILL this very process before the N-th write statement (a test
helper, run as a subprocess by tests/integration/test_crash_faults.py).

    python -m tests.faults.ingest_until_killed SPACE BUILDERS SESSIONS KILL_AT

BUILDERS is comma-separated ("" for core only); KILL_AT 0 runs to the end and prints the
number of write statements it sent, as JSON.
"""

from __future__ import annotations

import json
import os
import signal
import sys

from graphmem.config import Settings
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.store import FAULTS
from tests.integration.helpers import tiny_conversation


def main() -> None:
    space, builders, sessions, kill_at = (
        sys.argv[1],
        sys.argv[2],
        int(sys.argv[3]),
        int(sys.argv[4]),
    )
    writes = 0

    def hook(name: str) -> None:
        nonlocal writes
        writes += 1
        if writes == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)  # kill -9: no cleanup, no rollback call

    FAULTS.hook = hook
    conv = tiny_conversation(sessions=sessions)
    with Memory(Settings()) as memory:
        memory.ingest_dataset(
            Dataset(conversations=[conv], qa={}), space, [b for b in builders.split(",") if b]
        )
    print(json.dumps({"writes": writes}))


if __name__ == "__main__":
    main()
