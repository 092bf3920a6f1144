"""``--strategy hipporag``: HippoRAG 2 over the semantic layer. The query's quadruples and
phrases -> the most similar facts and entities of the space -> seed weights (``seeds.py``)
-> Personalized PageRank on the space's semantic graph -> passages ranked by their
PageRank score. Without any seed entity HippoRAG 2 falls back to dense retrieval, and so
do we. The query side is always offline (spaCy + the embedder): no LLM call at query time.

Designs extend it (SEEM adds its frames) by subclassing ``SemanticRetriever[S]`` with their
own settings ``S``: override ``_hits`` (what the ranked passages and facts become) and
``_read_space`` (what else to keep with the snapshot of the space).

A query costs at most one database round trip: the facts, entities and passage vectors of
the space are held in a ``SpaceSnapshot`` (``snapshot.py``), and each seed's PageRank, run
by GDS once per projection, in a ``SeedPageRank`` (``seed_cache.py``); the statement runs
the seeds not seen before. Both are read again whenever a statement reports a projection
other than the one they were read with, or a check does (``snapshot_recheck_seconds``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TypeVar

from graphmem.errors import ConfigError, ServerError
from graphmem.graph.overfetch import SpaceTotals
from graphmem.nlp import analyse, extract_triples, query_entities
from graphmem.plugin.design import DesignSettings
from graphmem.plugin.retriever import (
    Hit,
    PassageRef,
    RetrievalContext,
    RetrievalResult,
    Retriever,
    k_for_budget,
)
from graphmem.retrieval.shared import shared
from graphmem.semantic.exact import PassagePageRank
from graphmem.semantic.names import normalise_name
from graphmem.semantic.projection import GraphInfo, SemanticGraph
from graphmem.semantic.seed_cache import SeedPageRank, seed_cache
from graphmem.semantic.seeds import (
    Scored,
    SeedEntity,
    SeedGroup,
    entity_weights,
    lexical_filter,
    mean_entity_weights,
    passage_groups,
    passage_weights,
    seed_groups,
)
from graphmem.semantic.settings import SemanticSettings
from graphmem.semantic.snapshot import FactHit, SpaceSnapshot

S = TypeVar("S", bound=DesignSettings)  # the settings of the design that ranks


@dataclass
class RankedPassage:
    ref: PassageRef
    node_id: int
    score: float


@dataclass
class QueryAnalysis:
    vector: list[float]
    fact_vectors: list[list[float]]  # the query and its quadruples
    phrases: list[tuple[str, list[float]]]  # normalised phrase, embedding


class StaleSnapshotError(ServerError):
    """The projection walked is not the one the snapshot was read with: the retriever reads
    the space again and retries once; raised to the caller only if the space changed again
    during that retry."""

    def __init__(self) -> None:
        super().__init__("the space changed while it was being queried", hint="query again")


class SemanticRetriever(Retriever[S]):
    """HippoRAG 2 over the semantic layer for a design whose settings are ``S``
    (``self.settings``); ``semantic`` are the layer's (``ctx.configs.get("semantic")``)."""

    def __init__(self, ctx: RetrievalContext, settings: S, semantic: SemanticSettings) -> None:
        super().__init__(ctx, settings)
        self.semantic = semantic
        self.graph = SemanticGraph(ctx.store, ctx.space, ctx.settings.max_projections)
        self._totals = SpaceTotals(ctx.store, ctx.space)
        self._snapshot: SpaceSnapshot | None = None
        self._passage_ppr: PassagePageRank | None = None
        self._checked = -math.inf  # when the projection was last seen to be the snapshot's

    # --- the pipeline -------------------------------------------------------------------
    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        started = time.perf_counter()
        analysis = self._analyse(query)
        try:
            return self._ranked(query, analysis, budget, started)
        except StaleSnapshotError:  # the space was ingested into since: read it again
            self._snapshot = None
            self._totals.invalidate()
            return self._ranked(query, analysis, budget, started)

    def _ranked(
        self, query: str, analysis: QueryAnalysis, budget: int, started: float
    ) -> RetrievalResult:
        snapshot = self.snapshot()
        timings = {"analysis": (time.perf_counter() - started) * 1000}
        if self.semantic.seed_formula == "hipporag2":
            facts, seeds = self._hipporag2_seeds(snapshot, analysis, query)
        else:
            facts = self._facts(snapshot, analysis)
            contributions = [Scored(e, f.cosine) for f in facts for e in f.entities]
            matches = self._entity_matches(snapshot, analysis)
            seeds = entity_weights(contributions + matches, self.semantic.seed_entities)
        timings["seeds"] = (time.perf_counter() - started) * 1000 - timings["analysis"]
        ranked, path = self._rank(snapshot, analysis, seeds, k_for_budget(budget))
        timings["pagerank"] = (time.perf_counter() - started) * 1000 - sum(timings.values())
        hits = self._hits(snapshot, ranked, facts, path)
        return RetrievalResult(query=query, strategy=self.name, hits=hits, timings_ms=timings)

    def prepare(self) -> None:
        """Project the space's graph and read its snapshot now rather than on first query
        (and, for exact passage seeds, every passage's own PageRank; with ``ppr_cache =
        warm``, every entity's, which a long-running process would otherwise gather query
        by query)."""
        snapshot = self.snapshot()
        if self.semantic.passage_prior == "pagerank" and self.semantic.passage_seed_levels == 0:
            self._passage_pagerank(snapshot)
        if self.semantic.ppr_cache == "warm" and snapshot.relationships:
            self._warm(snapshot)

    def _warm(self, snapshot: SpaceSnapshot) -> None:
        """Every entity's PageRank run, the most mentioned first, as many as are kept and
        as the expected queries can use (``warm_limit``); the rest run when a query needs
        them, with the same result."""
        cache = self._seed_cache(snapshot)
        nodes = self.ctx.store.read("semantic.entity_nodes", space=self.ctx.space)
        ordered = [int(row["node"]) for row in nodes]
        missing = set(cache.missing(ordered))
        need = [node for node in ordered if node in missing][: self._warm_limit(cache.room())]
        if not need:
            return
        created, _ = cache.fill(self.ctx.store, self.graph.name, need, self.semantic)
        if created == snapshot.created:
            self._checked = time.monotonic()
        elif created is not None:
            self._snapshot = None  # projected again meanwhile: the next query reads it

    def _warm_limit(self, room: int) -> int:
        """Runs worth making ahead: a query seeds at most the entities of its
        ``fact_top_k`` facts (two each) or its ``seed_entities`` matches, so a space about to
        get n questions uses at most n times that many. A LongMemEval haystack gets one
        question and has about 5,000 entities: warming them all (6 ms a run) cost 30 s
        for the few the question seeds."""
        queries = self.ctx.expected_queries
        if queries is None:
            return room
        per_query = max(2 * self.semantic.fact_top_k, self.semantic.seed_entities)
        return min(room, queries * per_query)

    def refresh(self) -> None:
        """This process wrote to the space: the next query checks the projection."""
        self._checked = -math.inf

    def _seed_cache(self, snapshot: SpaceSnapshot) -> SeedPageRank:
        return seed_cache(
            self.ctx.store.database,
            self.graph.name,
            snapshot.created,
            snapshot.by_node,
            self.semantic,
        )

    def _hits(
        self, snapshot: SpaceSnapshot, ranked: list[RankedPassage], facts: list[FactHit], path: str
    ) -> list[Hit]:
        return [self._passage_hit(p, i, path) for i, p in enumerate(ranked)]

    def _passage_hit(self, passage: RankedPassage, rank: int, path: str) -> Hit:
        return Hit(
            node_id=passage.ref.id,
            label="Passage",
            score=passage.score,
            strategy=self.name,
            path=[f"{path} rank {rank + 1} score {passage.score:.4g}"],
            passages=[passage.ref],
        )

    def snapshot(self) -> SpaceSnapshot:
        """The space as of its current projection (projected first when missing)."""
        if self._snapshot is None:
            self._snapshot = self._read_space(self.graph.ensure())
        return self._snapshot

    def _read_space(self, info: GraphInfo) -> SpaceSnapshot:
        """The snapshot of the space as of projection ``info`` (a design that keeps more of
        the space in memory reads its part here, so that it is renewed with the rest)."""
        store, space, semantic = self.ctx.store, self.ctx.space, self.semantic.in_memory_index
        key = ("semantic", store.database, space, info.created, info.relationships, semantic)
        return shared(
            key,
            lambda: SpaceSnapshot.load(
                store, space, info.created, info.relationships, semantic=semantic
            ),
        )

    @property
    def _fact_search(self) -> str:
        exact = self.semantic.in_memory_index
        return "fact search (exact, in memory)" if exact else "fact vector index"

    # --- query analysis and seeds ---------------------------------------------------------
    def _analyse(self, query: str) -> QueryAnalysis:
        doc = analyse(query)
        room = self.semantic.query_texts - 1
        quads = [f"{t.subject} {t.relation} {t.object}" for t in extract_triples(doc)][:room]
        keys = dict.fromkeys(k for k in map(normalise_name, query_entities(doc)) if k)
        phrases = list(keys)[: room - len(quads)]
        by_name = self.semantic.entity_match == "name" and self.semantic.in_memory_index
        # The question and its quadruples search stored passages and facts: the query
        # side. Its phrases are matched with entity names: the symmetric side, as the names.
        vectors = [v.tolist() for v in self.ctx.embedder.embed([query, *quads], "query")]
        named = (
            [] if by_name else [v.tolist() for v in self.ctx.embedder.embed(phrases, "symmetric")]
        )
        return QueryAnalysis(
            vector=vectors[0],
            fact_vectors=vectors,
            phrases=list(zip(phrases, named or [[]] * len(phrases), strict=True)),
        )

    def _hipporag2_seeds(
        self, snapshot: SpaceSnapshot, analysis: QueryAnalysis, query: str
    ) -> tuple[list[FactHit], dict[SeedEntity, float]]:
        """HippoRAG 2's phrase seeds: the query's top facts by min-max normalised score,
        filtered (``fact_filter``), each phrase weighted by the mean over its facts of
        score / passages mentioning it; no name matching, no score floor."""
        config = self.semantic
        if snapshot.semantic is None:
            raise ConfigError(
                "seed_formula 'hipporag2' normalises over all facts: it needs in_memory_index"
            )
        facts = snapshot.semantic.normalised_top_facts(analysis.vector, config.fact_top_k)
        if config.fact_filter == "lexical":
            facts = [facts[i] for i in lexical_filter(query, facts)]
        contributions = [Scored(e, f.cosine) for f in facts for e in f.entities]
        return facts, mean_entity_weights(contributions, config.seed_entities)

    def _facts(self, snapshot: SpaceSnapshot, analysis: QueryAnalysis) -> list[FactHit]:
        config = self.semantic
        if snapshot.semantic is not None:
            return snapshot.semantic.top_facts(
                analysis.fact_vectors, config.fact_top_k, config.fact_min_score
            )
        rows = self._totals.search(
            "Fact",
            config.fact_top_k,
            lambda fetch: self.ctx.store.read(
                "semantic.facts_by_vectors",
                space=self.ctx.space,
                vectors=analysis.fact_vectors,
                fetch=fetch,
                k=config.fact_top_k,
            ),
        )
        return [
            FactHit(
                id=row["id"],
                text=row["text"],
                cosine=float(row["cosine"]),
                entities=[
                    SeedEntity(e["id"], int(e["node_id"]), int(e["passages"]), e["name"])
                    for e in row["entities"]
                ],
                sources=[PassageRef.from_row(p) for p in row["sources"]],
            )
            for row in rows
            if float(row["cosine"]) >= config.fact_min_score
        ]

    def _entity_matches(self, snapshot: SpaceSnapshot, analysis: QueryAnalysis) -> list[Scored]:
        """Each query phrase's nearest entity of the space, when it is close enough."""
        vectors = [vec for _, vec in analysis.phrases if vec]
        if snapshot.semantic is not None and self.semantic.entity_match == "name":
            nearest = snapshot.semantic.named([key for key, _ in analysis.phrases])
        elif snapshot.semantic is not None:
            nearest = snapshot.semantic.nearest_entities(vectors)
        else:
            nearest = self._entity_matches_in_index(analysis)
        return [
            Scored(entity, cosine * self.semantic.entity_match_weight)
            for entity, cosine in nearest
            if cosine >= self.semantic.entity_match_min_score
        ]

    def _entity_matches_in_index(self, analysis: QueryAnalysis) -> list[tuple[SeedEntity, float]]:
        fetch = self._totals.get("Entity").fetch(1)
        if not analysis.phrases or not fetch:
            return []
        rows = self.ctx.store.read(
            "semantic.entity_neighbours",
            space=self.ctx.space,
            rows=[{"key": key, "embedding": vec} for key, vec in analysis.phrases],
            fetch=fetch,
            k=1,
        )
        return [
            (
                SeedEntity(row["id"], int(row["node_id"]), int(row["passages"]), row["name"]),
                float(row["cosine"]),
            )
            for row in rows
        ]

    # --- PageRank -----------------------------------------------------------------------
    def _passage_pagerank(self, snapshot: SpaceSnapshot) -> PassagePageRank:
        """Every passage's own PageRank over the passages, once per projection."""
        if self._passage_ppr is None or self._passage_ppr.created != snapshot.created:
            self._passage_ppr = PassagePageRank.load(
                self.ctx.store, self.graph.name, snapshot, self.semantic
            )
        return self._passage_ppr

    def _rank(
        self,
        snapshot: SpaceSnapshot,
        analysis: QueryAnalysis,
        seeds: dict[SeedEntity, float],
        k: int,
    ) -> tuple[list[RankedPassage], str]:
        if not seeds or snapshot.relationships == 0:  # HippoRAG 2's fallback: dense retrieval
            info = self.graph.info()  # no PageRank statement to tell: ask whether still current
            if info is None or info.created != snapshot.created:
                raise StaleSnapshotError
            nearest = snapshot.nearest(analysis.vector, k)
            return [RankedPassage(ref, -1, score) for ref, score in nearest], "dense (no seed)"
        config = self.semantic
        dense = snapshot.scores(analysis.vector)
        prior: dict[int, float] = {}
        passages: list[SeedGroup] = []
        if config.passage_prior == "pagerank" and config.passage_seed_levels == 0:
            weights = passage_weights(dense, config.passage_node_weight)
            prior = self._passage_pagerank(snapshot).combine(weights)
        elif config.passage_prior == "pagerank":
            passages = passage_groups(dense, config.passage_node_weight, config.passage_seed_levels)
        else:
            weights = passage_weights(dense, config.passage_node_weight)
            prior = {node: (1 - config.damping) * w for node, w in weights}
        groups = seed_groups(seeds, passages, config.entity_seed_levels)
        if config.ppr_cache != "off":
            walked = self._cached_pagerank(snapshot, groups)
        else:
            walked = self._pagerank_runs(snapshot, groups)
        scores = dict(prior)
        for node, score in walked.items():
            if node in snapshot.by_node:
                scores[node] = scores.get(node, 0.0) + score
        best = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
        ranked = [RankedPassage(snapshot.by_node[node], node, score) for node, score in best]
        names = ", ".join(f"{e.name} {w:.3g}" for e, w in seeds.items())
        return ranked, f"PPR from entities [{names}]"

    def _pagerank_runs(self, snapshot: SpaceSnapshot, groups: list[SeedGroup]) -> dict[int, float]:
        """One GDS run per group, this query (``ppr_cache = off``): every node's score."""
        config = self.semantic
        rows = self.ctx.store.read(
            "semantic.ppr_scores",
            graph=self.graph.name,
            groups=[g.as_row() for g in groups],
            damping=config.damping,
            iterations=config.max_iterations,
            tolerance=config.tolerance,
            concurrency=config.ppr_concurrency,
        )
        if not rows or rows[0]["created"] != snapshot.created:
            self._check_current(snapshot, always=True)
        pairs = zip(rows[0]["nodes"], rows[0]["scores"], strict=True) if rows else ()
        return {int(node): float(score) for node, score in pairs}

    def _cached_pagerank(
        self, snapshot: SpaceSnapshot, groups: list[SeedGroup]
    ) -> dict[int, float]:
        """The groups' PageRank from each seed's own run, kept per projection
        (``seed_cache.py``); the seeds not seen before are run now, in one statement. With
        no statement to report the projection walked, it is checked as often as the other
        snapshots (``snapshot_recheck_seconds``)."""
        cache = self._seed_cache(snapshot)
        runs, need = cache.take(node for group in groups for node in group.nodes)
        if need:
            created, fresh = cache.fill(self.ctx.store, self.graph.name, need, self.semantic)
            if created != snapshot.created:
                self._check_current(snapshot, always=True)
                raise StaleSnapshotError  # the runs were made on another graph than the cache's
            runs.update(fresh)
            self._checked = time.monotonic()
        else:
            self._check_current(snapshot)
        return cache.combine(groups, runs)

    def _check_current(self, snapshot: SpaceSnapshot, always: bool = False) -> None:
        """Raise ``StaleSnapshotError`` when the projection is not the snapshot's any more;
        unless ``always``, at most once per ``snapshot_recheck_seconds``."""
        now = time.monotonic()
        if not always and now - self._checked < self.ctx.settings.snapshot_recheck_seconds:
            return
        info = self.graph.info()
        if info is None or info.created != snapshot.created:
            raise StaleSnapshotError
        self._checked = now


class HippoRagRetriever(SemanticRetriever[SemanticSettings]):
    """``--strategy hipporag``: the semantic layer's own retriever, constructed as
    ``HippoRagRetriever(ctx, ctx.configs.get("semantic"))``."""

    name = "hipporag"

    def __init__(self, ctx: RetrievalContext, settings: SemanticSettings) -> None:
        super().__init__(ctx, settings, settings)
