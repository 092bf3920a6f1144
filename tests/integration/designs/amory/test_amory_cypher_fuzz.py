"""Property-based fuzz of the read-only Cypher runner on the real server (issue 36):
hostile queries assembled from the ways out that a text-to-Cypher model can be steered
into — labels outside the allow-list, missing, negated or widened space filters,
subqueries, pattern and list comprehensions, unbounded paths, huge ranges, string
blow-ups, procedures and writes, comments, quotes and look-alike characters — each run
for the asking space of ``cypher_spaces``. Zero escapes: no row from another space or of
a label outside the allow-list, no write, no run past the time limit. 1,000 queries by
default (derandomised, so CI sees the same ones), 5,000 fresh ones with ``-m long``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.designs.amory import safe_cypher
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
SHORT, LONG = 1000, 5000
PLAN_SHORT, PLAN_LONG = 300, 2000

LABELS = st.sampled_from(
    ["Fact", "Entity", "Passage", "Secret", "Fact|Passage", "Fact:Passage", "!Fact", "%",
     "Fact&Entity", "!Passage", "Entity|Secret", "Turn", "(Fact|Passage)"]
)  # fmt: skip
FILTERS = st.sampled_from(
    ["{v}.space = $space", "{v}.space <> $space", "NOT {v}.space = $space",
     "{v}.space = $space OR {v}.id IS NOT NULL", "{v}.space IN [$space, {v}.space]",
     "{v}.space STARTS WITH {v}.space", "$space = $space", "{v}.space = {v}.space",
     "{v}.space = $space AND {v}.text IS NOT NULL", "{v}.space >= $space",
     "{v}.space IS NOT NULL", "coalesce({v}.space, $space) = $space",
     "({v}.space = $space OR true)", "{v}.space = $space XOR {v}.id = $space"]
)  # fmt: skip
NODES = st.sampled_from(
    ["({v})", "({v}:{L})", "({v}:{L} {{space: $space}})", "({v}:{L} WHERE {F})",
     "({v} IS {L})", "({v} IS {L} {{space: $space}})", "({v} {{space: $space}})",
     "({v}:{L} {{space: $space, id: {v}.id}})", "({v}:{L}) WHERE {F}"]
)  # fmt: skip
RELS = st.sampled_from(
    ["-[:SUBJECT]->", "<-[:OBJECT]-", "-[:SUBJECT|FROM]->", "-[]->", "--", "-[r]-",
     "-[:SYNONYM*]-", "-[:SYNONYM*1..3]-", "-[:SYNONYM*1..9]-", "-[:SYNONYM*2..]-",
     "-[:NEXT]->", "-[:MENTIONS]->", "-[:SUBJECT WHERE true]->"]
)  # fmt: skip
RETURNS = st.sampled_from(
    ["{v}.id AS id", "{v}.text AS id", "{v}.name AS id", "count({v}) AS id", "{v} AS id",
     "collect({v}.text) AS id", "size(collect({v})) AS id", "labels({v}) AS id",
     "{v}{{.*}} AS id", "properties({v}) AS id", "max(size({v}.text)) AS id",
     "count(*) AS id", "elementId({v}) AS id", "keys({v}) AS id", "[{v}.text] AS id"]
)  # fmt: skip
MATCHES = st.sampled_from(["MATCH ", "OPTIONAL MATCH ", "match ", "MATCH", "MaTcH "])
GOOD = "MATCH (f:Fact {{space: $space}}) "  # a format string, as the ones it joins
WRAPPERS = st.sampled_from(
    ["{M}{P} RETURN {R}", GOOD + "{M}{P} RETURN {R}", GOOD + "RETURN COUNT{{{M}{P}}} AS id",
     GOOD + "RETURN COLLECT{{{M}{P} RETURN {v}.text}} AS id",
     GOOD + "WHERE EXISTS{{{M}{P}}} RETURN f.id AS id",
     GOOD + "RETURN [(f){rel}{N} | {v}.text] AS id",
     GOOD + "CALL {{ {M}{P} RETURN {v} }} RETURN {R}",
     GOOD + "RETURN f.id AS id UNION {M}{P} RETURN {v}.id AS id",
     "{M}{P} WITH {v} WHERE {F} RETURN {R}", GOOD + "WITH f {M}{P} RETURN {R}",
     "{M}(f:Fact {{space: $space}}){rel}{N} RETURN {R}",
     "{M}{P}, (g:Fact {{space: $space}}), (h:Fact {{space: $space}}) RETURN {R}",
     "{M}{P} WHERE NOT EXISTS {{ MATCH (q:Passage) }} RETURN {R}"]
)  # fmt: skip
_DOUBLE = "WITH $space AS s " + " ".join(["WITH s + s AS s"] * 40) + " RETURN size(s) AS id"
HEAVY = st.sampled_from(
    ["RETURN reduce(s = 0, x IN range(1, {n}) | s + x) AS id",
     "UNWIND range(1, {n}) AS x RETURN count(x) AS id", "RETURN size(range(1, {n})) AS id",
     "RETURN size([x IN range(1, {n}) | x]) AS id", "RETURN [x IN $names WHERE x > $space] AS id",
     GOOD + "RETURN [x IN collect(f) | [y IN collect(f) | y.text]] AS id",
     _DOUBLE, "RETURN size(replace($space, left($space, 0), $space)) AS id",
     "RETURN any(x IN range(1, {n}) WHERE x < 0) AS id",
     "RETURN size(apoc.coll.fill($space, {n})) AS id",
     "MATCH p = shortestPath((a:Entity {{space: $space}})-[*]-(b)) RETURN length(p) AS id",
     "MATCH (a:Fact {{space: $space}}) RETURN a.id + a.id + a.id AS id",
     "RETURN toString({n} ^ {n}) AS id", "MATCH (a:Fact {{space: $space}}) RETURN {n} / 0 AS id"]
)  # fmt: skip
ATTACKS = st.sampled_from(
    ["CALL db.labels() YIELD label RETURN label AS id", "CALL apoc.help($space)",
     "RETURN gds.version() AS id", "LOAD CSV FROM $space AS r RETURN r AS id",
     "CREATE (x:Fact {{space: $space}}) RETURN x.id AS id",
     GOOD + "SET f.text = $space RETURN f.id AS id", GOOD + "DETACH DELETE f",
     "MERGE (x:Entity {{space: $space}}) RETURN x.id AS id",
     GOOD + "FOREACH (i IN [1] | SET f.id = i)", GOOD + "REMOVE f.text RETURN f.id AS id",
     GOOD + "CALL {{ WITH f DETACH DELETE f }} IN TRANSACTIONS", "USE system SHOW USERS",
     "SHOW TRANSACTIONS", "TERMINATE TRANSACTIONS $space", "CREATE INDEX FOR (n:Fact) ON (n.x)",
     GOOD + "RETURN f.id AS id; MATCH (n) DETACH DELETE n", "EXPLAIN MATCH (n) RETURN n",
     "CYPHER runtime=slotted MATCH (n) RETURN n.text AS id", "CALL db.ping()",
     "RETURN db.nameFromElementId($space) AS id", "MATCH (n) WHERE id(n) = 0 RETURN n.text AS id"]
)  # fmt: skip
# Text spliced in anywhere: comments, quotes, escapes, look-alikes, invisible characters.
SPLICES = st.sampled_from(
    ["// x\n", "/* MATCH (n) */", "'zz'", '"zz"', "`Passage`", "\u200b", "\u00a0", "\u2028",
     "\uff2d\uff21\uff34\uff23\uff28", "F\u0430ct", "\\u0027", "$space2", "$0", "\t", "\n",
     ";", "\ufeff", "\u0000", "\u202e"]
)  # fmt: skip


@st.composite
def patterns(draw: st.DrawFn) -> str:
    """A query reading nodes some way a policy must see through."""
    v = draw(st.sampled_from(["x", "n", "p", "anon"]))
    node = draw(NODES).format(v=v, L=draw(LABELS), F=draw(FILTERS).format(v=v))
    rel = draw(RELS)
    pattern = node if draw(st.booleans()) else f"(f2:Fact {{space: $space}}){rel}{node}"
    return draw(WRAPPERS).format(
        M=draw(MATCHES),
        P=pattern,
        N=node,
        rel=rel,
        v=v,
        F=draw(FILTERS).format(v=v),
        R=draw(RETURNS).format(v=v),
    )


@st.composite
def hostile(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["pattern", "pattern", "pattern", "heavy", "attack"]))
    if kind == "heavy":
        query = draw(HEAVY).format(n=draw(st.sampled_from([9, 200000, 200000000, 2000000000])))
    elif kind == "attack":
        query = draw(ATTACKS).format()
    else:
        query = draw(patterns())
    if draw(st.integers(0, 4)) == 0:
        at = draw(st.integers(0, len(query)))
        query = query[:at] + draw(SPLICES) + query[at:]
    return query


@pytest.fixture(scope="module")
def spaces(store: GraphStore) -> Iterator[Spaces]:
    with two_spaces(store) as made:
        yield made


def _fuzz(
    examples: int,
    store: GraphStore,
    spaces: Spaces,
    derandomize: bool,
    queries: st.SearchStrategy[str],
) -> Counter[str]:
    before = spaces.digest(store)
    kinds: Counter[str] = Counter()

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=derandomize,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(query=queries)
    def run(query: str) -> None:
        verdict = attempt(store, spaces, query)
        kinds[verdict.kind] += 1
        assert verdict.seconds < POLICY.timeout_s + SLACK_S, (query, verdict)
        assert escape(verdict.rows, query) is None, (query, verdict)
        if verdict.kind in ("ran", "failed"):  # it reached execution: nothing written
            assert spaces.digest(store) == before, query

    run()
    assert spaces.digest(store) == before
    print(f"hostile queries: {sum(kinds.values())}, outcomes: {dict(kinds)}")
    return kinds


def test_fuzz_hostile_queries(store: GraphStore, spaces: Spaces) -> None:
    kinds = _fuzz(SHORT, store, spaces, True, hostile())
    assert sum(kinds.values()) >= SHORT
    assert kinds["plan"] and kinds["tokens"] and kinds["ran"]  # every layer was reached


@pytest.mark.long
def test_fuzz_hostile_queries_long(store: GraphStore, spaces: Spaces) -> None:
    _fuzz(LONG, store, spaces, False, hostile())


def _plan_alone(examples: int, store: GraphStore, spaces: Spaces, derandomize: bool) -> None:
    """The token check bypassed: Neo4j's plan, checked, confines every read on its own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(safe_cypher, "check", lambda query, policy: query)
        kinds = _fuzz(examples, store, spaces, derandomize, patterns())
    assert kinds["plan"] and kinds["ran"]


def test_fuzz_the_plan_check_alone(store: GraphStore, spaces: Spaces) -> None:
    _plan_alone(PLAN_SHORT, store, spaces, True)


@pytest.mark.long
def test_fuzz_the_plan_check_alone_long(store: GraphStore, spaces: Spaces) -> None:
    _plan_alone(PLAN_LONG, store, spaces, False)
