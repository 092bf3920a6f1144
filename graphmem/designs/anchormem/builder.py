"""AnchorMem's builder: fact-context units, then the associative event graph.

Per batch of sessions: extract facts from the context units and store them (embedded,
``FROM`` their source turns); find each new fact's neighbours among all facts of the space
through the vector index (so a chunked ingest associates new facts with old ones); link
``SIMILAR`` pairs; prune redundant groups; integrate the kept ones into ``AssocEvent``
nodes. Construction cost (time, LLM calls and tokens) is measured by ``run_build``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from graphmem.designs.anchormem.config import PROMPT_VERSION, AnchorMemConfig
from graphmem.designs.anchormem.events import (
    Group,
    MemberFact,
    Neighbour,
    Pruned,
    integrate,
    prune_groups,
    select_group,
    select_group_eq9,
)
from graphmem.designs.anchormem.extract import (
    FactDraft,
    LLMExtractor,
    OfflineExtractor,
    context_units,
)
from graphmem.nlp import SpeakerRoles
from graphmem.plugin import (
    Builder,
    BuildReport,
    ExactIndex,
    SessionBatch,
    chunks,
    native,
    over_fetch,
    render_turn,
    short_caption,
)


def _render_turn(row: dict[str, Any]) -> str:
    return render_turn(
        row["speaker"], row["text"], date_text=row.get("date_text"), caption=row.get("caption")
    )


class AnchorMemBuilder(Builder[AnchorMemConfig]):
    name = "anchormem"

    def build(self, batch: SessionBatch) -> BuildReport:
        llm = self.ctx.llm
        self._write("anchormem.prune_orphans")
        units = context_units(batch, self.settings.window, self.settings.step)
        roles = SpeakerRoles.of(
            [*batch.conversation.speakers, *(t.speaker for s in batch.sessions for t in s.turns)],
            self.ctx.settings.assistant_speakers,
        )
        answers = frozenset(roles.assistants if roles.user_assistant else ())
        extractor = (
            LLMExtractor(llm)
            if llm
            else OfflineExtractor(
                answers, self.settings.answer_facts, self.ctx.settings.answer_sentences
            )
        )
        facts = extractor.extract(units)
        self._write_facts(facts)
        groups, links = self._associate(facts)
        self._write_rows("anchormem.link_similar", links)
        pruned = self._prune(groups)
        self._write_events(pruned.kept)
        self._write_session_stats(batch, facts, groups, pruned)
        report = BuildReport(
            self.name,
            sessions=len(batch.sessions),
            counts={
                "turns": sum(len(s.turns) for s in batch.sessions),
                "context_units": len(units),
                "facts": len(facts),
                "candidate_groups": len(groups),
                "events": len(pruned.kept),
                "discarded_groups": len(pruned.discarded),
                "similar_links": len(links),
            },
        )
        return report

    # --- facts ----------------------------------------------------------------------
    def _write_facts(self, facts: Sequence[FactDraft]) -> None:
        vectors = self.ctx.embedder.embed([f.text for f in facts])
        rows = [
            {
                "id": fact.id,
                "text": fact.text,
                "context": fact.context,
                "ts": fact.ts,
                "session_index": fact.order[0],
                "turn_index": fact.order[1],
                "passages": fact.passage_ids,
                "embedding": vector.tolist(),  # the same floats, without a Python loop
                **self.ctx.node_backend(fact.fallback),
            }
            for fact, vector in zip(facts, vectors, strict=True)
        ]
        self._write_rows("anchormem.upsert_facts", rows, prompt_version=PROMPT_VERSION)

    # --- association ----------------------------------------------------------------
    def _candidates(
        self, facts: Sequence[FactDraft]
    ) -> tuple[dict[str, list[Neighbour]], dict[str, str]]:
        """Each new fact's candidates among all facts of the space (best first, ties to the
        smaller id, index score ``>= min_index_score``) and each fact's context. Exact cosine
        over the space's facts read once: the candidates a vector index would return on a
        database holding this space alone (``LabelCount.alone``), so the graph does not
        depend on what else the database holds and the search costs what the space holds."""
        index = ExactIndex.from_rows(self._read("anchormem.fact_vectors"), self.ctx.embedder.dim)
        row_of = {row["id"]: i for i, row in enumerate(index.rows)}
        seeds = [row_of[f.id] for f in facts if f.id in row_of]
        k = over_fetch(self.settings.candidate_pool, len(index), len(index))
        # One more than k: the fact finds itself, and the k others are the candidates.
        found = index.top_many(index.unit[seeds], k + 1, min_score=self.settings.min_index_score)
        candidates: dict[str, list[Neighbour]] = {}
        contexts: dict[str, str] = {}
        for seed, hits in zip(seeds, found, strict=True):
            fid = index.rows[seed]["id"]
            contexts[fid] = index.rows[seed]["context"]
            others = [(i, score) for i, score in hits if i != seed][:k]
            if others:
                candidates[fid] = [
                    # the index score is (1 + cos) / 2
                    Neighbour(index.rows[i]["id"], index.rows[i]["context"], 2.0 * score - 1.0)
                    for i, score in others
                ]
        return candidates, contexts

    def _associate(self, facts: Sequence[FactDraft]) -> tuple[list[Group], list[dict[str, Any]]]:
        """Candidate groups in seed (chronological) order, and the SIMILAR pairs."""
        candidates, contexts = self._candidates(facts)
        groups: list[Group] = []
        pairs: dict[tuple[str, str], float] = {}
        for fact in sorted(facts, key=lambda f: f.order):
            found = candidates.get(fact.id)
            if not found:
                continue
            select = select_group_eq9 if self.settings.pruning == "eq9" else select_group
            group = select(
                fact.id, contexts[fact.id], found, self.settings.neighbours, self.settings.tau
            )
            if group is None:
                continue
            groups.append(group)
            for n in group.neighbours:
                pairs[(min(fact.id, n.id), max(fact.id, n.id))] = n.cosine
        links = [{"a": a, "b": b, "score": s} for (a, b), s in pairs.items()]
        return groups, links

    def _prune(self, groups: Sequence[Group]) -> Pruned:
        members = sorted({m for g in groups for m in g.members})
        integrated = {
            row["id"]
            for chunk in chunks(members)
            for row in self._read("anchormem.integrated_facts", ids=list(chunk))
        }
        ids = sorted({g.id for g in groups})
        stored = {
            row["id"]
            for chunk in chunks(ids)
            for row in self._read("anchormem.stored_events", ids=list(chunk))
        }
        min_new = 0 if self.settings.pruning == "eq9" else self.settings.min_new_facts
        return prune_groups(groups, integrated, stored, min_new)

    # --- events ---------------------------------------------------------------------
    def _member_facts(self, ids: Sequence[str]) -> dict[str, MemberFact]:
        out: dict[str, MemberFact] = {}
        for chunk in chunks(ids):
            for row in self._read("anchormem.fact_details", ids=list(chunk)):
                out[row["id"]] = MemberFact(
                    id=row["id"],
                    text=row["text"],
                    ts=native(row["ts"]),
                    order=(int(row["session_index"] or 0), int(row["turn_index"] or 0)),
                    context=row["context"],
                    turns=tuple(_render_turn(p) for p in row["passages"]),
                )
        return out

    def _write_events(self, kept: Sequence[Group]) -> None:
        if not kept:
            return
        facts = self._member_facts(sorted({m for g in kept for m in g.members}))
        groups = [[facts[m] for m in g.members if m in facts] for g in kept]
        narratives = integrate(groups, self.ctx.llm)
        vectors = self.ctx.embedder.embed([n.value for n in narratives])
        rows = []
        for group, members, text, vector in zip(kept, groups, narratives, vectors, strict=True):
            times = [m.ts for m in members if m.ts is not None]
            rows.append(
                {
                    "id": group.id,
                    "text": text.value,
                    "caption": short_caption(text.value),
                    "ts": min(times) if times else None,
                    "members": list(group.members),
                    "embedding": vector.tolist(),  # the same floats, without a Python loop
                    **self.ctx.node_backend(text.fallback),
                }
            )
        self._write_rows("anchormem.upsert_events", rows, prompt_version=PROMPT_VERSION)

    def _write_session_stats(
        self,
        batch: SessionBatch,
        facts: Sequence[FactDraft],
        groups: Sequence[Group],
        pruned: Pruned,
    ) -> None:
        """Groups are counted against the session of the fact that seeded them."""
        session_of = {f.id: f.order[0] for f in facts}
        candidates = Counter(session_of[g.seed] for g in groups)
        discarded = Counter(session_of[g.seed] for g in pruned.discarded)
        rows = [
            {
                "session_id": sid,
                "candidates": candidates.get(session.index, 0),
                "discarded": discarded.get(session.index, 0),
            }
            for session, sid in zip(batch.sessions, batch.session_ids, strict=True)
        ]
        self._write_rows("anchormem.session_stats", rows)
