"""Amory's leaves: the subplots and story excerpts coherence chooses among (read from a
story row), and the list the coherence prompt shows. Shared by the retriever and the
coherence step (``coherence.py``), which import it, not each other."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphmem.designs.amory.timeline import Vector


@dataclass(frozen=True)
class Leaf:
    node_id: str
    label: str  # "Subplot" or "Narrative"
    story: str  # the story's headline and owner, for --explain
    headline: str
    owner: str
    characters: tuple[str, ...]
    vector: Vector
    passages: tuple[str, ...]

    def describe(self) -> str:
        where = f"story: {self.story}"
        return where if self.label == "Narrative" else f"{where} > subplot: {self.headline}"


def leaf_vector(value: Any) -> Vector:
    return np.asarray(value or [], dtype=np.float32)


def story_leaves(row: dict[str, Any]) -> list[Leaf]:
    """A story's subplots, then its excerpts that no subplot holds (if any)."""
    story = f"{row['headline']} [{row['owner']}]"
    passages: list[str] = list(row["passage_ids"])
    covered: set[int] = set()
    out = []
    for sub in row["subplots"]:
        span = range(int(sub["start"]), int(sub["end"]) + 1)
        covered.update(span)
        members = tuple(dict.fromkeys(passages[i] for i in span if i < len(passages)))
        if members:
            out.append(
                Leaf(
                    sub["id"],
                    "Subplot",
                    story,
                    sub["headline"],
                    row["owner"],
                    tuple(sub["characters"] or ()),
                    leaf_vector(sub["embedding"]),
                    members,
                )
            )
    rest = tuple(dict.fromkeys(p for i, p in enumerate(passages) if i not in covered))
    if rest:
        out.append(
            Leaf(
                row["id"],
                "Narrative",
                story,
                row["headline"],
                row["owner"],
                tuple(row["characters"] or ()),
                leaf_vector(row["embedding"]),
                rest,
            )
        )
    return out


def leaf_titles(leaves: Sequence[Leaf]) -> str:
    """The story list the coherence prompt shows: each story with its sub-stories."""
    lines: list[str] = []
    seen: set[str] = set()
    for i, leaf in enumerate(leaves):
        if leaf.story not in seen:
            seen.add(leaf.story)
            lines.append(f"Story: {leaf.story} (characters: {', '.join(leaf.characters)})")
        lines.append(f"  {i}. owner: {leaf.owner}, topic: {leaf.headline}")
    return "\n".join(lines)
