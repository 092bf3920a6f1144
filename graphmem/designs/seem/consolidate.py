"""Associative consolidation (SEEM 3.2.2), incremental: each new frame is compared with
the most similar existing frame of the space and, when a judge says they describe the same
event, fused into it (merged slots, union of provenance, updated summary).

"Existing" means stored in earlier batches (found through the ``event_frame_embedding``
vector index) or created earlier in this batch (held in memory). Candidates from both are
ranked together and cut to the same top-N, so a conversation ingested in chunks meets the
same candidates, in the same order, as one ingested at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from graphmem.designs.seem.frames import FrameDraft, compose_summary
from graphmem.designs.seem.llm_prompts import (
    EventSlots,
    FrameOut,
    SameEventVerdict,
    fuse_messages,
    judge_messages,
)
from graphmem.designs.seem.settings import SeemSettings
from graphmem.designs.seem.vectors import weighted
from graphmem.llm import StructuredLLM, attempt, with_fallback
from graphmem.plugin import content_id

Vector = npt.NDArray[np.float32]


@dataclass
class Frame:
    id: str
    passage_ids: list[str]
    summary: str
    events: list[EventSlots]
    participants: list[str]
    topics: list[str]
    start: datetime | None
    end: datetime | None
    embedding: Vector
    statements: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    # The drafts fused into this frame, in order (seem/vectors.py): passages per part, their
    # ids concatenated, and each part's summary (what an LLM build embeds).
    part_sizes: list[int] = field(default_factory=list)
    part_passages: list[str] = field(default_factory=list)
    part_texts: list[str] = field(default_factory=list)
    # The summary was written offline because the LLM gave up (on the window or the fusion),
    # and the (lower-cased) actions of the events computed offline for the same reason.
    fallback: bool = False
    fallback_actions: frozenset[str] = frozenset()

    @classmethod
    def from_draft(cls, draft: FrameDraft, embedding: Vector) -> Frame:
        actions = frozenset(e.action.lower() for e in draft.events) if draft.fallback else None
        return cls(
            id=content_id("frame", draft.passage_ids[0]),
            passage_ids=list(draft.passage_ids),
            summary=draft.summary,
            events=list(draft.events),
            participants=list(draft.participants),
            topics=list(draft.topics),
            start=draft.start,
            end=draft.end,
            embedding=embedding,
            statements=list(draft.statements),
            sources=list(draft.sources),
            fallback=draft.fallback,
            fallback_actions=actions or frozenset(),
            part_sizes=[len(draft.passage_ids)],
            part_passages=list(draft.passage_ids),
            part_texts=[draft.summary],
        )

    def render(self) -> str:
        """The frame as the LLM judge and fuser read it."""
        lines = [f"Summary: {self.summary}"]
        for i, event in enumerate(self.events, start=1):
            slots = event.model_dump(exclude_none=True)
            lines.append(f"Event {i}: " + "; ".join(f"{k}: {v}" for k, v in slots.items()))
        return "\n".join(lines)


def _gap_hours(a: Frame, b: Frame) -> float:
    if a.start is None or b.end is None:
        return 0.0  # no timestamps: time says nothing either way
    return abs((a.start - b.end).total_seconds()) / 3600


def merge_events(a: Sequence[EventSlots], b: Sequence[EventSlots], limit: int) -> list[EventSlots]:
    seen: set[str] = set()
    out: list[EventSlots] = []
    for event in [*a, *b]:
        key = event.action.lower()
        if key not in seen:
            seen.add(key)
            out.append(event)
    return out[:limit]


def _span(a: Frame, b: Frame) -> tuple[datetime | None, datetime | None]:
    starts = [t for t in (a.start, b.start) if t is not None]
    ends = [t for t in (a.end, b.end) if t is not None]
    return (min(starts) if starts else None), (max(ends) if ends else None)


def centroid(a: Frame, b: Frame) -> Vector:
    """A fused frame is embedded as the passage-weighted mean of its parts: no re-encoding,
    and the result does not depend on how a summary happened to be worded."""
    return weighted(a.embedding, len(a.passage_ids), b.embedding, len(b.passage_ids))


@dataclass(frozen=True)
class Fused:
    """What fusing two frames gives: the new summary and events, and whether they were
    computed offline because the LLM gave up (``Frame.fallback``, ``fallback_actions``)."""

    summary: str
    events: list[EventSlots]
    fallback: bool = False
    fallback_actions: frozenset[str] = frozenset()


class Judge(ABC):
    """Decides same-event (F_judge) and fuses (F_fuse)."""

    def __init__(self, settings: SeemSettings) -> None:
        self.settings = settings

    def admissible(self, new: Frame, old: Frame) -> bool:
        return len(new.passage_ids) + len(old.passage_ids) <= self.settings.max_frame_passages

    @abstractmethod
    def same_event(self, new: Frame, old: Frame, similarity: float) -> bool: ...

    @abstractmethod
    def fuse(self, old: Frame, new: Frame) -> Fused: ...


class OfflineJudge(Judge):
    """Same event when the summaries are similar, the frames share a participant or topic
    (besides the speakers) and they are close in time; fusion is extractive."""

    def admissible(self, new: Frame, old: Frame) -> bool:
        close = _gap_hours(new, old) <= self.settings.fuse_max_gap_hours
        return close and super().admissible(new, old)

    def same_event(self, new: Frame, old: Frame, similarity: float) -> bool:
        if similarity < self.settings.fuse_min_similarity:
            return False
        return not self.settings.fuse_require_shared or bool(set(new.topics) & set(old.topics))

    def fuse(self, old: Frame, new: Frame) -> Fused:
        """Extractive; the parts' offline events stay marked as such."""
        start, end = _span(old, new)
        statements = list(dict.fromkeys([*old.statements, *new.statements]))
        summary = compose_summary(start, end, statements, self.settings.max_summary_statements)
        events = merge_events(old.events, new.events, self.settings.max_events_per_frame)
        marked = old.fallback_actions | new.fallback_actions
        kept = frozenset(e.action.lower() for e in events) & marked
        return Fused(summary, events, fallback_actions=kept)


