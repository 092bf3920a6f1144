"""The offline ``Mind``: Amory's LLM decisions approximated with embeddings and spaCy.

- Binding: a pair's vector (mean of its turns' stored embeddings) against each story's
  vector (its headline embedding blended with the mean of its latest excerpts); active
  stories get a recency bonus; below ``new_story_threshold`` the pair starts a story.
- Headlines: the story's most frequent key phrases (spaCy noun chunks and entities via
  ``graphmem.nlp.keyphrases``), speakers left out (they are the characters).
- Subplots: consecutive excerpts cut where neighbour similarity drops (``split_points``).
- Semanticization: the project's triple extractor over each consolidated excerpt; a triple
  is peripheral when its object names something no headline of the story mentions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from graphmem.designs.amory.config import AmorySettings
from graphmem.designs.amory.timeline import (
    Binding,
    ConsolidationDraft,
    Excerpt,
    SideFact,
    Story,
    SubplotDraft,
    Vector,
    split_points,
    unit,
)
from graphmem.nlp import extract_triples, speaker_names
from graphmem.plugin import Embedder, content_id
from graphmem.semantic import is_name

_MAX_CHARACTERS = 6


def headline_of(excerpts: Sequence[Excerpt], size: int, speakers: set[str]) -> str:
    """The ``size`` key phrases found in the most excerpts (ties: earliest first)."""
    counts: dict[str, float] = {}
    first: dict[str, int] = {}
    shown: dict[str, str] = {}
    for i, excerpt in enumerate(excerpts):
        for rank, phrase in enumerate(excerpt.phrases):
            key = phrase.lower()
            if key in speakers:
                continue
            counts[key] = counts.get(key, 0.0) + (1.0 if rank else 1.5)
            first.setdefault(key, i)
            shown.setdefault(key, phrase)
    ranked = sorted(counts, key=lambda k: (-counts[k], first[k], k))
    return ", ".join(shown[k] for k in ranked[:size]) or "small talk"


def characters_of(story: Story) -> list[str]:
    """Speakers by excerpt count, then people the excerpts mention, by count."""
    speakers = Counter(e.speaker for e in story.items)
    # Each excerpt's people once, in the order it names them: a set's order changes with
    # the process's string hashing, and Counter breaks count ties by first insertion, so
    # the characters kept (and the headline vector) changed from one run to the next.
    mentioned = Counter(
        p for e in story.items for p in dict.fromkeys(e.persons) if p not in speakers and is_name(p)
    )
    # A name seen once is as likely a tagging slip as a character.
    recurring = [p for p, n in mentioned.most_common() if n > 1]
    ordered = [s for s, _ in speakers.most_common()] + recurring
    return ordered[:_MAX_CHARACTERS]


def headline_text(story: Story) -> str:
    """What a story's headline vector encodes: the headline and its characters."""
    return f"{story.headline} ({', '.join(characters_of(story))})"


