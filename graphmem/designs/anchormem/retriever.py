"""``--strategy anchormem``: facts as anchors, their source turns as the context, plus the
associative events (the paper's section 4.3, eqs. 12-15).

1. Top facts by vector similarity to the question (exact, in-process over the space's
   facts by default; ``search = "index"``: the vector index); each brings its source
   turns (the fact-context mapping). A fact whose turns are all already brought by a
   better fact is dropped: it would add nothing but its own sentence. The sentence itself
   is shown only when it says something the turns do not (``fact_text``; by default a
   number, which is what a resolved date adds): otherwise it would spend budget repeating
   its turn.
2. Top events by vector similarity; each brings its narrative and the union of its
   facts' source turns.
3. One ranked list: after every ``facts_per_event`` facts, the next event; an event whose
   turns the hits above it already bring is dropped. The packer fills the budget in rank
   order, so the contexts of the best facts go in first and an event can still bridge to
   turns no single fact reached.

How many to ask for: ``k_for_budget(budget, per_item_tokens=fact_item_tokens)`` facts (about
one per 30 tokens: a turn costs ~40 tokens and facts share turns), and one event per
``facts_per_event`` facts. More than fits is fine: the packer stops at the budget, and the
ranking metrics read the order.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from typing import Any

from graphmem.designs.anchormem.config import AnchorMemConfig
from graphmem.plugin import (
    ExactIndex,
    Hit,
    PassageRef,
    RetrievalContext,
    RetrievalResult,
    SnapshotRetriever,
    SpaceBM25,
    SpaceTotals,
    k_for_budget,
    rrf,
)

_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def shows_text(mode: str, text: str, passages: Sequence[PassageRef]) -> bool:
    """Whether a fact's sentence goes into the context next to its source turns."""
    if mode in ("always", "never"):
        return mode == "always"
    # What the reader sees of the turns, minus the citation ids (they hold digits too).
    seen = " ".join(f"{p.date_text} {p.speaker} {p.text} {p.caption}" for p in passages)
    new = _words(text) - _words(seen)
    return any(w.isdigit() for w in new) if mode == "new_numbers" else bool(new)


def drop_echoes(hits: list[Hit]) -> list[Hit]:
    """Events whose turns the hits above them already bring: their narrative retells
    facts that are in the context already, at a price in tokens."""
    out: list[Hit] = []
    brought: set[str] = set()
    for hit in hits:
        ids = {p.id for p in hit.passages}
        if hit.label == "AssocEvent" and ids <= brought:
            continue
        brought |= ids
        out.append(hit)
    return out


def interleave(facts: list[Hit], events: list[Hit], facts_per_event: int) -> list[Hit]:
    """``facts_per_event`` facts, one event, and so on; leftovers of either at the end."""
    out: list[Hit] = []
    event_iter = iter(events)
    for i, fact in enumerate(facts, start=1):
        out.append(fact)
        if i % facts_per_event == 0:
            event = next(event_iter, None)
            if event is not None:
                out.append(event)
    out.extend(event_iter)
    return out


