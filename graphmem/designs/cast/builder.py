"""``CastBuilder`` (``--builders cast``): views, character streams, scenes by Algorithm 1,
roles and character profiles, for each batch of sessions in chronological order.

A batch first removes any views its sessions already have (a crash or a rewritten session
then rebuilds from the state before it), then continues every affected stream from the
scenes stored for it: a chunked ingest builds what one batch would.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import numpy as np

from graphmem.designs.cast.config import PROMPT_VERSION, CastSettings
from graphmem.designs.cast.scenes import Scene, StreamView, Thresholds, aggregate, streams
from graphmem.designs.cast.summary import (
    SceneSummary,
    SummaryLine,
    closeness,
    extractive,
    llm_messages,
)
from graphmem.designs.cast.summary import header as summary_header
from graphmem.designs.cast.views import (
    Message,
    PersonResolver,
    Vector,
    ViewDraft,
    batch_messages,
    build_views,
    character_id,
    topic_vector,
)
from graphmem.llm import Outcome, map_attempts
from graphmem.nlp import PersonEvidence, SpeakerRoles, analyse_turns, is_contentless, keyphrases
from graphmem.plugin import (
    BuildContext,
    Builder,
    BuildReport,
    SessionBatch,
    chunks,
    content_id,
    native,
)

NAME = "cast"


class CastBuilder(Builder[CastSettings]):
    name = NAME

    def __init__(self, ctx: BuildContext, settings: CastSettings) -> None:
        super().__init__(ctx, settings)
        self.thresholds = Thresholds(
            timedelta(days=self.settings.delta_t_days),
            self.settings.delta_l,
            self.settings.delta_tau,
        )
        # What the summaries need of every view in play (new or read back): view id ->
        # (line, tokens, filler, (session, turn), date text, passage ids).
        self._info: dict[str, tuple[str, int, bool, tuple[int, int], str | None]] = {}

    def build(self, batch: SessionBatch) -> BuildReport:
        released = self._write("cast.release_views", session_ids=list(batch.session_ids))
        sessions = batch_messages(batch)
        speakers = list(
            dict.fromkeys([*batch.conversation.speakers, *(m.speaker for s in sessions for m in s)])
        )
        roles = SpeakerRoles.of(speakers, self.ctx.settings.assistant_speakers)
        assistants = frozenset(roles.assistants if roles.user_assistant else ())
        drafts = self._views(sessions, PersonResolver(speakers), assistants)
        vectors = self._topics(drafts)
        self._write_views(drafts, vectors, speakers)
        stream_views = [self._stream_view(d, vectors[d.id]) for d in drafts]
        by_owner = streams(stream_views)
        # An AI assistant takes part in every view of its conversation but is no character
        # of the user's story: it gets no stream, hence no scenes and no profile
        # (graphmem/nlp/roles.py). Its turns stay in the user's views and scenes.
        for assistant in assistants:
            by_owner.pop(assistant, None)
        owners = sorted({*by_owner, *(row["owner"] for row in released)})
        stored = self._stored_scenes(owners)
        touched = {row["scene_id"] for row in released}
        created = 0
        for owner in owners:
            scenes = stored.setdefault(owner, [])
            count = len(scenes)
            touched |= aggregate(by_owner.get(owner, []), scenes, owner, self.thresholds, _new_id)
            created += len(scenes) - count
        changed = [s for owner in owners for s in stored[owner] if s.id in touched]
        self._write_scenes(changed)
        report = BuildReport(self.name, sessions=len(batch.sessions))
        report.counts = {
            "turns": sum(len(s) for s in sessions),
            "views": len(drafts),
            "streams": len(by_owner),
            "mentioned_characters": len(set(by_owner) - set(speakers)),
            "scenes_created": created,
            "scenes_written": len(changed),
        }
        return report

    # --- storage helpers ------------------------------------------------------------------
    # --- views ----------------------------------------------------------------------------
    def _views(
        self,
        sessions: list[list[Message]],
        resolver: PersonResolver,
        assistants: frozenset[str] = frozenset(),
    ) -> list[ViewDraft]:
        messages = [m for s in sessions for m in s]
        docs = dict(
            zip(
                [m.passage_id for m in messages],
                # An assistant's answer is read up to its opening (graphmem/nlp/openings.py).
                analyse_turns(
                    [m.text for m in messages],
                    [m.speaker in assistants for m in messages],
                    self.ctx.settings.answer_sentences,
                ),
                strict=True,
            )
        )
        # An assistant's answers name products, places and works in the subject's place
        # ("Coursera offers ..."): only the people's own turns say who is a person.
        resolver.evidence = PersonEvidence.of(
            docs[m.passage_id] for m in messages if m.speaker not in assistants
        )
        topic_words = {pid: ", ".join(keyphrases(doc, k=3)) for pid, doc in docs.items()}
        fillers = {pid: is_contentless(doc) for pid, doc in docs.items()}
        return build_views(
            sessions,
            docs,
            resolver,
            self.settings.window,
            self.settings.participants == "all",
            topic_words,
            fillers,
            assistants,
        )

    def _topics(self, drafts: Sequence[ViewDraft]) -> dict[str, Vector]:
        ids = list(dict.fromkeys(pid for d in drafts for pid in d.passage_ids))
        rows = self._read("cast.passage_embeddings", ids=ids)
        stored = {row["id"]: np.asarray(row["embedding"], dtype=np.float32) for row in rows}
        return {d.id: topic_vector(d.passage_ids, stored) for d in drafts}

    def _write_views(
        self, drafts: Sequence[ViewDraft], vectors: dict[str, Vector], speakers: Sequence[str]
    ) -> None:
        lines = [d.centre.line for d in drafts]
        tokens = self.ctx.embedder.count_tokens_many(lines)
        rows = []
        for draft, line, n_tokens in zip(drafts, lines, tokens, strict=True):
            centre = draft.centre
            order = (centre.session_index, centre.turn_index)
            self._info[draft.id] = (line, n_tokens, draft.filler, order, centre.date_text)
            rows.append(
                {
                    "id": draft.id,
                    "text": draft.text,
                    "centre": centre.passage_id,
                    "source_id": centre.source_id,
                    "session": centre.session_id,
                    "session_index": centre.session_index,
                    "turn_index": centre.turn_index,
                    "speaker": centre.speaker,
                    "t": centre.ts,
                    "date_text": centre.date_text,
                    "location": draft.place,
                    "topic": draft.topic_words,
                    "participants": list(draft.participants),
                    "line": line,
                    "line_tokens": n_tokens,
                    "filler": draft.filler,
                    "passage_ids": draft.passage_ids,
                    "embedding": [float(x) for x in vectors[draft.id]],
                }
            )
        known = set(speakers)
        people = sorted({p for d in drafts for p in d.participants} - known)
        with self.ctx.store.transaction() as tx:
            if people:
                tx.run(
                    "cast.upsert_characters",
                    space=self.ctx.space,
                    rows=[{"id": character_id(p), "name": p} for p in people],
                    backend=self.ctx.backend,
                )
            for chunk in chunks(rows):
                tx.run(
                    "cast.upsert_views", space=self.ctx.space, rows=chunk, backend=self.ctx.backend
                )

    @staticmethod
    def _stream_view(draft: ViewDraft, topic: Vector) -> StreamView:
        centre = draft.centre
        return StreamView(
            id=draft.id,
            t=centre.ts,
            place=draft.place,
            topic=topic,
            speaker=centre.speaker,
            participants=draft.participants,
            order=(centre.session_index, centre.turn_index),
        )

    # --- scenes ---------------------------------------------------------------------------
    def _stored_scenes(self, owners: Sequence[str]) -> dict[str, list[Scene]]:
        """Each owner's stored scenes in creation order, rebuilt view by view."""
        out: dict[str, list[Scene]] = {}
        current: Scene | None = None
        for row in self._read("cast.stream_views", owners=list(owners)) if owners else []:
            if current is None or current.id != row["scene_id"]:
                current = Scene(id=row["scene_id"], owner=row["owner"], seq=int(row["seq"]))
                out.setdefault(row["owner"], []).append(current)
            order = (int(row["session_index"]), int(row["turn_index"]))
            current.add(
                StreamView(
                    id=row["view_id"],
                    t=native(row["t"]),
                    place=row["place"],
                    topic=np.asarray(row["embedding"], dtype=np.float32),
                    speaker=row["speaker"],
                    participants=tuple(row["participants"]),
                    order=order,
                )
            )
            self._info[row["view_id"]] = (
                row["line"],
                int(row["line_tokens"]),
                bool(row["filler"]),
                order,
                row["date_text"],
            )
        return out

    def _summaries(self, scenes: Sequence[Scene]) -> list[Outcome[str]]:
        heads = [self._head(s) for s in scenes]
        llm = self.ctx.llm
        if llm is None:
            return [Outcome(s) for s in self._extractive(scenes, heads)]
        # A scene the LLM gives up on gets the extractive summary (graphmem.llm.fallback),
        # and says so.
        return map_attempts(
            llm,
            lambda i: (
                llm.generate(
                    llm_messages(heads[i], [self._info[v.id][0] for v in scenes[i].views]),
                    SceneSummary,
                ).summary
            ),
            lambda i: self._extractive([scenes[i]], [heads[i]])[0],
            range(len(scenes)),
            what="cast scene summaries",
        )

    def _extractive(self, scenes: Sequence[Scene], heads: Sequence[str]) -> list[str]:
        head_tokens = self.ctx.embedder.count_tokens_many(heads)
        out = []
        for scene, head, n_head in zip(scenes, heads, head_tokens, strict=True):
            centroid = scene.centroid
            topics = np.stack([v.topic for v in scene.views])
            near = closeness(topics, centroid) if centroid is not None else [0.0] * len(topics)
            lines = [
                SummaryLine(info[0], info[1], c, info[2], info[3])
                for v, c in zip(scene.views, near, strict=True)
                for info in [self._info[v.id]]
            ]
            out.append(extractive(head, n_head, lines, self.settings.summary_tokens))
        return out

    def _head(self, scene: Scene) -> str:
        dates = list(dict.fromkeys(self._info[v.id][4] for v in scene.views))
        when = " - ".join(d for d in (dates[0], dates[-1] if len(dates) > 1 else None) if d)
        others = [p for p in scene.participants if p != scene.owner][:4]
        return summary_header(scene.owner, others, when or None, scene.place)

    def _write_scenes(self, scenes: Sequence[Scene]) -> None:
        if not scenes:
            return
        summaries = self._summaries(scenes)
        vectors = self.ctx.embedder.embed([s.value for s in summaries])
        rows = [
            {
                **_scene_row(scene, summary.value, vector, self._info),
                **self.ctx.node_backend(summary.fallback),
            }
            for scene, summary, vector in zip(scenes, summaries, vectors, strict=True)
        ]
        owners = sorted({row["owner_id"] for row in rows})
        prompt_version = PROMPT_VERSION if self.ctx.llm else None
        with self.ctx.store.transaction() as tx:
            for chunk in chunks(rows):
                tx.run(
                    "cast.upsert_scenes",
                    space=self.ctx.space,
                    rows=chunk,
                    prompt_version=prompt_version,
                )
                tx.run("cast.link_roles", space=self.ctx.space, rows=chunk)
            tx.run("cast.order_profiles", space=self.ctx.space, owner_ids=owners)


def _new_id(owner: str, first: StreamView) -> str:
    return content_id("scene", character_id(owner), first.id)


def _scene_row(scene: Scene, summary: str, vector: Vector, info: dict[str, Any]) -> dict[str, Any]:
    dates = [info[v.id][4] for v in scene.views]
    return {
        "id": scene.id,
        "owner": scene.owner,
        "owner_id": character_id(scene.owner),
        "seq": scene.seq,
        "role": scene.role(scene.owner),
        "start": scene.t_min,
        "end": scene.t_max,
        "date_text": dates[0],
        "location": scene.place,
        "places": scene.places,
        "participants": scene.participants,
        "main": scene.main,
        "supporting": scene.supporting,
        "summary": summary,
        "view_ids": [v.id for v in scene.views],
        "embedding": [float(x) for x in vector],
    }
