"""Re-embed a space with e5-small-v2 int8, two passages per batch, and SIGKILL this very
process before the N-th write statement (a test helper, run as a subprocess by
tests/integration/test_reembed.py).

    python -m tests.faults.reembed_until_killed SPACE KILL_AT
"""

from __future__ import annotations

import json
import os
import signal
import sys

from graphmem.config import Settings
from graphmem.embed import build_embedder
from graphmem.reembed import reembed_space
from graphmem.store import FAULTS, GraphStore


def main() -> None:
    space, kill_at = sys.argv[1], int(sys.argv[2])
    writes = 0

    def hook(name: str) -> None:
        nonlocal writes
        writes += 1
        if writes == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)  # kill -9: no cleanup, no rollback call

    settings = Settings(embedder="e5-small-v2", embedding_precision="int8")
    embedder = build_embedder(settings)
    embedder.embed(["load the model before the first write"])
    FAULTS.hook = hook
    with GraphStore(settings) as store:
        done = reembed_space(store, embedder, space, batch=2)
    print(json.dumps({"writes": writes, **done}))


if __name__ == "__main__":
    main()
