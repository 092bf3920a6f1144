"""Amory's vectors recomputed with another embedder (``graphmem reembed``): stories and
subplots from their headline and characters (``offline.headline_text``, the passage side,
as the builder embeds them). The characters are the ones stored with the node, which the
builder derived from the same items when it embedded the headline."""

from __future__ import annotations

from typing import Any

from graphmem.plugin import Embedder, GraphStore, rewrite_vectors


def _headline_text(row: dict[str, Any]) -> str:
    # offline.headline_text over the stored characters (characters_of at build time)
    return f"{row['headline']} ({', '.join(row['characters'] or [])})"


def reembed_amory(store: GraphStore, embedder: Embedder, space: str) -> int:
    narratives = ("amory.reembed_narratives", "amory.set_narratives_vectors")
    subplots = ("amory.reembed_subplots", "amory.set_subplots_vectors")
    return rewrite_vectors(store, embedder, space, narratives, _headline_text, "passage") + (
        rewrite_vectors(store, embedder, space, subplots, _headline_text, "passage")
    )
