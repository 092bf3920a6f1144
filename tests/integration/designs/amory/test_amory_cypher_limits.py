"""The server's per-transaction memory limit, written by graphmem's launcher, against a
generated query that every check accepts but that grows past it (issue 36, item 4): on a
second server on spare ports (the shared one is never restarted), the query fails once with
the limit named, is not retried, and a write into another space running at the same time
is not harmed."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.designs.amory import safe_cypher
from graphmem.designs.amory.safe_cypher import CypherFailed, Policy, run_read_only
from graphmem.designs.amory.semantic import LABELS, PARAMS, RELATIONSHIPS
from graphmem.graph.store import GraphStore
from graphmem.server import process
from graphmem.server.runtime import Runtime

pytestmark = pytest.mark.integration
BOLT, HTTP = 27887, 27674
# A cartesian product of 300 facts, three times, collected: every check accepts it (all
# nodes of the space, allowed labels) and it needs gigabytes.
HEAVY = (
    "MATCH (a:Fact {space: $space}), (b:Fact {space: $space}), (c:Fact {space: $space}) "
    "RETURN size(collect([a.text, b.text, c.text])) AS id"
)


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphStore]:
    base = Settings()
    if not Runtime(base.runtime_dir).is_complete() or process.port_open(BOLT):
        pytest.skip("no fetched runtime, or the spare port is taken")
    settings = base.model_copy(
        update={
            "home": tmp_path_factory.mktemp("limited-server"),
            "neo4j_uri": None,
            "bolt_port": BOLT,
            "http_port": HTTP,
            "heap_size": "512m",  # the pool of all transactions (70%) above the limit
            "pagecache_size": "128m",
            "transaction_memory_max": "128m",  # the default's 512m trips later, not otherwise
        }
    )
    try:
        process.start(settings)
        with GraphStore(settings) as store:
            yield store
    finally:
        process.stop(settings)


def _write(store: GraphStore, query: str, **params: Any) -> None:
    with store.driver.session(database=store.database) as session:
        session.execute_write(lambda tx: tx.run(query, **params).consume())


def test_the_launcher_sets_the_limit(limited: GraphStore) -> None:
    with limited.driver.session(database="system") as session:
        record = session.run(
            "SHOW SETTINGS YIELD name, value WHERE name = 'db.memory.transaction.max' RETURN value"
        ).single()
    assert record is not None and record["value"] == "128.00MiB"


def test_a_query_past_the_limit_fails_once_and_harms_no_other_write(
    limited: GraphStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(
        limited,
        "UNWIND range(1, 300) AS i CREATE (:Fact {space: 'heavy', id: 'f' + i, "
        "text: reduce(s = '', k IN range(1, 20) | s + 'abcde')})",
    )
    plans: list[str] = []
    real_plan = safe_cypher.plan
    monkeypatch.setattr(
        safe_cypher,
        "plan",
        lambda tx, text, values: (plans.append(text), real_plan(tx, text, values))[1],
    )
    written: list[int] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def writer() -> None:  # an ingest into another space, one transaction after another
        try:
            while not stop.is_set():
                _write(
                    limited,
                    "UNWIND range(1, 200) AS i CREATE (:Passage {space: 'bystander', "
                    "id: $batch + '-' + i, text: 'a turn of another conversation'})",
                    batch=str(len(written)),
                )
                written.append(200)
        except BaseException as exc:  # reported below
            errors.append(exc)

    thread = threading.Thread(target=writer)
    thread.start()
    began = time.monotonic()
    try:
        policy = Policy(LABELS, RELATIONSHIPS, PARAMS, row_cap=5, timeout_s=120.0)
        with pytest.raises(CypherFailed, match="memory limit"):
            run_read_only(limited, HEAVY, {"space": "heavy", "names": []}, policy)
    finally:
        stop.set()
        thread.join(timeout=60)
    assert time.monotonic() - began < 60
    assert len(plans) == 1  # one attempt, not retried
    assert not errors and written
    with limited.driver.session(database=limited.database) as session:
        record = session.run("MATCH (p:Passage {space: 'bystander'}) RETURN count(p) AS n").single()
    assert record is not None and record["n"] == sum(written)
