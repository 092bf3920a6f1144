"""Fit ranked hits into a token budget and render them as a cited, chronological context.

Selection goes in rank order (best hits first) and stops adding once the next item would
exceed the budget; each passage is included once however many hits point at it. The chosen
items are then shown in conversation order with their dates and speakers, derived memories
(facts, frames, events) first as a short "memories" block.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from graphmem.retrieval.base import Hit, PassageRef

TokenCounter = Callable[[str], int]


@dataclass
class PackedItem:
    kind: str  # "passage" or the hit's label
    text: str
    tokens: int
    rank: int
    passage: PassageRef | None = None
    strategy: str = ""
    path: list[str] = field(default_factory=list)


@dataclass
class PackedContext:
    budget: int
    items: list[PackedItem]
    tokens: int

    @property
    def passages(self) -> list[PassageRef]:
        return [i.passage for i in self.items if i.passage is not None]

    @property
    def source_ids(self) -> set[str]:
        return {p.source_id for p in self.passages}

    def render(self) -> str:
        memories = [i for i in self.items if i.passage is None]
        turns = sorted(
            (i for i in self.items if i.passage is not None),
            key=lambda i: (i.passage.session_index, i.passage.turn_index) if i.passage else (0, 0),
        )
        parts: list[str] = []
        if memories:
            parts.append("Memories:")
            parts.extend(f"- {m.text}" for m in sorted(memories, key=lambda m: m.rank))
        if turns:
            if memories:
                parts.append("")
            parts.append("Conversation excerpts:")
            parts.extend(t.text for t in turns)
        return "\n".join(parts)


def _passage_tokens(passage: PassageRef, text: str, count: TokenCounter) -> int:
    # The stored count covers the rendered turn; only the citation prefix is new.
    if passage.tokens is None:
        return count(text)
    return passage.tokens + count(f"[{passage.source_id}]")


def pack(hits: Sequence[Hit], budget: int, count: TokenCounter) -> PackedContext:
    """Greedy by rank: a hit brings its own text (derived nodes) and its source passages."""
    items: list[PackedItem] = []
    used = 0
    seen_passages: set[str] = set()
    seen_texts: set[str] = set()
    for rank, hit in enumerate(hits):
        candidates: list[PackedItem] = []
        if hit.text and hit.text not in seen_texts:
            candidates.append(
                PackedItem(hit.label, hit.text, count(hit.text), rank, None, hit.strategy, hit.path)
            )
        for passage in hit.passages:
            if passage.id in seen_passages:
                continue
            text = passage.render()
            tokens = _passage_tokens(passage, text, count)
            candidates.append(
                PackedItem("passage", text, tokens, rank, passage, hit.strategy, hit.path)
            )
        for item in candidates:
            if used + item.tokens > budget:
                continue  # a smaller later item may still fit
            used += item.tokens
            items.append(item)
            if item.passage is not None:
                seen_passages.add(item.passage.id)
            else:
                seen_texts.add(item.text)
        if used >= budget:
            break
    return PackedContext(budget=budget, items=items, tokens=used)
