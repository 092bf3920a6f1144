"""``AmoryBuilder``: narratives, memory binding, momentum-aware consolidation and
semanticization for each batch of sessions (Algorithm 1, lines 13-19).

Per conversation of the batch: the stories of earlier batches are loaded from the graph,
the batch's turns become excerpts (their stored embeddings are their vectors), each turn
pair of a session is one step of the ``Timeline``, and the stories that changed are written
back with their items, subplots and side facts. The clock (steps, the initialisation
window of T turns) is counted from the conversation's first turn, so sessions built one by
one give the stories one batch gives.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from spacy.tokens import Doc

from graphmem.designs.amory.config import OFFLINE_VERSION, PROMPT_VERSION, AmorySettings
from graphmem.designs.amory.llm import RECENT, LLMMind
from graphmem.designs.amory.offline import OfflineMind, characters_of, headline_text
from graphmem.designs.amory.semantic_bridge import write_side_facts
from graphmem.designs.amory.timeline import Excerpt, Story, Subplot, Timeline
from graphmem.nlp import (
    PersonEvidence,
    SpeakerRoles,
    analyse_turns,
    contentless_texts,
    is_contentless,
    keyphrases,
    person_name,
    persons,
)
from graphmem.plugin import (
    BuildContext,
    Builder,
    BuildReport,
    SessionBatch,
    content_id,
    native,
    render_turn,
    short_caption,
)

BUILDER = "amory"
_PHRASES_PER_TURN = 5


def render_excerpt(row: dict[str, Any]) -> str:
    return render_turn(
        row["speaker"], row["text"], date_text=row.get("date_text"), caption=row.get("caption")
    )


class AmoryBuilder(Builder[AmorySettings]):
    name = BUILDER

    def __init__(self, ctx: BuildContext, settings: AmorySettings) -> None:
        super().__init__(ctx, settings)
        self.version = PROMPT_VERSION if ctx.llm else OFFLINE_VERSION
        self._answers: frozenset[str] = frozenset()  # an AI assistant's name, per batch

    def build(self, batch: SessionBatch) -> BuildReport:
        llm = self.ctx.llm
        conversation = batch.conversation.conversation_id
        speakers = set(batch.conversation.speakers)
        roles = SpeakerRoles.of(
            [*speakers, *(t.speaker for s in batch.sessions for t in s.turns)],
            self.ctx.settings.assistant_speakers,
        )
        assistants = frozenset(roles.assistants)
        self._answers = assistants if roles.user_assistant else frozenset()
        mind: OfflineMind | LLMMind = (
            LLMMind(self.settings, llm, self.ctx.embedder, speakers, assistants, roles.user)
            if llm
            else OfflineMind(self.settings, self.ctx.embedder, speakers, assistants, roles.user)
        )
        timeline = Timeline(self.settings, mind, self._load(conversation))
        known = {s.id for s in timeline.stories}
        stored_items = {e.id for s in timeline.stories for e in s.items}
        turns_before, steps_before = self._clock(conversation, batch)
        earlier = self.ctx.store.read(
            "amory.conversation_passages",
            space=self.ctx.space,
            conversation=conversation,
            before=min(s.index for s in batch.sessions),
        )
        # Both minds keep the offline clock: the LLM one hands a step it cannot do to it.
        mind.observe([np.asarray(r["embedding"], dtype=np.float32) for r in earlier])
        if isinstance(mind, LLMMind) and earlier:
            if timeline.stories:
                # The binding prompt's recent context, as a one-batch build would have it.
                tail, _ = self._excerpts([r["id"] for r in earlier[-2 * RECENT :]])
                mind.recent = [e for e in tail if e is not None][-RECENT:]
            else:
                self._rehold(mind, earlier)
        steps = self._run(timeline, batch, turns_before, steps_before)
        # The semantic layer first (resumable on its own), then everything that advances
        # the stories in one transaction with the sessions' built mark: the batch is bound
        # once, or not at all and a rerun binds it from the same stories.
        links = write_side_facts(self.ctx, timeline.side_facts, self.version)
        facts = self._write_stories(timeline, conversation, stored_items, links, batch)
        report = BuildReport(self.name, sessions=len(batch.sessions))
        report.counts = {
            "turns": sum(len(s.turns) for s in batch.sessions),
            "steps": steps,
            "stories_created": len([s for s in timeline.stories if s.id not in known]),
            "stories_changed": len(timeline.changed),
            "side_facts": facts,
        }
        return report

    # --- the clock ------------------------------------------------------------------
    def _clock(self, conversation: str, batch: SessionBatch) -> tuple[int, int]:
        """Turns and steps (turn pairs per session) of the sessions built before."""
        first = min(s.index for s in batch.sessions)
        rows = self.ctx.store.read(
            "amory.session_sizes", space=self.ctx.space, conversation=conversation, before=first
        )
        turns = sum(int(r["turns"]) for r in rows)
        return turns, sum(math.ceil(int(r["turns"]) / 2) for r in rows)

    def _rehold(self, mind: LLMMind, rows: Sequence[dict[str, Any]]) -> None:
        """An LLM build whose conversation is still below T turns stored nothing: hold the
        earlier sessions' turns again, so initialisation sees all of the first T."""
        sessions: dict[int, list[str]] = {}
        for row in rows:
            sessions.setdefault(int(row["session_index"]), []).append(row["id"])
        step = 0
        for ids in sessions.values():
            excerpts, _ = self._excerpts(ids)
            for start in range(0, len(ids), 2):
                pair = [e for e in excerpts[start : start + 2] if e is not None]
                for e in pair:
                    e.step = step
                mind.hold(pair)
                step += 1

    def _run(
        self, timeline: Timeline, batch: SessionBatch, turns_before: int, steps_before: int
    ) -> int:
        step, seen = steps_before, turns_before
        mind = timeline.mind
        assert isinstance(mind, OfflineMind | LLMMind)
        for ids in batch.passage_ids:
            excerpts, vectors = self._excerpts(ids)
            for start in range(0, len(ids), 2):
                pair = [e for e in excerpts[start : start + 2] if e is not None]
                seen += min(2, len(ids) - start)
                mind.observe(vectors[start : start + 2])
                for e in pair:
                    e.step = step
                # The first T turns are the initialisation window: stories form, nothing
                # consolidates before the memory exists (Algorithm 1, lines 13-16).
                if isinstance(mind, LLMMind) and seen <= self.settings.init_turns:
                    mind.hold(pair)
                else:
                    if isinstance(mind, LLMMind):
                        mind.initialise(timeline)
                    timeline.step(step, pair, consolidate=seen > self.settings.init_turns)
                step += 1
        return step - steps_before

    def _excerpts(self, ids: Sequence[str]) -> tuple[list[Excerpt | None], list[Any]]:
        """The turns of one session as excerpts (filler turns are None: discarded) and
        every turn's stored embedding."""
        rows = {
            r["id"]: r
            for r in self.ctx.store.read("amory.passages", space=self.ctx.space, ids=list(ids))
        }
        ordered = [rows[i] for i in ids]
        # An assistant's answer is read up to its opening (graphmem/nlp/openings.py).
        docs = analyse_turns(
            [_words(r) for r in ordered],
            [r["speaker"] in self._answers for r in ordered],
            self.ctx.settings.answer_sentences,
        )
        vectors = [np.asarray(r["embedding"], dtype=np.float32) for r in ordered]
        phrases = [keyphrases(doc, _PHRASES_PER_TURN) for doc in docs]
        # "thanks", "Hey Caroline", "wow": phrases without content make no headline.
        candidates = sorted({p for found in phrases for p in found})
        empty = {
            p for p, none in zip(candidates, contentless_texts(candidates), strict=True) if none
        }
        # Which PERSON-tagged names are people, by the people's own turns (an assistant's
        # answers name products and places in a person's place: graphmem/nlp/people.py).
        evidence = PersonEvidence.of(
            d for r, d in zip(ordered, docs, strict=True) if r["speaker"] not in self._answers
        )
        out: list[Excerpt | None] = []
        for row, doc in zip(ordered, docs, strict=True):
            if self.settings.drop_filler and is_contentless(doc):
                out.append(None)
                continue
            out.append(
                Excerpt(
                    passage_id=row["id"],
                    source_id=row["source_id"],
                    speaker=row["speaker"],
                    text=render_excerpt(row),
                    step=0,
                    order=(int(row["session_index"]), int(row["turn_index"])),
                    vector=vectors[len(out)],
                    phrases=tuple(p for p in phrases[len(out)] if p not in empty),
                    persons=_people(doc, evidence) if row["speaker"] not in self._answers else (),
                    raw=row["text"],
                    ts=native(row["ts"]),
                    opening=doc if row["speaker"] in self._answers else None,
                )
            )
        return out, vectors

    # --- loading ------------------------------------------------------------------------
    def _load(self, conversation: str) -> list[Story]:
        rows = self.ctx.store.read(
            "amory.load_stories", space=self.ctx.space, conversation=conversation
        )
        ids = [item["passage_id"] for row in rows for item in row["items"]]
        passages = {
            r["id"]: r for r in self.ctx.store.read("amory.passages", space=self.ctx.space, ids=ids)
        }
        stories = []
        for row in rows:
            items = [
                self._stored_excerpt(item, passages[item["passage_id"]]) for item in row["items"]
            ]
            stories.append(
                Story(
                    id=row["id"],
                    headline=row["headline"],
                    owner=row["owner"],
                    items=items,
                    subplots=[
                        Subplot(s["headline"], s["start"], s["end"], bool(s["fallback"]))
                        for s in row["subplots"]
                    ],
                    consolidated=int(row["consolidated"]),
                    last_bound=int(row["last_bound"]),
                    active=row["status"] == "active",
                    fallback=bool(row["fallback"]),
                )
            )
        # Creation order: the order binding compares stories in (ties go to the older).
        return sorted(
            stories, key=lambda s: (s.items[0].step, s.items[0].order) if s.items else (0, (0, 0))
        )

    @staticmethod
    def _stored_excerpt(item: dict[str, Any], row: dict[str, Any]) -> Excerpt:
        return Excerpt(
            passage_id=row["id"],
            source_id=row["source_id"],
            speaker=row["speaker"],
            text=item["text"],
            step=int(item["step"]),
            order=(int(row["session_index"]), int(row["turn_index"])),
            vector=np.asarray(row["embedding"], dtype=np.float32),
            phrases=tuple(item["phrases"] or ()),
            persons=tuple(item["persons"] or ()),
            raw=row["text"],
            ts=native(row["ts"]),
            part=int(item["part"] or 0),
            fallback=bool(item["fallback"]),
        )

    # --- writing ------------------------------------------------------------------------
    def _write_stories(
        self,
        timeline: Timeline,
        conversation: str,
        stored_items: set[str],
        links: list[dict[str, str]],
        batch: SessionBatch,
    ) -> int:
        """Changed stories, their new items (an LLM initialisation also binds turns held
        from earlier batches), their subplots and side-fact links, in one transaction with
        the batch's built mark; returns the side facts linked."""
        changed = [s for s in timeline.stories if s.id in timeline.changed]
        # Characters carry the run's backend; stories, items and subplots their own.
        tags = {"backend": self.ctx.backend, "prompt_version": self.version}
        store, space, labels = self.ctx.store, self.ctx.space, self.ctx.node_backend
        vectors = self.ctx.embedder.embed([headline_text(s) for s in changed])
        rows = [
            {**_story_row(s, conversation, v), **labels(s.fallback)}
            for s, v in zip(changed, vectors, strict=True)
        ]
        items = [
            {**_item_row(s, i, e), **labels(e.fallback)}
            for s in changed
            for i, e in enumerate(s.items)
            if e.id not in stored_items
        ]
        subplots = [
            {**self._subplot_row(s, i), **labels(s.subplots[i].fallback)}
            for s in changed
            for i in range(len(s.subplots))
        ]
        with store.transaction() as tx:
            tx.run("amory.upsert_narratives", space=space, rows=rows, **tags)
            tx.run("amory.upsert_items", space=space, rows=items, prompt_version=self.version)
            tx.run("amory.upsert_subplots", space=space, rows=subplots, **tags)
            linked = tx.run("amory.link_side_facts", space=space, rows=links) if links else []
            tx.run("amory.prune_characters", space=space)
            batch.mark_built(tx, space, self.name)
        return int(linked[0]["linked"]) if linked else 0

    def _subplot_row(self, story: Story, index: int) -> dict[str, Any]:
        sub = story.subplots[index]
        members = story.items[sub.start : sub.end + 1]
        view = Story(id=story.id, headline=sub.headline, owner=story.owner, items=members)
        characters = characters_of(view)
        return {
            "id": content_id("subplot", story.id, members[0].id, members[-1].id),
            "story_id": story.id,
            "headline": sub.headline,
            "start": sub.start,
            "end": sub.end,
            "order": index,
            "item_ids": [e.id for e in members],
            "passage_ids": sorted({e.passage_id for e in members}),
            "characters": characters,
            "character_rows": _character_rows(characters),
            "embedding": self._subplot_vector(view).tolist(),
        }

    def _subplot_vector(self, view: Story) -> Any:
        return self.ctx.embedder.embed([headline_text(view)])[0]


