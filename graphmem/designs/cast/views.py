"""Views (paper 3.1): one per message, the message with its ``w`` neighbours on each side
within its session, with the time and place of the central message, the participants of
the window and a topic.

Offline choices (ours, ``graphmem/designs/cast/README.md``):
- participants: the window's speakers plus every person the window's messages name (spaCy
  PERSON entities and the conversation's known speakers named in the text), each resolved
  to one character per person (a known speaker by name or first name, else the surface
  form); with ``participants="speakers"`` only the window's speakers;
- place: the first spaCy GPE / LOC / FAC entity of the central message, lower-cased with a
  leading article and possessive removed; none found = unknown;
- topic: the mean of the window's stored passage embeddings (normalised), so a view costs
  no embedding call.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import numpy.typing as npt
from spacy.tokens import Doc, Span

from graphmem.nlp import PersonEvidence
from graphmem.plugin import SessionBatch, content_id, session_date_text
from graphmem.semantic import names_only

Vector = npt.NDArray[np.float32]
PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
_POSSESSIVE = re.compile(r"[’']s$")
_NAME_TOKEN = re.compile(r"^[A-Z][A-Za-z\-]*$")
# Words the small English pipeline tags PERSON in chat that name nobody.
_NOT_NAMES_TEXT = """bye hey hi hello glad nah wanna gonna yeah yay wow omg lol thanks congrats
    cool awesome mon tues wed thurs fri sat sun last next guitar art nature music"""
_NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())


@dataclass(frozen=True)
class Message:
    passage_id: str
    source_id: str
    session_id: str
    session_index: int
    turn_index: int
    speaker: str
    text: str
    caption: str | None
    ts: datetime | None
    date_text: str | None

    @property
    def line(self) -> str:
        photo = f" [shares a photo of {self.caption}]" if self.caption else ""
        return f"{self.speaker}: {self.text}{photo}"


@dataclass(frozen=True)
class ViewDraft:
    id: str
    centre: Message
    window: tuple[Message, ...]
    participants: tuple[str, ...]  # character names, speakers of the window first
    place: str | None
    topic_words: str
    filler: bool

    @property
    def text(self) -> str:
        return "\n".join(m.line for m in self.window)

    @property
    def passage_ids(self) -> list[str]:
        return [m.passage_id for m in self.window]


def character_id(name: str) -> str:
    """The id every design gives a person: the core writer's speaker id."""
    return content_id("speaker", name)


def batch_messages(batch: SessionBatch) -> list[list[Message]]:
    """The batch's turns as messages, per session, in turn order."""
    out: list[list[Message]] = []
    for session, sid, pids in zip(
        batch.sessions, batch.session_ids, batch.passage_ids, strict=True
    ):
        date_text = session_date_text(session)
        out.append(
            [
                Message(
                    passage_id=pid,
                    source_id=turn.source_id,
                    session_id=sid,
                    session_index=session.index,
                    turn_index=turn.index,
                    speaker=turn.speaker,
                    text=turn.text,
                    caption=turn.caption,
                    ts=turn.timestamp or session.started_at,
                    date_text=date_text,
                )
                for turn, pid in zip(session.turns, pids, strict=True)
            ]
        )
    return out


def windows(messages: Sequence[Message], w: int) -> list[tuple[Message, ...]]:
    """The paper's v_i = (m_{i-w}, ..., m_{i+w}); at a session edge the missing neighbours
    are dropped (its edge rule repeats the edge message, which adds nothing)."""
    n = len(messages)
    return [tuple(messages[max(0, i - w) : min(n, i + w + 1)]) for i in range(n)]


def normalise_place(surface: str) -> str | None:
    """'the Eiffel Tower' -> 'eiffel tower', "Paris's" -> 'paris'; None when nothing is left."""
    words = _POSSESSIVE.sub("", surface.strip()).split()
    if words and words[0].lower() == "the":
        words = words[1:]
    key = " ".join(words).lower().strip(" .,!?;:\"'")
    return key if any(ch.isalpha() for ch in key) else None


def places(doc: Doc) -> list[str]:
    """Normalised places a message names, in text order, each once."""
    found = (normalise_place(ent.text) for ent in doc.ents if ent.label_ in PLACE_LABELS)
    return list(dict.fromkeys(p for p in found if p))


