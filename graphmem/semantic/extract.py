"""Fact extraction for the semantic layer, per passage: (subject, relation, object, time)
quadruples and the entity phrases a passage mentions. Offline through ``graphmem.nlp``
(spaCy SVO triples, named entities, key phrases, the temporal normaliser); with an LLM
through an OpenIE prompt."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from spacy.tokens import Doc

from graphmem.ingest.render import render_turn
from graphmem.ingest.writer import session_date_text
from graphmem.llm import StructuredLLM
from graphmem.nlp import Triple, analyse_many, extract_triples, keyphrases
from graphmem.nlp.lexicon import NON_TOPICAL_LABELS
from graphmem.nlp.openings import analyse_turns
from graphmem.nlp.speech_acts import speaker_names
from graphmem.plugin.builder import SessionBatch
from graphmem.semantic.names import is_name, normalise_name
from graphmem.semantic.prompts import QuadrupleExtraction, quadruple_messages


@dataclass(frozen=True)
class PassageIn:
    """One stored turn, as the builders of the semantic layer and of SEEM see it."""

    id: str
    speaker: str
    text: str
    caption: str | None
    ts: datetime | None
    date_text: str | None
    session_index: int
    turn_index: int

    def rendered(self) -> str:
        return render_turn(self.speaker, self.text, date_text=self.date_text, caption=self.caption)


@dataclass(frozen=True)
class Quadruple:
    subject: str
    relation: str
    object: str
    time: str | None = None


@dataclass
class PassageFacts:
    passage_id: str
    quadruples: list[Quadruple] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)  # besides subjects and objects
    # True when the offline backend extracted these because the LLM gave up on the passage.
    fallback: bool = False

    def names(self) -> list[str]:
        """Every entity phrase of the passage in order of appearance."""
        out: list[str] = []
        for quad in self.quadruples:
            out += [quad.subject, quad.object]
        return out + self.mentions


def batch_passages(batch: SessionBatch) -> list[PassageIn]:
    out: list[PassageIn] = []
    for session, ids in zip(batch.sessions, batch.passage_ids, strict=True):
        date_text = session_date_text(session)
        for turn, pid in zip(session.turns, ids, strict=True):
            out.append(
                PassageIn(
                    id=pid,
                    speaker=turn.speaker,
                    text=turn.text,
                    caption=turn.caption,
                    ts=turn.timestamp or session.started_at,
                    date_text=date_text,
                    session_index=session.index,
                    turn_index=turn.index,
                )
            )
    return out


def batch_speakers(batch: SessionBatch, passages: Sequence[PassageIn]) -> list[str]:
    """The conversation's speakers, then anyone else who speaks in the batch, each once."""
    return list(dict.fromkeys([*batch.conversation.speakers, *(p.speaker for p in passages)]))


def usable(name: str) -> bool:
    return is_name(name)


def _unique(names: Sequence[str], skip: set[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        key = normalise_name(name)
        if usable(name) and key not in skip:
            skip.add(key)
            out.append(name.strip())
    return out


def offline_facts(
    passage: PassageIn,
    doc: Doc,
    caption_doc: Doc | None,
    limit: int,
    names: frozenset[str] = frozenset(),
) -> tuple[PassageFacts, list[Triple]]:
    """Quadruples from the dependency parse of the sentences that state something (first
    person resolved to the speaker, times against the turn's date; ``names``: the
    speakers', lower case); mentions are named entities and key phrases of the text and of
    the photo caption."""
    triples = extract_triples(doc, passage.speaker, passage.ts, claims_only=True, names=names)
    quads = [
        Quadruple(t.subject, t.relation, t.object, t.time)
        for t in triples
        if usable(t.subject) and usable(t.object)
    ]
    seen = {normalise_name(n) for q in quads for n in (q.subject, q.object)}
    named = [e.text for e in doc.ents if e.label_ not in NON_TOPICAL_LABELS]
    phrases = keyphrases(doc, k=limit)
    if caption_doc is not None:
        phrases += keyphrases(caption_doc, k=max(2, limit // 2))
    mentions = _unique([*named, *phrases], seen)[:limit]
    return PassageFacts(passage.id, quads, mentions), triples


def offline_facts_many(
    passages: Sequence[PassageIn],
    mentions_per_passage: int,
    answers: frozenset[str] = frozenset(),
    answer_sentences: int = 0,
) -> list[PassageFacts]:
    """``offline_facts`` over a batch, each text (and photo caption) parsed once. A turn
    of a speaker in ``answers`` (an AI assistant's) gives the facts and mentions of its
    opening ``answer_sentences`` content sentences (0: all of it)."""
    docs = analyse_turns(
        [p.text for p in passages], [p.speaker in answers for p in passages], answer_sentences
    )
    captioned = [p for p in passages if p.caption]
    caption_docs = dict(
        zip(
            [p.id for p in captioned],
            analyse_many([p.caption or "" for p in captioned]),
            strict=True,
        )
    )
    names = speaker_names(p.speaker for p in passages)
    return [
        offline_facts(p, doc, caption_docs.get(p.id), mentions_per_passage, names)[0]
        for p, doc in zip(passages, docs, strict=True)
    ]


def llm_facts(llm: StructuredLLM, passages: Sequence[PassageIn]) -> list[PassageFacts]:
    """One OpenIE call per passage, run ``llm.concurrency`` at a time."""
    answers = llm.generate_many(
        [(quadruple_messages(p.rendered()), QuadrupleExtraction) for p in passages]
    )
    out: list[PassageFacts] = []
    for passage, answer in zip(passages, answers, strict=True):
        quads = [
            Quadruple(q.subject.strip(), q.relation.strip(), q.object.strip(), q.time or None)
            for q in answer.quadruples
            if usable(q.subject) and usable(q.object) and q.relation.strip()
        ]
        seen = {normalise_name(n) for q in quads for n in (q.subject, q.object)}
        out.append(PassageFacts(passage.id, quads, _unique(answer.entities, seen)))
    return out


def with_session_dates(
    facts: Sequence[PassageFacts], passages: Sequence[PassageIn]
) -> list[PassageFacts]:
    """Quadruples whose text names no time get their turn's date (the session date when the
    turn has none): SEEM's facts are (s, r, o, t) quadruples, t the event time when said
    and else the time of the conversation."""
    when = {p.id: p.ts.date().isoformat() for p in passages if p.ts is not None}
    return [
        PassageFacts(
            f.passage_id,
            [
                q if q.time or f.passage_id not in when else replace(q, time=when[f.passage_id])
                for q in f.quadruples
            ],
            f.mentions,
            f.fallback,
        )
        for f in facts
    ]
