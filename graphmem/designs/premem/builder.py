"""PREMem's builder: Algorithm 1 of the paper (Appendix F), one session at a time.

For the batch: Step 1 extracts every session's fragments (the LLM calls of all sessions go
out together). Then, session by session in chronological order: embed its fragments (key +
value), cluster them by silhouette, store fragments and clusters, read the pool as it stood
when this session came (from the graph, so a session ingested later sees exactly what it
would have seen in one batch), connect pairs above theta, reason over each pair, store the
insights, and take the matched pooled clusters out of the pool.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from graphmem.designs.premem.clustering import centroid, cluster_labels, connected_pairs, groups
from graphmem.designs.premem.config import PROMPT_VERSION, PremSettings
from graphmem.designs.premem.extract import OfflineExtractor, SessionTurns
from graphmem.designs.premem.llm_steps import LLMExtractor, LLMReasoner
from graphmem.designs.premem.models import PATTERN_LABELS, Cluster, Fragment, Insight, PooledCluster
from graphmem.designs.premem.reasoning import reason_offline
from graphmem.nlp import SpeakerRoles
from graphmem.plugin import (
    Builder,
    BuildReport,
    ConversationIn,
    SessionBatch,
    SessionIn,
)


def session_order(conversation: ConversationIn, session: SessionIn) -> str:
    """A total order of the sessions of a space (the pool's clock): start time, then
    conversation and index, as one sortable string."""
    started = session.started_at.isoformat() if session.started_at else ""
    return f"{started}#{conversation.conversation_id}#{session.index:06d}"


def _fragment_from_row(row: dict[str, Any]) -> Fragment:
    return Fragment(
        category=row["category"],
        key=row["key"],
        value=row["value"],
        date=row["date"] or "",
        speaker=row["speaker"],
        passage_ids=tuple(row["passages"]),
        order=(int(row["session_index"]), int(row["turn_index"])),
        topic=row["topic"] or "",
        predicate=row["predicate"] or "",
        negated=bool(row["negated"]),
        lemmas=tuple(row["lemmas"] or ()),
        fallback=bool(row.get("fallback")),
    )


class PremBuilder(Builder[PremSettings]):
    name = "premem"

    def build(self, batch: SessionBatch) -> BuildReport:
        llm = self.ctx.llm
        self._write("premem.prune_orphans")
        jobs = sorted(
            (
                (session_order(batch.conversation, s), SessionTurns(s, pids), sid)
                for s, pids, sid in zip(
                    batch.sessions, batch.passage_ids, batch.session_ids, strict=True
                )
            ),
            key=lambda job: job[0],
        )
        # With an AI assistant in the conversation the memory is the user's: the paper's
        # Step 1 extracts personal information about the user, which the assistant's
        # answers and suggestions are not (its turns still rank as messages).
        roles = self._roles(batch)
        skip = frozenset(roles.assistants)
        pair = (roles.user, roles.assistants[0]) if roles.user and len(skip) == 1 else None
        extractor = LLMExtractor(llm, pair) if llm else OfflineExtractor(skip)
        per_session = [
            [f for f in fragments if f.speaker not in skip]
            for fragments in extractor.extract([job for _, job, _ in jobs])
        ]
        counts: Counter[str] = Counter()
        for (order, job, sid), fragments in zip(jobs, per_session, strict=True):
            self._build_session(order, job, sid, fragments, counts)
        counts["turns"] = sum(len(s.turns) for s in batch.sessions)
        report = BuildReport(self.name, sessions=len(batch.sessions), counts=dict(counts))
        return report

    def _roles(self, batch: SessionBatch) -> SpeakerRoles:
        speakers = [
            *batch.conversation.speakers,
            *(t.speaker for s in batch.sessions for t in s.turns),
        ]
        return SpeakerRoles.of(speakers, self.ctx.settings.assistant_speakers)

    # --- one session ------------------------------------------------------------------
    def _build_session(
        self,
        order: str,
        job: SessionTurns,
        session_id: str,
        fragments: Sequence[Fragment],
        counts: Counter[str],
    ) -> None:
        counts["fragments"] += len(fragments)
        counts.update(f"fragments_{f.category}" for f in fragments)
        if not fragments:
            return
        vectors = self.ctx.embedder.embed([f.embed_text for f in fragments])
        self._write_fragments(order, session_id, fragments, vectors)
        clusters = self._cluster(order, session_id, fragments, vectors)
        self._write_clusters(clusters)
        counts["clusters"] += len(clusters)
        pool = self._pool(order)
        pairs = connected_pairs(
            [(p.id, p.centroid) for p in pool],
            [(c.id, c.centroid) for c in clusters],
            self.settings.theta,
        )
        counts["pairs"] += len(pairs)
        insights = self._reason(pool, clusters, pairs)
        counts["insights"] += len(insights)
        counts.update(f"insights_{i.pattern}" for i in insights)
        self._write_insights(order, insights)
        rows = [{"earlier": p, "later": c, "similarity": s, "order": order} for p, c, s in pairs]
        self._write_rows("premem.connect", rows)

    def _cluster(
        self, order: str, session_id: str, fragments: Sequence[Fragment], vectors: np.ndarray
    ) -> list[Cluster]:
        cfg = self.settings
        labels = cluster_labels(vectors, cfg.max_clusters, cfg.random_state, cfg.n_init)
        return [
            Cluster(
                session_id=session_id,
                order=order,
                fragments=tuple(fragments[i] for i in rows),
                centroid=centroid(vectors[rows]),
            )
            for rows in groups(labels)
        ]

    def _pool(self, order: str) -> list[PooledCluster]:
        return [
            PooledCluster(
                id=row["id"],
                order=row["session_order"],
                centroid=tuple(float(x) for x in row["centroid"]),
                fragments=tuple(_fragment_from_row(f) for f in row["fragments"]),
            )
            for row in self._read("premem.pool", order=order)
        ]

    def _reason(
        self,
        pool: Sequence[PooledCluster],
        clusters: Sequence[Cluster],
        pairs: Sequence[tuple[str, str, float]],
    ) -> list[Insight]:
        pooled = {p.id: p for p in pool}
        new = {c.id: c for c in clusters}
        work = [(pooled[p].fragments, new[c].fragments, (p, c)) for p, c, _ in pairs]
        cap = self.settings.max_listed_dates
        if self.ctx.llm is not None:
            found = LLMReasoner(self.ctx.llm, cap).reason(work)
        else:
            found = [reason_offline(p, c, ids, cap) for p, c, ids in work]
        return list({i.id: i for group in found for i in group}.values())

    def _labels(self) -> dict[str, str]:
        return {"prompt_version": PROMPT_VERSION}

    def _write_fragments(
        self, order: str, session_id: str, fragments: Sequence[Fragment], vectors: np.ndarray
    ) -> None:
        rows = [
            {
                "id": f.id,
                "category": f.category,
                "key": f.key,
                "value": f.value,
                "date": f.date,
                "speaker": f.speaker,
                "session": session_id,
                "session_order": order,
                "session_index": f.order[0],
                "turn_index": f.order[1],
                "topic": f.topic,
                "predicate": f.predicate,
                "negated": f.negated,
                "lemmas": list(f.lemmas),
                "passages": list(f.passage_ids),
                "embedding": [float(x) for x in vector],
                **self.ctx.node_backend(f.fallback),
            }
            for f, vector in zip(fragments, vectors, strict=True)
        ]
        self._write_rows("premem.upsert_fragments", rows, **self._labels())

    def _write_clusters(self, clusters: Sequence[Cluster]) -> None:
        rows = [
            {
                "id": c.id,
                "session": c.session_id,
                "session_order": c.order,
                "session_index": c.fragments[0].order[0],
                "centroid": list(c.centroid),
                "topic": c.topic,
                "fragments": [f.id for f in c.fragments],
                "passages": list(dict.fromkeys(p for f in c.fragments for p in f.passage_ids)),
                **self.ctx.node_backend(c.fallback),
            }
            for c in clusters
        ]
        self._write_rows("premem.upsert_clusters", rows, **self._labels())

    def _write_insights(self, order: str, insights: Sequence[Insight]) -> None:
        if not insights:
            return
        vectors = self.ctx.embedder.embed([i.embed_text for i in insights])
        rows = [
            {
                "id": i.id,
                "pattern": i.pattern,
                "inference_type": PATTERN_LABELS[i.pattern],
                "key": i.key,
                "value": i.value,
                "date": i.date,
                "session_order": order,
                "earlier": i.earlier,
                "later": i.later,
                "passages": list(i.passage_ids),
                "embedding": [float(x) for x in vector],
                **self.ctx.node_backend(i.fallback),
            }
            for i, vector in zip(insights, vectors, strict=True)
        ]
        self._write_rows("premem.upsert_insights", rows, **self._labels())
