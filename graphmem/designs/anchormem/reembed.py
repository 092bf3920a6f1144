"""AnchorMem's vectors recomputed with another embedder (``graphmem reembed``): atomic facts
and associative events from their stored text, the passage side, as the builder embeds
them."""

from __future__ import annotations

from typing import Any

from graphmem.plugin import Embedder, GraphStore, rewrite_vectors


def _text(row: dict[str, Any]) -> str:
    return str(row["text"])


def reembed_anchormem(store: GraphStore, embedder: Embedder, space: str) -> int:
    facts = ("anchormem.reembed_facts", "anchormem.set_facts_vectors")
    events = ("anchormem.reembed_events", "anchormem.set_events_vectors")
    return rewrite_vectors(store, embedder, space, facts, _text, "passage") + (
        rewrite_vectors(store, embedder, space, events, _text, "passage")
    )
