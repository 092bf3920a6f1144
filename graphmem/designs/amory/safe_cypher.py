"""Running LLM-written Cypher without trusting it: the semantic-memory query of Amory's
retriever (the paper lets the LLM "translate the query into graph queries").

Layers:

1. Tokens (``check``): the text is split into Cypher tokens; anything that is not one is
   refused, which leaves out quotes, backticks, comments, non-ASCII characters (look-alike
   letters, invisible spaces) and a second statement. Values come only as the allowed
   parameters. Refused outright because they compute without bound inside one row, where
   the server's transaction timeout is not checked: ``+`` (string and list growth), any
   function off a short allow-list (``range``, ``reduce``, ``replace``, ``any``, namespaced
   ``apoc.*``/``gds.*``/``db.*`` ...), list comprehensions and predicates (``any`` ...) over
   anything but a parameter, numbers past 1,000,000; and the
   keywords of writes, procedures and administration.
2. The plan (``cypher_plan``): Neo4j's own ``EXPLAIN`` of the query must be read-only and
   pass ``PlanChecker``: allowed operators only, every node on an allowed label and
   restricted to ``$space`` where it is read, allowed relationship types, bounded paths.
   This is the parse that counts: it is the server's.
3. Execution in an explicit READ transaction (the server refuses writes in one) with the
   server's transaction timeout; the server's per-transaction memory limit
   (``db.memory.transaction.max``, written by graphmem's launcher) stops an operator that
   grows past it. An explicit transaction is never retried: a refused, timed-out or
   out-of-memory query fails once. At most ``row_cap`` rows are read, and only plain values
   (strings, numbers, booleans, lists of them): no node, relationship, path or map.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import neo4j
from neo4j.exceptions import Neo4jError

from graphmem.designs.amory.cypher_plan import PlanChecker, PlanRefused
from graphmem.plugin import GraphmemError, GraphStore


class CypherRefused(GraphmemError):
    """A generated query broke the read-only policy and was not run."""


class CypherFailed(GraphmemError):
    """A generated query passed the policy but the server failed it (syntax, timeout,
    memory limit)."""


_TOKEN = re.compile(
    r"(?P<ws>[ \t\r\n]+)"
    r"|(?P<param>\$[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<number>[0-9]+(?:\.[0-9]+)?)"
    r"|(?P<punct>\.\.|<>|<=|>=|=~|->|<-|[()\[\]{}:,.|\-<>=*!&%+/^;])"
)
_BANNED_PUNCT = {
    ";": "one statement only",
    "+": "no + (it grows strings and lists without bound)",
    "/": "no / (division, comments)",
    "%": "no % (modulo, label wildcards)",
    "^": "no ^",
    "=~": "no regular expressions",
}
_BANNED_WORDS = frozenset(
    {
        "CREATE", "MERGE", "DELETE", "DETACH", "SET", "REMOVE", "DROP", "CALL", "LOAD",
        "FOREACH", "USE", "SHOW", "TERMINATE", "GRANT", "DENY", "REVOKE", "ALTER", "RENAME",
        "START", "STOP", "ENABLE", "TRANSACTIONS", "FINISH", "INSERT", "CYPHER", "EXPLAIN",
        "PROFILE", "PERIODIC", "SHORTEST",
    }
)  # fmt: skip
# Keywords that may stand right before "(" (a pattern or a parenthesised expression).
_BEFORE_PAREN = frozenset(
    {
        "MATCH", "WHERE", "AND", "OR", "XOR", "NOT", "IN", "RETURN", "WITH", "UNWIND",
        "DISTINCT", "WHEN", "THEN", "ELSE", "CASE", "BY", "CONTAINS", "IS", "AS", "SKIP",
        "LIMIT", "UNION",
    }
)  # fmt: skip
# Functions that cannot grow a value past their input nor loop inside a row.
_FUNCTIONS = frozenset(
    {
        "tolower", "toupper", "lower", "upper", "trim", "ltrim", "rtrim", "btrim",
        "coalesce", "size", "count", "collect", "min", "max", "sum", "avg", "head", "last",
        "left", "right", "substring", "split", "type",
    }
)  # fmt: skip
# List predicates, allowed over a parameter only: the caller's short list bounds them, where
# over a collected list they nest into a loop the timeout cannot stop.
_OVER_PARAMETER = frozenset({"any", "all", "none", "single"})
_MAX_LENGTH = 2000
_MAX_NUMBER = 1_000_000
_MAX_HOPS = 3


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


def tokens(text: str) -> list[tuple[str, str]]:
    """(kind, text) of each token, whitespace left out; refuses what is not a token."""
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        found = _TOKEN.match(text, pos)
        if not found or found.lastgroup is None:
            raise CypherRefused(
                f"character {text[pos]!r} at {pos} is not allowed (values are parameters; "
                "no quotes, backticks, comments or non-ASCII characters)"
            )
        if found.lastgroup != "ws":
            out.append((found.lastgroup, found.group()))
        pos = found.end()
    return out


def _check_token(toks: list[tuple[str, str]], i: int, policy: Policy) -> None:
    kind, word = toks[i]
    before = toks[i - 1][1] if i else ""
    after = toks[i + 1][1] if i + 1 < len(toks) else ""
    if kind == "punct" and word in _BANNED_PUNCT:
        raise CypherRefused(_BANNED_PUNCT[word])
    if kind == "param" and word[1:] not in policy.params:
        raise CypherRefused(f"unknown parameter {word}")
    if kind == "number" and float(word) > _MAX_NUMBER:
        raise CypherRefused(f"number {word} is larger than {_MAX_NUMBER}")
    if kind == "punct" and word == "[" and _iterates(toks, i + 1) is False:
        raise CypherRefused("no list comprehensions but over a parameter")
    if kind != "name" or before == ".":
        if kind == "name" and after == "(":
            raise CypherRefused(f"namespaced function {word} is not allowed")
        return  # a property name
    if word.upper() in _BANNED_WORDS:
        raise CypherRefused(f"{word} is not allowed in a read-only query")
    function = after == "(" and word.upper() not in _BEFORE_PAREN
    if function and word.lower() in _OVER_PARAMETER and _iterates(toks, i + 2):
        return  # any(x IN $names WHERE ...): bounded by the caller's list
    if function and word.lower() not in _FUNCTIONS:
        raise CypherRefused(f"function {word} is not allowed")


def _iterates(toks: list[tuple[str, str]], i: int) -> bool | None:
    """Whether ``x IN $param`` starts at ``i``: True; ``x IN`` something else: False;
    no ``x IN`` there: None."""
    if i + 1 >= len(toks) or toks[i][0] != "name" or toks[i + 1][1].upper() != "IN":
        return None
    return i + 2 < len(toks) and toks[i + 2][0] == "param"


def check(query: str, policy: Policy) -> str:
    """The query, stripped, if its tokens keep the policy; raises ``CypherRefused``."""
    text = query.strip()
    while text.endswith(";"):
        text = text[:-1].rstrip()
    if not text:
        raise CypherRefused("empty query")
    if len(text) > _MAX_LENGTH:
        raise CypherRefused(f"query longer than {_MAX_LENGTH} characters")
    toks = tokens(text)
    for i in range(len(toks)):
        _check_token(toks, i, policy)
    return text


def plan(
    tx: neo4j.Transaction, text: str, values: Mapping[str, Any]
) -> tuple[str | None, Mapping[str, Any]]:
    """The planner's verdict without running anything: query type ("r" for read-only) and
    the plan tree."""
    summary = tx.run("EXPLAIN " + text, dict(values)).consume()
    return summary.query_type, summary.plan or {}


def _plain(value: Any) -> bool:
    if value is None or isinstance(value, str | int | float | bool):
        return True
    return isinstance(value, list) and all(_plain(v) for v in value)


def _fetch(tx: neo4j.Transaction, text: str, values: dict[str, Any], cap: int) -> Outcome:
    rows: list[dict[str, Any]] = []
    for record in tx.run(text, values):
        if len(rows) == cap:
            return Outcome(rows, True)
        row = dict(record)
        if not all(_plain(v) for v in row.values()):
            raise CypherRefused("the query returns nodes, relationships, paths or maps")
        rows.append(row)
    return Outcome(rows, False)


# Errors whose message quotes the query, never a stored value (a type error's does).
_QUOTES_THE_QUERY_ONLY = frozenset(
    {"Neo.ClientError.Statement.SyntaxError", "Neo.ClientError.Statement.SemanticError"}
)


def _failure(exc: Neo4jError, policy: Policy) -> CypherFailed:
    """The server's error, said without its message past syntax errors: a message can
    quote a stored value."""
    code = exc.code or "unknown"
    if "TimedOut" in code:
        return CypherFailed(f"the query ran past its {policy.timeout_s:g} s limit ({code})")
    if "Memory" in code:
        return CypherFailed(f"the query ran past the server's memory limit ({code})")
    if code in _QUOTES_THE_QUERY_ONLY:
        return CypherFailed(f"the server refused the query: {exc.message or code}")
    return CypherFailed(f"the server failed the query ({code})")


def run_read_only(
    store: GraphStore, query: str, params: Mapping[str, Any], policy: Policy
) -> Outcome:
    """Check, plan and run ``query`` read-only; at most ``policy.row_cap`` rows."""
    text = check(query, policy)
    values = {k: params.get(k) for k in policy.params}
    checker = PlanChecker(policy.labels, policy.relationships, _MAX_HOPS)
    try:
        # An explicit transaction: the driver retries managed ones on transient errors (out
        # of memory among them); this one fails once. Rolled back on leaving.
        with (
            store.driver.session(
                database=store.database,
                default_access_mode=neo4j.READ_ACCESS,
                fetch_size=policy.row_cap + 1,
            ) as session,
            session.begin_transaction(
                timeout=policy.timeout_s, metadata={"app": "graphmem.amory.generated"}
            ) as tx,
        ):
            kind, tree = plan(tx, text, values)
            if kind != "r":
                raise CypherRefused(f"the planner classifies the query as {kind!r}, not read-only")
            try:
                checker.check(tree)
            except PlanRefused as exc:
                raise CypherRefused(f"plan: {exc}") from None
            return _fetch(tx, text, values, policy.row_cap)
    except Neo4jError as exc:
        raise _failure(exc, policy) from None
