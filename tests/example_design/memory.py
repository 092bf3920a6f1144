"""The example design's builder and retriever."""

from __future__ import annotations

import re
import time
from typing import Any

from graphmem.plugin import (
    BuildContext,
    Builder,
    BuildReport,
    Hit,
    PassageRef,
    RetrievalContext,
    RetrievalResult,
    Retriever,
    SessionBatch,
    content_id,
    k_for_budget,
)

_WORD = re.compile(r"\b[A-Z][a-z]+\b")


def keywords(text: str, max_keywords: int, min_length: int) -> list[str]:
    found = [w.lower() for w in _WORD.findall(text) if len(w) >= min_length]
    return list(dict.fromkeys(found))[:max_keywords]


class KeywordBuilder(Builder):
    name = "keywords"

    def __init__(self, ctx: BuildContext, config: Any = None) -> None:
        super().__init__(ctx)
        self.config = config or ctx.configs.get("keywords")

    def build(self, batch: SessionBatch) -> BuildReport:
        started = time.perf_counter()
        rows = []
        for session, ids in zip(batch.sessions, batch.passage_ids, strict=True):
            for turn, passage_id in zip(session.turns, ids, strict=True):
                for word in keywords(turn.text, self.config.max_keywords, self.config.min_length):
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
        report = BuildReport(self.name, sessions=len(batch.sessions), counts={"links": len(rows)})
        report.seconds = time.perf_counter() - started
        return report


class KeywordRetriever(Retriever):
    name = "keywords"

    def __init__(self, ctx: RetrievalContext, config: Any = None) -> None:
        super().__init__(ctx)
        self.config = config or ctx.configs.get("keywords")

    def retrieve(self, query: str, budget: int) -> RetrievalResult:
        started = time.perf_counter()
        words = keywords(query, 20, self.config.min_length)
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
        ms = (time.perf_counter() - started) * 1000
        return RetrievalResult(query=query, strategy=self.name, hits=hits, timings_ms={"total": ms})