class OfflineMind:
    """Similarities are taken after centring: the stored turn embeddings encode
    "(date) speaker: text", so any two turns of a conversation share a large component
    (cosine about 0.5 between random turns). Subtracting the running mean of the
    conversation's turns so far removes it (random pairs near 0, neighbours about 0.25)
    and the thresholds mean what they say. The mean only ever covers turns up to the
    current step, so a batch build and a session-by-session build decide alike."""

    def __init__(
        self,
        settings: AmorySettings,
        embedder: Embedder,
        speakers: set[str],
        assistants: frozenset[str] = frozenset(),
        user: str | None = None,
    ) -> None:
        self.settings = settings
        self.embedder = embedder
        self.speakers = {s.lower() for s in speakers}
        # An AI assistant's speakers (graphmem/nlp/roles.py) never own a story; a story
        # the assistant opens alone is its one user's.
        self.assistants = assistants
        self.user = user
        self._cache: dict[str, Vector] = {}
        self._sum = np.zeros(embedder.dim, dtype=np.float64)
        self._count = 0
        # The mean as of the last observe: a step centres every story's recent turns
        # against the same mean, so it is divided out once per step, not once per vector.
        self._mean: Vector | float | None = None

    def observe(self, vectors: Sequence[Vector]) -> None:
        """Every turn of the conversation, filler included, as the clock passes it."""
        for vector in vectors:
            self._sum += vector
            self._count += 1
        self._mean = None

    def centred(self, vector: Vector) -> Vector:
        if self._mean is None:
            self._mean = (self._sum / self._count).astype(np.float32) if self._count else 0.0
        return unit(vector - self._mean)

    # --- memory binding ---------------------------------------------------------------
    def story_vector(self, story: Story) -> Vector:
        recent = [self.centred(e.vector) for e in story.items[-self.settings.recent_excerpts :]]
        content = unit(np.mean(recent, axis=0))
        w = self.settings.headline_weight
        if not w:
            return content
        return unit(w * self.centred(self.binding_headline(story)) + (1.0 - w) * content)

    def bind(self, step: int, pair: Sequence[Excerpt], stories: Sequence[Story]) -> list[Binding]:
        pair_vector = unit(np.mean([self.centred(e.vector) for e in pair], axis=0))
        best: Story | None = None
        best_score = -2.0
        for story in stories:
            score = float(np.dot(pair_vector, self.story_vector(story)))
            score += self.settings.recency_bonus if story.active else 0.0
            if score > best_score:
                best, best_score = story, score
        if best is not None and best_score >= self.settings.new_story_threshold:
            return [Binding(e, best.id) for e in pair]
        first = pair[0]
        headline = headline_of(pair, self.settings.headline_phrases, self.speakers)
        # The owner is whoever brings the matter up: the turn with the most key phrases. An
        # assistant's long answers hold the most phrases, but the matter is the user's.
        people = [e for e in pair if e.speaker not in self.assistants]
        owner = max(people or pair, key=lambda e: len(e.phrases)).speaker
        owner = self.user if not people and self.user else owner
        new_id = content_id("narrative", first.id)
        return [Binding(first, None, headline, owner)] + [Binding(e, new_id) for e in pair[1:]]

    def binding_headline(self, story: Story) -> Vector:
        """The headline written the way turns are stored ("speaker: words"), so that the
        centring that works for turns works for it too."""
        who = characters_of(story)[:1] or [""]
        text = f"{who[0]}: {story.headline}"
        if text not in self._cache:
            self._cache[text] = self.embedder.embed([text])[0]
        return self._cache[text]

    # --- consolidation and semanticization -------------------------------------------
    def consolidate(self, story: Story, window: Sequence[Excerpt]) -> ConsolidationDraft:
        subplots, new = self.structure(story, window)
        facts = self.semanticize(story, window, [s.headline for s in subplots])
        return ConsolidationDraft(subplots, new, facts)

    def structure(
        self, story: Story, window: Sequence[Excerpt]
    ) -> tuple[list[SubplotDraft], str | None]:
        """Subplots of ``window`` and the story's new headline (None when unchanged)."""
        size = self.settings.headline_phrases
        segments = split_points(
            [self.centred(e.vector) for e in window],
            self.settings.min_subplot_items,
            self.settings.new_story_threshold,
        )
        subplots = [
            SubplotDraft(headline_of(window[a : b + 1], size, self.speakers), a, b)
            for a, b in segments
        ]
        whole = headline_of(story.items, size, self.speakers)
        return subplots, whole if whole != story.headline else None

    def semanticize(
        self, story: Story, window: Sequence[Excerpt], subplot_headlines: Sequence[str]
    ) -> list[SideFact]:
        """Side facts of ``window``: what none of the story's headlines mentions."""
        whole = headline_of(story.items, self.settings.headline_phrases, self.speakers)
        known = " ".join([whole, story.headline, *subplot_headlines]).lower()
        return [f for e in window for f in self.side_facts(story.id, e, known)]

    def side_facts(self, story: str, excerpt: Excerpt, known: str) -> list[SideFact]:
        """Triples whose object the story's headlines do not mention: the details a reader
        of the headlines could not infer (the paper's semanticization criterion)."""
        limit = self.settings.side_facts_per_item
        if not limit or not excerpt.raw:
            return []
        out: list[SideFact] = []
        read = excerpt.opening if excerpt.opening is not None else excerpt.raw
        triples = extract_triples(
            read, excerpt.speaker, excerpt.ts, claims_only=True, names=speaker_names(self.speakers)
        )
        for triple in triples:
            words = [w for w in triple.object.lower().split() if len(w) > 2]
            if not words or all(w in known for w in words) or not is_name(triple.subject):
                continue
            out.append(
                SideFact(
                    triple.subject,
                    triple.relation,
                    triple.object,
                    triple.time,
                    excerpt.passage_id,
                    story,
                )
            )
            if len(out) == limit:
                break
        return out
