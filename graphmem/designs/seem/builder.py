"""``SeemBuilder``: SEEM's episodic layer (event frames, consolidated) for each batch of
sessions, in chronological order. The semantic layer (entities, facts, synonyms) is the
``semantic`` builder's, which runs first for the same batch (``requires``); event
participants link to the entities it stored.

Each batch is complete on its own: frames consolidate with stored frames, so chunked
ingest builds what one batch would. The space's PageRank projection is dropped after every
build (retrievers keep the frames with their snapshot of the projection).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from graphmem.designs.seem.consolidate import (
    Candidate,
    Consolidation,
    Consolidator,
    Frame,
    Judge,
    LLMJudge,
    OfflineJudge,
    Vector,
    stored_candidates,
)
from graphmem.designs.seem.frames import (
    FrameDraft,
    event_sources,
    llm_frames,
    offline_frame,
    windows_of,
)
from graphmem.designs.seem.llm_prompts import PROMPT_VERSION
from graphmem.designs.seem.settings import SeemSettings
from graphmem.designs.seem.vectors import window_vector
from graphmem.llm import map_attempts
from graphmem.nlp import SpeakerRoles, analyse_turns, extract_triples, speaker_names
from graphmem.plugin import (
    BuildContext,
    Builder,
    BuildReport,
    ExactIndex,
    SessionBatch,
    content_id,
    render_turn,
    short_caption,
)
from graphmem.semantic import (
    PassageIn,
    SemanticGraph,
    batch_passages,
    batch_speakers,
    normalise_name,
    stored_entity_ids,
)

BUILDER = "seem"


def _render_stored(passage: dict[str, Any]) -> str:
    return render_turn(
        passage["speaker"],
        passage["text"],
        date_text=passage.get("date_text"),
        caption=passage.get("caption"),
    )


class SeemBuilder(Builder[SeemSettings]):
    name = BUILDER

    def __init__(self, ctx: BuildContext, settings: SeemSettings) -> None:
        super().__init__(ctx, settings)
        self.prompt_version = PROMPT_VERSION if ctx.llm else None
        self._roles: SpeakerRoles | None = None  # a user-assistant conversation's, per batch

    def build(self, batch: SessionBatch) -> BuildReport:
        llm = self.ctx.llm
        passages = batch_passages(batch)
        speakers = batch_speakers(batch, passages)
        self._release([p.id for p in passages])
        roles = SpeakerRoles.of(speakers, self.ctx.settings.assistant_speakers)
        self._roles = roles if roles.user_assistant else None
        drafts = self._drafts(passages, {normalise_name(s) for s in speakers})
        judge: Judge = LLMJudge(self.settings, llm) if llm else OfflineJudge(self.settings)
        consolidation = self._consolidate(drafts, judge)
        events = self._write_frames(consolidation.frames)
        # The hipporag/seem retrievers keep the frames with their snapshot of the space,
        # renewed when the projection changes: drop it so they read the new frames.
        SemanticGraph(self.ctx.store, self.ctx.space).drop()
        report = BuildReport(self.name, sessions=len(batch.sessions))
        report.counts = {
            "frames_created": consolidation.created,
            "frames_fused": consolidation.fused,
            "events": events,
        }
        return report

    def _release(self, ids: list[str]) -> None:
        """Sessions are marked built only after ``build`` returns; an interrupted build left
        frames of these passages behind, which the re-run must not fuse with again."""
        with self.ctx.store.transaction() as tx:
            tx.run("seem.drop_batch_frames", space=self.ctx.space, ids=ids)
            tx.run("seem.release_batch_passages", space=self.ctx.space, ids=ids)

    def finish(self) -> None:
        SemanticGraph(self.ctx.store, self.ctx.space).drop()

    # --- frames before consolidation ------------------------------------------------------
    def _drafts(self, passages: Sequence[PassageIn], speakers: set[str]) -> list[FrameDraft]:
        windows = windows_of(passages, self.settings.frame_window)
        llm = self.ctx.llm
        if llm is None:
            return self._offline_drafts(windows, speakers)
        # A window the LLM gives up on (after retries and repairs) is framed offline instead,
        # and its frame says so.
        limit = self.settings.max_events_per_frame
        outcomes = map_attempts(
            llm,
            lambda w: llm_frames(llm, [w], speakers, limit)[0],
            lambda w: self._offline_drafts([w], speakers)[0],
            windows,
            what="seem frames",
        )
        return [replace(o.value, fallback=o.fallback) for o in outcomes]

    def _offline_drafts(
        self, windows: Sequence[Sequence[PassageIn]], speakers: set[str]
    ) -> list[FrameDraft]:
        # The semantic builder parsed these texts a moment ago: graphmem.nlp keeps the parses.
        # An assistant's answer is read up to its opening (graphmem/nlp/openings.py).
        passages = [p for window in windows for p in window]
        roles = self._roles
        answers = [roles is not None and roles.is_assistant(p.speaker) for p in passages]
        parsed = analyse_turns(
            [p.text for p in passages], answers, self.ctx.settings.answer_sentences
        )
        docs = dict(zip([p.id for p in passages], parsed, strict=True))
        names = speaker_names(p.speaker for p in passages)
        return [
            offline_frame(
                window,
                [docs[p.id] for p in window],
                [
                    extract_triples(docs[p.id], p.speaker, p.ts, claims_only=True, names=names)
                    for p in window
                ],
                speakers,
                self.settings.max_events_per_frame,
                self.settings.max_summary_statements,
                self._roles,
            )
            for window in windows
        ]

    # --- consolidation ------------------------------------------------------------------
    def _consolidate(self, drafts: Sequence[FrameDraft], judge: Judge) -> Consolidation:
        vectors = self._frame_vectors(drafts)
        stored: list[list[Candidate]] = [[] for _ in drafts]
        k = 2 * self.settings.fuse_candidates  # spares for stored frames fused in this batch
        for row in self._stored_neighbours(vectors, k):
            stored[row["i"]].append(stored_candidates(row, _render_stored))
        return Consolidator(self.settings, judge).run(drafts, vectors, stored)

    def _stored_neighbours(self, vectors: Vector, k: int) -> list[dict[str, Any]]:
        """The ``k`` nearest stored frames of each new frame (best first, ties to the smaller
        id), by exact cosine over the space's frames read once: a search costs what the
        space holds, not the over-fetch of a vector index spanning every space."""
        if not len(vectors):
            return []
        frames = self.ctx.store.read("seem.frame_vectors", space=self.ctx.space)
        index = ExactIndex.from_rows(frames, self.ctx.embedder.dim)
        chosen = [
            {"i": i, "rank": rank, "id": index.rows[j]["id"], "score": score}
            for i, hits in enumerate(index.top_many(vectors, k))
            for rank, (j, score) in enumerate(hits)
        ]
        if not chosen:
            return []
        rows = self.ctx.store.read("seem.frames_by_id", space=self.ctx.space, rows=chosen)
        return sorted(rows, key=lambda row: (row["i"], row["rank"]))

    def _frame_vectors(self, drafts: Sequence[FrameDraft]) -> Vector:
        """LLM frames are embedded by their summary; an offline frame says what its turns say,
        so it reuses their stored embeddings (mean over the window) instead of encoding a
        paraphrase of them again."""
        if self.ctx.llm is not None:
            return self.ctx.embedder.embed([d.summary for d in drafts])
        ids = [pid for d in drafts for pid in d.passage_ids]
        rows = self.ctx.store.read("seem.passage_embeddings", space=self.ctx.space, ids=ids)
        stored = {row["id"]: np.asarray(row["embedding"], dtype=np.float32) for row in rows}
        out = np.zeros((len(drafts), self.ctx.embedder.dim), dtype=np.float32)
        for i, draft in enumerate(drafts):
            out[i] = window_vector([stored[pid] for pid in draft.passage_ids])
        return out

    def _write_frames(self, frames: Sequence[Frame]) -> int:
        frame_rows = [
            {
                "id": f.id,
                "summary": f.summary,
                "caption": short_caption(f.summary),
                "participants": f.participants,
                "topics": f.topics,
                "statements": f.statements,
                "start": f.start,
                "end": f.end,
                "passage_ids": f.passage_ids,
                "embedding": f.embedding.tolist(),
                # What `graphmem reembed` replays the vector from (seem/vectors.py).
                "vector_parts": f.part_sizes,
                "vector_passages": f.part_passages,
                "vector_texts": f.part_texts if self.ctx.llm is not None else None,
                **self.ctx.node_backend(f.fallback),
            }
            for f in frames
        ]
        names = [n for f in frames for e in f.events for n in e.participants]
        entity_ids = stored_entity_ids(self.ctx, names)
        event_rows = [
            {**row, **self.ctx.node_backend(row["action"].lower() in f.fallback_actions)}
            for f in frames
            for row in self._event_rows(f, entity_ids)
        ]
        with self.ctx.store.transaction() as tx:
            tx.run("seem.delete_events", space=self.ctx.space, frame_ids=[f.id for f in frames])
            tx.run(
                "seem.upsert_frames",
                space=self.ctx.space,
                rows=frame_rows,
                prompt_version=self.prompt_version,
                builder=BUILDER,
            )
            tx.run("seem.upsert_events", space=self.ctx.space, rows=event_rows, builder=BUILDER)
        return len(event_rows)

    @staticmethod
    def _event_rows(frame: Frame, entity_ids: dict[str, str]) -> list[dict[str, Any]]:
        rows = []
        for order, event in enumerate(frame.events):
            keys = [normalise_name(n) for n in event.participants]
            rows.append(
                {
                    "frame_id": frame.id,
                    "id": content_id("event", frame.id, order, event.action),
                    "order": order,
                    **event.model_dump(),
                    "entity_ids": [entity_ids[k] for k in keys if k in entity_ids],
                    "speaker_ids": [content_id("speaker", n) for n in event.participants],
                    "passage_ids": event_sources(event.action, frame.passage_ids, frame.sources),
                }
            )
        return rows
