"""The read-only runner for LLM-written Cypher on a real Neo4j: writes, procedure calls,
unknown labels, other spaces and huge results go through it and are refused or capped;
each server-side layer is also proven on its own (the static check bypassed)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from graphmem.designs.amory import safe_cypher
from graphmem.designs.amory.safe_cypher import (
    CypherFailed,
    CypherRefused,
    Policy,
    run_read_only,
)
from graphmem.designs.amory.semantic import LABELS, PARAMS, RELATIONSHIPS
from graphmem.store import GraphStore

pytestmark = pytest.mark.integration

POLICY = Policy(LABELS, RELATIONSHIPS, PARAMS, row_cap=5, timeout_s=1.0)
FACTS = "MATCH (f:Fact {space: $space}) RETURN f.id AS id ORDER BY id"


def _facts(store: GraphStore, space: str, n: int) -> None:
    with store.driver.session() as session:
        session.run(
            "UNWIND range(1, $n) AS i CREATE (:Fact {space: $space, id: 'f' + i, text: 'x'})",
            space=space,
            n=n,
        ).consume()


def _count(store: GraphStore, space: str) -> int:
    with store.driver.session() as session:
        record = session.run("MATCH (n {space: $space}) RETURN count(n) AS n", space=space).single()
    return int(record["n"]) if record else 0


@pytest.fixture
def facts(store: GraphStore) -> Iterator[str]:
    space = f"safe-{uuid.uuid4().hex[:10]}"
    _facts(store, space, 40)
    yield space
    with store.driver.session() as session:
        session.run("MATCH (n {space: $space}) DETACH DELETE n", space=space).consume()


def _run(store: GraphStore, space: str, query: str) -> safe_cypher.Outcome:
    return run_read_only(store, query, {"space": space, "names": ["x"]}, POLICY)


def test_a_read_query_returns_rows_of_its_space_only(store: GraphStore, facts: str) -> None:
    other = f"safe-{uuid.uuid4().hex[:10]}"
    _facts(store, other, 2)
    try:
        outcome = _run(store, other, FACTS)
        assert [r["id"] for r in outcome.rows] == ["f1", "f2"] and not outcome.capped
    finally:
        with store.driver.session() as session:
            session.run("MATCH (n {space: $space}) DETACH DELETE n", space=other).consume()


def test_huge_results_are_capped(store: GraphStore, facts: str) -> None:
    outcome = _run(store, facts, FACTS)
    assert len(outcome.rows) == POLICY.row_cap and outcome.capped
    blown_up = "UNWIND range(1, 100000) AS i MATCH (f:Fact {space: $space}) RETURN f.id AS id"
    outcome = _run(store, facts, blown_up)
    assert len(outcome.rows) == POLICY.row_cap and outcome.capped


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (f:Fact {space: $space}) DETACH DELETE f",
        "MATCH (f:Fact {space: $space}) SET f.text = $space RETURN f.id AS id",
        "CREATE (f:Fact {space: $space}) RETURN f.id AS id",
        "CALL db.labels() YIELD label RETURN label",
        "CALL dbms.components() YIELD name RETURN name",
        "MATCH (f:Fact {space: $space}) RETURN apoc.text.join([f.id], $space) AS id",
        "CALL gds.graph.list() YIELD graphName RETURN graphName",
        "MATCH (p:Passage {space: $space}) RETURN p.text AS id",
        "MATCH (s:Secret {space: $space}) RETURN s.id AS id",
        "MATCH (f:Fact) RETURN f.id AS id",
    ],
)
def test_writes_procedures_and_unknown_labels_are_refused(
    store: GraphStore, facts: str, query: str
) -> None:
    with pytest.raises(CypherRefused):
        _run(store, facts, query)
    assert _count(store, facts) == 40


def test_the_planner_layer_refuses_writes_and_procedures_on_its_own(
    store: GraphStore, facts: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(safe_cypher, "check", lambda query, policy: query)
    with pytest.raises(CypherRefused, match="not read-only"):
        _run(store, facts, "MATCH (f:Fact {space: $space}) DETACH DELETE f")
    with pytest.raises(CypherRefused, match="procedure"):
        _run(store, facts, "CALL db.labels() YIELD label RETURN label")
    assert _count(store, facts) == 40


def test_the_read_transaction_refuses_a_write_on_its_own(
    store: GraphStore, facts: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Static check and planner check both bypassed: the server's read access still holds."""
    monkeypatch.setattr(safe_cypher, "check", lambda query, policy: query)
    # The planner "says" read-only with no procedure: only the READ transaction is left.
    monkeypatch.setattr(safe_cypher, "plan", lambda tx, text, values: ("r", []))
    real_explain_type = "MATCH (f:Fact {space: $space}) DETACH DELETE f"
    with pytest.raises(CypherFailed):
        _run(store, facts, real_explain_type)
    assert _count(store, facts) == 40


def test_a_slow_query_times_out(store: GraphStore, facts: str) -> None:
    slow = (
        "UNWIND range(1, 100000000) AS i WITH i WHERE i < 0 "
        "MATCH (f:Fact {space: $space}) RETURN f.id AS id"
    )
    with pytest.raises(CypherFailed):
        _run(store, facts, slow)
