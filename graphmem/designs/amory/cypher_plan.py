"""Neo4j's own ``EXPLAIN`` plan of a generated query, checked before it runs.

The plan is the server's parse of the query: what it checks is what would execute, with no
second parser that could read the text differently. Every operator must be on an
allow-list (no all-nodes scan, count store, id seek, procedure, write, LOAD CSV, quantified
or shortest path); every node the plan brings in — by a label scan, an index seek or scan,
an expand, a relationship scan — must be on an allowed label and restricted to the asking
space (``v.space = $space``) at its source or by the filters directly above it, before any
other operator reads it; relationship types must be allowed and variable-length expands
bounded. A query that passes reads only the asking space's nodes of the allowed labels.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# Operators that neither read nodes nor evaluate anything beyond their rows' values.
_PLAIN = frozenset(
    {
        "ProduceResults", "Projection", "Filter", "Limit", "ExhaustiveLimit", "Skip",
        "Distinct", "OrderedDistinct", "Aggregation", "EagerAggregation",
        "OrderedAggregation", "Sort", "PartialSort", "Top", "PartialTop", "CacheProperties",
        "Argument", "Apply", "SemiApply", "AntiSemiApply", "LetSemiApply", "LetAntiSemiApply",
        "SelectOrSemiApply", "SelectOrAntiSemiApply", "LetSelectOrSemiApply",
        "LetSelectOrAntiSemiApply", "RollUpApply", "Optional", "Anti", "Union",
        "OrderedUnion", "CartesianProduct", "NodeHashJoin", "ValueHashJoin",
        "NodeLeftOuterHashJoin", "NodeRightOuterHashJoin", "Unwind", "Eager", "EmptyResult",
    }
)  # fmt: skip
# Leaves that bring in nodes of one or more labels; details "v:Label" or "v:A|B".
_LABEL_SCANS = frozenset(
    {"NodeByLabelScan", "UnionNodeByLabelsScan", "IntersectionNodeByLabelsScan"}
)
_INDEX_LEAVES = frozenset(
    {
        "NodeIndexSeek", "NodeUniqueIndexSeek", "NodeIndexScan", "NodeIndexContainsScan",
        "NodeIndexEndsWithScan", "NodeIndexSeekByRange", "NodeUniqueIndexSeekByRange",
    }
)  # fmt: skip
# Operators whose details are a pattern "(a)-[r:T]->(b)": its types are checked and its
# nodes not bound below (none for the Into kinds) are brought in.
_EXPANDS = frozenset(
    {
        "Expand(All)", "OptionalExpand(All)", "VarLengthExpand(All)",
        "VarLengthExpand(Pruning)", "BFSPruningVarLengthExpand(All)",
        "DirectedRelationshipTypeScan", "UndirectedRelationshipTypeScan",
        "Expand(Into)", "OptionalExpand(Into)", "VarLengthExpand(Into)",
    }
)  # fmt: skip
# Every planner variant of these (pruning, breadth-first, into) is an expand too.
_EXPAND_KINDS = ("VarLengthExpand(", "BFSPruningVarLengthExpand(")
# What may stand between a node's source and the filter that confines it: they only add
# rows or drop them, and read no property.
_PASS_THROUGH = frozenset({"Filter", "CacheProperties"}) | _EXPANDS

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_LABEL_LEAF = re.compile(rf"^({_NAME}):({_NAME}(?:[|&]{_NAME})*)(?:, cache\[.*)?$")
_INDEX_LEAF = re.compile(
    rf"^(?:[A-Z]+ )?(?:INDEX )?({_NAME}):({_NAME})\([^)]*\)(?: WHERE (.*?))?(?:, cache\[.*)?$"
)
_PATTERN = re.compile(
    rf"^\(({_NAME})\)(<?-)\[({_NAME})((?::{_NAME}(?:\|{_NAME})*)?)(\*[0-9.]*)?\](->?)"
    rf"\(({_NAME})\)(?: WHERE (.*))?$"
)
_HOPS = re.compile(r"^\*(\d*)(\.\.)?(\d*)$")


class PlanRefused(Exception):
    """The plan breaks the policy; the message says where."""


@dataclass(frozen=True)
class Op:
    name: str
    details: str
    identifiers: frozenset[str]
    children: tuple[Op, ...]

    @classmethod
    def of(cls, plan: Mapping[str, Any]) -> Op:
        name = str(plan.get("operatorType", "")).split("@", 1)[0]
        args = plan.get("args") or {}
        kids = tuple(cls.of(c) for c in plan.get("children", []) or [])
        idents = frozenset(str(i) for i in plan.get("identifiers", []) or [])
        return cls(name, str(args.get("Details", "") or ""), idents, kids)


def conjuncts(predicate: str) -> list[str]:
    """The top-level AND terms of a rendered predicate; a term wholly in parentheses is
    opened and split again. OR, XOR and NOT stay inside their term."""
    parts: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(predicate):
        ch = predicate[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and predicate.startswith(" AND ", i):
            parts.append(predicate[start:i])
            start = i = i + 5
            continue
        i += 1
    parts.append(predicate[start:])
    out: list[str] = []
    for part in (p.strip() for p in parts):
        if part.startswith("(") and part.endswith(")") and _balanced(part[1:-1]):
            out.extend(conjuncts(part[1:-1]))
        elif part:
            out.append(part)
    return out


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth < 0:
            return False
    return depth == 0


@dataclass
class _Node:
    """A node variable brought in by ``source``; what is known of it so far."""

    var: str
    source: Op
    labels: set[str]
    confined: bool


class PlanChecker:
    def __init__(self, labels: frozenset[str], types: frozenset[str], max_hops: int) -> None:
        self.labels, self.types, self.max_hops = labels, types, max_hops

    def check(self, plan: Mapping[str, Any]) -> None:
        self._walk(Op.of(plan), ())

    def _walk(self, op: Op, ancestors: tuple[Op, ...]) -> None:
        for node in self._sources(op):
            self._confine(node, ancestors)
        for child in op.children:
            self._walk(child, (op, *ancestors))

    def _sources(self, op: Op) -> list[_Node]:
        """The nodes ``op`` brings in; refuses an operator off the allow-list."""
        if op.name in _PLAIN:
            return []
        if op.name in _LABEL_SCANS:
            found = _LABEL_LEAF.match(op.details)
            if not found:
                raise PlanRefused(f"unrecognised {op.name} detail: {op.details}")
            return [_Node(found[1], op, self._allowed(re.split(r"[|&]", found[2])), False)]
        if op.name in _INDEX_LEAVES:
            found = _INDEX_LEAF.match(op.details)
            if not found:
                raise PlanRefused(f"unrecognised {op.name} detail: {op.details}")
            where = conjuncts(found[3] or "")
            return [_Node(found[1], op, self._allowed([found[2]]), "space = $space" in where)]
        if op.name in _EXPANDS or op.name.startswith(_EXPAND_KINDS):
            return self._expand(op)
        raise PlanRefused(f"operator {op.name} is not allowed")

    def _expand(self, op: Op) -> list[_Node]:
        found = _PATTERN.match(op.details)
        if not found:
            raise PlanRefused(f"unrecognised {op.name} detail: {op.details}")
        start, rel_types, hops, end, where = found[1], found[4], found[5], found[7], found[8]
        types = [t for t in rel_types.lstrip(":").split("|") if t]
        if not types:
            raise PlanRefused("a relationship pattern has no type")
        bad = sorted(set(types) - self.types)
        if bad:
            raise PlanRefused(f"relationship type(s) not allowed: {', '.join(bad)}")
        if hops is not None:
            self._bounded(hops)
        before: frozenset[str] = frozenset().union(*(c.identifiers for c in op.children))
        new = [v for v in dict.fromkeys((start, end)) if v not in before]
        nodes = [_Node(v, op, set(), False) for v in new]
        terms = conjuncts(where or "")
        for node in nodes:
            self._learn(node, terms)
        return nodes

    def _bounded(self, hops: str) -> None:
        found = _HOPS.match(hops)
        upper = found and (found[3] if found[2] else found[1])
        if not upper or int(upper) > self.max_hops:
            raise PlanRefused(f"variable-length path must be bounded by {self.max_hops} hops")

    def _allowed(self, labels: list[str]) -> set[str]:
        bad = sorted(set(labels) - self.labels)
        if bad:
            raise PlanRefused(f"label(s) not allowed: {', '.join(bad)}")
        return set(labels)

    def _learn(self, node: _Node, terms: list[str]) -> None:
        """What a filter's AND terms say of ``node``: its labels and its space."""
        v = node.var
        space = {f"{v}.space = $space", f"cache[{v}.space] = $space", f"$space = {v}.space"}
        for term in terms:
            if term in space:
                node.confined = True
            label = re.fullmatch(rf"{re.escape(v)}:({_NAME})", term)
            if label:
                node.labels |= self._allowed([label[1]])

    def _confine(self, node: _Node, ancestors: tuple[Op, ...]) -> None:
        """The node must be confined at its source or by the filters directly above it."""
        for above in ancestors:
            if node.confined and node.labels:
                break
            if above.name not in _PASS_THROUGH and not above.name.startswith(_EXPAND_KINDS):
                break
            if above.name == "Filter":
                self._learn(node, conjuncts(above.details))
        if not node.labels:
            raise PlanRefused(f"node {node.var} ({node.source.name}) has no allowed label")
        if not node.confined:
            raise PlanRefused(
                f"node {node.var}:{'|'.join(sorted(node.labels))} is not restricted to $space"
            )
