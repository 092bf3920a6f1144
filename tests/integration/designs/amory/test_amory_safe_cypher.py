"""The read-only runner for LLM-written Cypher on a real Neo4j: the hostile queries of
issue 36 (items 3 and 4) as fixed cases, writes, procedures, other spaces, huge results and
slow queries; each is refused, or runs and returns only the asking space's rows, within
the time limit. Each server-side layer is also proven on its own (the others bypassed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem.designs.amory import safe_cypher
from graphmem.designs.amory.safe_cypher import CypherFailed, CypherRefused
from graphmem.graph.store import GraphStore
from tests.integration.designs.amory.cypher_spaces import (
    POLICY,
    SLACK_S,
    Spaces,
    attempt,
    escape,
    two_spaces,
)

pytestmark = pytest.mark.integration

GOOD = (
    "MATCH (f:Fact {space: $space})-[:SUBJECT|OBJECT]->(e:Entity {space: $space}) "
    "WHERE toLower(e.name) IN $names RETURN DISTINCT f.id AS id ORDER BY id LIMIT 5"
)
_DOUBLING = "WITH $space AS s " + " ".join(["WITH s + s AS s"] * 40) + " RETURN size(s) AS id"
# Issue 36, items 3 and 4, as found by the adversarial run; then their near relatives.
ISSUE_CASES = [
    "MATCH(n) RETURN n.text AS id",
    "MATCH (f:Fact {space: $space}) OPTIONAL MATCH(x) RETURN x.text AS id",
    "MATCH (f:Fact {space: $space}) RETURN COUNT{MATCH(n) WHERE n.text IS NOT NULL} AS id",
    "MATCH (f:Fact {space: $space}) RETURN COLLECT{MATCH(p:Passage) RETURN p.text} AS id",
    "MATCH (n:Fact WHERE n.space <> $space) RETURN n.text AS id",
    "MATCH (n:%) RETURN n.text AS id",
    "MATCH (n IS Fact) RETURN n.text AS id",
    "MATCH (n:!Fact {space: $space}) RETURN n.text AS id",
    "RETURN reduce(s = 0, x IN range(1, 2000000000) | s + x) AS id",
    "UNWIND range(1, 200000000) AS x RETURN count(x) AS id",
    "RETURN size([x IN range(1, 200000000) | x]) AS id",
    _DOUBLING,
]
RELATIVES = [
    "MATCH (f:Fact {space: $space}) RETURN COUNT{MATCH (n:Fact) RETURN n} AS id",
    "MATCH (f:Fact {space: $space}) RETURN COLLECT{MATCH (x:Fact) RETURN x.text} AS id",
    "MATCH (f:Fact {space: $space}) WHERE EXISTS{MATCH (x:Fact) WHERE x.text CONTAINS $space}"
    " RETURN f.id AS id",
    "MATCH (f:Fact {space: $space}) RETURN [(f)-[:SUBJECT]->(x) | x.name] AS id",
    "MATCH (x:Fact) WHERE x.space = $space OR x.id IS NOT NULL RETURN x.text AS id",
    "MATCH (x:Fact) WHERE NOT x.space = $space RETURN x.text AS id",
    "MATCH (x:Fact {space: $space})-[:SUBJECT]->(e) RETURN e.name AS id",
    "MATCH (a:Entity {space: $space})-[:SYNONYM*1..3]-(b) RETURN b.name AS id",
    "MATCH (a:Entity {space: $space})-[:SYNONYM*]-(b:Entity {space: $space}) RETURN b.id AS id",
    "MATCH (x:Fact:Passage {space: $space}) RETURN x.text AS id",
    "MATCH (x:Fact|Passage {space: $space}) RETURN x.text AS id",
    "MATCH (x:Fact {space: $space})-[r]->(y) RETURN y.text AS id",
    "MATCH ()-[r:SUBJECT]->() RETURN count(r) AS id",
    "MATCH (x:Entity {space: $space}) RETURN x AS id",
    "MATCH ((a:Entity {space: $space})-[:SYNONYM]-(b:Entity)){1,3} RETURN b.name AS id",
    "MATCH (f:Fact {space: $space}) RETURN f.id AS id UNION MATCH (x:Fact) RETURN x.id AS id",
    "MATCH (f:Fact {space: $space}) RETURN replace($space, left($space, 0), $space) AS id",
    "MATCH (f:Fact {space: $space}) RETURN apoc.text.join([f.id], $space) AS id",
    "MATCH (f:Fact {space: $space}) RETURN f.text AS id // MATCH (p:Passage)",
    "MATCH (f:Fact {space: $space}) RETURN f.text AS id, 'zz' AS s",
    "MATCH (f:`Passage` {space: $space}) RETURN f.text AS id",
    "MATCH (f:Fact {space: $space}) RETURN f.id AS id; MATCH (n) DETACH DELETE n",
    "ＭＡＴＣＨ (p:Passage {space: $space}) RETURN p.text AS id",
    "MATCH (p:Pass\u200bage {space: $space}) RETURN p.text AS id",
]
WRITES_AND_PROCEDURES = [
    "MATCH (f:Fact {space: $space}) DETACH DELETE f",
    "MATCH (f:Fact {space: $space}) SET f.text = $space RETURN f.id AS id",
    "CREATE (f:Fact {space: $space}) RETURN f.id AS id",
    "MERGE (f:Fact {space: $space}) RETURN f.id AS id",
    "CALL db.labels() YIELD label RETURN label",
    "CALL dbms.components() YIELD name RETURN name",
    "CALL gds.graph.list() YIELD graphName RETURN graphName",
    "LOAD CSV FROM $space AS row RETURN row",
    "MATCH (f:Fact {space: $space}) CALL { WITH f DETACH DELETE f } IN TRANSACTIONS",
    "MATCH (f:Fact {space: $space}) FOREACH (x IN [1] | SET f.id = x)",
    "SHOW TRANSACTIONS",
]


@pytest.fixture(scope="module")
def spaces(store: GraphStore) -> Iterator[Spaces]:
    with two_spaces(store) as made:
        yield made


def test_a_read_query_returns_rows_of_its_space_only(store: GraphStore, spaces: Spaces) -> None:
    verdict = attempt(store, spaces, GOOD)
    assert verdict.kind == "ran", verdict.message
    assert [r["id"] for r in verdict.rows] == ["a-f1", "a-f2", "a-f3"]


@pytest.mark.parametrize("query", ISSUE_CASES + RELATIVES + WRITES_AND_PROCEDURES)
def test_a_hostile_query_is_refused_or_confined(
    store: GraphStore, spaces: Spaces, query: str
) -> None:
    before = spaces.digest(store)
    verdict = attempt(store, spaces, query)
    assert verdict.seconds < POLICY.timeout_s + SLACK_S, verdict
    assert escape(verdict.rows, query) is None, verdict
    assert spaces.digest(store) == before
    assert verdict.kind != "ran" or query in RELATIVES, verdict


def test_the_issue_cases_are_refused_before_the_server_runs_them(
    store: GraphStore, spaces: Spaces
) -> None:
    kinds = [attempt(store, spaces, q).kind for q in ISSUE_CASES]
    assert set(kinds) <= {"tokens", "plan"}, kinds


def test_huge_results_are_capped(store: GraphStore, spaces: Spaces) -> None:
    blown_up = (
        "MATCH (a:Fact {space: $space}), (b:Fact {space: $space}), (c:Fact {space: $space}) "
        "RETURN a.id AS id"
    )  # 216 rows
    verdict = attempt(store, spaces, blown_up)
    assert verdict.kind == "ran" and len(verdict.rows) == POLICY.row_cap


def test_a_slow_query_fails_once_at_the_server_limit(store: GraphStore, spaces: Spaces) -> None:
    """Accepted by every check, slow by rows: the server's transaction timeout stops it, and
    the runner does not retry it."""
    patterns = ", ".join(f"(x{i}:Fact {{space: $space}})" for i in range(12))
    slow = f"MATCH {patterns} RETURN count(*) AS id"  # 6^12 rows
    verdict = attempt(store, spaces, slow)
    assert verdict.kind == "failed" and "limit" in verdict.message, verdict
    assert verdict.seconds < POLICY.timeout_s + SLACK_S


def test_the_planner_layer_refuses_on_its_own(
    store: GraphStore, spaces: Spaces, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Token check bypassed: the plan check alone refuses writes, procedures, other labels
    and unconfined nodes."""
    monkeypatch.setattr(safe_cypher, "check", lambda query, policy: query)
    before = spaces.digest(store)
    for query, reason in [
        ("MATCH (f:Fact {space: $space}) DETACH DELETE f", "not read-only"),
        ("CALL db.labels() YIELD label RETURN label", "ProcedureCall"),
        ("MATCH (p:Passage {space: $space}) RETURN p.text AS id", "Passage"),
        ("MATCH (f:Fact) RETURN f.text AS id", "not restricted"),
        ("LOAD CSV FROM $space AS row RETURN row", "LoadCSV"),
    ]:
        with pytest.raises(CypherRefused, match=reason):
            safe_cypher.run_read_only(store, query, {"space": spaces.asker, "names": []}, POLICY)
    assert spaces.digest(store) == before


