"""``--strategy seem`` and ``--strategy hipporag``.

Both: the query's quadruples and phrases -> the most similar facts and entities of the
space -> seed weights (``seeds.py``) -> Personalized PageRank on the space's semantic graph
-> passages ranked by their PageRank score. Without any seed entity HippoRAG 2 falls back
to dense retrieval, and so do we.

SEEM adds Reverse Provenance Expansion: after each retrieved passage comes the frame it
belongs to with every source passage of that frame (at most ``rpe_factor`` times the
initial passages in all), and the top facts go first, as memories with their provenance.
The query side is always offline (spaCy + the embedder): no LLM call at query time.

A query costs one database round trip, the PageRank statement: the facts, entities,
passage vectors and frames of the space are held in a ``SpaceSnapshot`` (``snapshot.py``),
read again whenever the statement reports a projection other than the one it was read with.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from graphmem.designs.seem.config import SeemConfig
from graphmem.designs.seem.index import Totals, over_fetch
from graphmem.designs.seem.names import normalise_name
from graphmem.designs.seem.projection import SemanticGraph
from graphmem.designs.seem.seeds import (
    Scored,
    SeedEntity,
    SeedGroup,
    entity_weights,
    passage_groups,
    passage_weights,
    seed_groups,
)
from graphmem.designs.seem.snapshot import FactHit, FrameRow, SpaceSnapshot
from graphmem.errors import ServerError
from graphmem.nlp import analyse, extract_triples, query_entities
from graphmem.retrieval.base import (
    Hit,
    PassageRef,
    RetrievalContext,
    RetrievalResult,
    Retriever,
    k_for_budget,
)


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


class SemanticRetriever(Retriever):
    """HippoRAG 2 over the semantic layer; SEEM extends it (``SeemRetriever``)."""

    name = "hipporag"

    def __init__(self, ctx: RetrievalContext, config: SeemConfig | None = None) -> None:
        super().__init__(ctx)
        self.config = config or SeemConfig()
        self.graph = SemanticGraph(ctx.store, ctx.space)
        self._totals: Totals | None = None
        self._snapshot: SpaceSnapshot | None = None

    # --- the pipeline -------------------------------------------------------------------
    def retrieve(self, query: str, budget: int) -> RetrievalResult:
        started = time.perf_counter()
        analysis = self._analyse(query)
        try:
            return self._retrieve(query, analysis, budget, started)
        except StaleSnapshotError:  # the space was ingested into since: read it again
            self._snapshot = self._totals = None
            return self._retrieve(query, analysis, budget, started)

    def _retrieve(
        self, query: str, analysis: QueryAnalysis, budget: int, started: float
    ) -> RetrievalResult:
        snapshot = self.snapshot()
        timings = {"analysis": (time.perf_counter() - started) * 1000}
        facts = self._facts(snapshot, analysis)
        contributions = [Scored(e, f.cosine) for f in facts for e in f.entities]
        matches = self._entity_matches(snapshot, analysis)
        seeds = entity_weights(contributions + matches, self.config.seed_entities)
        timings["seeds"] = (time.perf_counter() - started) * 1000 - timings["analysis"]
        ranked, path = self._rank(snapshot, analysis, seeds, k_for_budget(budget))
        timings["pagerank"] = (time.perf_counter() - started) * 1000 - sum(timings.values())
        hits = self._hits(snapshot, ranked, facts, path)
        timings["total"] = (time.perf_counter() - started) * 1000
        return RetrievalResult(query=query, strategy=self.name, hits=hits, timings_ms=timings)

    def prepare(self) -> None:
        """Project the space's graph and read its snapshot now rather than on first query."""
        self.snapshot()

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
            info = self.graph.ensure()
            self._snapshot = SpaceSnapshot.load(
                self.ctx.store,
                self.ctx.space,
                info.created,
                info.relationships,
                semantic=self.config.in_memory_index,
            )
        return self._snapshot

    @property
    def _fact_search(self) -> str:
        return (
            "fact search (exact, in memory)" if self.config.in_memory_index else "fact vector index"
        )

    # --- query analysis and seeds ---------------------------------------------------------
    def totals(self) -> Totals:
        if self._totals is None:
            self._totals = Totals.read(self.ctx.store, self.ctx.space)
        return self._totals

    def _analyse(self, query: str) -> QueryAnalysis:
        doc = analyse(query)
        room = self.config.query_texts - 1
        quads = [f"{t.subject} {t.relation} {t.object}" for t in extract_triples(doc)][:room]
        keys = dict.fromkeys(k for k in map(normalise_name, query_entities(doc)) if k)
        phrases = list(keys)[: room - len(quads)]
        by_name = self.config.entity_match == "name" and self.config.in_memory_index
        texts = [query, *quads] + ([] if by_name else phrases)
        vectors = [v.tolist() for v in self.ctx.embedder.embed(texts)]
        return QueryAnalysis(
            vector=vectors[0],
            fact_vectors=vectors[: 1 + len(quads)],
            phrases=list(
                zip(phrases, vectors[1 + len(quads) :] or [[]] * len(phrases), strict=True)
            ),
        )

    def _facts(self, snapshot: SpaceSnapshot, analysis: QueryAnalysis) -> list[FactHit]:
        config = self.config
        if snapshot.semantic is not None:
            return snapshot.semantic.top_facts(
                analysis.fact_vectors, config.fact_top_k, config.fact_min_score
            )
        totals = self.totals()
        fetch = over_fetch(config.fact_top_k, totals.facts, totals.facts_in_space)
        if fetch == 0:
            return []
        rows = self.ctx.store.read(
            "semantic.facts_by_vectors",
            space=self.ctx.space,
            vectors=analysis.fact_vectors,
            fetch=fetch,
            k=config.fact_top_k,
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
        if snapshot.semantic is not None and self.config.entity_match == "name":
            nearest = snapshot.semantic.named([key for key, _ in analysis.phrases])
        elif snapshot.semantic is not None:
            nearest = snapshot.semantic.nearest_entities(vectors)
        else:
            nearest = self._entity_matches_in_index(analysis)
        return [
            Scored(entity, cosine * self.config.entity_match_weight)
            for entity, cosine in nearest
            if cosine >= self.config.entity_match_min_score
        ]

    def _entity_matches_in_index(self, analysis: QueryAnalysis) -> list[tuple[SeedEntity, float]]:
        totals = self.totals()
        fetch = over_fetch(1, totals.entities, totals.entities_in_space)
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
        config = self.config
        dense = snapshot.scores(analysis.vector)
        prior: dict[int, float] = {}
        passages: list[SeedGroup] = []
        if config.passage_prior == "pagerank":
            passages = passage_groups(dense, config.passage_node_weight, config.passage_seed_levels)
        else:
            weights = passage_weights(dense, config.passage_node_weight)
            prior = {node: (1 - config.damping) * w for node, w in weights}
        groups = seed_groups(seeds, passages, config.entity_seed_levels)
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
            info = self.graph.info()
            if info is None or info.created != snapshot.created:
                raise StaleSnapshotError
        scores = dict(prior)
        for node, score in rows[0]["scores"] if rows else []:
            if node in snapshot.by_node:
                scores[node] = scores.get(node, 0.0) + score
        best = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
        ranked = [RankedPassage(snapshot.by_node[node], node, score) for node, score in best]
        names = ", ".join(f"{e.name} {w:.3g}" for e, w in seeds.items())
        return ranked, f"PPR from entities [{names}]"


class HippoRagRetriever(SemanticRetriever):
    name = "hipporag"


def expand(
    ranked: list[RankedPassage], frames: dict[str, list[FrameRow]], factor: float, decay: float
) -> tuple[list[RankedPassage], dict[str, str]]:
    """Reverse Provenance Expansion: every source of the frames of the retrieved passages
    joins the ranking with its activating passage's score times ``decay`` (the best
    activation wins), within ``factor`` times the retrieved passages in all. Returns the
    new ranking and, for each added passage, why it was added."""
    initial = {p.ref.id for p in ranked}
    best: dict[str, tuple[float, PassageRef, str]] = {}
    for passage in ranked:
        score = passage.score * decay
        for frame in frames.get(passage.ref.id, []):
            for source in frame.sources:
                if source.id in initial or best.get(source.id, (-1.0,))[0] >= score:
                    continue
                why = f"reverse provenance expansion: frame of {passage.ref.source_id}"
                best[source.id] = (score, source, why)
    room = max(0, int(factor * len(ranked)) - len(ranked))
    extra = sorted(best.values(), key=lambda item: (-item[0], item[1].id))[:room]
    merged = ranked + [RankedPassage(ref, -1, score) for score, ref, _ in extra]
    merged.sort(key=lambda p: -p.score)
    return merged, {ref.id: why for _, ref, why in extra}


class SeemRetriever(SemanticRetriever):
    name = "seem"

    def _hits(
        self, snapshot: SpaceSnapshot, ranked: list[RankedPassage], facts: list[FactHit], path: str
    ) -> list[Hit]:
        frames = snapshot.frames
        final, origin = expand(ranked, frames, self.config.rpe_factor, self.config.rpe_decay)
        chosen = {p.ref.id for p in final}
        top_facts = facts[: self.config.context_facts]
        out = [self._fact_hit(f) for f in top_facts] if self.config.facts_first else []
        waiting_facts = [] if self.config.facts_first else list(top_facts)
        emitted: set[str] = set()
        shown: set[str] = set()
        for rank, passage in enumerate(final):
            how = origin.get(passage.ref.id, path)
            out.append(self._passage_hit(passage, rank, how))
            emitted.add(passage.ref.id)
            # A frame (and a fact) follows the last of its chosen sources: by then every
            # passage it points at is in the context, and its text is the only cost.
            for frame in frames.get(passage.ref.id, []):
                mine = [s for s in frame.sources if s.id in chosen]
                if frame.id not in shown and all(s.id in emitted for s in mine):
                    shown.add(frame.id)
                    hit = self._frame_hit(frame, mine, passage)
                    out += [hit] if hit else []
            for fact in [f for f in waiting_facts if passage.ref.id in {s.id for s in f.sources}]:
                if all(s.id in emitted for s in fact.sources if s.id in chosen):
                    waiting_facts.remove(fact)
                    out.append(self._fact_hit(fact))
        return out + [self._fact_hit(f) for f in waiting_facts]  # K_top is always offered

    def _fact_hit(self, fact: FactHit) -> Hit:
        return Hit(
            node_id=fact.id,
            label="Fact",
            score=fact.cosine,
            strategy=self.name,
            path=[f"{self._fact_search} cosine {fact.cosine:.3f}"],
            text=fact.text,
            passages=fact.sources,
        )

    def _frame_hit(
        self, frame: FrameRow, chosen: list[PassageRef], last: RankedPassage
    ) -> Hit | None:
        mode = self.config.frame_summaries
        if (
            mode == "none"
            or (mode == "fused" and len(frame.sources) < 2)
            or (mode == "llm" and not frame.backend.startswith("llm:"))
        ):
            return None
        return Hit(
            node_id=frame.id,
            label="EventFrame",
            score=last.score,
            strategy=self.name,
            path=[f"event frame of {', '.join(p.source_id for p in chosen)}"],
            text=frame.summary,
            passages=chosen,
        )
