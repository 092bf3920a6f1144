"""``graphmem reembed --all --embedder openai`` (the settings come from the environment), and
SIGKILL this very process before the N-th write of the statement named STATEMENT (a test
helper, run as a subprocess by tests/integration/embed/test_reembed_dimension.py).

    python -m tests.faults.reembed_all_until_killed STATEMENT N
"""

from __future__ import annotations

import os
import signal
import sys

from graphmem.cli.main import cli
from graphmem.graph.store import FAULTS


def main() -> None:
    statement, kill_at = sys.argv[1], int(sys.argv[2])
    seen = 0

    def hook(name: str) -> None:
        nonlocal seen
        if name == statement:
            seen += 1
            if seen == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)  # kill -9: no cleanup, no rollback

    FAULTS.hook = hook
    cli(
        ["reembed", "--all", "--embedder", "openai", "--no-progress", "--json"],
        prog_name="graphmem",
    )


if __name__ == "__main__":
    main()
