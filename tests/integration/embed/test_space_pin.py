"""A space's embedder is pinned before its first passage is written: a process killed in
the middle of the first write leaves a space that names its embedder, not one read as
written before spaces were pinned (the database's first embedder)."""

from __future__ import annotations

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.schema import space_embedder
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.ingest.writer import PassageWriter
from graphmem.memory import Memory
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration


class Killed(BaseException):
    """Stands for the process dying mid-write: no ``except Exception`` catches it."""


def test_the_embedder_is_pinned_before_the_first_write(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    memory = Memory(settings, store=store, embedder=embedder)
    seen: list[str | None] = []

    def dies(self: PassageWriter, *args: object, **kwargs: object) -> None:
        seen.append(space_embedder(store, space))
        raise Killed

    monkeypatch.setattr(PassageWriter, "write_conversation", dies)
    with pytest.raises(Killed):
        memory.ingest_dataset(Dataset(conversations=[tiny_conversation()], qa={}), space, [])
    assert seen == [embedder.name]
    rows = store.read("core.space_embedder", space=space)
    assert rows[0]["exists"] and rows[0]["embedder"] == embedder.name
    monkeypatch.undo()
    memory.ingest_dataset(Dataset(conversations=[tiny_conversation()], qa={}), space, [])
    assert store.read("core.space_embedder", space=space)[0]["passages"] > 0
