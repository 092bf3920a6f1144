"""The vector example design's builder, retriever and command: a Gist per turn (its first
words), embedded, searched through its own vector index with the over-fetch its declared
indexed label gets (``graphmem.graph.overfetch.SpaceTotals``)."""

from __future__ import annotations

from typing import Any

import click

from graphmem.plugin import (
    Builder,
    BuildReport,
    GraphStore,
    Hit,
    PassageRef,
    RetrievalContext,
    RetrievalResult,
    Retriever,
    SessionBatch,
    SpaceTotals,
    app,
    content_id,
    emit,
    handle_errors,
    json_option,
    k_for_budget,
)
from tests.example_vector_design.design import GistSettings


def gist(text: str, words: int) -> str:
    return " ".join(text.split()[:words])


class GistBuilder(Builder[GistSettings]):
    name = "gists"

    def build(self, batch: SessionBatch) -> BuildReport:
        pairs = [
            (passage_id, gist(turn.text, self.settings.words))
            for session, ids in zip(batch.sessions, batch.passage_ids, strict=True)
            for turn, passage_id in zip(session.turns, ids, strict=True)
        ]
        vectors = self.ctx.embedder.embed([text for _, text in pairs], "passage")
        rows = [
            {
                "id": content_id("gist", passage_id),
                "text": text,
                "passage": passage_id,
                "embedding": [float(x) for x in vector],
            }
            for (passage_id, text), vector in zip(pairs, vectors, strict=True)
        ]
        self.ctx.store.write(
            "gists.upsert",
            space=self.ctx.space,
            rows=rows,
            builder=self.name,
            backend=self.ctx.backend,
        )
        return BuildReport(self.name, sessions=len(batch.sessions), counts={"gists": len(rows)})


class GistRetriever(Retriever[GistSettings]):
    name = "gists"

    def __init__(self, ctx: RetrievalContext, settings: GistSettings) -> None:
        super().__init__(ctx, settings)
        self._totals = SpaceTotals(ctx.store, ctx.space)

    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        embedding = self.ctx.embedder.embed_query(query)
        k = k_for_budget(budget)

        def run(fetch: int) -> list[dict[str, Any]]:
            return self.ctx.store.read(
                "gists.search", space=self.ctx.space, embedding=embedding, fetch=fetch, k=k
            )

        hits = [
            Hit(
                node_id=row["id"],
                label="Gist",
                score=float(row["score"]),
                strategy=self.name,
                path=["gists: vector index"],
                text=row["text"],
                passages=[PassageRef.from_row(p) for p in row["passages"]],
            )
            for row in self._totals.search("Gist", k, run)
        ]
        return RetrievalResult(query=query, strategy=self.name, hits=hits)


def gist_count(store: GraphStore, space: str) -> int:
    return int(store.read("gists.stats", space=space)[0]["gists"])


@click.command("gists")
@click.option("--space", required=True, help="The space (tenant) to read.")
@json_option
@click.pass_context
@handle_errors
def gists_command(ctx: click.Context, space: str, as_json: bool) -> None:
    """How many gists the vector example design wrote in a space."""
    with GraphStore(app(ctx).settings) as store:
        found = {"space": space, "gists": gist_count(store, space)}
    emit(found, as_json, lambda data: f"{data['gists']} gists in {data['space']}")
