"""Snapshots shared while retrievers are prepared (graphmem/retrieval/shared.py)."""

from __future__ import annotations

from typing import Any, cast

from graphmem.graph.store import GraphStore
from graphmem.retrieval.exact import Versioned
from graphmem.retrieval.shared import shared, sharing_snapshots


def _counter() -> tuple[list[int], Any]:
    loads: list[int] = []

    def load() -> int:
        loads.append(1)
        return len(loads)

    return loads, load


def test_outside_a_block_every_call_loads() -> None:
    _, load = _counter()
    assert shared("k", load) == 1 and shared("k", load) == 2


def test_inside_a_block_a_key_loads_once_and_the_block_forgets_it() -> None:
    _, load = _counter()
    with sharing_snapshots():
        assert shared("k", load) == 1 and shared("k", load) == 1
        assert shared("other", load) == 2
        with sharing_snapshots():  # nested: the outer block's memo
            assert shared("k", load) == 1
    assert shared("k", load) == 3


class _Store:
    """A version row per space that the test sets."""

    database = "neo4j"

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return [self.rows[params["space"]]]


def test_versioned_snapshots_share_by_key_space_and_version_row() -> None:
    store = _Store()
    store.rows = {"a": {"n": 1}, "b": {"n": 1}}
    loads, load = _counter()

    def snapshot(space: str, share: str | None) -> Versioned[int]:
        return Versioned(cast(GraphStore, store), space, "x.version", load, share=share)

    with sharing_snapshots():
        first = snapshot("a", "turns").get()
        assert snapshot("a", "turns").get() == first  # same key, space and row: one load
        assert snapshot("a", "other").get() == 2  # another key
        assert snapshot("b", "turns").get() == 3  # another space
        assert snapshot("a", None).get() == 4  # not shared
        store.rows["a"] = {"n": 2}
        assert snapshot("a", "turns").get() == 5  # the space changed: read again
    assert len(loads) == 5
