"""Vector indexes span every space; a space filter after the search needs an over-fetch in
proportion to the share of the label that belongs to the queried space."""

from __future__ import annotations

import math
from dataclasses import dataclass

from graphmem.store import GraphStore


@dataclass(frozen=True)
class Totals:
    entities: int
    entities_in_space: int
    facts: int
    facts_in_space: int
    frames: int
    frames_in_space: int

    @classmethod
    def read(cls, store: GraphStore, space: str) -> Totals:
        row = store.read("semantic.label_totals", space=space)[0]
        return cls(**{name: int(row[name]) for name in cls.__dataclass_fields__})


def over_fetch(k: int, total: int, in_space: int) -> int:
    """How many nearest nodes to ask the index for so that about ``k`` survive the space
    filter; 0 when the space has none (no need to ask)."""
    if in_space == 0 or k <= 0:
        return 0
    ratio = total / in_space
    return int(min(max(total, k), math.ceil(k * ratio * 1.5) + 10))
