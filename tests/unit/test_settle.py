"""``settle()``: what is alive when a retriever is prepared leaves the collector's passes."""

from __future__ import annotations

import gc
import subprocess
import sys
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


def test_what_settle_froze_goes_back_to_the_collector_at_exit() -> None:
    # Extension modules print "leaked instances" when shutdown finds objects frozen. An
    # exit handler registered before settle() runs after settle's own (LIFO) and sees 0.
    code = (
        "import atexit, gc\n"
        "atexit.register(lambda: print(gc.get_freeze_count()))\n"
        "from graphmem.retrieval.base import settle\n"
        "settle(); settle()\n"
        "assert gc.get_freeze_count() > 0\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
