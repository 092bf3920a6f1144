"""Re-embed a space with another embedder than the configured one (``switch_target``), two
passages per batch, and SIGKILL this very process before the N-th write statement (a test
helper, run as a subprocess by tests/integration/embed/test_reembed.py).

    python -m tests.faults.reembed_until_killed SPACE KILL_AT
"""

from __future__ import annotations

import json
import os
import signal
import sys

from graphmem.config import Settings
from graphmem.embed import build_embedder
from graphmem.embed.reembed import reembed_space
from graphmem.graph.store import FAULTS, GraphStore


def switch_target(configured: Settings) -> Settings:
    """The embedder spaces are switched to: e5-small-v2 int8, or MiniLM where e5-small-v2
    int8 is the configured embedder (the default), so that the switch changes something."""
    e5 = configured.model_copy(update={"embedder": "e5-small-v2", "embedding_precision": "int8"})
    if configured.embedder == "e5-small-v2" and configured.resolved_precision == "int8":
        return configured.model_copy(
            update={"embedder": "minilm", "embedding_precision": "float32"}
        )
    return e5


def main() -> None:
    space, kill_at = sys.argv[1], int(sys.argv[2])
    writes = 0

    def hook(name: str) -> None:
        nonlocal writes
        writes += 1
        if writes == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)  # kill -9: no cleanup, no rollback call

    settings = switch_target(Settings())
    embedder = build_embedder(settings)
    embedder.embed(["load the model before the first write"])
    FAULTS.hook = hook
    with GraphStore(settings) as store:
        done = reembed_space(store, embedder, space, batch=2)
    print(json.dumps({"writes": writes, **done}))


if __name__ == "__main__":
    main()
