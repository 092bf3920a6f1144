"""Fact-context units: windows of turns and the atomic facts extracted from them.

A context unit is ``window`` consecutive turns of one session, a new one every ``step``
turns, so neighbouring units overlap and a fact that needs the previous turn to make sense
still sees it. Facts are keyed by their normalised text, so a fact produced by two
overlapping units becomes one node with the sources of both.

Offline, each content sentence of a turn is a fact: first- and second-person references
rewritten to names, relative dates resolved against the session date, sourced from exactly
that turn. With an LLM, the paper's extraction prompt runs once per unit and every fact is
sourced from the unit's turns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from spacy.tokens import Doc, Token

from graphmem.designs.anchormem.prompts import EXTRACT_SYSTEM, ExtractedFacts, extract_user_prompt
from graphmem.llm import Message, StructuredLLM, map_attempts
from graphmem.nlp import (
    SpeechAct,
    TemporalMention,
    analyse_turns,
    annotate,
    is_content_token,
    persons_to_names,
    reported,
    speaker_names,
    speech_act,
)
from graphmem.plugin import (
    SessionBatch,
    SessionIn,
    Turn,
    content_id,
    render_turn,
    session_date_text,
)


def window_spans(n_turns: int, window: int, step: int) -> list[range]:
    """Turn index ranges of the units of a session: starts every ``step`` turns, each
    ``window`` long, the last one cut at the session end; every turn is in some unit."""
    spans: list[range] = []
    start = 0
    while start < n_turns:
        spans.append(range(start, min(start + window, n_turns)))
        if start + window >= n_turns:
            break
        start += step
    return spans


@dataclass(frozen=True)
class ContextUnit:
    session: SessionIn
    turns: tuple[Turn, ...]
    passage_ids: tuple[str, ...]
    speakers: tuple[str, ...]  # everyone who speaks in the conversation

    def addressee(self, turn: Turn) -> str | None:
        """Who "you" means in ``turn``: the nearest other speaker of the unit, else the
        only other speaker of the conversation."""
        position = self.turns.index(turn)
        ordered = sorted(range(len(self.turns)), key=lambda i: (abs(i - position), i))
        for i in ordered:
            if self.turns[i].speaker != turn.speaker:
                return self.turns[i].speaker
        others = [s for s in self.speakers if s != turn.speaker]
        return others[0] if len(others) == 1 else None


def context_units(batch: SessionBatch, window: int, step: int) -> list[ContextUnit]:
    speakers = tuple(batch.conversation.speakers)
    units: list[ContextUnit] = []
    for session, ids in zip(batch.sessions, batch.passage_ids, strict=True):
        for span in window_spans(len(session.turns), window, step):
            turns = tuple(session.turns[i] for i in span)
            units.append(ContextUnit(session, turns, tuple(ids[i] for i in span), speakers))
    return units


@dataclass
class FactDraft:
    """An extracted fact before it is stored; ``context`` identifies its source context
    (the association step takes at most one fact per context into an event)."""

    text: str
    passage_ids: list[str]
    ts: datetime | None
    order: tuple[int, int]  # (session index, turn index) of the first source turn
    context: str = ""
    fallback: bool = False  # extracted offline because the LLM gave up on its unit
    id: str = field(init=False)

    def __post_init__(self) -> None:
        self.id = fact_id(self.text)
        if not self.context:
            self.context = content_id("context", *self.passage_ids)


_NOT_WORD = re.compile(r"[^\w\s]")


def normalise_fact(text: str) -> str:
    """What makes two fact texts the same fact: case, punctuation and spacing ignored."""
    return " ".join(_NOT_WORD.sub(" ", text.lower()).split())


def fact_id(text: str) -> str:
    return content_id("atomic_fact", normalise_fact(text))


def merge_drafts(drafts: Sequence[FactDraft]) -> list[FactDraft]:
    """One draft per fact id, in first-seen order; sources of duplicates are unioned and
    the first context kept (overlapping units repeat facts about their shared turns). A
    fact is a fallback only when every unit that gave it was extracted offline."""
    merged: dict[str, FactDraft] = {}
    for draft in drafts:
        kept = merged.get(draft.id)
        if kept is None:
            merged[draft.id] = FactDraft(
                draft.text,
                list(draft.passage_ids),
                draft.ts,
                draft.order,
                draft.context,
                draft.fallback,
            )
        else:
            kept.passage_ids.extend(p for p in draft.passage_ids if p not in kept.passage_ids)
            kept.fallback = kept.fallback and draft.fallback
    return list(merged.values())


# --- dates ------------------------------------------------------------------------------
def human_date(day: date) -> str:
    return f"{day.day} {day:%B %Y}"


def _readable(mention: TemporalMention) -> str:
    value = mention.value
    if mention.granularity == "year":
        text = value
    elif mention.granularity == "month":
        text = f"{date.fromisoformat(value + '-01'):%B %Y}"
    elif mention.granularity == "span" and mention.first and mention.last:
        text = f"{human_date(mention.first)} to {human_date(mention.last)}"
    else:
        text = human_date(date.fromisoformat(value))
        if mention.granularity == "week":
            text = f"the week of {text}"
    if mention.form != "absolute":
        text = f"{mention.form} {text}"
    return text


def annotate_dates(text: str, reference: datetime | None) -> str:
    """Each relative time expression followed by the date it means, in words ("yesterday
    [7 May 2023]"): words, not ISO, so readers and token matching both see day, month and
    year."""
    return text if reference is None else annotate(text, reference, _readable)


# --- offline extraction -------------------------------------------------------------------
_YOU = re.compile(r"\byou", re.IGNORECASE)
_PHOTO_PREFIX = re.compile(r"^(?:a|an)\s+(?:photo|picture|image)\s+of\s+", re.IGNORECASE)


_QUESTION_CONTENT_POS = frozenset({"NOUN", "PROPN", "NUM"})


def _is_name(tok: Token, names: frozenset[str]) -> bool:
    """A speaker's name or a short form of it ("Mel" for Melanie): in a chat between
    these people, naming one says nothing about anything."""
    low = tok.lower_
    if low in names:
        return True
    return tok.pos_ == "PROPN" and len(low) >= 3 and any(n.startswith(low) for n in names)


def has_content(doc: Doc, names: frozenset[str]) -> bool:
    """Whether a sentence is worth a fact: a content word that is not a speaker's name;
    for a question, a thing (noun, name, number), since "what happened?" or "did you
    finish?" ask about something only the answer states."""
    question = doc.text.rstrip().endswith("?")
    for tok in doc:
        if not is_content_token(tok) or _is_name(tok, names):
            continue
        if question and tok.pos_ not in _QUESTION_CONTENT_POS:
            continue
        return True
    return False


def _with_speaker(sentence: str, speaker: str) -> str:
    # The paper's rule: every memory starts with the speaker's name.
    return sentence if sentence.startswith(speaker) else f"{speaker}: {sentence}"


_KEPT_ACTS = frozenset({"statement", "question", "request"})


@dataclass(frozen=True)
class _TurnJob:
    turn: Turn
    passage_id: str
    addressee: str | None
    reference: datetime | None
    order: tuple[int, int]
    names: frozenset[str]


_Sentence = tuple[_TurnJob, Doc, SpeechAct]


def _you(job: _TurnJob, doc: Doc) -> str | None:
    """Whom "you" names in the sentence: the turn's addressee, when it says "you"."""
    return job.addressee if job.addressee and _YOU.search(doc.text) else None


class OfflineExtractor:
    """Sentences of each turn as facts; no model calls. ``answers``: speakers (an AI
    assistant's) whose turns give only their first ``answer_facts`` content sentences."""

    def __init__(
        self, answers: frozenset[str] = frozenset(), answer_facts: int = 0, opening: int = 0
    ) -> None:
        self._answers = answers
        self._answer_facts = answer_facts
        self._opening = opening  # an answer is parsed up to this many content sentences

    def extract(self, units: Sequence[ContextUnit]) -> list[FactDraft]:
        jobs = self._jobs(units)
        docs = analyse_turns(
            [job.turn.text for job in jobs],
            [job.turn.speaker in self._answers for job in jobs],
            self._opening,
        )
        # Each sentence keeps the parse it got inside its whole turn (one spaCy pass).
        sentences = [
            (job, sent.as_doc())
            for job, doc in zip(jobs, docs, strict=True)
            for sent in doc.sents
            if sent.text.strip()
        ]
        # Not greetings, thanks, reactions, list openings or "how are you?"; a question or
        # a request is reported as one ("user asked: ..."), not quoted as a claim.
        acts = [speech_act(doc, job.names) for job, doc in sentences]
        contentful = [
            (job, doc, act)
            for (job, doc), act in zip(sentences, acts, strict=True)
            if act in _KEPT_ACTS and has_content(doc, job.names)
        ]
        # "I" and (to the addressee) "you" by name, on the sentence's parse within its turn.
        drafts = [
            self._draft(job, persons_to_names(doc, job.turn.speaker, _you(job, doc)).strip(), act)
            for job, doc, act in self._capped(contentful)
        ]
        for job in jobs:
            if job.turn.caption:
                caption = _PHOTO_PREFIX.sub("", job.turn.caption.strip())
                text = f"{job.turn.speaker} shared a photo of {caption}."
                drafts.append(FactDraft(text, [job.passage_id], job.reference, job.order))
        drafts.sort(key=lambda d: d.order)
        return merge_drafts(drafts)

    def _capped(self, sentences: list[_Sentence]) -> list[_Sentence]:
        """The sentences, an answer's beyond its first ``answer_facts`` left out."""
        if not self._answers:
            return sentences
        seen: dict[str, int] = {}
        out: list[_Sentence] = []
        for job, doc, act in sentences:
            if job.turn.speaker in self._answers:
                seen[job.passage_id] = seen.get(job.passage_id, 0) + 1
                if seen[job.passage_id] > self._answer_facts:
                    continue
            out.append((job, doc, act))
        return out

    @staticmethod
    def _jobs(units: Sequence[ContextUnit]) -> list[_TurnJob]:
        """Each turn once (units overlap), with the addressee its first unit gives it."""
        jobs: dict[str, _TurnJob] = {}
        for unit in units:
            for turn, pid in zip(unit.turns, unit.passage_ids, strict=True):
                if pid not in jobs:
                    reference = turn.timestamp or unit.session.started_at
                    order = (unit.session.index, turn.index)
                    addressee = unit.addressee(turn)
                    names = speaker_names(unit.speakers)
                    jobs[pid] = _TurnJob(turn, pid, addressee, reference, order, names)
        return list(jobs.values())

    @staticmethod
    def _draft(job: _TurnJob, sentence: str, act: SpeechAct = "statement") -> FactDraft:
        sentence = annotate_dates(sentence.strip(), job.reference)
        speaker = job.turn.speaker
        asked = act in ("question", "request")
        text = reported(speaker, sentence) if asked else _with_speaker(sentence, speaker)
        return FactDraft(text, [job.passage_id], job.reference, job.order)


# --- LLM extraction -----------------------------------------------------------------------
class LLMExtractor:
    """The paper's extraction prompt, one call per unit, all units of a batch at once."""

    def __init__(self, llm: StructuredLLM) -> None:
        self._llm = llm

    def extract(self, units: Sequence[ContextUnit]) -> list[FactDraft]:
        """A unit the LLM gives up on gets the offline extraction of its turns, marked as a
        fallback."""
        per_unit = map_attempts(
            self._llm,
            self._extract_unit,
            lambda unit: OfflineExtractor().extract([unit]),
            units,
            what="anchormem facts",
        )
        return merge_drafts([replace(d, fallback=o.fallback) for o in per_unit for d in o.value])

    def _extract_unit(self, unit: ContextUnit) -> list[FactDraft]:
        messages = [
            Message(role="system", content=EXTRACT_SYSTEM),
            Message(role="user", content=self._prompt(unit)),
        ]
        answer = self._llm.generate(messages, ExtractedFacts)
        first = unit.turns[0]
        reference = first.timestamp or unit.session.started_at
        order = (unit.session.index, first.index)
        return [FactDraft(text, list(unit.passage_ids), reference, order) for text in answer.facts]

    @staticmethod
    def _prompt(unit: ContextUnit) -> str:
        started = unit.session.started_at
        date_text = human_date(started.date()) if started else session_date_text(unit.session)
        dialogue = [
            render_turn(turn.speaker, turn.text, caption=turn.caption) for turn in unit.turns
        ]
        return extract_user_prompt(date_text, dialogue)
