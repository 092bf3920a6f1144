"""The per-space semantic graph in GDS: projected on first use, reused across queries,
dropped by every SEEM build into the space (so the next query projects the new graph)
and by ``forget`` (``drop_space_graphs``)."""

from __future__ import annotations

import threading

from neo4j.exceptions import ClientError

from graphmem.projections import graph_name
from graphmem.store import GraphStore

SEMANTIC_GRAPH = "semantic"
# Two queries of one process racing to project the same graph: one projects, one waits.
_PROJECT_LOCK = threading.Lock()


class SemanticGraph:
    def __init__(self, store: GraphStore, space: str) -> None:
        self.store = store
        self.space = space
        self.name = graph_name(space, SEMANTIC_GRAPH)

    def _relationships(self) -> int | None:
        rows = self.store.read("semantic.graph_info", graph=self.name)
        return int(rows[0]["relationships"]) if rows else None

    def ensure(self) -> int:
        """The graph exists afterwards; returns its relationship count (0: nothing to walk)."""
        found = self._relationships()
        if found is not None:
            return found
        with _PROJECT_LOCK:
            found = self._relationships()
            if found is not None:
                return found
            try:
                row = self.store.write("semantic.project", space=self.space, graph=self.name)[0]
            except ClientError as exc:
                # Another process projected it between our check and our call.
                if "already exists" not in str(exc.message):
                    raise
                return self._relationships() or 0
            return int(row["relationships"])

    def drop(self) -> None:
        self.store.write("gds.drop_graph", graph=self.name)