def test_the_read_transaction_refuses_a_write_on_its_own(
    store: GraphStore, spaces: Spaces, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Token and plan checks both bypassed: the server's read access still holds."""
    monkeypatch.setattr(safe_cypher, "check", lambda query, policy: query)
    monkeypatch.setattr(safe_cypher, "plan", lambda tx, text, values: ("r", {}))
    monkeypatch.setattr(safe_cypher.PlanChecker, "check", lambda self, tree: None)
    before = spaces.digest(store)
    with pytest.raises(CypherFailed):
        safe_cypher.run_read_only(
            store,
            "MATCH (f:Fact {space: $space}) DETACH DELETE f",
            {"space": spaces.asker, "names": []},
            POLICY,
        )
    assert spaces.digest(store) == before


def test_a_server_error_does_not_quote_stored_values(store: GraphStore, spaces: Spaces) -> None:
    """A type error's message quotes the value it met (a fact's text here); the runner
    reports its code only."""
    with store.driver.session(database=store.database) as session, pytest.raises(Exception) as raw:
        session.run(
            "MATCH (f:Fact {space: $space}) RETURN left(f.text, f.text) AS id", space=spaces.asker
        ).consume()
    assert "alpha fact" in str(raw.value)  # the message the runner must not pass on
    verdict = attempt(
        store, spaces, "MATCH (f:Fact {space: $space}) RETURN left(f.text, f.text) AS id"
    )
    assert verdict.kind == "failed" and "TypeError" in verdict.message
    assert "alpha" not in verdict.message
