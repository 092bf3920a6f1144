"""``settle()``: what is alive when a retriever is prepared leaves the collector's passes."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref

import pytest

from graphmem.config import Settings
from graphmem.plugin.retriever import settle, space_out_collections


def test_settle_freezes_what_is_alive_and_refcounting_still_frees() -> None:
    kept = [{"row": n} for n in range(1000)]
    try:
        settle(Settings(settle_gc=True))
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


class _Retriever:
    """Holds a reference cycle, as a prepared retriever does."""

    def __init__(self) -> None:
        self.me = self


def test_a_cycle_frozen_by_one_settle_and_dropped_is_freed_by_the_next() -> None:
    # A retriever dropped after settle (an evicted one, the last haystack's) holds cycles.
    retriever = _Retriever()
    ref = weakref.ref(retriever)
    try:
        settle(Settings(settle_gc=True))
        del retriever
        gc.collect()
        assert ref() is not None  # frozen: no pass reaches it
        settle(Settings(settle_gc=True))
        assert ref() is None
    finally:
        gc.unfreeze()


def test_what_settle_froze_goes_back_to_the_collector_at_exit() -> None:
    # Extension modules print "leaked instances" when shutdown finds objects frozen. An
    # exit handler registered before settle() runs after settle's own (LIFO) and sees 0.
    code = (
        "import atexit, gc\n"
        "atexit.register(lambda: print(gc.get_freeze_count()))\n"
        "from graphmem.config import Settings\n"
        "from graphmem.plugin.retriever import settle\n"
        "on = Settings(settle_gc=True)\n"
        "settle(on); settle(on)\n"
        "assert gc.get_freeze_count() > 0\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_settle_is_a_no_op_when_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(1))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append(0))
    settle(Settings(settle_gc=False))
    assert calls == []
    settle(Settings(settle_gc=True))
    assert calls == [0, 1]


def test_settle_without_collect_freezes_what_is_new_and_frees_nothing() -> None:
    retriever = _Retriever()
    ref = weakref.ref(retriever)
    gc.disable()  # no automatic pass between the steps
    try:
        settle(Settings(settle_gc=True))
        before = gc.get_freeze_count()
        del retriever
        loaded_lazily = [[n] for n in range(500)]  # lists: tracked by the collector
        settle(Settings(settle_gc=True), collect=False)
        assert ref() is not None  # no pass: the dropped cycle waits for the next settle
        assert gc.get_freeze_count() >= before + len(loaded_lazily)
        settle(Settings(settle_gc=True))
        assert ref() is None
    finally:
        gc.enable()
        gc.unfreeze()


def test_space_out_collections_only_with_settle_gc() -> None:
    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        space_out_collections(Settings(settle_gc=False))
        assert gc.get_threshold() == (700, 10, 10)
        space_out_collections(Settings(settle_gc=True))
        young, _, full = gc.get_threshold()
        assert young > 700 and full > 10  # fewer young passes, far fewer full ones
    finally:
        gc.set_threshold(*saved)
