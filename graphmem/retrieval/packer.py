"""Fit ranked hits into a token budget and render them as a cited, chronological context.

Selection goes in rank order (best hits first) and skips an item that would exceed the
budget (a smaller later one may still fit); each passage is included once however many hits
point at it. The chosen items are then shown in conversation order: derived memories (facts,
frames, events) first as a short "Memories" block (a superseded one after the current
ones), then the turns grouped by session under one date header per session, each turn
cited as ``[source_id]``. A date header costs its tokens once, when the first turn of its
session is chosen; repeating it on every turn would spend about a quarter of the budget on
dates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from graphmem.retrieval.types import Hit, PassageRef

TokenCounter = Callable[[str], int]
MEMORIES = "Memories:"
EXCERPTS = "Conversation excerpts:"


@dataclass
class PackedItem:
    kind: str  # "passage" or the hit's label
    text: str
    tokens: int
    rank: int
    passage: PassageRef | None = None
    strategy: str = ""
    path: list[str] = field(default_factory=list)
    cites: list[PassageRef] = field(default_factory=list)  # a cite-only item's unshown turns
    sources: list[PassageRef] = field(default_factory=list)  # the turns a memory comes from
    superseded: bool = False  # shown after the current memories (Hit.superseded)

    @property
    def turns(self) -> list[PassageRef]:
        """The turns this item stands for: a turn itself, or the turns a memory comes from."""
        return [self.passage] if self.passage is not None else self.sources

    @property
    def position(self) -> tuple[int, int]:
        """Where a cite-only item sits in the conversation: at its latest turn."""
        return max(((p.session_index, p.turn_index) for p in self.cites), default=(0, 0))


def session_header(passage: PassageRef) -> str:
    # Just the date: when hits scatter one turn per session this costs exactly what a
    # per-turn date prefix would; every further turn of the session then rides free.
    return f"({passage.date_text or 'date unknown'})"


def turn_line(passage: PassageRef) -> str:
    return passage.line


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
        """Turns the context cites: those shown and those cite-only items stand in for."""
        cited = {p.source_id for i in self.items for p in i.cites}
        return cited | {p.source_id for p in self.passages}

    @property
    def cited_in_order(self) -> list[str]:
        """``source_ids`` in conversation order (D1:3 before D10:1)."""
        refs = {p.source_id: p for p in self.passages}
        refs.update({p.source_id: p for i in self.items for p in i.cites})
        return [
            r.source_id
            for r in sorted(refs.values(), key=lambda r: (r.session_index, r.turn_index))
        ]

    def render(self) -> str:
        # Cite-only items replace their turns, so they take their turns' place: conversation
        # order. Other derived memories keep rank order. Superseded ones come after the
        # current ones: the current value first.
        memories = sorted(
            (i for i in self.items if i.passage is None),
            key=lambda m: (
                m.superseded,
                bool(m.cites),
                m.position if m.cites else (0, 0),
                m.rank,
            ),
        )
        turns = sorted(self.passages, key=lambda p: (p.session_index, p.turn_index))
        parts: list[str] = []
        if memories:
            parts.append(MEMORIES)
            parts.extend(f"- {m.text}" for m in memories)
        if turns:
            if memories:
                parts.append("")
            parts.append(EXCERPTS)
        current: int | None = None
        for passage in turns:
            if passage.session_index != current:
                parts.append(session_header(passage))
                current = passage.session_index
            parts.append(turn_line(passage))
        return "\n".join(parts)


class _Budget:
    """Token accounting of the rendered context: each session header charged once, and the
    block headings and bullets too, so that the text a host hands its model fits."""

    def __init__(self, budget: int, count: TokenCounter) -> None:
        self.budget, self.used, self._count = budget, 0, count
        self._headers: set[int] = set()
        self._blocks: set[str] = set()

    def _block(self, heading: str) -> int:
        return 0 if heading in self._blocks else self._count(heading)

    def memory_cost(self, text: str) -> int:
        return self._count(f"- {text}") + self._block(MEMORIES)

    def take_memory(self, cost: int) -> None:
        self.used += cost
        self._blocks.add(MEMORIES)

    def passage_cost(self, passage: PassageRef) -> int:
        cost = self._count(turn_line(passage)) + self._block(EXCERPTS)
        if passage.session_index not in self._headers:
            cost += self._count(session_header(passage))
        return cost

    def take_passage(self, passage: PassageRef, cost: int) -> None:
        self.used += cost
        self._headers.add(passage.session_index)
        self._blocks.add(EXCERPTS)

    def fits(self, cost: int) -> bool:
        return self.used + cost <= self.budget


def pack(hits: Sequence[Hit], budget: int, count: TokenCounter) -> PackedContext:
    """Greedy by rank: a hit brings its own text (derived nodes) and its source passages
    (a cite-only hit cites them without bringing them)."""
    items: list[PackedItem] = []
    meter = _Budget(budget, count)
    seen_passages: set[str] = set()
    seen_texts: set[str] = set()
    for rank, hit in enumerate(hits):
        if hit.text and hit.text not in seen_texts:
            cost = meter.memory_cost(hit.text)
            if meter.fits(cost):
                meter.take_memory(cost)
                seen_texts.add(hit.text)
                cites = list(hit.passages) if hit.cite_only else []
                items.append(
                    PackedItem(
                        hit.label,
                        hit.text,
                        cost,
                        rank,
                        None,
                        hit.strategy,
                        hit.path,
                        cites,
                        list(hit.passages),
                        hit.superseded,
                    )
                )
        for passage in [] if hit.cite_only else hit.passages:
            if passage.id in seen_passages:
                continue
            cost = meter.passage_cost(passage)
            if not meter.fits(cost):
                continue
            meter.take_passage(passage, cost)
            seen_passages.add(passage.id)
            items.append(
                PackedItem(
                    "passage", turn_line(passage), cost, rank, passage, hit.strategy, hit.path
                )
            )
        if meter.used >= budget:
            break
    return PackedContext(budget=budget, items=items, tokens=meter.used)
