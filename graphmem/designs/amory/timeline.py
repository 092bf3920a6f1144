"""Amory's episodic memory as a state machine over turn pairs (the paper's Algorithm 1, lines
13-19), pure and deterministic: the builder loads the state of earlier batches from the
graph, runs the new steps through ``Timeline`` and writes back what changed. Running all
steps at once or batch by batch gives the same stories, because every decision depends only
on the steps before it.

The decisions themselves (which story a pair extends, where subplots begin, which facts are
peripheral) come from a ``Mind``: the offline one in ``offline.py`` or the LLM one in
``llm.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Protocol

import numpy as np
import numpy.typing as npt
from spacy.tokens import Doc

from graphmem.designs.amory.config import AmorySettings
from graphmem.plugin import content_id

Vector = npt.NDArray[np.float32]


@dataclass
class Excerpt:
    """One memory fragment: a turn (offline) or the part of one an LLM extracted."""

    passage_id: str
    source_id: str
    speaker: str
    text: str  # what the reader sees: "(date) speaker: text [photo]"
    step: int
    order: tuple[int, int]  # (session index, turn index)
    vector: Vector
    phrases: tuple[str, ...] = ()
    persons: tuple[str, ...] = ()
    raw: str = ""  # the turn's own words (what triples are extracted from)
    # An answer's parse as the designs read it, its opening (graphmem/nlp/openings.py):
    # triples come from it instead of a parse of ``raw``. None: ``raw`` is parsed.
    opening: Doc | None = field(default=None, repr=False, compare=False)
    ts: datetime | None = None
    part: int = 0  # the LLM may split one turn into several excerpts
    fallback: bool = False  # bound offline because the LLM gave up (``Binding.fallback``)

    @property
    def id(self) -> str:
        return content_id("story_item", self.passage_id, self.part)


@dataclass
class Subplot:
    headline: str
    start: int  # index of its first excerpt in the story
    end: int  # index of its last excerpt (inclusive)
    fallback: bool = False  # found offline because the LLM gave up on the consolidation


@dataclass
class Story:
    id: str
    headline: str
    owner: str
    items: list[Excerpt] = field(default_factory=list)
    subplots: list[Subplot] = field(default_factory=list)
    consolidated: int = 0  # excerpts already analysed by a consolidation
    last_bound: int = 0  # step of the newest excerpt
    active: bool = True
    # Its headline was written offline because the LLM gave up (on the binding or the
    # initialisation that created it, or on the consolidation that renamed it).
    fallback: bool = False

    @property
    def unconsolidated(self) -> list[Excerpt]:
        return self.items[self.consolidated :]


@dataclass(frozen=True)
class SideFact:
    """A peripheral fact of one excerpt (semanticization): a triple with its time."""

    subject: str
    relation: str
    object: str
    time: str | None
    passage_id: str
    story: str
    fallback: bool = False  # semanticized offline because the LLM gave up


@dataclass(frozen=True)
class Binding:
    """Where one excerpt goes: an existing story (``story`` set) or a new one."""

    excerpt: Excerpt
    story: str | None
    headline: str = ""
    owner: str = ""
    fallback: bool = False  # decided offline because the LLM gave up on the pair


@dataclass(frozen=True)
class SubplotDraft:
    headline: str
    start: int  # relative to the analysed window
    end: int


@dataclass(frozen=True)
class ConsolidationDraft:
    subplots: list[SubplotDraft]
    new_headline: str | None
    side_facts: list[SideFact]
    fallback: bool = False  # subplots and headline found offline because the LLM gave up


class Mind(Protocol):
    """The reasoning Amory delegates (to an LLM in the paper)."""

    def bind(self, step: int, pair: Sequence[Excerpt], stories: Sequence[Story]) -> list[Binding]:
        """Route the excerpts of one turn pair (MemBinding)."""

    def consolidate(self, story: Story, window: Sequence[Excerpt]) -> ConsolidationDraft:
        """Subplots of ``window``, a broader headline or None, and side facts."""


@dataclass
class Timeline:
    """Every story of one conversation and the clock (steps are turn pairs)."""

    settings: AmorySettings
    mind: Mind
    stories: list[Story] = field(default_factory=list)
    side_facts: list[SideFact] = field(default_factory=list)
    changed: set[str] = field(default_factory=set)  # story ids to write back

    def story(self, story_id: str) -> Story:
        return next(s for s in self.stories if s.id == story_id)

    def step(self, step: int, pair: Sequence[Excerpt], consolidate: bool) -> None:
        """Bind one pair, update activity, and (after initialisation) consolidate."""
        bound: set[str] = set()
        for binding in self.mind.bind(step, pair, self.stories) if pair else []:
            bound.add(self._apply(binding, step))
        for story in self.stories:
            was = story.active
            story.active = step - story.last_bound < self.settings.inactive_after
            if was != story.active:
                self.changed.add(story.id)
        if consolidate:
            self._consolidate_due(step)

    def _apply(self, binding: Binding, step: int) -> str:
        if binding.story is None:
            story = Story(
                id=content_id("narrative", binding.excerpt.id),
                headline=binding.headline,
                owner=binding.owner,
                fallback=binding.fallback,
            )
            self.stories.append(story)
        else:
            story = self.story(binding.story)
        excerpt = binding.excerpt
        story.items.append(replace(excerpt, fallback=True) if binding.fallback else excerpt)
        story.last_bound = step
        story.active = True
        self.changed.add(story.id)
        return story.id

    def _consolidate_due(self, step: int) -> None:
        mode = self.settings.consolidation
        if mode == "none":
            return
        rapid_round = mode == "rapid" and (step + 1) % self.settings.rapid_interval == 0
        for story in self.stories:
            due = rapid_round if mode == "rapid" else not story.active
            if due:
                self.consolidate(story)

    def consolidate(self, story: Story) -> None:
        """Analyse the unconsolidated excerpts N at a time (the paper analyses the latest
        N; a block longer than N is cut into windows so none goes unanalysed). Fewer than
        ``min_subplot_items`` wait for the next consolidation of the story."""
        size, least = self.settings.consolidation_window, self.settings.min_subplot_items
        while len(story.unconsolidated) >= least:
            window = story.unconsolidated[:size]
            # A window that would leave a remnant too small to stand alone takes it too.
            if 0 < len(story.unconsolidated) - len(window) < least:
                window = story.unconsolidated
            draft = self.mind.consolidate(story, window)
            base = story.consolidated
            for sub in draft.subplots:
                story.subplots.append(
                    Subplot(sub.headline, base + sub.start, base + sub.end, draft.fallback)
                )
            story.consolidated += len(window)
            if draft.new_headline:
                story.headline = draft.new_headline
                story.fallback = draft.fallback
            self.side_facts.extend(draft.side_facts)
            self.changed.add(story.id)


def unit(vector: Vector) -> Vector:
    norm = float(np.linalg.norm(vector))
    out: Vector = (vector / norm).astype(np.float32) if norm else vector.astype(np.float32)
    return out


def split_points(
    vectors: Sequence[Vector], least: int, floor: float = 1.0
) -> list[tuple[int, int]]:
    """Segments ``(start, end)`` (inclusive) of consecutive excerpts, cut where the
    similarity of neighbours drops: below the window's mean by more than one standard
    deviation and below ``floor`` (neighbours a story would not join either). The deepest
    drops are cut first; a cut that would leave a segment shorter than ``least`` is
    skipped."""
    n = len(vectors)
    if n < 2 * least:
        return [(0, n - 1)] if n else []
    sims = np.array([float(np.dot(vectors[i], vectors[i + 1])) for i in range(n - 1)])
    cutoff = min(float(sims.mean() - sims.std()), floor)
    cuts: list[int] = []  # a cut at i separates excerpt i from i + 1
    for i in sorted(range(n - 1), key=lambda j: (sims[j], j)):
        if sims[i] >= cutoff:
            break
        bounds = sorted([-1, *cuts, i, n - 1])
        if all(b - a >= least for a, b in itertools.pairwise(bounds)):
            cuts.append(i)
    bounds = sorted([-1, *cuts, n - 1])
    return [(a + 1, b) for a, b in itertools.pairwise(bounds)]
