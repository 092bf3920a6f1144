"""A design that keeps something a session fed beyond FROM (here a tally on one node per
space) removes it through its ``release`` hook, and a forget then equals a fresh build
without the forgotten session; without the hook the stale entry would stay."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.plugin import Builder, BuildReport, Design, Label, SessionBatch
from graphmem.plugin.registry import register, unregister
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration


class TallyBuilder(Builder[Any]):
    name = "tally"

    def build(self, batch: SessionBatch) -> BuildReport:
        entries = [f"{session.source_id}={len(session.turns)}" for session in batch.sessions]
        self.ctx.store.write("tally.add", space=self.ctx.space, entries=entries)
        return BuildReport(self.name, sessions=len(batch.sessions))


def release(run: Callable[..., Any], space: str, session_id: str) -> None:
    run("tally.release", space=space, session_id=session_id)


TALLY = Design(
    name="tally",
    title="Tally (test)",
    summary="the turns of each built session on one node per space",
    builder=lambda ctx, settings: TallyBuilder(ctx, settings),
    labels={"Tally": Label(derived=True)},
    cypher_dir=Path(__file__).parent / "tally_cypher",
    release=release,
)


@pytest.fixture
def designed() -> Iterator[Callable[[Design], None]]:
    yield register
    unregister("tally")


def _entries(store: GraphStore, space: str) -> list[str]:
    with store.driver.session(database=store.database) as session:
        row = session.run("MATCH (t:Tally {space: $s}) RETURN t.entries AS e", s=space).single()
    return [] if row is None else list(row["e"])


@pytest.mark.parametrize("hooked", [True, False], ids=["with-release", "without"])
def test_a_designs_release_hook_removes_what_from_does_not_reach(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    clean_space: str,
    designed: Callable[[Design], None],
    hooked: bool,
) -> None:
    designed(TALLY if hooked else dataclasses.replace(TALLY, release=None))
    memory = Memory(settings, store=store, embedder=embedder)
    conv = tiny_conversation("conv-a", sessions=3)
    memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, ["tally"])
    assert _entries(store, space) == ["session_1=6", "session_2=6", "session_3=6"]
    memory.forget(space, session="session_2")
    kept = [s for s in conv.sessions if s.source_id != "session_2"]
    without = conv.model_copy(
        update={"sessions": [s.model_copy(update={"index": i}) for i, s in enumerate(kept)]}
    )
    memory.ingest_dataset(Dataset(conversations=[without], qa={}), clean_space, ["tally"])
    same = space_digest(store, space).sha256 == space_digest(store, clean_space).sha256
    assert same is hooked
    assert ("session_2=6" in _entries(store, space)) is not hooked
