"""A retriever's in-memory copy of one space's passages (with embeddings and projection
node ids) and event frames, read once and kept for as long as the space's PageRank
projection it was read with: every SEEM build drops that projection, so a snapshot can
never outlive the graph it describes.

Scoring every passage of a conversation against the query is one matrix product here
(HippoRAG 2 gives every passage a dense seed weight), and Reverse Provenance Expansion
walks frames without a database round trip.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from graphmem.retrieval.base import PassageRef
from graphmem.store import GraphStore


@dataclass(frozen=True)
class FrameRow:
    id: str
    summary: str
    sources: list[PassageRef]  # in conversation order
    backend: str = "offline"


@dataclass
class SpaceSnapshot:
    created: str  # creation time of the projection this snapshot belongs to
    node_ids: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.float32]
    by_node: dict[int, PassageRef]
    frames: dict[str, list[FrameRow]]  # passage id -> the frames it is a source of

    @classmethod
    def load(cls, store: GraphStore, space: str, created: str) -> SpaceSnapshot:
        rows = store.read("semantic.space_passages", space=space)
        by_node = {int(r["node_id"]): PassageRef.from_row(r) for r in rows}
        node_ids = np.array([int(r["node_id"]) for r in rows], dtype=np.int64)
        vectors = np.array([r["embedding"] for r in rows], dtype=np.float32)
        by_id = {ref.id: ref for ref in by_node.values()}
        frames: dict[str, list[FrameRow]] = {}
        for row in store.read("seem.space_frames", space=space):
            sources = [by_id[pid] for pid in row["source_ids"] if pid in by_id]
            frame = FrameRow(row["frame"], row["summary"], sources, row["backend"] or "")
            for source in sources:
                frames.setdefault(source.id, []).append(frame)
        return cls(created, node_ids, vectors.reshape(len(rows), -1), by_node, frames)

    def scores(self, vector: list[float]) -> list[tuple[int, float]]:
        """(node id, cosine) of every passage: the embeddings are unit length."""
        if not len(self.node_ids):
            return []
        cosines = self.vectors @ np.asarray(vector, dtype=np.float32)
        return [(int(n), float(c)) for n, c in zip(self.node_ids, cosines, strict=True)]

    def nearest(self, vector: list[float], k: int) -> list[tuple[PassageRef, float]]:
        ranked = sorted(self.scores(vector), key=lambda item: -item[1])[:k]
        return [(self.by_node[node], score) for node, score in ranked]
