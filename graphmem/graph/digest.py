"""A canonical digest of one space: equal digests mean equal graphs, whatever the history.

Used to prove that a crash followed by a rerun, an incremental ingest and a batch ingest all
give the same graph. What it covers:

- counts of nodes per label and of relationships per type;
- a sha256 over the sorted nodes (labels, id and key properties) and one over the sorted
  ``(start, type, end)`` relationship triples, combined into ``sha256``.

Key properties are all properties except those that legitimately differ between two
equivalent builds: creation times and vectors (embeddings and centroids, floats that
depend on the batch an embedder saw, and on the embedder: ``graphmem reembed`` keeps the
digest). Other floats are rounded to 4 decimals for the same reason, and
``built_by`` is a set stored as a list, so it is sorted. The space's own name is replaced by
a placeholder wherever it appears as a value (``space``, the Space node's ``id`` and
``name``), so a clean build in one space and a crashed-then-rerun build in another compare.
The build ledger (``BuildCost`` nodes) is history, not content, and is left out.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from pydantic import BaseModel

from graphmem.graph.store import GraphStore

# ``centroid`` (PREMem's cluster centre) is a vector too. ``embedder`` (the Space node's
# pin) and ``reembed_*`` (a switch under way) describe the vectors: `graphmem reembed` keeps
# a space's digest.
VOLATILE = (
    "created_at",
    "recorded_at",
    "updated_at",
    "embedding",
    "centroid",
    "embedder",
    "reembed_to",
    "reembed_cursor",
)
# Nodes that record how a space was built rather than what it holds: the build ledger
# (``graphmem.builders.cost``) differs between a crashed-then-rerun build and a clean one.
HISTORY_LABELS = frozenset({"BuildCost"})
_SET_VALUED = frozenset({"built_by"})
_FLOAT_DIGITS = 4


class SpaceDigest(BaseModel):
    space: str
    nodes: int
    relationships: int
    labels: dict[str, int]
    types: dict[str, int]
    nodes_sha256: str
    relationships_sha256: str
    sha256: str


_SPACE = "<space>"


def _canon(value: Any, space: str) -> Any:
    """A JSON-able value that compares equal for equivalent graphs."""
    if isinstance(value, float):
        return round(value, _FLOAT_DIGITS)
    if isinstance(value, list | tuple):
        return [_canon(v, space) for v in value]
    if isinstance(value, str):
        return _SPACE if value == space else value
    if isinstance(value, int | bool) or value is None:
        return value
    iso = getattr(value, "iso_format", None)  # neo4j temporal types
    return iso() if callable(iso) else str(value)


def _node_key(labels: list[str], node_id: Any, space: str) -> str:
    return f"{':'.join(sorted(labels))}/{_canon(node_id, space)}"


def node_line(row: dict[str, Any], space: str) -> str:
    props = {key: _canon(value, space) for key, value in row["props"]}
    for key in _SET_VALUED & props.keys():
        if isinstance(props[key], list):
            props[key] = sorted(props[key])
    return json.dumps(
        [_node_key(row["labels"], row["id"], space), props],
        ensure_ascii=False,
        sort_keys=True,
    )


def _sha(lines: list[str]) -> str:
    digest = hashlib.sha256()
    for line in sorted(lines):
        digest.update(line.encode("utf-8", "surrogatepass"))
        digest.update(b"\n")
    return digest.hexdigest()


def space_digest(store: GraphStore, space: str) -> SpaceDigest:
    rows = store.read("core.digest_nodes", space=space, skip=list(VOLATILE))
    nodes = [row for row in rows if not HISTORY_LABELS & set(row["labels"])]
    rels = store.read("core.digest_relationships", space=space)
    labels: Counter[str] = Counter(label for row in nodes for label in row["labels"])
    types: Counter[str] = Counter(row["type"] for row in rels)
    triples = [
        json.dumps(
            [
                _node_key(r["start_labels"], r["start_id"], space),
                r["type"],
                _node_key(r["end_labels"], r["end_id"], space),
            ],
            ensure_ascii=False,
        )
        for r in rels
    ]
    nodes_sha = _sha([node_line(row, space) for row in nodes])
    rels_sha = _sha(triples)
    return SpaceDigest(
        space=space,
        nodes=len(nodes),
        relationships=len(rels),
        labels=dict(sorted(labels.items())),
        types=dict(sorted(types.items())),
        nodes_sha256=nodes_sha,
        relationships_sha256=rels_sha,
        sha256=hashlib.sha256(f"{nodes_sha}:{rels_sha}".encode()).hexdigest(),
    )
