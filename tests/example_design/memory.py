"""The example design's builder and retriever."""

from __future__ import annotations

import re

from graphmem.plugin import (
    Builder,
    BuildReport,
    Hit,
    PassageRef,
    RetrievalResult,
    Retriever,
    SessionBatch,
    content_id,
    k_for_budget,
)
from tests.example_design.design import KeywordSettings

_WORD = re.compile(r"\b[A-Z][a-z]+\b")


def keywords(text: str, max_keywords: int, min_length: int) -> list[str]:
    found = [w.lower() for w in _WORD.findall(text) if len(w) >= min_length]
    return list(dict.fromkeys(found))[:max_keywords]


class KeywordBuilder(Builder[KeywordSettings]):
    name = "keywords"

    def build(self, batch: SessionBatch) -> BuildReport:
        rows = []
        for session, ids in zip(batch.sessions, batch.passage_ids, strict=True):
            for turn, passage_id in zip(session.turns, ids, strict=True):
                for word in keywords(
                    turn.text, self.settings.max_keywords, self.settings.min_length
                ):
                    rows.append(
                        {"id": content_id("keyword", word), "word": word, "passage": passage_id}
                    )
        self.ctx.store.write(
            "keywords.upsert",
            space=self.ctx.space,
            rows=rows,
            builder=self.name,
            backend=self.ctx.backend,
        )
        return BuildReport(self.name, sessions=len(batch.sessions), counts={"links": len(rows)})


class KeywordRetriever(Retriever[KeywordSettings]):
    name = "keywords"

    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        words = keywords(query, 20, self.settings.min_length)
        rows = self.ctx.store.read(
            "keywords.search", space=self.ctx.space, words=words, k=k_for_budget(budget)
        )
        hits = [
            Hit(
                node_id=row["id"],
                label="Passage",
                score=float(row["score"]),
                strategy=self.name,
                path=[f"keywords {', '.join(row['matched'])}"],
                passages=[PassageRef.from_row(row)],
            )
            for row in rows
        ]
        return RetrievalResult(query=query, strategy=self.name, hits=hits)
