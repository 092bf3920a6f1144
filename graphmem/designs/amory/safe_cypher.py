"""Running LLM-written Cypher without trusting it: the semantic-memory query of Amory's
retriever (the paper lets the LLM "translate the query into graph queries").

Layers, each enough to stop a write on its own:

1. A static check (``check``): one statement; no comments, quotes or backticks (values
   come only as parameters, and only the allowed ones); no clause or namespace that writes,
   calls procedures or administers (CREATE, MERGE, SET, DELETE, REMOVE, CALL, LOAD, FOREACH,
   USE, apoc, gds, dbms, db. ...); only allowed labels and relationship types; every
   labelled node pattern filtered by ``{space: $space}``, every other node variable bound by
   one; variable-length paths bounded.
2. ``EXPLAIN`` on the server: the planner must call it a read query (``query_type == "r"``)
   and no operator may call a procedure.
3. Execution in a READ transaction (the server refuses writes in one), with a server-side
   timeout and a fetch size of the row cap; rows past the cap are not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import neo4j
from neo4j.exceptions import Neo4jError

from graphmem.errors import GraphmemError
from graphmem.store import GraphStore


class CypherRefused(GraphmemError):
    """A generated query broke the read-only policy and was not run."""


class CypherFailed(GraphmemError):
    """A generated query passed the policy but the server failed it (syntax, timeout)."""


_FORBIDDEN = re.compile(
    r"\b(CREATE|MERGE|DELETE|DETACH|SET|REMOVE|DROP|CALL|LOAD|FOREACH|USE|GRANT|DENY|REVOKE|"
    r"ALTER|RENAME|START|STOP|SHOW|TERMINATE|ENABLE|PERIODIC|TRANSACTIONS|apoc|gds|dbms|db)\b",
    re.IGNORECASE,
)
_PARAM = re.compile(r"\$(\w+)")
_NODE = re.compile(r"\(\s*(\w*)\s*((?::\s*!?\w+\s*(?:[|&]\s*!?:?\s*\w+\s*)*)*)(\{[^}]*\})?\s*\)")
_REL = re.compile(r"-\s*\[\s*\w*\s*((?::\s*!?\w+\s*(?:\|\s*:?\s*!?\w+\s*)*)?)([^\]]*)\]")
_NAME = re.compile(r"\w+")
_SPACE_FILTER = re.compile(r"\bspace\s*:\s*\$space\b")
_MAX_HOPS = 3
_MAX_LENGTH = 2000


@dataclass(frozen=True)
class Policy:
    labels: frozenset[str]
    relationships: frozenset[str]
    params: frozenset[str]
    row_cap: int
    timeout_s: float


@dataclass(frozen=True)
class Outcome:
    rows: list[dict[str, Any]]
    capped: bool  # the query had more rows than the cap


def _check_nodes(query: str, policy: Policy) -> None:
    bound: set[str] = set()
    for match in _NODE.finditer(query):
        if match.start() and (
            query[match.start() - 1].isalnum() or query[match.start() - 1] == "_"
        ):
            continue  # a function call's argument list, not a node pattern
        var, labels, props = match.group(1), match.group(2), match.group(3) or ""
        names = set(_NAME.findall(labels))
        if not names:
            if var and var in bound and not props:
                continue
            raise CypherRefused(f"node ({var}) has no label and is not bound by a filtered one")
        unknown = names - policy.labels
        if unknown:
            raise CypherRefused(f"label(s) not allowed: {', '.join(sorted(unknown))}")
        if not _SPACE_FILTER.search(props):
            raise CypherRefused(f"node ({var}:{labels.strip(': ')}) lacks {{space: $space}}")
        if var:
            bound.add(var)


def _check_relationships(query: str, policy: Policy) -> None:
    for match in _REL.finditer(query):
        types, rest = set(_NAME.findall(match.group(1))), match.group(2)
        unknown = types - policy.relationships
        if unknown:
            raise CypherRefused(f"relationship type(s) not allowed: {', '.join(sorted(unknown))}")
        if "*" in rest:
            hops = re.fullmatch(r"\s*\*\s*(\d*)\s*(?:\.\.\s*(\d+))?\s*", rest)
            upper = hops and (hops.group(2) or (hops.group(1) if ".." not in rest else ""))
            if not upper or int(upper) > _MAX_HOPS:
                raise CypherRefused(f"variable-length path must be bounded by {_MAX_HOPS} hops")
        elif rest.strip():
            raise CypherRefused("relationship patterns may not carry properties")


def check(query: str, policy: Policy) -> str:
    """The query, stripped, if it keeps the policy; raises ``CypherRefused`` otherwise."""
    text = query.strip().rstrip(";").strip()
    if not text:
        raise CypherRefused("empty query")
    if len(text) > _MAX_LENGTH:
        raise CypherRefused(f"query longer than {_MAX_LENGTH} characters")
    for token, why in ((";", "one statement only"), ("//", "no comments"), ("/*", "no comments")):
        if token in text:
            raise CypherRefused(why)
    if any(q in text for q in ("'", '"', "`")):
        raise CypherRefused("values must be parameters: no quoted strings or escaped names")
    forbidden = _FORBIDDEN.search(text)
    if forbidden:
        raise CypherRefused(f"{forbidden.group(1)} is not allowed in a read-only query")
    unknown = set(_PARAM.findall(text)) - policy.params
    if unknown:
        raise CypherRefused(f"unknown parameter(s): {', '.join(sorted(unknown))}")
    if "$space" not in text:
        raise CypherRefused("the query must filter by $space")
    _check_nodes(text, policy)
    _check_relationships(text, policy)
    return text


def _plan_operators(plan: Mapping[str, Any] | None) -> list[str]:
    if not plan:
        return []
    names = [str(plan.get("operatorType", ""))]
    for child in plan.get("children", []) or []:
        names.extend(_plan_operators(child))
    return names


def plan(
    tx: neo4j.ManagedTransaction, text: str, values: Mapping[str, Any]
) -> tuple[str | None, list[str]]:
    """The planner's verdict without running anything: query type ("r" for read-only) and
    the operators of the plan."""
    summary = tx.run("EXPLAIN " + text, dict(values)).consume()
    return summary.query_type, _plan_operators(summary.plan)


def run_read_only(
    store: GraphStore, query: str, params: Mapping[str, Any], policy: Policy
) -> Outcome:
    """Check, plan and run ``query`` read-only; at most ``policy.row_cap`` rows."""
    text = check(query, policy)
    cap = policy.row_cap
    values = {k: params.get(k) for k in policy.params}

    def explain(tx: neo4j.ManagedTransaction) -> tuple[str | None, list[str]]:
        return plan(tx, text, values)

    def fetch(tx: neo4j.ManagedTransaction) -> Outcome:
        result = tx.run(text, values)
        rows: list[dict[str, Any]] = []
        for record in result:
            if len(rows) == cap:
                return Outcome(rows, True)
            rows.append(dict(record))
        return Outcome(rows, False)

    try:
        with store.driver.session(
            database=store.database, default_access_mode=neo4j.READ_ACCESS, fetch_size=cap + 1
        ) as session:
            kind, operators = session.execute_read(explain)
            if kind != "r":
                raise CypherRefused(f"the planner classifies the query as {kind!r}, not read-only")
            calls = [op for op in operators if "procedure" in op.lower()]
            if calls:
                raise CypherRefused(f"the plan calls procedures ({', '.join(calls)})")
            return session.execute_read(neo4j.unit_of_work(timeout=policy.timeout_s)(fetch))
    except Neo4jError as exc:
        raise CypherFailed(f"the server failed the query: {exc.message or exc}") from exc