class AnchorMemRetriever(SnapshotRetriever[AnchorMemConfig, dict[str, ExactIndex]]):
    name = "anchormem"
    version_statement = "anchormem.version"
    shares_snapshot = True

    def __init__(self, ctx: RetrievalContext, settings: AnchorMemConfig) -> None:
        super().__init__(ctx, settings)
        # Label counts for the over-fetch, kept across queries and read again when a search
        # shows them stale (a Memory reuses this retriever after more is ingested).
        self._totals = SpaceTotals(ctx.store, ctx.space)
        # The lexical leg's index and the snapshot's facts it was built from.
        self._bm25: tuple[ExactIndex, SpaceBM25] | None = None

    def uses_snapshot(self) -> bool:
        return self.settings.search == "snapshot"

    def load_snapshot(self) -> dict[str, ExactIndex]:
        """Facts and events of the space by label, each ranked exactly in-process."""
        rows = self.ctx.store.read("anchormem.snapshot", space=self.ctx.space)
        dim = self.ctx.embedder.dim
        return {
            label: ExactIndex.from_rows([r for r in rows if r["label"] == label], dim)
            for label in ("AtomicFact", "AssocEvent")
        }

    def sizes(self, budget: int) -> tuple[int, int]:
        """(facts, events) to ask for at ``budget`` tokens."""
        cfg = self.settings
        if cfg.paper_top_k:  # the paper: top-k facts and top-k events, whatever the budget
            return cfg.paper_top_k, cfg.paper_top_k
        facts = k_for_budget(budget, cfg.fact_item_tokens, floor=cfg.min_facts, cap=cfg.max_facts)
        return facts, max(cfg.min_events, math.ceil(facts / cfg.facts_per_event))

    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        started = time.perf_counter()
        n_facts, n_events = self.sizes(budget)
        embedding = self.ctx.embedder.embed_query(query)
        embedded = time.perf_counter()
        facts = self._fact_hits(
            self._search("AtomicFact", "atomic_fact_embedding", embedding, n_facts),
            self._via("atomic_fact_embedding", "facts"),
        )
        if self.settings.fact_search == "hybrid":
            lexical = self._fact_hits(self._lexical(query, n_facts), "BM25 over the space's facts")
            facts = self._dedupe(rrf([facts, lexical], self.name)[:n_facts])
        events = self._search("AssocEvent", "assoc_event_embedding", embedding, n_events)
        hits = drop_echoes(self._with_events(facts, events))
        timings = {
            "embed": (embedded - started) * 1000,
            "search": (time.perf_counter() - embedded) * 1000,
        }
        return RetrievalResult(query=query, strategy=self.name, hits=hits, timings_ms=timings)

    def _with_events(self, facts: list[Hit], rows: list[dict[str, Any]]) -> list[Hit]:
        """Events interleaved with the facts; extractive (offline) ones after all facts
        unless configured otherwise."""
        woven: list[Hit] = []
        last: list[Hit] = []
        for rank, row in enumerate(rows, start=1):
            via = self._via("assoc_event_embedding", "events")
            hit = self._hit(row, "AssocEvent", rank, via)
            extractive = row.get("backend") == "offline"
            keep_last = extractive and self.settings.extractive_events == "last"
            (last if keep_last else woven).append(hit)
        return interleave(facts, woven, self.settings.facts_per_event) + last

    def _via(self, index: str, kind: str) -> str:
        if self.settings.search == "snapshot":
            return f"exact cosine over the space's {kind}"
        return f"vector index {index}"

    def _search(
        self, label: str, index: str, embedding: list[float], k: int
    ) -> list[dict[str, Any]]:
        if k <= 0:
            return []
        if self.settings.search == "snapshot":
            return self.snapshot()[label].top(embedding, k)
        return self._totals.search(
            label,
            k,
            lambda fetch: self.ctx.store.read(
                "anchormem.search",
                index=index,
                space=self.ctx.space,
                embedding=embedding,
                k=k,
                fetch=fetch,
            ),
        )

    def _lexical(self, query: str, k: int) -> list[dict[str, Any]]:
        """BM25 over the space's fact texts (``graphmem.retrieval.bm25``, the space's own
        statistics), built once per snapshot: no other space's facts move the ranking."""
        facts = self.snapshot()["AtomicFact"]
        if self._bm25 is None or self._bm25[0] is not facts:
            texts: list[str | None] = [row["text"] for row in facts.rows]
            self._bm25 = (facts, SpaceBM25({"text": texts}))
        return [{**facts.rows[i], "score": score} for i, score in self._bm25[1].top(query, k)]

    def _fact_hits(self, rows: list[dict[str, Any]], via: str) -> list[Hit]:
        hits = [self._hit(row, "AtomicFact", rank, via) for rank, row in enumerate(rows, 1)]
        for hit in hits:
            if not shows_text(self.settings.fact_text, hit.text, hit.passages):
                hit.text = ""
        return self._dedupe(hits)

    @staticmethod
    def _dedupe(hits: list[Hit]) -> list[Hit]:
        """Facts whose turns a better fact already brings: only their sentence is new."""
        out: list[Hit] = []
        brought: set[str] = set()
        for hit in hits:
            ids = {p.id for p in hit.passages}
            if ids and ids <= brought:
                continue
            brought |= ids
            out.append(hit)
        return out

    def _hit(self, row: dict[str, Any], label: str, rank: int, via: str) -> Hit:
        score = float(row["score"])
        return Hit(
            node_id=row["id"],
            label=label,
            score=score,
            strategy=self.name,
            path=[f"{via} rank {rank} score {score:.3f}", f"{label} -FROM-> Passage"],
            text=row["text"] or "",
            passages=[PassageRef.from_row(p) for p in row["passages"]],
        )