def _words(row: dict[str, Any]) -> str:
    caption = f" {row['caption']}" if row.get("caption") else ""
    return f"{row['text']}{caption}"


def item_caption(excerpt: Excerpt) -> str:
    """A few words for the Browser's caption: the speaker and the excerpt's words, without
    the date the reader's text starts with (``(2024-03-02 18:10) Maya: ...``)."""
    text = short_caption(excerpt.text)
    return text if text.startswith(f"{excerpt.speaker}:") else f"{excerpt.speaker}: {text}"


def _people(doc: Doc, evidence: PersonEvidence) -> tuple[str, ...]:
    """The persons a turn names, by the conversation's evidence (graphmem/nlp/people.py).
    An assistant's answer names none: its people are examples, not persons of the user's
    story (graphmem/nlp/roles.py; as CAST and SEEM)."""
    return tuple(person_name(p) for p in persons(doc) if evidence.is_person(p))


def _character_rows(names: Sequence[str]) -> list[dict[str, str]]:
    return [{"id": content_id("speaker", n), "name": n} for n in names]


def _story_row(story: Story, conversation: str, vector: Any) -> dict[str, Any]:
    characters = characters_of(story)
    return {
        "id": story.id,
        "conversation": conversation,
        "headline": story.headline,
        "owner": story.owner,
        "status": "active" if story.active else "inactive",
        "last_bound": story.last_bound,
        "consolidated": story.consolidated,
        "characters": characters,
        "character_rows": _character_rows(characters),
        "items": len(story.items),
        "passage_ids": sorted({e.passage_id for e in story.items}),
        "embedding": [float(x) for x in vector],
    }


def _item_row(story: Story, order: int, excerpt: Excerpt) -> dict[str, Any]:
    return {
        "id": excerpt.id,
        "story_id": story.id,
        "passage_id": excerpt.passage_id,
        "order": order,
        "text": excerpt.text,
        "caption": item_caption(excerpt),
        "ts": excerpt.ts,
        "step": excerpt.step,
        "part": excerpt.part,
        "phrases": list(excerpt.phrases),
        "persons": list(excerpt.persons),
    }
