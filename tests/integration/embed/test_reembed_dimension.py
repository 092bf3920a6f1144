"""``graphmem reembed --all`` to an embedder of another dimension, on a private server on
spare ports (the shared server's indexes are never dropped): SmolLM2-135M served by
llama.cpp (``graphmem llm serve --embeddings``, 576-d) through ``GRAPHMEM_EMBEDDER=openai``.
Killed (kill -9) in each phase, the switch resumes; meanwhile the database refuses ingest
and queries; at the end every vector equals a fresh ingest's, the digests are unchanged
and the vector indexes are online at the new dimension."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder, build_embedder
from graphmem.embed.reembed_dim import new_dimension
from graphmem.errors import ConfigError, SchemaError
from graphmem.graph.digest import space_digest
from graphmem.graph.schema import init_schema, space_embedder, stored_meta
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.llm.serve import serve_command
from graphmem.memory import Memory
from graphmem.server import process
from graphmem.server.runtime import Runtime
from tests.integration.helpers import tiny_conversation
from tests.paths import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.llm, pytest.mark.long]
BOLT, HTTP, LLM = 27797, 27584, 27866
SMOLLM2_DIM = 576
# The designs whose labels have no vector index build and switch on a database without one.
SPACES = {
    "reembed-dim-plain": [],
    "reembed-dim-semantic": ["semantic"],
    "reembed-dim-designs": ["premem", "cast", "amory"],
}


@pytest.fixture(scope="module")
def private(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    base = Settings()
    if not Runtime(base.runtime_dir).is_complete() or process.port_open(BOLT):
        pytest.skip("no fetched runtime, or the spare port is taken")
    settings = base.model_copy(
        update={
            "home": tmp_path_factory.mktemp("reembed-dim-server"),
            "neo4j_uri": None,
            "bolt_port": BOLT,
            "http_port": HTTP,
            "heap_size": "512m",
            "pagecache_size": "128m",
        }
    )
    process.start(settings)
    yield settings
    process.stop(settings)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def wide(private: Settings) -> Iterator[Settings]:
    """The private server's settings with SmolLM2's embeddings as the embedder."""
    if importlib.util.find_spec("llama_cpp") is None or process.port_open(LLM):
        pytest.skip("llama-cpp-python is not installed, or the spare port is taken")
    command = serve_command(port=LLM, n_ctx=2048, threads=1, embeddings=True)
    server = subprocess.Popen(
        command.argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT
    )
    try:
        deadline = time.monotonic() + 180
        while not _answers(f"{command.base_url}/models"):
            assert server.poll() is None and time.monotonic() < deadline, "no model server"
            time.sleep(1)
        yield private.model_copy(
            update={
                "embedder": "openai",
                "embedding_model": command.alias,
                "embedding_dim": SMOLLM2_DIM,
                "llm_base_url": command.base_url,
            }
        )
    finally:
        server.terminate()
        server.wait(timeout=60)


def _vector_statements_of_a_fresh_process(settings: Settings) -> int:
    """How many vector indexes the re-embedding (a process of its own) makes: this test
    process's catalog also holds the example designs the contract tests register."""
    count = (
        "from graphmem.graph.catalog import schema_statements as s;"
        "print(sum('.vector.' in n for n in s()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", count],
        env=_env(settings),
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.strip())


def _env(settings: Settings) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GRAPHMEM_"))}
    return {
        **env,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "HF_HUB_OFFLINE": "1",
        "GRAPHMEM_HOME": str(settings.home),
        "GRAPHMEM_BOLT_PORT": str(settings.bolt_port),
        "GRAPHMEM_HTTP_PORT": str(settings.http_port),
        "GRAPHMEM_EMBEDDER": "openai",
        "GRAPHMEM_EMBEDDING_MODEL": settings.embedding_model,
        "GRAPHMEM_EMBEDDING_DIM": str(settings.embedding_dim),
        "GRAPHMEM_LLM_BASE_URL": str(settings.llm_base_url),
    }


