"""Shared fixtures. The database is always a real Neo4j with GDS:

1. ``NEO4J_URI`` (+ ``NEO4J_USER``/``NEO4J_PASSWORD``) when set;
2. else a testcontainers Neo4j when a Docker engine answers and testcontainers is installed;
3. else graphmem's own launcher (``graphmem server start``: mvn-fetched Neo4j 5.26 + GDS).

Every test that writes gets its own space and deletes it afterwards.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder, build_embedder
from graphmem.graph.schema import init_schema
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from graphmem.server import process


def _docker_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@contextmanager
def _exported(values: dict[str, str]) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


@pytest.fixture(scope="session")
def settings() -> Iterator[Settings]:
    base = Settings()
    if base.external:
        yield base
        return
    if _docker_answers():
        try:
            from testcontainers.neo4j import Neo4jContainer  # type: ignore[import-not-found]
        except ImportError:
            pass
        else:
            container = Neo4jContainer("neo4j:5.26-community", password="graphmem-test")
            container.with_env("NEO4J_PLUGINS", '["graph-data-science"]')
            container.with_env("NEO4J_dbms_security_procedures_unrestricted", "gds.*")
            with container:
                server = {
                    "NEO4J_URI": container.get_connection_url(),
                    "NEO4J_PASSWORD": "graphmem-test",
                }
                # CLI invocations build their own ``Settings()`` from the environment: they
                # must reach the same server as the fixtures do.
                with _exported(server):
                    yield Settings()
            return
    process.start(base)
    yield base


@pytest.fixture(scope="session")
def embedder(settings: Settings) -> Embedder:
    return build_embedder(settings)


@pytest.fixture(scope="session")
def store(settings: Settings, embedder: Embedder) -> Iterator[GraphStore]:
    with GraphStore(settings) as graph:
        init_schema(graph, embedder)
        yield graph


@pytest.fixture
def memory(settings: Settings, store: GraphStore, embedder: Embedder) -> Memory:
    """A Memory over the session's store and embedder (not closed: it shares the store).
    A module that needs another (a scope, a setting, registered plug-ins) defines its own."""
    return Memory(settings, store=store, embedder=embedder)


def delete_space(store: GraphStore, name: str) -> None:
    while store.write("core.delete_space_batch", space=name, batch=5000)[0]["deleted"]:
        pass


@pytest.fixture
def space(store: GraphStore) -> Iterator[str]:
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    delete_space(store, name)


@pytest.fixture
def clean_space(store: GraphStore) -> Iterator[str]:
    """A second fresh space: the build a changed ``space`` is compared with."""
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    delete_space(store, name)


@pytest.fixture
def spaces(store: GraphStore) -> Iterator[list[str]]:
    """Space names a test adds to the list, deleted afterwards whatever the test did."""
    made: list[str] = []
    yield made
    for name in made:
        delete_space(store, name)
