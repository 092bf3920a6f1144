"""``settle()``: what is alive when a retriever is prepared leaves the collector's passes."""

from __future__ import annotations

import gc
import weakref

from graphmem.retrieval.base import settle


def test_settle_freezes_what_is_alive_and_refcounting_still_frees() -> None:
    kept = [{"row": n} for n in range(1000)]
    try:
        settle()
        assert gc.get_freeze_count() >= len(kept)

        # A frozen acyclic object is still freed when its last reference goes.
        class Snapshot:
            pass

        snapshot = Snapshot()
        gc.freeze()
        ref = weakref.ref(snapshot)
        del snapshot
        assert ref() is None
    finally:
        gc.unfreeze()
