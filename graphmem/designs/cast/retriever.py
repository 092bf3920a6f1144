"""``--strategy cast``: semantic top-k from HippoRAG 2, episodic top-k from scene vectors
(filtered by the question's names, places and times), fused by Algorithm 2.

Each entry of the semantic list is a turn shown with its view (its ``w`` neighbours in the
session), as the paper's memories are views (``view_turns = "window"``, the paper preset), or
its centre turn only (``"centre"``, the default: under a token budget a neighbour costs as
much as a further semantic hit). With ``semantic_k`` unset the list is as long
as the budget holds (``fusion.within_budget``); fusion only reorders it, so the packed
context is the same set of turns in either order and the reader sees it in conversation
order. ``--explain`` says for each entry its semantic rank and, when it was promoted, the
scene and character that promoted it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime, timedelta

import numpy as np

from graphmem.designs.cast.config import CastSettings
from graphmem.designs.cast.episodic import (
    EpisodicIndex,
    RankedScene,
    SceneRow,
    episodic_turns,
    question_cues,
)
from graphmem.designs.cast.fusion import Entry, fuse, slot3, within_budget
from graphmem.designs.cast.semantic import semantic_retriever
from graphmem.designs.cast.views import PersonResolver
from graphmem.nlp import analyse
from graphmem.plugin import (
    Hit,
    PassageRef,
    RetrievalContext,
    RetrievalResult,
    SnapshotRetriever,
    TokenCounter,
)


class CastRetriever(SnapshotRetriever[CastSettings, EpisodicIndex]):
    name = "cast"
    version_statement = "cast.version"
    prefix_consistent = False  # Algorithm 2 reorders the list the budget holds

    def __init__(self, ctx: RetrievalContext, settings: CastSettings) -> None:
        super().__init__(ctx, settings)
        self._semantic = semantic_retriever(ctx)
        self._count = TokenCounter(ctx.embedder)

    def refresh(self) -> None:
        super().refresh()
        self._semantic.refresh()

    def prepare(self) -> None:
        self._semantic.prepare()
        super().prepare()

    # --- the space's scenes and views -------------------------------------------------------
    def index(self) -> EpisodicIndex:
        """The snapshot, read again when the space's views or scenes changed."""
        return self.snapshot()

    def load_snapshot(self) -> EpisodicIndex:
        read = self.ctx.store.read
        scene_rows = read("cast.space_scenes", space=self.ctx.space)
        view_rows = read("cast.space_views", space=self.ctx.space)
        passages = {
            row["id"]: PassageRef.from_row(row)
            for row in read("cast.space_passages", space=self.ctx.space)
        }
        dim = self.ctx.embedder.dim
        index = EpisodicIndex(
            scenes=[SceneRow.from_row(r) for r in scene_rows],
            scene_vectors=_matrix([r["embedding"] for r in scene_rows], dim),
            views={r["centre"]: tuple(r["passage_ids"]) for r in view_rows},
            view_vectors={
                r["centre"]: np.asarray(r["embedding"], dtype=np.float32) for r in view_rows
            },
            passages=passages,
            characters=sorted({r["character"] for r in scene_rows}),
        )
        return index

    # --- the query ----------------------------------------------------------------------
    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        started = time.perf_counter()
        semantic = self._semantic.retrieve(query, budget)
        timings = {"semantic": (time.perf_counter() - started) * 1000}
        index = self.index()
        entries = self._entries(semantic.hits, index, self.settings.view_turns == "window")
        k = self.settings.semantic_k
        candidates = entries[:k] if k else entries
        vector = self.ctx.embedder.embed_query(query)
        ranked = self._scenes(query, vector, index)
        found = episodic_turns(ranked, self.settings.episodic_k)
        timings["episodic"] = (time.perf_counter() - started) * 1000 - timings["semantic"]
        if self.settings.fusion == "slot3" and ranked:
            injected = self._injected(index, ranked[0].scene, vector, candidates)
            if injected is not None and self.settings.view_turns == "centre":
                injected = Entry(injected.passage, (injected.passage,))
            candidates = slot3(candidates, injected, keep=k)
        chosen = within_budget(candidates, budget, self._count)
        by_id = {e.passage.id: e for e in chosen}
        order = [e.passage.id for e in chosen]
        if self.settings.fusion == "promote":
            order = fuse(order, found)
        scores = {h.node_id: h for h in semantic.hits}
        hits = [self._hit(by_id[pid], scores.get(pid), found.get(pid)) for pid in order]
        return RetrievalResult(query=query, strategy=self.name, hits=hits, timings_ms=timings)

    def _now(self, index: EpisodicIndex) -> datetime:
        return self.ctx.now if self.ctx.now is not None else index.latest

    def _entries(self, hits: Sequence[Hit], index: EpisodicIndex, views: bool) -> list[Entry]:
        """The semantic ranking as turns, each once, with its view's turns (``views``) or
        alone."""
        out: list[Entry] = []
        seen: set[str] = set()
        for hit in hits:
            for passage in hit.passages:
                if passage.id not in seen:
                    seen.add(passage.id)
                    out.append(_entry(passage, index) if views else Entry(passage, (passage,)))
        return out

    def _scenes(
        self, query: str, vector: Sequence[float], index: EpisodicIndex
    ) -> list[RankedScene]:
        relative = self.settings.relative_cues and self.ctx.now is not None
        cues = question_cues(
            analyse(query), PersonResolver(index.characters), self._now(index), relative
        )
        slack = timedelta(days=self.settings.delta_t_days)
        return index.rank(vector, cues, self.settings.cues, self.settings.cue_boost, slack)

    @staticmethod
    def _injected(
        index: EpisodicIndex, scene: SceneRow, vector: Sequence[float], semantic: list[Entry]
    ) -> Entry | None:
        pid = index.best_turn(scene, vector, {e.passage.id for e in semantic})
        if pid is None or pid not in index.passages:
            return None
        return _entry(index.passages[pid], index)

    def _hit(self, entry: Entry, semantic: Hit | None, scene: RankedScene | None) -> Hit:
        path = list(semantic.path) if semantic else ["slot-3 injection from the top scene"]
        if scene is not None and self.settings.fusion == "promote":
            cues = f", matched {'/'.join(scene.matched)}" if scene.matched else ""
            path.append(
                f"promoted: scene {scene.scene.id[:8]} of {scene.scene.character} "
                f"({scene.scene.role}, {scene.scene.date_text}), episodic rank "
                f"{scene.rank + 1} score {scene.score:.3f}{cues}"
            )
        if len(entry.view) > 1:
            path.append(f"view: {', '.join(p.source_id for p in entry.view)}")
        return Hit(
            node_id=entry.passage.id,
            label="View",
            score=semantic.score if semantic else 0.0,
            strategy=self.name,
            path=path,
            passages=list(entry.view),
        )


def _entry(passage: PassageRef, index: EpisodicIndex) -> Entry:
    window = index.views.get(passage.id, (passage.id,))
    others = sorted(
        (index.passages[pid] for pid in window if pid != passage.id and pid in index.passages),
        key=lambda p: (p.session_index, p.turn_index),
    )
    return Entry(passage, (passage, *others))


def _matrix(vectors: list[list[float]], dim: int) -> np.ndarray:
    if not vectors:
        return np.zeros((0, dim), dtype=np.float32)
    return np.asarray(vectors, dtype=np.float32)