class PersonResolver:
    """Person surfaces -> one canonical name per person: the conversation's speakers win
    (by full name or first name, case-insensitive); anything else keeps its surface form."""

    def __init__(self, speakers: Sequence[str], evidence: PersonEvidence | None = None) -> None:
        # How the conversation uses each other name (graphmem/nlp/people.py); None: any
        # PERSON-tagged name that looks like one is a person.
        self.evidence = evidence
        self._speakers = frozenset(speakers)
        self._known: dict[str, str] = {}
        for name in speakers:
            self._known.setdefault(name.lower(), name)
        for name in speakers:
            self._known.setdefault(name.split()[0].lower(), name)

    def resolve(self, surface: str) -> str | None:
        words = _POSSESSIVE.sub("", surface.strip()).split()
        # Chat NER tags interjections and nicknames as persons; a name is 1-3 capitalised
        # words ("Gina", "Aunt May"), anything else is dropped.
        if not 1 <= len(words) <= 3 or not all(_NAME_TOKEN.match(w) for w in words):
            return None
        for word in words:  # "Bye Caroline", "Caroline's mom": the speaker is meant
            if word.lower() in self._known:
                return self._known[word.lower()]
        nickname = self._nickname(words[0].lower()) if len(words) == 1 else None
        if nickname:
            return nickname
        if any(w.lower() in _NOT_NAMES for w in words):
            return None
        return " ".join(words)

    def _nickname(self, word: str) -> str | None:
        """'Mel' for Melanie, 'Caro' for Caroline: a prefix of one known first name."""
        if len(word) < 3:
            return None
        found = {name for key, name in self._known.items() if key.startswith(word)}
        return found.pop() if len(found) == 1 else None

    def named(self, text: str) -> list[str]:
        """Known speakers named in ``text`` (NER misses many names in chat)."""
        tokens = {t.strip(".,!?;:\"'()").lower() for t in text.split()}
        return [name for key, name in self._known.items() if key in tokens]

    def mentioned(self, doc: Doc) -> list[str]:
        found = [self.resolve(ent.text) for ent in doc.ents if _person(ent)]
        people = [p for p in found if p and self._a_person(p)]
        return list(dict.fromkeys([*people, *self.named(doc.text)]))

    def _a_person(self, name: str) -> bool:
        return name in self._speakers or self.evidence is None or self.evidence.is_person(name)


def _person(ent: Span) -> bool:
    """A PERSON entity that is not one capitalised word opening its sentence ("Glad you
    came!" is tagged PERSON; "I met Gina" is a name)."""
    if ent.label_ != "PERSON":
        return False
    return len(ent) > 1 or ent.start != ent.sent.start


def build_views(
    sessions: Sequence[Sequence[Message]],
    docs: Mapping[str, Doc],
    resolver: PersonResolver,
    w: int,
    mentions: bool,
    topic_words: Mapping[str, str],
    fillers: Mapping[str, bool],
    examples: frozenset[str] = frozenset(),
) -> list[ViewDraft]:
    """Every message's view. ``docs`` maps passage id -> parsed text. ``examples``: speakers
    whose messages name no participant (an AI assistant's: the people and things its answers
    name are examples, not persons of the user's story)."""
    out: list[ViewDraft] = []
    for messages in sessions:
        for centre, window in zip(messages, windows(messages, w), strict=True):
            names = [m.speaker for m in window]
            if mentions:
                # Persons a message names; never a phrase that names nothing (is_name).
                found_persons = (
                    p
                    for m in window
                    if m.speaker not in examples
                    for p in resolver.mentioned(docs[m.passage_id])
                )
                names += names_only(found_persons)
            found = places(docs[centre.passage_id])
            out.append(
                ViewDraft(
                    id=content_id("view", centre.passage_id, *(m.passage_id for m in window)),
                    centre=centre,
                    window=window,
                    participants=tuple(dict.fromkeys(names)),
                    place=found[0] if found else None,
                    topic_words=topic_words.get(centre.passage_id, ""),
                    filler=fillers.get(centre.passage_id, False),
                )
            )
    return out


def topic_vector(passage_ids: Sequence[str], stored: Mapping[str, Vector]) -> Vector:
    """A view's topic: the normalised mean of its passages' stored embeddings."""
    mean = np.mean([stored[pid] for pid in passage_ids], axis=0).astype(np.float32)
    norm = float(np.linalg.norm(mean))
    out: Vector = mean / norm if norm else mean
    return out
