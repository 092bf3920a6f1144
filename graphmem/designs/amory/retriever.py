"""``--strategy amory``: coherence-driven retrieval over stories plus a semantic-memory query
(the paper's section 3.2, "Memory Retrieval").

1. Leaves: every subplot, and each story's excerpts no subplot holds (a story without
   subplots is one leaf). Each has a headline, characters and a headline vector.
2. Coherence: the LLM picks the k leaves most likely to hold the answer (the paper's
   prompt); offline, leaves are scored by their headline vector (headline + characters)
   blended with their best excerpt's score (cosine and scaled BM25), plus a boost per
   name of the question among their characters. The k chosen leaves come first, their
   excerpts as hits.
3. Semantic memory: with an LLM, a generated Cypher query over the semantic layer, run
   read-only (``safe_cypher``); refused or failing, entity-matched side facts instead, and
   the explain path says so. Offline: entity-matched side facts.
4. With ``fill_budget``, more memory follows so the packer can fill the budget: the
   next-ranked leaves whole (``fill = stories``) or the best excerpts of the other leaves
   one by one (``fill = excerpts``).

A conversation without stories yet (an LLM build with fewer than T turns) is answered from
its full history, as the paper does below T.

The leaves, turns and side facts are read once into a ``Snapshot`` kept behind
``amory.version`` (``Versioned``): read again when the version row changes, and at the next
query after ``refresh()`` (this process wrote to the space).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from graphmem.designs.amory.config import AmorySettings
from graphmem.designs.amory.leaves import Leaf, leaf_vector, story_leaves
from graphmem.designs.amory.semantic import FactIndex, SemanticSearch
from graphmem.designs.amory.timeline import Vector
from graphmem.llm import StructuredLLM
from graphmem.nlp import query_entities
from graphmem.plugin import (
    FulltextRetriever,
    Hit,
    NoSettings,
    PassageRef,
    RetrievalContext,
    RetrievalResult,
    SnapshotRetriever,
    k_for_budget,
)

# Turns the lexical leg scores (the rest count as 0): at least 100, and at least as many
# as the budget could show (k_for_budget, the depth the fulltext baseline reads), so a
# large budget's excerpts are not told apart by cosine alone. The same depth as the
# baseline also lets the graphmem strategy read the BM25 list once for both.
_BM25_DEPTH = 100


@dataclass(frozen=True)
class Snapshot:
    """What the retriever ranks over, read at once so a query never mixes two reads."""

    leaves: list[Leaf]
    passages: dict[str, PassageRef]
    vectors: dict[str, Vector]  # every turn's, for the excerpt scores
    unstoried: list[str]  # turns of conversations without a story yet (full history)
    facts: FactIndex


class AmoryRetriever(SnapshotRetriever[AmorySettings, Snapshot]):
    name = "amory"
    version_statement = "amory.version"
    shares_snapshot = True
    # The BM25 leg reads max(100, k_for_budget(budget)) turns, so a larger budget can score
    # turns a smaller one counts as 0 and reorder the leaves: the hits for a small budget
    # are not the first hits for a large one, and the evaluation retrieves at each budget.
    prefix_consistent = False

    def __init__(self, ctx: RetrievalContext, settings: AmorySettings) -> None:
        super().__init__(ctx, settings)
        self.llm: StructuredLLM | None = ctx.llm  # the Memory's client, shared
        self.semantic = SemanticSearch(ctx, settings, self.llm)
        self._fulltext = FulltextRetriever(ctx, NoSettings())  # BM25 has no settings

    # --- snapshot -------------------------------------------------------------------------
    def refresh(self) -> None:
        super().refresh()
        self._fulltext.refresh()

    def prepare(self) -> None:
        super().prepare()
        self._fulltext.prepare()

    def load_snapshot(self) -> Snapshot:
        """The space's stories, turns and side facts (``amory.version`` says when they
        changed)."""
        store, space = self.ctx.store, self.ctx.space
        # Stories before turns: a turn is written before any story holds it, so every turn
        # of the stories read is among the turns read, even with an ingest in between.
        leaves = [
            leaf
            for row in store.read("amory.snapshot_stories", space=space)
            for leaf in story_leaves(row)
        ]
        rows = store.read("amory.space_passages", space=space)
        return Snapshot(
            leaves=leaves,
            passages={r["id"]: PassageRef.from_row(r) for r in rows},
            vectors={r["id"]: leaf_vector(r["embedding"]) for r in rows},
            unstoried=[r["id"] for r in rows if not r["storied"]],
            facts=FactIndex.read(store, space),
        )

    @property
    def leaves(self) -> list[Leaf]:
        return self.snapshot().leaves

    # --- ranking --------------------------------------------------------------------------
    def excerpt_scores(
        self, snap: Snapshot, question: str, query: Vector, budget: int
    ) -> dict[str, float]:
        """How near each turn is to the question: its cosine and its BM25 score (scaled by
        the best one), averaged. The LLM reads names and rare words in a headline as well
        as its meaning; offline, the excerpts' words stand in for that reading."""
        depth = max(_BM25_DEPTH, k_for_budget(budget))
        lexical = {h.node_id: h.score for h in self._fulltext.search(question, depth)}
        top = max(lexical.values(), default=0.0) or 1.0
        return {
            pid: 0.5 * float(np.dot(query, vector)) + 0.5 * lexical.get(pid, 0.0) / top
            for pid, vector in snap.vectors.items()
        }

    def offline_scores(
        self, leaves: Sequence[Leaf], query: Vector, names: set[str], excerpts: dict[str, float]
    ) -> list[float]:
        w = self.settings.content_weight
        out = []
        for leaf in leaves:
            headline = float(np.dot(query, leaf.vector)) if leaf.vector.size else 0.0
            best = max((excerpts[p] for p in leaf.passages), default=0.0)
            shared = len(names & {c.lower() for c in leaf.characters})
            out.append((1.0 - w) * headline + w * best + self.settings.name_boost * shared)
        return out

    def _ranked(
        self, leaves: Sequence[Leaf], question: str, query: Vector, excerpts: dict[str, float]
    ) -> tuple[list[int], list[float], str]:
        names = {n.lower() for n in query_entities(question)}
        scores = self.offline_scores(leaves, query, names, excerpts)
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        if self.llm is None:
            return order, scores, "offline coherence (headline + characters + best excerpt)"
        from graphmem.designs.amory.coherence import choose

        chosen = choose(self.llm, question, leaves, self.settings.top_k)
        rest = [i for i in order if i not in chosen]
        return chosen + rest, scores, "LLM coherence prompt"

    # --- retrieval ------------------------------------------------------------------------
    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        started = time.perf_counter()
        vector = self.ctx.embedder.embed([query], "query")[0]
        snap = self.snapshot()  # once: the whole query ranks over one read of the space
        timings: dict[str, float] = {}
        hits: list[Hit] = []
        if snap.leaves:
            excerpts = self.excerpt_scores(snap, query, vector, budget)
            order, scores, how = self._ranked(snap.leaves, query, vector, excerpts)
            timings["stories"] = (time.perf_counter() - started) * 1000
            k = self.settings.top_k
            chosen = [
                self._leaf_hit(snap, snap.leaves[i], scores[i], excerpts, how) for i in order[:k]
            ]
            facts, note = self.semantic.search(query, vector, snap.passages, snap.facts)
            if chosen:
                chosen[0].path.append(note)
            hits.extend(chosen)
            hits.extend(facts)
            if self.settings.fill_budget:
                hits.extend(self._fill(snap, order[k:], scores, excerpts, hits, budget))
        if snap.unstoried:
            hits.append(self._history_hit(snap))
        return RetrievalResult(query=query, strategy=self.name, hits=hits, timings_ms=timings)

    def _fill(
        self,
        snap: Snapshot,
        rest: list[int],
        scores: list[float],
        excerpts: dict[str, float],
        taken: list[Hit],
        budget: int,
    ) -> list[Hit]:
        """What follows the k stories. ``stories``: the next-ranked leaves, whole.
        ``excerpts``: the best-scoring excerpts of all other leaves one by one, so that a
        question whose evidence lies in several stories reaches each of them."""
        leaves = snap.leaves
        if self.settings.fill == "stories":
            return [
                self._leaf_hit(snap, leaves[i], scores[i], excerpts, "next-ranked story")
                for i in rest
            ]
        leaf_of = {p: leaves[i] for i in reversed(rest) for p in leaves[i].passages}
        shown = {p.id for hit in taken if not hit.cite_only for p in hit.passages}
        ranked = sorted((p for p in leaf_of if p not in shown), key=lambda p: (-excerpts[p], p))[
            : k_for_budget(budget)
        ]
        return [
            Hit(
                node_id=p,
                label="Passage",
                score=round(excerpts[p], 4),
                strategy=self.name,
                path=["next-best excerpt (cosine + scaled BM25)", leaf_of[p].describe()],
                passages=[snap.passages[p]],
            )
            for p in ranked
        ]

    def _leaf_hit(
        self, snap: Snapshot, leaf: Leaf, score: float, excerpts: dict[str, float], how: str
    ) -> Hit:
        # Best excerpts first, so a leaf larger than what is left of the budget keeps the
        # ones nearest the question; the packer shows every turn in conversation order.
        ranked = sorted(leaf.passages, key=lambda p: -excerpts[p])
        return Hit(
            node_id=leaf.node_id,
            label=leaf.label,
            score=round(score, 4),
            strategy=self.name,
            path=[how, leaf.describe(), f"characters: {', '.join(leaf.characters)}"],
            passages=[snap.passages[p] for p in ranked],
        )

    def _history_hit(self, snap: Snapshot) -> Hit:
        return Hit(
            node_id="history",
            label="Passage",
            score=0.0,
            strategy=self.name,
            path=["fewer than T turns: the full history (Algorithm 1, line 7)"],
            passages=[snap.passages[p] for p in reversed(snap.unstoried)],
        )
