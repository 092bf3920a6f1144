"""The vector cache under a real ingest (graphmem/embed/cache.py): a conversation ingested
into a second space embeds nothing and stores the first space's vectors bit for bit; a
corrupt cache file costs a warning, never the ingest."""

from __future__ import annotations

import logging
import uuid
from pathlib import Path

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.embed.base import Embedder
from graphmem.embed.cache import CachedEmbedder, VectorStore, cache_path
from graphmem.embed.factory import build_model
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from tests.counting_embedder import Counting
from tests.integration.helpers import tiny_conversation

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def e5() -> Embedder:
    return build_model(Settings(embedder="e5-small-v2", embedding_precision="int8"))


def _vectors(store: GraphStore, space: str) -> dict[str, np.ndarray]:
    rows = store.read("retrieval.space_passage_vectors", space=space)
    return {r["id"]: np.asarray(r["embedding"], dtype=np.float32) for r in rows}


def test_a_second_space_embeds_nothing(
    settings: Settings, store: GraphStore, e5: Embedder, spaces: list[str], tmp_path: Path
) -> None:
    counting = Counting(e5)
    embedder = CachedEmbedder(counting, VectorStore(tmp_path / "v.sqlite3", 64 << 20))
    spaces.extend(f"test-vcache-{uuid.uuid4().hex[:8]}" for _ in range(2))
    data = Dataset(conversations=[tiny_conversation(sessions=2)], qa={})
    with Memory(settings, embedder=embedder) as memory:
        memory.ingest_dataset(data, spaces[0], ["semantic"])
        first = len(counting.seen)
        assert first > 12  # the 12 turns, then entity names and facts
    with Memory(settings, embedder=CachedEmbedder(counting, embedder.store)) as memory:
        memory.ingest_dataset(data, spaces[1], ["semantic"])  # another process's memory tier
    assert len(counting.seen) == first
    one, two = _vectors(store, spaces[0]), _vectors(store, spaces[1])
    assert len(one) == 12 and sorted(one) == sorted(two)  # content ids: the same turns
    assert all(one[i].tobytes() == two[i].tobytes() for i in one)


def test_a_corrupt_cache_file_never_fails_an_ingest(
    settings: Settings,
    store: GraphStore,
    e5: Embedder,
    spaces: list[str],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A file that is not a database (a torn copy, a disk error) is replaced with one
    warning; the ingest stores the model's vectors and fills the new cache."""
    local = Settings(cache_dir=tmp_path)
    cache_path(local).parent.mkdir(mode=0o700)
    cache_path(local).write_bytes(b"\x00garbage" * 4096)
    spaces.append(f"test-vcache-{uuid.uuid4().hex[:8]}")
    data = Dataset(conversations=[tiny_conversation(sessions=2)], qa={})
    with caplog.at_level(logging.WARNING):
        embedder = CachedEmbedder(e5, VectorStore.open(local))
        with Memory(settings, embedder=embedder) as memory:
            report = memory.ingest_dataset(data, spaces[0], builders=[]).report
    assert report.passages_written == 12
    assert caplog.text.count("vector cache") == 1 and embedder.store is not None
    assert embedder.store.count() == 13  # the 12 turns and the warm-up text Memory embeds
    stored = np.stack(list(_vectors(store, spaces[0]).values()))
    assert stored.shape == (12, 384) and np.allclose(np.linalg.norm(stored, axis=1), 1, atol=1e-5)
