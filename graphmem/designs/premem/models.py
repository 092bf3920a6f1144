"""What PREMem's steps pass to each other: fragments (Step 1), clusters and pool entries
(Step 2), insights (Step 2 reasoning)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from graphmem.plugin import content_id

Category = Literal["factual", "experiential", "subjective"]
CATEGORIES: tuple[Category, ...] = ("factual", "experiential", "subjective")
Pattern = Literal["extension", "accumulation", "specification", "transformation", "connection"]
# The paper's names of the five inference types (Appendix A, Figure 4).
PATTERN_LABELS: dict[Pattern, str] = {
    "extension": "extension/generalization",
    "accumulation": "accumulation",
    "specification": "specification/refinement",
    "transformation": "transformation",
    "connection": "connection/implication",
}


@dataclass(frozen=True)
class Fragment:
    """One memory fragment ``(id, key, content, time)`` of section 3.1, with the turn(s) it
    came from. ``topic``, ``predicate``, ``negated`` and ``lemmas`` are what the offline
    reasoning rules compare (empty for LLM-written fragments)."""

    category: Category
    key: str
    value: str
    date: str
    speaker: str
    passage_ids: tuple[str, ...]
    order: tuple[int, int]  # (session index, turn index) of its first turn
    topic: str = ""
    predicate: str = ""
    negated: bool = False
    lemmas: tuple[str, ...] = ()
    # Extracted offline because the LLM gave up on its session (not part of the identity).
    fallback: bool = field(default=False, compare=False)

    @property
    def id(self) -> str:
        return content_id("fragment", self.passage_ids, self.category, self.key, self.value)

    @property
    def embed_text(self) -> str:
        """Section 3.2.1: embeddings of the combined key phrase and memory content."""
        return f"{self.key}: {self.value}"


@dataclass(frozen=True)
class PooledCluster:
    """A cluster of an earlier session still in the pool, with its fragments."""

    id: str
    order: str
    centroid: tuple[float, ...]
    fragments: tuple[Fragment, ...]


@dataclass(frozen=True)
class Cluster:
    """A cluster of the session being built."""

    session_id: str
    order: str
    fragments: tuple[Fragment, ...]
    centroid: tuple[float, ...]

    @property
    def id(self) -> str:
        return content_id("cluster", self.session_id, sorted(f.id for f in self.fragments))

    @property
    def topic(self) -> str:
        """What the cluster is about in a few words (the Browser's caption): its fragments'
        most frequent keys, up to three, ties in fragment order."""
        counts = Counter(f.key.strip() for f in self.fragments if f.key.strip())
        return ", ".join(key for key, _ in counts.most_common(3))

    @property
    def fallback(self) -> bool:
        """Its fragments were extracted offline after an LLM fallback (a session's
        fragments all come from one extraction)."""
        return bool(self.fragments) and all(f.fallback for f in self.fragments)


@dataclass(frozen=True)
class Insight:
    """A reasoning memory fragment ``r_{p,c}`` (section 3.2.2): same shape as a fragment,
    plus its pattern and the fragments it stands on (offline) or both clusters (LLM)."""

    pattern: Pattern
    key: str
    value: str
    date: str
    earlier: str  # pooled cluster id (p)
    later: str  # new cluster id (c)
    passage_ids: tuple[str, ...] = field(default=())
    # Found by the offline rules because the LLM gave up on the pair.
    fallback: bool = field(default=False, compare=False)

    @property
    def id(self) -> str:
        return content_id("insight", self.earlier, self.later, self.pattern, self.key, self.value)

    @property
    def embed_text(self) -> str:
        return f"{self.key}: {self.value}"