def _reembed_killed_at(settings: Settings, statement: str, n: int) -> int:
    run = subprocess.run(
        [sys.executable, "-m", "tests.faults.reembed_all_until_killed", statement, str(n)],
        cwd=ROOT,
        env=_env(settings),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert run.returncode in (0, -9), run.stderr
    return run.returncode


def _ingest(settings: Settings, embedder: Embedder, space: str, builders: list[str]) -> None:
    with Memory(settings, embedder=embedder) as memory:
        memory.ingest_dataset(
            Dataset(conversations=[tiny_conversation(sessions=2)], qa={}), space, builders
        )


def _vectors(store: GraphStore, space: str) -> dict[str, np.ndarray]:
    rows = store.read("retrieval.space_passage_vectors", space=space)
    out = {r["id"]: np.asarray(r["embedding"], dtype=np.float32) for r in rows}
    for read, key in (("semantic.space_entities", "id"), ("semantic.space_facts", "id")):
        for r in store.read(read, space=space):
            out[f"{read}/{r[key]}"] = np.asarray(r["embedding"], dtype=np.float32)
    return out


def test_reembed_all_to_another_dimension_resumes_after_kill_9_in_every_phase(
    private: Settings, wide: Settings
) -> None:
    narrow = build_embedder(private)
    target = build_embedder(wide)
    assert target.dim == SMOLLM2_DIM != narrow.dim
    with GraphStore(private) as store:
        init_schema(store, narrow)
        for space, builders in SPACES.items():
            _ingest(private, narrow, space, builders)
        before = {space: space_digest(store, space).sha256 for space in SPACES}
        with pytest.raises(ConfigError, match="belongs to the whole database"):
            new_dimension(store, target, every=False)

        # kill -9 after the mark, then mid-way through the index drops, a space's passages,
        # a design's vectors and the index rebuild, and just before the database is pinned
        phases = [
            ("admin.drop_index", 1),
            ("admin.drop_index", 4),
            ("reembed.write_passages", 1),
            ("semantic.set_fact_vectors", 1),
            ("schema.vector.passage", 1),
            ("reembed.finish_dimension", 1),
        ]
        for statement, n in phases:
            assert _reembed_killed_at(wide, statement, n) == -9, statement
            meta = stored_meta(store)
            assert meta is not None and meta["reembed_dim"] == SMOLLM2_DIM, statement
            for embedder in (narrow, target):  # whatever it is configured with
                refused = pytest.raises(SchemaError, match="being re-embedded to dimension 576")
                with refused, Memory(private, embedder=embedder) as memory:
                    memory.query("what did Ana plant?", "reembed-dim-plain")
            with pytest.raises(ConfigError, match="being re-embedded with"):
                new_dimension(store, narrow, every=True)  # another target: finish this first
        assert _reembed_killed_at(wide, "never", 1) == 0

        meta = stored_meta(store)
        assert meta is not None and meta["dim"] == SMOLLM2_DIM and meta["reembed_dim"] is None
        indexes = store.read("admin.vector_indexes")
        assert len(indexes) == _vector_statements_of_a_fresh_process(wide)
        assert {(i["dim"], i["state"]) for i in indexes} == {(SMOLLM2_DIM, "ONLINE")}
        for space, builders in SPACES.items():
            assert space_embedder(store, space) == target.name
            assert space_digest(store, space).sha256 == before[space], space
            fresh = f"{space}-fresh"
            _ingest(wide, target, fresh, builders)
            got, want = _vectors(store, space), _vectors(store, fresh)
            assert got.keys() == want.keys() and len(got) >= 12, space
            cosine = min(float(got[k] @ want[k]) for k in got)
            assert cosine >= 0.9999, (space, cosine)
        with Memory(wide, embedder=target) as memory:
            found = memory.query("what did Ana plant?", "reembed-dim-plain", "dense")
            assert found.result.hits
