"""``--strategy premem``: the paper's inference phase (section 3.3, Algorithm 1 lines 21-22).

Fragments and insights are ranked together by cosine to the question (exact, over the
space's items; in-process over a snapshot by default, ``search = "cypher"`` in one
statement, the same ranking); the packer fills the budget in rank order. The reader sees
the items, not the turns: each hit is ``cite_only``, so its turns count as citations (``--explain``,
evidence recall) without being shown or charged. Chosen items are shown in conversation
order, each as ``[key, date]: value`` (date in words), as the paper's reader sees them.
With ``messages`` (ours, from the paper's Limitations) the turns themselves compete in the
same ranking, and a chosen turn is shown as it was said.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any

from graphmem.designs.premem import dates
from graphmem.designs.premem.config import PremSettings
from graphmem.plugin import (
    ExactIndex,
    Hit,
    PassageRef,
    RetrievalResult,
    SnapshotRetriever,
    k_for_budget,
)


def render_item(key: str, value: str, date: str) -> str:
    """``[key, date]: value``, the paper's item layout, with the date in words."""
    when = dates.in_words(date) if date else ""
    head = f"{key}, {when}" if when else key
    return f"[{head}]: {value}"


class PremRetriever(SnapshotRetriever[PremSettings, ExactIndex]):
    name = "premem"
    version_statement = "premem.version"
    shares_snapshot = True

    def snapshot_key(self) -> Hashable:
        return ("premem", tuple(sorted(self._flags().items())))

    def uses_snapshot(self) -> bool:
        return self.settings.search == "snapshot"

    def load_snapshot(self) -> ExactIndex:
        """The space's items (read again when ``premem.version`` says they changed)."""
        rows = self.ctx.store.read("premem.snapshot", space=self.ctx.space, **self._flags())
        return ExactIndex.from_rows(rows, self.ctx.embedder.dim)

    def _flags(self) -> dict[str, bool]:
        cfg = self.settings
        return {
            "insights": cfg.insights,
            "offline_insights": cfg.offline_insights,
            "messages": cfg.messages,
        }

    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        started = time.perf_counter()
        cfg = self.settings
        k = k_for_budget(budget, cfg.item_tokens, cap=cfg.max_items)
        embedding = self.ctx.embedder.embed_query(query)
        embedded = time.perf_counter()
        if cfg.search == "snapshot":
            rows = self.snapshot().top(embedding, k)
        else:
            rows = self.ctx.store.read(
                "premem.search", space=self.ctx.space, embedding=embedding, k=k, **self._flags()
            )
        hits = [self._hit(row, rank) for rank, row in enumerate(rows, start=1)]
        timings = {
            "embed": (embedded - started) * 1000,
            "search": (time.perf_counter() - embedded) * 1000,
        }
        return RetrievalResult(query=query, strategy=self.name, hits=hits, timings_ms=timings)

    def _hit(self, row: dict[str, Any], rank: int) -> Hit:
        score, label = float(row["score"]), row["label"]
        ranked = (
            "fragments, insights and turns" if self.settings.messages else "fragments and insights"
        )
        hit = Hit(
            node_id=row["id"],
            label=label,
            score=score,
            strategy=self.name,
            path=[f"exact cosine over {ranked} rank {rank} score {score:.3f}"],
            passages=[PassageRef.from_row(p) for p in row["passages"]],
        )
        if label == "Passage":  # an original turn (``messages``): shown as it was said
            return hit
        kind = row["pattern"] if label == "Insight" else row["category"]
        return hit.model_copy(
            update={
                "path": [*hit.path, f"{label} ({kind}) -FROM-> Passage"],
                "text": render_item(row["key"], row["value"], row["date"] or ""),
                "cite_only": True,
            }
        )