class LLMJudge(Judge):
    """SEEM's agents: a conservative same-event judge and the fusion prompt; a pair the LLM
    gives up on is judged and fused offline (``graphmem.llm.with_fallback``). A judge
    fallback decides structure only (which frames merge) and marks no node."""

    def __init__(self, settings: SeemSettings, llm: StructuredLLM) -> None:
        super().__init__(settings)
        self.llm = llm
        self.offline = OfflineJudge(settings)

    def same_event(self, new: Frame, old: Frame, similarity: float) -> bool:
        return with_fallback(
            self.llm,
            self._llm_same_event,
            lambda pair: self.offline.same_event(*pair, similarity),
            (new, old),
            what="seem same-event judge",
        )

    def fuse(self, old: Frame, new: Frame) -> Fused:
        """The fusion prompt rewrites summary and events; a pair the LLM gives up on is
        fused extractively and marked as a fallback."""
        outcome = attempt(
            self.llm, self._llm_fuse, lambda p: self.offline.fuse(*p), (old, new), what="seem fuse"
        )
        if not outcome.fallback:
            return outcome.value
        return replace(outcome.value, fallback=True)

    def _llm_same_event(self, pair: tuple[Frame, Frame]) -> bool:
        new, old = pair
        verdict = self.llm.generate(judge_messages(new.render(), old.render()), SameEventVerdict)
        return verdict.same_event

    def _llm_fuse(self, pair: tuple[Frame, Frame]) -> Fused:
        old, new = pair
        messages = fuse_messages(old.render(), new.render(), [*old.sources, *new.sources])
        fused = self.llm.generate(messages, FrameOut)
        return Fused(fused.summary.strip(), fused.events[: self.settings.max_events_per_frame])


@dataclass
class Candidate:
    similarity: float
    frame: Frame


