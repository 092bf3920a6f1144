"""Two spaces for the read-only Cypher runner's tests, and what counts as an escape.

The asking space holds a few short facts and entities of the allowed labels, and 1,500
``Passage`` and ``Secret`` nodes (labels outside the allow-list). The other space holds
2,000 facts and 2,000 entities whose ids, names and texts carry the marker ``zz`` (texts
1,000+ characters long), and one ``SYNONYM`` edge crosses from the asking space into it.
So anything read outside the allow-list or the space shows in a result: a string with
``zz``, or a number of 1,000 or more (a count, a size) that the asking space's allowed
nodes cannot produce (at most 6 facts, 3 patterns: 216).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from graphmem.designs.amory.safe_cypher import CypherFailed, CypherRefused, Policy, run_read_only
from graphmem.designs.amory.semantic import LABELS, PARAMS, RELATIONSHIPS
from graphmem.graph.store import GraphStore

MARK = "zz"
BIG = 1000
ENTITIES = ["alice", "bob", "carol", "dave"]
_SETUP = [
    "UNWIND range(1, 6) AS i CREATE (:Fact {space: $a, id: 'a-f' + i, text: 'alpha fact ' + i,"
    " subject: 'alice', relation: 'likes', object: 'bob'})",
    "UNWIND $names AS n CREATE (:Entity {space: $a, id: 'a-' + n, name: n})",
    "MATCH (f:Fact {space: $a}), (e:Entity {space: $a}) WHERE f.id IN ['a-f1', 'a-f2', 'a-f3']"
    " AND e.name IN ['alice', 'bob'] CREATE (f)-[:SUBJECT]->(e)",
    "MATCH (f:Fact {space: $a}), (e:Entity {space: $a, name: 'carol'}) CREATE (f)-[:OBJECT]->(e)",
    "MATCH (x:Entity {space: $a, name: 'alice'}), (y:Entity {space: $a, name: 'bob'})"
    " CREATE (x)-[:SYNONYM]->(y)",
    "UNWIND range(1, 1500) AS i CREATE (:Passage {space: $a, id: 'zz-p' + i, text: 'zz passage'})"
    " CREATE (:Secret {space: $a, id: 'zz-s' + i, text: 'zz secret'})",
    "UNWIND range(1, 2000) AS i CREATE (f:Fact {space: $b, id: 'zz-f' + i,"
    " text: 'zz' + reduce(s = '', k IN range(1, 100) | s + 'secret-b '), subject: 'zz'})"
    " CREATE (e:Entity {space: $b, id: 'zz-e' + i, name: CASE WHEN i = 1 THEN 'alice'"
    " ELSE 'zz-name' + i END}) CREATE (f)-[:SUBJECT]->(e)",
    "MATCH (x:Entity {space: $a, name: 'alice'}), (y:Entity {space: $b, id: 'zz-e2'})"
    " CREATE (x)-[:SYNONYM]->(y)",
]
_DIGEST = (
    "MATCH (n) WHERE n.space IN [$a, $b] OPTIONAL MATCH (n)-[r]->() "
    "RETURN count(DISTINCT n) AS nodes, count(r) AS rels, "
    "sum(size(keys(n))) AS keys, sum(size(coalesce(n.text, ''))) AS text"
)


@dataclass(frozen=True)
class Spaces:
    asker: str
    other: str

    def digest(self, store: GraphStore) -> dict[str, Any]:
        """What a write would change: nodes, relationships, property keys and texts."""
        with store.driver.session(database=store.database) as session:
            record = session.run(_DIGEST, a=self.asker, b=self.other).single()
        assert record is not None
        return dict(record)


@contextmanager
def two_spaces(store: GraphStore) -> Iterator[Spaces]:
    tag = uuid.uuid4().hex[:8]
    spaces = Spaces(f"safe-{tag}-asker", f"safe-{tag}-other")
    with store.driver.session(database=store.database) as session:
        for statement in _SETUP:
            session.run(statement, a=spaces.asker, b=spaces.other, names=ENTITIES).consume()
    try:
        yield spaces
    finally:
        with store.driver.session(database=store.database) as session:
            for space in (spaces.asker, spaces.other):
                session.run(
                    "MATCH (n {space: $space}) CALL { WITH n DETACH DELETE n } "
                    "IN TRANSACTIONS OF 2000 ROWS",
                    space=space,
                ).consume()


def _values(value: Any) -> Iterator[Any]:
    if isinstance(value, list):
        for item in value:
            yield from _values(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _values(item)
    else:
        yield value


def escape(rows: list[dict[str, Any]], query: str) -> str | None:
    """Why ``rows`` show data from outside the asking space's allowed nodes, or None."""
    for row in rows:
        for value in _values(row):
            if isinstance(value, str) and MARK in value:
                return f"string from outside: {value[:60]!r}"
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if number and value >= BIG and str(int(value)) not in query:
                return f"number {value} counts or measures nodes outside"
            if not isinstance(value, str | int | float | bool | type(None)):
                return f"{type(value).__name__} value returned"
    return None


POLICY = Policy(LABELS, RELATIONSHIPS, PARAMS, row_cap=50, timeout_s=1.0)
SLACK_S = 3.0  # connection, EXPLAIN and the answer's way back, past the server's limit


@dataclass
class Verdict:
    kind: str  # refused by "tokens", "plan" or "values"; "failed" on the server; "ran"
    seconds: float
    rows: list[dict[str, Any]]
    message: str


def attempt(store: GraphStore, spaces: Spaces, query: str, policy: Policy = POLICY) -> Verdict:
    """Run ``query`` for the asking space and say how it ended."""
    params = {"space": spaces.asker, "names": ["alice", "bob"]}
    began = time.monotonic()
    try:
        outcome = run_read_only(store, query, params, policy)
    except CypherRefused as exc:
        kind = "tokens"
        if exc.message.startswith(("plan:", "the planner")):
            kind = "plan"
        elif exc.message.startswith("the query returns"):
            kind = "values"
        return Verdict(kind, time.monotonic() - began, [], exc.message)
    except CypherFailed as exc:
        return Verdict("failed", time.monotonic() - began, [], exc.message)
    return Verdict("ran", time.monotonic() - began, outcome.rows, "")
