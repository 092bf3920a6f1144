"""The canonical space digest: equal for equal graphs (in any space), different otherwise."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore, connection
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration


@pytest.fixture
def other_space(store: GraphStore) -> Iterator[str]:
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    while store.write("core.delete_space_batch", space=name, batch=5000)[0]["deleted"]:
        pass


def _ingest(memory: Memory, space: str, extra: str | None = None) -> None:
    conv = tiny_conversation(sessions=2, extra=extra)
    memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders=[])


def test_digest_is_equal_across_spaces_and_counts_match(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str, other_space: str
) -> None:
    memory = Memory(settings, store=store, embedder=embedder)
    _ingest(memory, space)
    _ingest(memory, other_space)
    one, two = space_digest(store, space), space_digest(store, other_space)
    assert one.sha256 == two.sha256
    assert one.labels == two.labels
    counts = {r["label"]: r["count"] for r in store.read("core.space_counts", space=space)}
    assert one.labels == counts
    assert one.labels["Passage"] == 12
    assert one.types["NEXT"] == 11 + 1  # 11 between passages, 1 between the sessions


def test_digest_changes_with_a_property_or_a_relationship(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str, other_space: str
) -> None:
    memory = Memory(settings, store=store, embedder=embedder)
    _ingest(memory, space)
    _ingest(memory, other_space, extra="One more turn.")
    assert space_digest(store, space).nodes_sha256 != space_digest(store, other_space).nodes_sha256
    before = space_digest(store, space)
    with store.driver.session(database=store.database) as session:
        session.run(
            "MATCH (:Passage {space: $space})-[r:NEXT]->(:Passage) WITH r LIMIT 1 DELETE r",
            space=space,
        ).consume()
    after = space_digest(store, space)
    assert after.nodes_sha256 == before.nodes_sha256
    assert after.relationships_sha256 != before.relationships_sha256
    assert after.types["NEXT"] == before.types["NEXT"] - 1


def test_stats_digest_cli(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    _ingest(Memory(settings, store=store, embedder=embedder), space)
    out = CliRunner().invoke(cli, ["stats", "--space", space, "--digest", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["sha256"] == space_digest(store, space).sha256
    assert data["labels"]["Passage"] == 12


def test_cli_settings_reach_the_fixture_server(settings: Settings) -> None:
    """CLI commands build ``Settings()`` from the environment; it must name the same server
    (and credentials) the fixtures use, whichever way the fixtures found one."""
    assert connection(Settings()) == connection(settings)