@dataclass
class Consolidation:
    frames: list[Frame]  # every frame created or changed, to be written
    created: int = 0
    fused: int = 0


class Consolidator:
    def __init__(self, settings: SeemSettings, judge: Judge) -> None:
        self.settings = settings
        self.judge = judge

    def run(
        self,
        drafts: Sequence[FrameDraft],
        vectors: Vector,
        stored: Sequence[Sequence[Candidate]],
    ) -> Consolidation:
        """``stored[i]``: the nearest frames of earlier batches for ``drafts[i]``."""
        working: dict[str, Frame] = {}
        result = Consolidation(frames=[])
        for draft, vector, earlier in zip(drafts, vectors, stored, strict=True):
            new = Frame.from_draft(draft, vector)
            best = self._best(new, working, earlier)
            if best is not None and self.judge.same_event(new, best.frame, best.similarity):
                fused = self._fuse(best.frame, new)
                working[fused.id] = fused
                result.fused += 1
            else:
                working[new.id] = new
                result.created += 1
        result.frames = list(working.values())
        return result

    def _best(
        self, new: Frame, working: dict[str, Frame], earlier: Sequence[Candidate]
    ) -> Candidate | None:
        local = [Candidate(float(new.embedding @ f.embedding), f) for f in working.values()]
        # A stored frame fused in this batch is represented by its in-memory version.
        stored = [c for c in earlier if c.frame.id not in working and c.frame.id != new.id]
        keep = self.settings.fuse_candidates
        ranked = sorted(local + stored, key=lambda c: -c.similarity)[:keep]
        allowed = [c for c in ranked if self.judge.admissible(new, c.frame)]
        return allowed[0] if allowed else None

    def _fuse(self, old: Frame, new: Frame) -> Frame:
        fused = self.judge.fuse(old, new)
        start, end = _span(old, new)
        return replace(
            old,
            passage_ids=list(dict.fromkeys([*old.passage_ids, *new.passage_ids])),
            summary=fused.summary,
            events=fused.events,
            fallback=fused.fallback,
            fallback_actions=fused.fallback_actions,
            participants=list(dict.fromkeys([*old.participants, *new.participants])),
            topics=sorted(set(old.topics) | set(new.topics)),
            start=start,
            end=end,
            embedding=centroid(old, new),
            statements=list(dict.fromkeys([*old.statements, *new.statements])),
            sources=[*old.sources, *new.sources],
            part_sizes=[*old.part_sizes, *new.part_sizes],
            part_passages=[*old.part_passages, *new.part_passages],
            part_texts=[*old.part_texts, *new.part_texts],
        )


def stored_candidates(row: dict[str, Any], render: Callable[[dict[str, Any]], str]) -> Candidate:
    """A frame of an earlier batch, as ``seem.frames_by_id`` returns it."""
    events = [EventSlots.model_validate(e) for e in row["events"]]
    # A frame stored before frames kept their parts is one part: its passages, its summary.
    sizes = row.get("vector_parts") or [len(row["passage_ids"])]
    frame = Frame(
        id=row["id"],
        passage_ids=list(row["passage_ids"]),
        summary=row["summary"],
        events=events,
        participants=list(row["participants"] or []),
        topics=list(row["topics"] or []),
        start=_native(row["start"]),
        end=_native(row["end"]),
        embedding=np.asarray(row["embedding"], dtype=np.float32),
        statements=list(row["statements"] or []),
        sources=[render(p) for p in row["passages"]],
        fallback=bool(row["fallback"]),
        fallback_actions=frozenset(a.lower() for a in row["fallback_actions"] or []),
        part_sizes=list(sizes),
        part_passages=list(row.get("vector_passages") or row["passage_ids"]),
        part_texts=list(row.get("vector_texts") or [row["summary"]]),
    )
    return Candidate(float(row["cosine"]), frame)


def _native(value: Any) -> datetime | None:
    if value is not None and hasattr(value, "to_native"):
        native: datetime = value.to_native()
        return native
    return value if isinstance(value, datetime) else None
