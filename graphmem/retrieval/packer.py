"""Fit ranked hits into a token budget and render them as a cited, chronological context.

Selection goes in rank order (best hits first) and skips an item that would exceed the
budget (a smaller later one may still fit); each passage is included once however many hits
point at it. The chosen items are then shown in conversation order: derived memories (facts,
frames, events) first as a short "Memories" block (a superseded one after the current
ones), each citing the turns it comes from, then the turns grouped by session under one date
header per session, each turn cited as ``[source_id]``. A date header costs its tokens once,
when the first turn of its session is chosen; repeating it on every turn would spend about a
quarter of the budget on dates.

A space may hold several conversations, each numbering its sessions from the start: when
the hits come from more than one, every citation is the turn's ``turn_id``
(``<conversation>/<source_id>``) and each date header names its conversation; a context of
one conversation's turns keeps the shorter source ids (the same tokens as ever).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from graphmem.plugin.hits import Hit, PassageRef

TokenCounter = Callable[[str], int]
MEMORIES = "Memories:"
EXCERPTS = "Conversation excerpts:"
# How many of its turns a memory line cites ("[s1:2, s1:3 +4]", the earliest first): enough
# to find where it was said; most memories come from one turn, so one or three cost the
# same (LoCoMo dev: docs/eval.md, "Memories that cite their turns"); the JSON lists all.
MEMORY_CITES = 3


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
    def position(self) -> tuple[str, int, int]:
        """Where a cite-only item sits in the conversation: at its latest turn."""
        return max((p.order for p in self.cites), default=("", 0, 0))


def session_header(passage: PassageRef, qualified: bool = False) -> str:
    # Just the date: when hits scatter one turn per session this costs exactly what a
    # per-turn date prefix would; every further turn of the session then rides free.
    date = passage.date_text or "date unknown"
    if qualified:
        return f"(conversation {passage.conversation}, {date})"
    return f"({date})"


def turn_line(passage: PassageRef, qualified: bool = False) -> str:
    return passage.qualified_line if qualified else passage.line


def memory_line(text: str, sources: Sequence[PassageRef], qualified: bool, cites: int) -> str:
    """A memory as the context shows it: its text and the first ``cites`` of its turns in
    conversation order (the rest counted)."""
    if cites <= 0 or not sources:
        return f"- {text}"
    ordered = sorted({p.id: p for p in sources}.values(), key=lambda p: p.order)
    shown = ", ".join(p.turn_id if qualified else p.source_id for p in ordered[:cites])
    more = f" +{len(ordered) - cites}" if len(ordered) > cites else ""
    return f"- {text} [{shown}{more}]"


def in_conversation_order(refs: Iterable[PassageRef]) -> list[PassageRef]:
    """Turns in conversation order; the turns of several conversations grouped by
    conversation, the one whose earliest turn here was said first going first (undated
    ones after the dated, then by id)."""
    refs = list(refs)
    first: dict[str, tuple[bool, datetime]] = {}
    for ref in refs:
        when = (ref.ts is None, ref.ts or datetime.min)
        first[ref.conversation] = min(first.get(ref.conversation, when), when)
    return sorted(refs, key=lambda r: (first[r.conversation], r.order))


def several_conversations(hits: Sequence[Hit]) -> bool:
    """Whether the hits cite turns of more than one conversation."""
    return len({p.conversation for hit in hits for p in hit.passages}) > 1


@dataclass
class PackedContext:
    budget: int
    items: list[PackedItem]
    tokens: int
    # The hits came from several conversations: citations are turn ids (module docstring).
    qualified: bool = False
    memory_cites: int = MEMORY_CITES

    @property
    def passages(self) -> list[PassageRef]:
        return [i.passage for i in self.items if i.passage is not None]

    @property
    def source_ids(self) -> set[str]:
        """Turns the context cites: those shown and those cite-only items stand in for."""
        cited = {p.source_id for i in self.items for p in i.cites}
        return cited | {p.source_id for p in self.passages}

    @property
    def cited_turns(self) -> list[PassageRef]:
        """Every turn the context cites, each once, in conversation order (D1:3 before
        D10:1; by conversation first)."""
        refs = {p.id: p for p in self.passages}
        refs.update({p.id: p for i in self.items for p in i.cites})
        return in_conversation_order(refs.values())

    @property
    def cited_in_order(self) -> list[str]:
        """The ``turn_id`` of every cited turn, in conversation order: unique in the space."""
        return [r.turn_id for r in self.cited_turns]

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
        turns = in_conversation_order(self.passages)
        parts: list[str] = []
        if memories:
            parts.append(MEMORIES)
            parts.extend(self.memory_line(m) for m in memories)
        if turns:
            if memories:
                parts.append("")
            parts.append(EXCERPTS)
        current: tuple[str, int] | None = None
        for passage in turns:
            if (passage.conversation, passage.session_index) != current:
                parts.append(session_header(passage, self.qualified))
                current = (passage.conversation, passage.session_index)
            parts.append(turn_line(passage, self.qualified))
        return "\n".join(parts)

    def memory_line(self, item: PackedItem) -> str:
        return memory_line(item.text, item.sources, self.qualified, self.memory_cites)


class _Budget:
    """Token accounting of the rendered context: each session header charged once, and the
    block headings and bullets too, so that the text a host hands its model fits."""

    def __init__(
        self, budget: int, count: TokenCounter, qualified: bool = False, cites: int = 0
    ) -> None:
        self.budget, self.used, self._count = budget, 0, count
        self.qualified, self.cites = qualified, cites
        self._headers: set[tuple[str, int]] = set()
        self._blocks: set[str] = set()

    def _block(self, heading: str) -> int:
        return 0 if heading in self._blocks else self._count(heading)

    def memory_cost(self, text: str, sources: Sequence[PassageRef] = ()) -> int:
        line = memory_line(text, sources, self.qualified, self.cites)
        return self._count(line) + self._block(MEMORIES)

    def take_memory(self, cost: int) -> None:
        self.used += cost
        self._blocks.add(MEMORIES)

    def passage_cost(self, passage: PassageRef) -> int:
        cost = self._count(turn_line(passage, self.qualified)) + self._block(EXCERPTS)
        if (passage.conversation, passage.session_index) not in self._headers:
            cost += self._count(session_header(passage, self.qualified))
        return cost

    def take_passage(self, passage: PassageRef, cost: int) -> None:
        self.used += cost
        self._headers.add((passage.conversation, passage.session_index))
        self._blocks.add(EXCERPTS)

    def fits(self, cost: int) -> bool:
        return self.used + cost <= self.budget


def pack(
    hits: Sequence[Hit], budget: int, count: TokenCounter, memory_cites: int = MEMORY_CITES
) -> PackedContext:
    """Greedy by rank: a hit brings its own text (derived nodes) and its source passages
    (a cite-only hit cites them without bringing them). ``memory_cites``: how many of its
    turns a memory line cites (0: none)."""
    items: list[PackedItem] = []
    qualified = several_conversations(hits)
    meter = _Budget(budget, count, qualified, memory_cites)
    seen_passages: set[str] = set()
    seen_texts: set[str] = set()
    for rank, hit in enumerate(hits):
        if hit.text and hit.text not in seen_texts:
            cost = meter.memory_cost(hit.text, hit.passages)
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
                    "passage",
                    turn_line(passage, qualified),
                    cost,
                    rank,
                    passage,
                    hit.strategy,
                    hit.path,
                )
            )
        if meter.used >= budget:
            break
    return PackedContext(
        budget=budget,
        items=items,
        tokens=meter.used,
        qualified=qualified,
        memory_cites=memory_cites,
    )
