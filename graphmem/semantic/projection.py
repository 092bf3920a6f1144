"""The per-space semantic graph in GDS: projected on first use, reused across queries,
dropped by every semantic or SEEM build into the space (so the next query projects the new
graph), by ``forget`` (``drop_space_graphs``), and when projections of more recent spaces
push it past ``GRAPHMEM_MAX_PROJECTIONS``."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from neo4j.exceptions import ClientError

from graphmem.errors import ServerError
from graphmem.graph.projections import evict_oldest, graph_name
from graphmem.graph.store import GraphStore

SEMANTIC_GRAPH = "semantic"
# Two queries of one process racing to project the same graph: one projects, one waits.
_PROJECT_LOCK = threading.Lock()


@dataclass(frozen=True)
class GraphInfo:
    relationships: int
    created: str  # changes whenever the graph is projected again


class SemanticGraph:
    """``max_graphs``: after projecting, the oldest graphmem projections beyond this many
    are dropped (``evict_oldest``); None leaves them (builders only ever drop)."""

    def __init__(self, store: GraphStore, space: str, max_graphs: int | None = None) -> None:
        self.store = store
        self.space = space
        self.name = graph_name(space, SEMANTIC_GRAPH)
        self.max_graphs = max_graphs

    def info(self) -> GraphInfo | None:
        rows = self.store.read("semantic.graph_info", graph=self.name)
        return GraphInfo(int(rows[0]["relationships"]), rows[0]["created"]) if rows else None

    def ensure(self) -> GraphInfo:
        """The graph exists afterwards (relationships 0: nothing to walk)."""
        found = self.info()
        if found is not None:
            return found
        with _PROJECT_LOCK:
            found = self.info()
            if found is None:
                try:
                    self.store.write("semantic.project", space=self.space, graph=self.name)
                except ClientError as exc:
                    # Another process projected it between our check and our call.
                    if "already exists" not in str(exc.message):
                        raise
                found = self.info()
                if self.max_graphs is not None:
                    evict_oldest(self.store, self.max_graphs, self.name, SEMANTIC_GRAPH)
        if found is None:
            raise ServerError(f"GDS graph {self.name} vanished right after it was projected")
        return found

    def drop(self) -> None:
        self.store.write("gds.drop_graph", graph=self.name)
