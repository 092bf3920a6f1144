"""``graphmem reembed``: a space switched to another embedder in place holds the vectors a
fresh ingest with that embedder stores, keeps its digest, resumes after kill -9, and is
refused meanwhile; the embedder each space was built with is pinned per space."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from typing import Any

import numpy as np
import pytest

from graphmem.cli.admin_cmds import spaces_check
from graphmem.config import Settings
from graphmem.embed import Embedder, build_embedder
from graphmem.embed.reembed import plan_spaces, reembed_space
from graphmem.errors import SchemaError
from graphmem.graph.digest import space_digest
from graphmem.graph.schema import check_space_embedder, space_embedder
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.plugin.configure import DesignConfigs
from tests.faults.reembed_until_killed import switch_target
from tests.integration.helpers import tiny_conversation
from tests.paths import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.slow]
SESSIONS = 2  # 12 turns: 6 batches of two


@pytest.fixture(scope="module")
def e5() -> Embedder:
    """The embedder spaces are switched to: e5-small-v2 int8, or MiniLM where that is the
    configured one (the default)."""
    return build_embedder(switch_target(Settings()))


def _ingest(settings: Settings, embedder: Embedder, space: str) -> None:
    conv = tiny_conversation(sessions=SESSIONS)
    with Memory(settings, embedder=embedder) as memory:
        memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders=[])


def _vectors(store: GraphStore, space: str) -> dict[str, np.ndarray]:
    rows = store.read("retrieval.space_passage_vectors", space=space)
    return {r["id"]: np.asarray(r["embedding"], dtype=np.float32) for r in rows}


def _killed_reembed(space: str, kill_at: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "tests.faults.reembed_until_killed", space, str(kill_at)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_killed_reembed_resumes_to_a_fresh_ingests_vectors(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    e5: Embedder,
    spaces: list[str],
) -> None:
    switched, fresh = (
        f"reembed-switched-{uuid.uuid4().hex[:8]}",
        f"reembed-fresh-{uuid.uuid4().hex[:8]}",
    )
    spaces.extend([switched, fresh])
    assert embedder.name != e5.name
    _ingest(settings, embedder, switched)
    assert space_embedder(store, switched) == embedder.name
    before = space_digest(store, switched)

    # kill -9 before the third write: the start and one batch of two are written
    killed = _killed_reembed(switched, 3)
    assert killed.returncode == -9, killed.stderr
    row = store.read("core.space_embedder", space=switched)[0]
    assert row["reembed_to"] == e5.name and row["embedder"] == embedder.name
    with pytest.raises(SchemaError, match="being re-embedded"):
        check_space_embedder(store, switched, embedder)
    with pytest.raises(SchemaError, match="being re-embedded"):
        check_space_embedder(store, switched, e5)

    resumed = reembed_space(store, e5, switched, batch=2)
    assert resumed["resumed_after"] and resumed["passages"] == 6 * SESSIONS - 2
    assert space_embedder(store, switched) == e5.name
    check_space_embedder(store, switched, e5)
    with pytest.raises(SchemaError, match="embedded with"):
        check_space_embedder(store, switched, embedder)
    assert space_digest(store, switched).sha256 == before.sha256

    _ingest(settings, e5, fresh)
    got, want = _vectors(store, switched), _vectors(store, fresh)
    assert got.keys() == want.keys() and len(got) == 6 * SESSIONS
    cosine = [float(got[k] @ want[k]) for k in got]
    assert min(cosine) >= 0.9999, cosine

    # the same switch again is a no-op
    assert reembed_space(store, e5, switched)["passages"] == 0


def test_a_space_is_refused_to_another_embedder_and_planned_only_when_it_exists(
    settings: Settings, store: GraphStore, embedder: Embedder, e5: Embedder, spaces: list[str]
) -> None:
    name = f"reembed-pin-{uuid.uuid4().hex[:8]}"
    spaces.append(name)
    check_space_embedder(store, name, e5)  # a space that does not exist takes any embedder
    _ingest(settings, embedder, name)
    with pytest.raises(SchemaError, match="reembed --space"):
        _ingest(settings, e5, name)
    with pytest.raises(Exception, match="no such space"):
        plan_spaces(store, [f"{name}-missing"])
    assert [r["space"] for r in plan_spaces(store, [name])] == [name]
    detail = spaces_check(store, e5.name)
    assert embedder.name in detail and "[not the configured embedder]" in detail


# Settings under which the tiny conversation fuses SEEM frames of two turns across its
# sessions a week apart and Amory consolidates stories into subplots.
_FUSING = DesignConfigs(
    overrides={
        "seem": {"frame_window": 2, "fuse_max_gap_hours": 1000.0, "fuse_min_similarity": 0.5},
        "amory": {"init_turns": 8, "min_subplot_items": 2},
    }
)
_KEYS = ("label", "id", "text", "summary", "key", "value", "headline")


def _stored(store: GraphStore, space: str, read: str) -> dict[str, np.ndarray]:
    params = {"insights": True, "offline_insights": True, "messages": False}
    if "." not in read:  # a label no statement reads whole: its nodes' own properties
        with store.driver.session(database=store.database) as session:
            found = session.run(
                f"MATCH (n:{read} {{space: $space}}) RETURN n {{.*}} AS n", space=space
            )
            rows = [r["n"] for r in found]
        # A frame's id names its first turn, whose id differs between two spaces.
        return _keyed([{**r, "id": r["vector_parts"]} for r in rows])
    rows = store.read(read, space=space, **(params if read == "premem.snapshot" else {}))
    if read == "amory.snapshot_stories":  # subplots are nested in their story's row
        rows = [*rows, *({**s, "label": "Subplot"} for r in rows for s in r["subplots"])]
    return _keyed(rows)


def _keyed(rows: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    # Keyed by id and text: a text a build chose by cosine (CAST's offline summary picks
    # central sentences) may differ between two embedders; a node's vector is compared with
    # a fresh build's where both embedded the same text (and, for SEEM, fused the same parts).
    return {
        "/".join(str(r.get(k, "")) for k in (*_KEYS, "vector_passages")): (
            np.asarray(r["embedding"], dtype=np.float32)
        )
        for r in rows
        if r["embedding"] is not None
    }


@pytest.mark.parametrize(
    ("builder", "reads"),
    [
        ("semantic", ("semantic.space_entities", "semantic.space_facts")),
        ("anchormem", ("anchormem.snapshot",)),
        ("premem", ("premem.snapshot",)),
        ("cast", ("cast.space_scenes", "cast.space_views", "semantic.space_entities")),
        ("seem", ("EventFrame", "semantic.space_facts")),
        ("amory", ("amory.snapshot_stories", "semantic.space_facts")),
    ],
)
def test_a_designs_vectors_are_recomputed_as_a_fresh_build_stores_them(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    e5: Embedder,
    spaces: list[str],
    builder: str,
    reads: tuple[str, ...],
) -> None:
    switched, fresh = (
        f"reembed-switched-{uuid.uuid4().hex[:8]}",
        f"reembed-fresh-{uuid.uuid4().hex[:8]}",
    )
    spaces.extend([switched, fresh])
    conv = tiny_conversation(sessions=SESSIONS)
    for space, with_embedder in ((switched, embedder), (fresh, e5)):
        with Memory(settings, embedder=with_embedder, configs=_FUSING) as memory:
            memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, [builder])
    before = space_digest(store, switched)
    done = reembed_space(store, e5, switched)
    assert done["derived"][builder] > 0
    assert space_digest(store, switched).sha256 == before.sha256
    for read in reads:
        got, want = _stored(store, switched, read), _stored(store, fresh, read)
        common = got.keys() & want.keys()
        assert len(common) >= 2, read
        if read == "EventFrame":  # fused frames replay their fold
            assert any(", " in k.split("/")[1] for k in common), common
        if read == "amory.snapshot_stories":
            assert any(k.startswith("Subplot/") for k in common), common
        assert min(float(got[k] @ want[k]) for k in common) >= 0.9999, read


def test_a_space_with_vectors_no_design_recomputes_is_refused(
    settings: Settings, store: GraphStore, embedder: Embedder, spaces: list[str]
) -> None:
    other = f"reembed-refused-{uuid.uuid4().hex[:8]}"
    spaces.append(other)
    _ingest(settings, embedder, other)
    # A label no registered design's hook covers (a node a retired design left behind).
    with store.driver.session(database=store.database) as session:
        session.run(
            "CREATE (:ReembedOrphan {space: $space, id: 'x', embedding: [1.0, 0.0]})",
            space=other,
        ).consume()
    with pytest.raises(Exception, match="ReembedOrphan"):
        plan_spaces(store, [other])
