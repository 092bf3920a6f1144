"""Issue 15 item 1: kill -9 an ingest at several points, per builder; the rerun gives the
same graph as a clean build (equal digests).

The short variant (1 point per builder) runs by default; ``-m long`` runs 8 per builder.
The kill happens right before a write statement is sent: inside a session's transaction,
between a builder's statements, or between a build and its ``mark_built``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.digest import SpaceDigest, space_digest
from graphmem.embed import Embedder
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.store import FAULTS, GraphStore
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
SESSIONS = 3
BUILDERS = ["", "seem", "anchormem", "seem,anchormem"]


def _run(space: str, builders: str, kill_at: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "tests.faults.ingest_until_killed", space, builders]
    return subprocess.run(
        [*cmd, str(SESSIONS), str(kill_at)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture
def spaces(store: GraphStore) -> Iterator[list[str]]:
    made: list[str] = []
    yield made
    for name in made:
        while store.write("core.delete_space_batch", space=name, batch=5000)[0]["deleted"]:
            pass


def _new(spaces: list[str]) -> str:
    spaces.append(f"test-crash-{uuid.uuid4().hex[:8]}")
    return spaces[-1]


def _crash_and_rerun(
    memory: Memory, store: GraphStore, spaces: list[str], builders: str, points: int
) -> list[tuple[int, SpaceDigest]]:
    names = [b for b in builders.split(",") if b]
    conv = tiny_conversation(sessions=SESSIONS)
    with _counting() as writes_seen:
        memory.ingest_dataset(Dataset(conversations=[conv], qa={}), _new(spaces), names)
    writes = len(writes_seen)
    expected = space_digest(store, spaces[-1])
    results = []
    for k in range(1, points + 1):
        kill_at = max(1, round(writes * k / (points + 1)))
        space = _new(spaces)
        killed = _run(space, builders, kill_at)
        assert killed.returncode == -9, killed.stderr[-3000:]
        memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, names)
        results.append((kill_at, space_digest(store, space)))
    for kill_at, found in results:
        assert found.labels == expected.labels, f"killed before write {kill_at} of {writes}"
        assert found.types == expected.types, f"killed before write {kill_at} of {writes}"
        assert found.sha256 == expected.sha256, f"killed before write {kill_at} of {writes}"
    return results


@contextmanager
def _counting() -> Iterator[list[str]]:
    """The write statements a clean run sends (the same seam the killed runs count with)."""
    seen: list[str] = []
    FAULTS.hook = seen.append
    try:
        yield seen
    finally:
        FAULTS.hook = None


@pytest.fixture
def memory(settings: Settings, store: GraphStore, embedder: Embedder) -> Memory:
    return Memory(settings, store=store, embedder=embedder)


@pytest.mark.parametrize("builders", BUILDERS)
def test_kill_then_rerun_equals_a_clean_build(
    memory: Memory, store: GraphStore, spaces: list[str], builders: str
) -> None:
    _crash_and_rerun(memory, store, spaces, builders, points=1)


@pytest.mark.long
@pytest.mark.parametrize("builders", BUILDERS)
def test_kill_at_many_points_then_rerun_equals_a_clean_build(
    memory: Memory, store: GraphStore, spaces: list[str], builders: str
) -> None:
    _crash_and_rerun(memory, store, spaces, builders, points=8)
