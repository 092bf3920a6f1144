"""The LLM ``Mind``: the paper's prompts (``prompts.py``) for initialisation, binding,
consolidation and semanticization. Answers are mapped back to turns by the message and item
numbers the prompts ask for; anything that does not map (an unknown story, an index outside
the window) falls back to the safe reading (a new story; one subplot for the window).

Each of the four is one item for ``graphmem.llm.attempt``: when the LLM gives up on it
(invalid after repairs, rejected, timed out) or its answer maps to nothing (no decision
names a message of the pair, no held turn lands in a story, no fact names an item), that
step alone is taken by the offline ``Mind`` (``offline.py``), which follows the same clock
(``observe``), and what it decided is marked as a fallback (stories, items, subplots and
side facts then carry backend ``offline``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

import numpy as np
from pydantic import BaseModel

from graphmem.designs.amory import prompts
from graphmem.designs.amory.config import AmorySettings
from graphmem.designs.amory.offline import OfflineMind
from graphmem.designs.amory.timeline import (
    Binding,
    ConsolidationDraft,
    Excerpt,
    SideFact,
    Story,
    SubplotDraft,
    Timeline,
    Vector,
)
from graphmem.llm import Message, StructuredLLM, attempt
from graphmem.plugin import Embedder, LLMItemError, content_id
from graphmem.semantic import is_name

T = TypeVar("T", bound=BaseModel)
RECENT = 4  # turns of recent context the binding prompt shows (the paper: "short")


def _ask(llm: StructuredLLM, prompt: str, schema: type[T]) -> T:
    return llm.generate([Message(role="user", content=prompt)], schema)


def _numbered(excerpts: Sequence[Excerpt]) -> str:
    return "\n".join(f"{i}. {e.text}" for i, e in enumerate(excerpts))


def story_list(stories: Sequence[Story]) -> str:
    return "\n".join(f'- owner: "{s.owner}", topic: "{s.headline}"' for s in stories) or "None."


def _substories(story: Story) -> str:
    return "\n".join(f"- {s.headline}" for s in story.subplots) or "None yet."


def _as_fallback(stories: Sequence[Story]) -> list[Story]:
    for story in stories:
        story.fallback = True
        story.items = [replace(e, fallback=True) for e in story.items]
    return list(stories)


class LLMMind:
    def __init__(
        self,
        settings: AmorySettings,
        llm: StructuredLLM,
        embedder: Embedder,
        speakers: set[str] | None = None,
        assistants: frozenset[str] = frozenset(),
        user: str | None = None,
    ) -> None:
        self.settings, self.llm, self.embedder = settings, llm, embedder
        self.recent: list[Excerpt] = []
        self.held: list[Excerpt] = []
        # The offline twin takes any step the LLM gives up on; it watches the same turns.
        self.offline = OfflineMind(settings, embedder, speakers or set(), assistants, user)

    def observe(self, vectors: Sequence[Vector] | Sequence[np.ndarray]) -> None:
        self.offline.observe(vectors)

    # --- initialisation (MemInit over the first T turns) ------------------------------
    def hold(self, pair: Sequence[Excerpt]) -> None:
        self.held.extend(pair)
        self.recent = [*self.recent, *pair][-RECENT:]

    def initialise(self, timeline: Timeline) -> None:
        if not self.held:
            return
        held, self.held = self.held, []
        outcome = attempt(
            self.llm, self._llm_init, self._offline_init, held, what="amory initialisation"
        )
        stories = _as_fallback(outcome.value) if outcome.fallback else outcome.value
        for story in stories:
            timeline.stories.append(story)
            timeline.changed.add(story.id)
        timeline.stories.sort(key=lambda s: (s.items[0].step, s.items[0].order))

    def _llm_init(self, held: Sequence[Excerpt]) -> list[Story]:
        out = _ask(self.llm, prompts.INIT.format(conv=_numbered(held)), prompts.InitOut)
        used: set[int] = set()
        stories: list[Story] = []
        for draft in out.stories:
            members = [held[i] for i in draft.content if 0 <= i < len(held) and i not in used]
            used.update(draft.content)
            if not members:
                continue
            story = Story(
                id=content_id("narrative", members[0].id),
                headline=draft.topic,
                owner=_owner(draft.owner, members[0]),
            )
            story.items = members
            story.last_bound = max(e.step for e in members)
            stories.append(story)
        if not stories:
            raise LLMItemError("amory initialisation: no held turn lands in a story")
        return stories

    def _offline_init(self, held: Sequence[Excerpt]) -> list[Story]:
        """The held pairs bound one step at a time, as an offline build binds them."""
        scratch = Timeline(self.settings, self.offline)
        steps = sorted({e.step for e in held})
        for step in steps:
            scratch.step(step, [e for e in held if e.step == step], consolidate=False)
        return scratch.stories

    # --- binding ------------------------------------------------------------------------
    def bind(self, step: int, pair: Sequence[Excerpt], stories: Sequence[Story]) -> list[Binding]:
        prompt = prompts.BINDING.format(
            headlines=story_list(stories),
            recent_context=_numbered(self.recent) or "None.",
            new_conv=_numbered(pair),
        )
        self.recent = [*self.recent, *pair][-RECENT:]
        outcome = attempt(
            self.llm,
            lambda p: self._llm_bind(prompt, p, stories),
            lambda p: self.offline.bind(step, p, stories),
            pair,
            what="amory binding",
        )
        if not outcome.fallback:
            return outcome.value
        return [replace(b, fallback=True) for b in outcome.value]

    def _llm_bind(
        self, prompt: str, pair: Sequence[Excerpt], stories: Sequence[Story]
    ) -> list[Binding]:
        out = _ask(self.llm, prompt, prompts.BindingOut)
        by_topic = {(s.headline.strip().lower(), s.owner.strip().lower()): s for s in stories}
        by_headline = {s.headline.strip().lower(): s for s in stories}
        parts: dict[int, int] = {}
        created: dict[str, str] = {}  # topic -> id of a story created in this step
        bindings: list[Binding] = []
        for d in out.decisions:
            if not 0 <= d.message < len(pair):
                continue
            part = parts.get(d.message, 0)
            parts[d.message] = part + 1
            excerpt = replace(
                pair[d.message], part=part, text=d.message_excerpt or pair[d.message].text
            )
            topic = d.topic.strip().lower()
            found = by_topic.get((topic, d.owner.strip().lower())) or by_headline.get(topic)
            if d.action == "extend_story" and found is not None:
                bindings.append(Binding(excerpt, found.id))
            elif topic in created:
                bindings.append(Binding(excerpt, created[topic]))
            else:
                created[topic] = content_id("narrative", excerpt.id)
                topic_text = d.topic.strip() or "untitled"
                bindings.append(Binding(excerpt, None, topic_text, _owner(d.owner, excerpt)))
        if not bindings:
            raise LLMItemError("amory binding: no decision names a message of the pair")
        return bindings

    # --- consolidation and semanticization ----------------------------------------------
    def consolidate(self, story: Story, window: Sequence[Excerpt]) -> ConsolidationDraft:
        fields = {
            "main_topic": story.headline,
            "substories_text": _substories(story),
            "new_items_text": _numbered(window),
        }
        structure = attempt(
            self.llm,
            lambda w: self._llm_structure(fields, w),
            lambda w: self.offline.structure(story, w),
            window,
            what="amory consolidation",
        )
        subplots, new = structure.value
        headlines = [s.headline for s in subplots]
        facts = attempt(
            self.llm,
            lambda w: self._llm_facts(fields, story, w),
            lambda w: self.offline.semanticize(story, w, headlines),
            window,
            what="amory semanticization",
        )
        side = [replace(f, fallback=True) for f in facts.value] if facts.fallback else facts.value
        return ConsolidationDraft(subplots, new, side, structure.fallback)

    def _llm_structure(
        self, fields: dict[str, str], window: Sequence[Excerpt]
    ) -> tuple[list[SubplotDraft], str | None]:
        out = _ask(self.llm, prompts.CONSOLIDATION.format(**fields), prompts.ConsolidationOut)
        return _valid_blocks(out.substories, len(window)), (out.new_topic or "").strip() or None

    def _llm_facts(
        self, fields: dict[str, str], story: Story, window: Sequence[Excerpt]
    ) -> list[SideFact]:
        out = _ask(self.llm, prompts.SEMANTICIZATION.format(**fields), prompts.SemanticizationOut)
        facts = [
            SideFact(
                f.subject,
                f.predicate,
                f.object,
                f.timestamp,
                window[f.item].passage_id,
                story.id,
            )
            for f in out.facts
            if 0 <= f.item < len(window)
            and is_name(f.subject)
            and f.predicate.strip()
            and is_name(f.object)
        ]
        if out.facts and not facts:
            raise LLMItemError("amory semanticization: no fact names an item as a triple")
        return facts


def _owner(named: str, excerpt: Excerpt) -> str:
    """The owner the answer names, or the excerpt's speaker when it names nobody ("-")."""
    return named if is_name(named) else excerpt.speaker


def _valid_blocks(subs: Sequence[prompts.SubstoryOut], n: int) -> list[SubplotDraft]:
    """Continuous, non-overlapping blocks inside the window, in order; one block for the
    whole window when the answer gives none that fit."""
    out: list[SubplotDraft] = []
    last = -1
    for sub in sorted(subs, key=lambda s: s.indice[0]):
        start, end = sub.indice
        if last < start <= end < n:
            out.append(SubplotDraft(sub.sub_topic.strip() or "untitled", start, end))
            last = end
    if not out and n:
        out.append(SubplotDraft(subs[0].sub_topic if subs else "untitled", 0, n - 1))
    return out
