"""``SeemBuilder``: the semantic layer (entities, facts, synonyms) and the episodic layer
(event frames, consolidated) for each batch of sessions, in chronological order.

Each batch is complete on its own: entities resolve against what earlier batches stored,
frames consolidate with stored frames, so chunked ingest builds what one batch would.
The space's semantic PageRank projection is dropped after every build; the next query
projects it again from the new graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from graphmem.builders.base import BuildContext, Builder, BuildReport, SessionBatch
from graphmem.designs.seem.config import SeemConfig
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
from graphmem.designs.seem.extract import (
    PassageFacts,
    PassageIn,
    batch_passages,
    llm_facts,
    offline_facts,
)
from graphmem.designs.seem.frames import FrameDraft, llm_frames, offline_frame, windows_of
from graphmem.designs.seem.index import Totals, over_fetch
from graphmem.designs.seem.llm_prompts import PROMPT_VERSION, render_turn
from graphmem.designs.seem.names import entity_id, normalise_name
from graphmem.designs.seem.projection import SemanticGraph
from graphmem.designs.seem.semantic import BUILDER, Resolution, SemanticWriter
from graphmem.ingest.writer import content_id
from graphmem.llm import map_with_fallback
from graphmem.nlp import analyse_many


def _render_stored(passage: dict[str, Any]) -> str:
    return render_turn(
        passage["speaker"], passage["text"], passage.get("date_text"), passage.get("caption")
    )


class SeemBuilder(Builder):
    name = BUILDER

    def __init__(self, ctx: BuildContext, config: SeemConfig | None = None) -> None:
        super().__init__(ctx)
        self.config = config or SeemConfig()
        self.prompt_version = PROMPT_VERSION if ctx.llm else None

    def build(self, batch: SessionBatch) -> BuildReport:
        llm = self.ctx.llm
        passages = batch_passages(batch)
        speakers = list(
            dict.fromkeys([*batch.conversation.speakers, *(p.speaker for p in passages)])
        )
        self._release([p.id for p in passages])
        facts, drafts = self._extract(passages, {normalise_name(s) for s in speakers})
        resolution = SemanticWriter(self.ctx, self.config, self.prompt_version).write(
            facts, speakers
        )
        judge: Judge = LLMJudge(self.config, llm) if llm else OfflineJudge(self.config)
        consolidation = self._consolidate(drafts, judge)
        events = self._write_frames(consolidation.frames, resolution)
        SemanticGraph(self.ctx.store, self.ctx.space).drop()
        report = BuildReport(self.name, sessions=len(batch.sessions))
        report.counts = {
            **resolution.counts,
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

    # --- extraction ---------------------------------------------------------------------
    def _extract(
        self, passages: Sequence[PassageIn], speakers: set[str]
    ) -> tuple[list[PassageFacts], list[FrameDraft]]:
        windows = windows_of(passages, self.config.frame_window)
        llm = self.ctx.llm
        if llm is None:
            return self._offline(passages, windows, speakers)
        # One item the LLM gives up on (a passage, a window) is extracted offline instead.
        facts = map_with_fallback(
            llm,
            lambda p: llm_facts(llm, [p])[0],
            lambda p: self._offline([p], [], speakers)[0][0],
            passages,
            what="seem quadruples",
        )
        limit = self.config.max_events_per_frame
        drafts = map_with_fallback(
            llm,
            lambda w: llm_frames(llm, [w], speakers, limit)[0],
            lambda w: self._offline(w, [w], speakers)[1][0],
            windows,
            what="seem frames",
        )
        return facts, drafts

    def _offline(
        self,
        passages: Sequence[PassageIn],
        windows: Sequence[Sequence[PassageIn]],
        speakers: set[str],
    ) -> tuple[list[PassageFacts], list[FrameDraft]]:
        docs = analyse_many([p.text for p in passages])
        captioned = [p for p in passages if p.caption]
        caption_docs = dict(
            zip(
                [p.id for p in captioned],
                analyse_many([p.caption or "" for p in captioned]),
                strict=True,
            )
        )
        analysed = [
            offline_facts(p, doc, caption_docs.get(p.id), self.config.mentions_per_passage)
            for p, doc in zip(passages, docs, strict=True)
        ]
        by_id = {p.id: i for i, p in enumerate(passages)}
        drafts = []
        for window in windows:
            idx = [by_id[p.id] for p in window]
            drafts.append(
                offline_frame(
                    window,
                    [docs[i] for i in idx],
                    [analysed[i][1] for i in idx],
                    speakers,
                    self.config.max_events_per_frame,
                    self.config.max_summary_statements,
                )
            )
        return [pf for pf, _ in analysed], drafts

    # --- consolidation ------------------------------------------------------------------
    def _consolidate(self, drafts: Sequence[FrameDraft], judge: Judge) -> Consolidation:
        vectors = self._frame_vectors(drafts)
        stored: list[list[Candidate]] = [[] for _ in drafts]
        totals = Totals.read(self.ctx.store, self.ctx.space)
        k = 2 * self.config.fuse_candidates  # spares for stored frames fused in this batch
        fetch = over_fetch(k, totals.frames, totals.frames_in_space)
        if fetch and drafts:
            rows = self.ctx.store.read(
                "seem.frame_neighbours",
                space=self.ctx.space,
                rows=[{"i": i, "embedding": v.tolist()} for i, v in enumerate(vectors)],
                fetch=fetch,
                k=k,
            )
            for row in rows:
                stored[row["i"]].append(stored_candidates(row, _render_stored))
        return Consolidator(self.config, judge).run(drafts, vectors, stored)

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
            mean = np.mean([stored[pid] for pid in draft.passage_ids], axis=0)
            out[i] = mean / (np.linalg.norm(mean) or 1.0)
        return out

    def _write_frames(self, frames: Sequence[Frame], resolution: Resolution) -> int:
        frame_rows = [
            {
                "id": f.id,
                "summary": f.summary,
                "participants": f.participants,
                "topics": f.topics,
                "statements": f.statements,
                "start": f.start,
                "end": f.end,
                "passage_ids": f.passage_ids,
                "embedding": f.embedding.tolist(),
            }
            for f in frames
        ]
        event_rows = [row for f in frames for row in self._event_rows(f, resolution)]
        tags = {"builder": BUILDER, "backend": self.ctx.backend}
        with self.ctx.store.transaction() as tx:
            tx.run("seem.delete_events", space=self.ctx.space, frame_ids=[f.id for f in frames])
            tx.run(
                "seem.upsert_frames",
                space=self.ctx.space,
                rows=frame_rows,
                prompt_version=self.prompt_version,
                **tags,
            )
            tx.run("seem.upsert_events", space=self.ctx.space, rows=event_rows, **tags)
        return len(event_rows)

    @staticmethod
    def _event_rows(frame: Frame, resolution: Resolution) -> list[dict[str, Any]]:
        rows = []
        for order, event in enumerate(frame.events):
            keys = [normalise_name(n) for n in event.participants]
            rows.append(
                {
                    "frame_id": frame.id,
                    "id": content_id("event", frame.id, order, event.action),
                    "order": order,
                    **event.model_dump(),
                    "entity_ids": [resolution.ids.get(k, entity_id(k)) for k in keys if k],
                    "speaker_ids": [content_id("speaker", n) for n in event.participants],
                    "passage_ids": frame.passage_ids,
                }
            )
        return rows
