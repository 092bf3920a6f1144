"""Episodic Event Frames before consolidation: one per passage (or per short window of
turns), a third-person summary and events with SEEM's six slots.

Offline, a frame is built from what the parse gives and nothing more: the summary is the
turn rewritten in the third person with its relative times resolved; each extracted triple
is one event (participants, "subject relation object" as the action, the resolved time,
GPE/LOC/FAC entities as the location, a because/since/so clause as the causality and
manner adverbs as the manner). With an LLM, SEEM's extraction prompt fills the frame.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from spacy.tokens import Doc, Span

from graphmem.designs.seem.llm_prompts import EventSlots, FrameOut, frame_messages
from graphmem.llm import StructuredLLM
from graphmem.nlp import (
    NON_TOPICAL_LABELS,
    SpeakerRoles,
    Triple,
    annotate,
    is_content_token,
    is_contentless,
    persons_to_names,
    render,
    speech_act,
)
from graphmem.semantic import (
    PassageIn,
    head_noun,
    human_date,
    human_datetime,
    names_only,
    normalise_name,
)

_LOCATION_LABELS = frozenset({"GPE", "LOC", "FAC"})
_CAUSE = re.compile(r"\b(?:because(?:\s+of)?|since|so\s+that|due\s+to)\s+(.+)$", re.IGNORECASE)
_RESULT = re.compile(r",\s*so\s+(.+)$", re.IGNORECASE)
# Adverbs that grade rather than describe how something was done.
_NOT_MANNER_WORDS = """really totally actually definitely probably finally literally seriously
    honestly only early lately recently nearly hardly likely mostly usually fairly pretty
    especially absolutely completely truly certainly simply exactly rarely"""
_NOT_MANNER = frozenset(_NOT_MANNER_WORDS.split())
_MAX_ACTION_WORDS = 25
_WORD = re.compile(r"[a-z0-9']+")
_YOU = re.compile(r"\byou", re.IGNORECASE)
_FUNCTION_WORDS_TEXT = """the a an and or but so to of in on at for with from by as is are
    was were be been am i you he she it we they me him her us them my your his its our their this
    that these those there here what which who how when where why not no yes do does did have has
    had will would can could should just really very too also about said wow oh hey thanks thank
    great"""
_FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split())
_TOPIC_POS = frozenset({"NOUN", "PROPN"})


@dataclass
class FrameDraft:
    passage_ids: list[str]
    summary: str
    events: list[EventSlots]
    participants: list[str]
    topics: list[str]  # content nouns besides the speakers: the offline judge's cue
    start: datetime | None
    end: datetime | None
    statements: list[str] = field(default_factory=list)  # one per turn, third person
    sources: list[str] = field(default_factory=list)  # rendered turns, for the LLM fuser
    fallback: bool = False  # framed offline because the LLM gave up on the window


def _annotate(text: str, reference: datetime | None) -> str:
    """Each relative time expression followed by its resolution, as people write dates."""
    if reference is None:
        return text
    return annotate(text, reference, lambda mention: human_date(render(mention)), "()")


def turn_statement(passage: PassageIn, doc: Doc, addressee: str | None = None) -> str:
    """The turn in the third person, its relative times resolved: "Caroline went to a
    support group yesterday (7 May 2023)"; attributed when it does not name the speaker.
    With an ``addressee`` (a user-assistant conversation) "you" is put in by name too."""
    you = addressee if addressee and _YOU.search(doc.text) else None
    text = persons_to_names(doc, passage.speaker, you)  # one parse: the turn's own
    text = _annotate(text.strip(), passage.ts)
    if not text.startswith(passage.speaker):
        text = f"{passage.speaker} said: {text}"
    photo = f" {passage.speaker} shared a photo of {passage.caption}." if passage.caption else ""
    return text + photo


def _content_words(text: str) -> int:
    return sum(1 for w in _WORD.findall(text.lower()) if w not in _FUNCTION_WORDS)


def compose_summary(
    start: datetime | None, end: datetime | None, statements: Sequence[str], limit: int
) -> str:
    """Extractive: the ``limit`` statements with the most content words, in their order,
    after the date (or date range) of the frame."""
    ranked = sorted(range(len(statements)), key=lambda i: (-_content_words(statements[i]), i))
    chosen = " ".join(statements[i] for i in sorted(ranked[:limit]))
    first, last = human_datetime(start), human_datetime(end)
    when = first if first == last else f"{first} to {last}" if first and last else first
    return f"On {when}, {chosen}" if when else chosen


def _sentence_for(doc: Doc, triple: Triple) -> Span:
    words = triple.object.lower().split()
    sents = list(doc.sents)
    for sent in sents:
        if words and words[-1] in sent.text.lower():
            return sent
    return sents[0] if sents else doc[:]


def _cause(sent: Span) -> str | None:
    match = _CAUSE.search(sent.text) or _RESULT.search(sent.text)
    return match.group(1).strip(" .!?") if match else None


def _manner(sent: Span) -> str | None:
    found = [
        t.text
        for t in sent
        if t.pos_ == "ADV"
        and t.dep_ == "advmod"
        and t.lower_.endswith("ly")
        and t.lower_ not in _NOT_MANNER
        and t.head.pos_ == "VERB"
    ]
    return ", ".join(found) or None


def _offline_event(doc: Doc, triple: Triple, speaker: str) -> EventSlots:
    sent = _sentence_for(doc, triple)
    persons = [e.text for e in sent.ents if e.label_ == "PERSON"]
    places = [e.text for e in sent.ents if e.label_ in _LOCATION_LABELS]
    participants = list(dict.fromkeys(names_only([triple.subject, *persons]))) or [speaker]
    return EventSlots(
        participants=participants,
        action=f"{triple.subject} {triple.relation} {triple.object}",
        time=human_date(triple.time) if triple.time else None,
        location=", ".join(places) or None,
        causality=_cause(sent),
        manner=_manner(sent),
    )


def _fallback_event(
    doc: Doc, statement: str, speaker: str, names: frozenset[str] = frozenset()
) -> list[EventSlots]:
    """A turn that states something but gave no triple still records what was said, as
    one event; questions, requests and reactions make none (graphmem/nlp/speech_acts.py)."""
    if is_contentless(doc) or not any(speech_act(s, names) == "statement" for s in doc.sents):
        return []
    words = statement.split()
    action = " ".join(words[:_MAX_ACTION_WORDS]) + (
        " ..." if len(words) > _MAX_ACTION_WORDS else ""
    )
    return [EventSlots(participants=[speaker], action=action)]


def _doc_topics(doc: Doc, speakers: set[str]) -> set[str]:
    """Content nouns (lemmas): chit-chat words, vocatives and the speakers left out."""
    lemmas = (
        t.lemma_.lower()
        for t in doc
        if t.pos_ in _TOPIC_POS and t.ent_type_ not in NON_TOPICAL_LABELS and is_content_token(t)
    )
    return {lemma for lemma in lemmas if lemma not in speakers}


def _name_topics(names: Sequence[str], speakers: set[str]) -> set[str]:
    keys = (normalise_name(n) for n in names)
    return {head_noun(k) for k in keys if k and k not in speakers}


def offline_frame(
    passages: Sequence[PassageIn],
    docs: Sequence[Doc],
    triples: Sequence[list[Triple]],
    speakers: set[str],
    max_events: int,
    summary_limit: int,
    roles: SpeakerRoles | None = None,
) -> FrameDraft:
    """One frame for a window of turns (usually one) from their parses. ``roles`` of a
    user-assistant conversation: "you" is resolved, and the persons an assistant's answer
    names are examples, not participants (graphmem/nlp/roles.py)."""
    statements: list[str] = []
    events: list[EventSlots] = []
    people: list[str] = []
    topics: set[str] = set()
    for passage, doc, found in zip(passages, docs, triples, strict=True):
        addressee = roles.addressee(passage.speaker) if roles else None
        statement = turn_statement(passage, doc, addressee)
        statements.append(statement)
        turn_events = [_offline_event(doc, t, passage.speaker) for t in found]
        events += turn_events or _fallback_event(
            doc, statement, passage.speaker, frozenset(speakers)
        )
        answer = roles is not None and roles.is_assistant(passage.speaker)
        persons = [] if answer else names_only(e.text for e in doc.ents if e.label_ == "PERSON")
        people += [passage.speaker, *persons]
        topics |= _doc_topics(doc, speakers)
    start, end = passages[0].ts, passages[-1].ts
    return FrameDraft(
        passage_ids=[p.id for p in passages],
        summary=compose_summary(start, end, statements, summary_limit),
        events=events[:max_events],
        participants=list(dict.fromkeys(people)),
        topics=sorted(topics),
        start=start,
        end=end,
        statements=statements,
        sources=[p.rendered() for p in passages],
    )


def llm_frames(
    llm: StructuredLLM,
    windows: Sequence[Sequence[PassageIn]],
    speakers: set[str],
    max_events: int,
) -> list[FrameDraft]:
    """SEEM's extraction prompt, one call per window, ``llm.concurrency`` at a time."""
    answers: list[FrameOut] = llm.generate_many(
        [(frame_messages([p.rendered() for p in window]), FrameOut) for window in windows]
    )
    drafts: list[FrameDraft] = []
    for window, answer in zip(windows, answers, strict=True):
        participants = list(
            dict.fromkeys(
                [p.speaker for p in window]
                + names_only(n for e in answer.events for n in e.participants)
            )
        )
        places = [e.location for e in answer.events if e.location]
        drafts.append(
            FrameDraft(
                passage_ids=[p.id for p in window],
                summary=answer.summary.strip(),
                events=[
                    e.model_copy(update={"participants": names_only(e.participants)})
                    for e in answer.events[:max_events]
                ],
                participants=participants,
                topics=sorted(_name_topics(participants + places, speakers)),
                start=window[0].ts,
                end=window[-1].ts,
                statements=[answer.summary.strip()],
                sources=[p.rendered() for p in window],
            )
        )
    return drafts


def event_sources(action: str, passage_ids: Sequence[str], sources: Sequence[str]) -> list[str]:
    """The turns of a frame an event comes from: those sharing the most content words with
    its action (a frame of several turns, a fused one above all, holds events of each);
    every turn when none shares any, or the turns' texts are not at hand (ours: SEEM links
    an event to its frame only; graphmem/designs/seem/README.md)."""
    if len(passage_ids) < 2 or len(sources) != len(passage_ids):
        return list(passage_ids)
    words = _words(action)
    scores = [len(words & _words(text.split(":", 1)[-1])) for text in sources]
    best = max(scores)
    if best == 0:
        return list(passage_ids)
    return [pid for pid, score in zip(passage_ids, scores, strict=True) if score == best]


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _FUNCTION_WORDS and len(w) > 2}


def windows_of(passages: Sequence[PassageIn], size: int) -> list[list[PassageIn]]:
    """Consecutive turns of one session in groups of ``size`` (a window never spans two
    sessions: a session break is a change of scene)."""
    out: list[list[PassageIn]] = []
    for passage in passages:
        last = out[-1] if out else None
        if last and len(last) < size and last[-1].session_index == passage.session_index:
            last.append(passage)
        else:
            out.append([passage])
    return out
