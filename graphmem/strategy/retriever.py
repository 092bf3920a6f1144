"""``--strategy graphmem``: every design present in the space retrieves, one rule fuses them.

The members are other strategies, built through the retriever registry with their own
resolved settings (``build_retriever``): this package imports no design. Each member keeps
its own prepared state (snapshots, projections), prepared once in ``prepare()``; the query
embedding is computed once and shared (the embedder's in-memory tier, ``embed/cache.py``).
The rule is in ``fusion.py``; the choice of members in ``members.py``; why:
``docs/graphmem-strategy.md``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import cast

from graphmem.embed.cache import CachedEmbedder
from graphmem.graph.store import GraphStore
from graphmem.plugin.retriever import RetrievalContext, RetrievalResult, Retriever, TokenCounter
from graphmem.strategy.compose import arrange
from graphmem.strategy.members import Plan, families, plan
from graphmem.strategy.reads import QueryReads
from graphmem.strategy.settings import GraphmemSettings


class GraphmemRetriever(Retriever[GraphmemSettings]):
    name = "graphmem"
    # The members are asked for a multiple of the budget (CAST cuts and reorders) and the agreement
    # depth is budget / agreement_turn_tokens: a smaller budget is not a prefix.
    prefix_consistent = False

    def __init__(self, ctx: RetrievalContext, settings: GraphmemSettings) -> None:
        super().__init__(ctx, settings)
        # build_embedder's embedder already is one (then the same object, the same memo).
        self._embedder = CachedEmbedder.wrap(ctx.embedder)
        self._reads = QueryReads(ctx.store)
        # Members see the same store and embedder, through wrappers that share one query's
        # identical reads and embeddings (the wrapper forwards everything else).
        self._member_ctx = dataclasses.replace(
            ctx, embedder=self._embedder, store=cast(GraphStore, self._reads)
        )
        self._members: dict[str, Retriever] = {}
        self._plan: Plan | None = None
        self._built: tuple[str, ...] | None = None
        self._planned = -math.inf  # when the space's builders were last read
        self._count = TokenCounter(ctx.embedder)

    # --- members --------------------------------------------------------------------------
    def plan(self) -> Plan:
        """The members for the space as it is now: a space may get a design's build after
        this retriever was made, so the builders are read again once the plan is older than
        ``snapshot_recheck_seconds`` (as the members' snapshots are)."""
        now = time.monotonic()
        fresh = now - self._planned < self.ctx.settings.snapshot_recheck_seconds
        if self._plan is not None and fresh:
            return self._plan
        row = self.ctx.store.read("core.space_built", space=self.ctx.space)[0]
        built = tuple(sorted(row["builders"]))
        if self._plan is None or built != self._built:
            self._plan, self._built = plan(self.settings, built), built
        self._planned = now
        return self._plan

    def member(self, strategy: str) -> Retriever:
        found = self._members.get(strategy)
        if found is None:
            from graphmem.retrieval.registry import build_retriever  # the registry imports us

            found = self._members[strategy] = build_retriever(
                strategy, self._member_ctx, valid_time=False
            )
        return found

    def refresh(self) -> None:
        self._planned = -math.inf
        for member in self._members.values():
            member.refresh()

    def prepare(self) -> None:
        for strategy in self.plan().members:
            self.member(strategy).prepare()

    # --- the query --------------------------------------------------------------------------
    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        current = self.plan()
        results, timings = self.run_members(current.members, query, self.member_budget(budget))
        fusing = time.perf_counter()
        cites = self.ctx.settings.context_memory_cites
        hits = arrange(results, current, self.settings, budget, self._count, cites).hits
        timings["fusion"] = (time.perf_counter() - fusing) * 1000
        notes = [f"members: {', '.join(f'{m} x{current.weights[m]:.2g}' for m in current.members)}"]
        return RetrievalResult(
            query=query,
            strategy=self.name,
            hits=hits,
            timings_ms=timings,
            notes=notes + current.notes(),
        )

    def member_budget(self, budget: int) -> int:
        """What each member is asked for: RRF ranks a turn by where every member put it, so
        each list must reach past what the fused context will hold."""
        return math.ceil(budget * self.settings.member_budget_factor)

    def run_members(
        self, members: tuple[str, ...], query: str, budget: int
    ) -> tuple[dict[str, RetrievalResult], dict[str, float]]:
        """Every member's result for one question, and its time. The members share the
        question's identical reads (SEEM's and CAST's PageRank) and embeddings; the
        ablation harness calls this directly, so the sharing lives here, not in
        ``_retrieve`` (there the harness's member times would count the PageRank twice)."""
        with self._reads.scope():
            return self._run_members(members, query, budget)

    def _run_members(
        self, members: tuple[str, ...], query: str, budget: int
    ) -> tuple[dict[str, RetrievalResult], dict[str, float]]:
        def run(strategy: str) -> tuple[RetrievalResult, float]:
            began = time.perf_counter()
            found = self.member(strategy).retrieve(query, budget)
            return found, (time.perf_counter() - began) * 1000

        # Members of a family (the re-orderers of a shared ranker, ``Design.reorders``) run
        # first: the shared ranker embeds the question with its triples in one batch and
        # runs the PageRank; the members after them find both remembered.
        # Fusion does not depend on this order (results are kept in plan order).
        first = sorted(members, key=lambda m: m not in families(self.settings))
        # One after another: members in threads measured no faster (they take turns at the
        # interpreter), nor did one member (BM25) in a thread beside the others
        # (docs/research-log.md, 2026-11-26).
        outcomes = {strategy: run(strategy) for strategy in first}
        results = {m: outcomes[m][0] for m in members}
        timings = {m: outcomes[m][1] for m in members}
        return results, timings
