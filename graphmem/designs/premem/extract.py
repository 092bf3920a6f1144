"""Step 1 offline: memory fragments from spaCy parses, no model calls.

Each statement sentence of a turn becomes one fragment (greetings, thanks, reactions and
questions make none). The category comes from rules over the parse, checked in this order:

- subjective, plan: a future cue on the main clause (will, 'll, gonna, going to) or a plan
  verb (plan, intend, hope, want, wish, aim); date "After <message date>";
- subjective, state: an opinion or feeling verb (like, love, think, feel, prefer...), a habit
  adverb (usually, often, always...), or "be" with an adjective ("I'm so excited");
- experiential: a past-tense or present-perfect main verb ("I went", "I've been");
  date "Before <message date>" unless a time expression pins it;
- experiential, ongoing: a present progressive ("I'm training for a marathon");
- factual: everything else said in the present ("My sister lives in Seattle").

A time expression in the sentence (graphmem.nlp.temporal) overrides the default date with
its resolution: "yesterday" -> the absolute day, "recently" -> Before, "soon" -> After.
The value is the sentence with the speaker's first person rewritten to their name (every
fragment names its speaker); the key is its most salient noun phrase. Shared photos become
experiential fragments from their captions. See the package's
README.md for what these rules miss.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from spacy.tokens import Doc, Span, Token

from graphmem.designs.premem import dates
from graphmem.designs.premem.models import Category, Fragment
from graphmem.nlp import (
    NON_TOPICAL_LABELS,
    analyse_many,
    first_person_to_name,
    is_content_token,
    normalise_temporal,
    phrase_key,
    reported,
    speech_act,
    trim_span,
)
from graphmem.plugin import SessionIn, Turn

_FUTURE_AUX = frozenset({"will", "'ll", "wo", "shall", "gon", "gonna"})
_PLAN_VERBS = frozenset({"plan", "intend", "hope", "want", "wish", "aim"})
_OPINION_WORDS = """like love hate prefer enjoy adore admire appreciate think believe feel guess
    suppose reckon wonder miss dream fear worry care dislike doubt imagine agree disagree"""
_OPINION_VERBS = frozenset(_OPINION_WORDS.split())
_HABIT_WORDS = frozenset({"usually", "often", "always", "sometimes", "never", "regularly"})
_PHOTO_PREFIX = re.compile(r"^(?:a|an)\s+(?:photo|picture|image)\s+of\s+", re.IGNORECASE)


@dataclass(frozen=True)
class SessionTurns:
    """One session to extract from, with the passage id of each turn."""

    session: SessionIn
    passage_ids: Sequence[str]


def _aux_words(verb: Token) -> set[str]:
    return {c.lower_ for c in verb.children if c.dep_ in ("aux", "auxpass")}


def _is_future(root: Token) -> bool:
    auxes = _aux_words(root)
    if auxes & _FUTURE_AUX or root.lower_ in _FUTURE_AUX:  # "Gonna continue": root "Gon"
        return True
    # "going to <verb>": spaCy makes "going" the root with an xcomp
    going = root.lower_ == "going" and any(
        c.dep_ == "xcomp" and any(g.tag_ == "TO" for g in c.children) for c in root.children
    )
    return going or root.lemma_.lower() in _PLAN_VERBS


def _is_subjective(root: Token) -> bool:
    lemma = root.lemma_.lower()
    if lemma in _OPINION_VERBS:
        return True
    if any(t.lower_ in _HABIT_WORDS for t in root.subtree):
        return True
    return lemma == "be" and any(c.dep_ == "acomp" for c in root.children)


def _is_past(root: Token) -> bool:
    if root.tag_ == "VBD":
        return True
    return root.tag_ == "VBN" and bool(_aux_words(root) & {"have", "'ve", "has", "had", "'d"})


def _is_progressive(root: Token) -> bool:
    return root.tag_ == "VBG" and bool(_aux_words(root) & {"am", "'m", "is", "are", "'re"})


def main_verb(sentence: Span) -> Token:
    """The first verb with a subject ("I ran a race - it was great": "ran"), else the root."""
    for tok in sentence:
        if any(c.dep_ in ("nsubj", "nsubjpass") for c in tok.children):
            return tok
    return sentence.root


def categorise(sentence: Span) -> tuple[Category, str]:
    """(category, default date form: "message", "before" or "after") of one sentence."""
    root = main_verb(sentence)
    if _is_future(root):
        return "subjective", "after"
    if _is_subjective(root):
        return "subjective", "message"
    if _is_past(root):
        return "experiential", "before"
    if _is_progressive(root):
        return "experiential", "message"
    return "factual", "message"


def _date(form: str, text: str, reference: datetime | None) -> str:
    if reference is None:
        return ""
    mentions = normalise_temporal(text, reference)
    if mentions:
        return dates.from_mention(mentions[0])
    if form == "before":
        return dates.before(reference)
    if form == "after":
        return dates.after(reference)
    return dates.message_date(reference)


def _topical(span: Span, names: frozenset[str]) -> bool:
    """A thing a memory can be about: a noun or name that is not a speaker, no date."""
    if any(t.ent_type_ in NON_TOPICAL_LABELS for t in span):
        return False
    return any(
        t.pos_ in ("NOUN", "PROPN") and is_content_token(t) and not _is_name(t, names) for t in span
    )


def _within(sentence: Span, chunks: Sequence[Span]) -> list[Span]:
    """The noun chunks of ``chunks`` (its doc's) inside ``sentence``: what
    ``sentence.noun_chunks`` gives, which re-chunks the whole doc on each call (quadratic
    over the sentences of a long turn)."""
    return [c for c in chunks if c.start >= sentence.start and c.end <= sentence.end]


def _key(sentence: Span, names: frozenset[str], chunks: Sequence[Span]) -> tuple[str, str]:
    """(shown key, normalised topic): the most salient noun phrase (names first, then the
    longest); with none, the main verb as the key and no topic (nothing to reason over).
    ``chunks``: the noun chunks of the sentence's doc."""
    best: tuple[int, Span] | None = None
    for span in [*sentence.ents, *_within(sentence, chunks)]:
        trimmed = trim_span(span)
        if trimmed is None or not _topical(trimmed, names):
            continue
        proper = any(t.pos_ == "PROPN" for t in trimmed)
        score = 2 * proper + min(len(trimmed), 3)
        if best is None or score > best[0]:
            best = (score, trimmed)
    if best is None:
        return main_verb(sentence).lemma_.lower(), ""
    span = best[1]
    shown = span.text if any(t.pos_ == "PROPN" for t in span) else span.text.lower()
    return shown, phrase_key(span)


def _with_speaker(text: str, speaker: str) -> str:
    return text if text.startswith(speaker) else f"{speaker}: {text}"


def _fragment(
    sent: Span,
    turn: Turn,
    pid: str,
    order: tuple[int, int],
    ref: datetime | None,
    names: frozenset[str],
    chunks: Sequence[Span],
) -> Fragment:
    category, form = categorise(sent)
    said = first_person_to_name(sent.as_doc(), turn.speaker).strip()
    request = speech_act(sent, names) == "request"  # "user asked: Tell user more about..."
    value = reported(turn.speaker, said) if request else _with_speaker(said, turn.speaker)
    key, topic = _key(sent, names, chunks)
    root = main_verb(sent)
    return Fragment(
        category=category,
        key=key,
        value=value,
        date=_date(form, sent.text, ref),
        speaker=turn.speaker,
        passage_ids=(pid,),
        order=order,
        topic=topic,
        predicate=root.lemma_.lower(),
        negated=any(c.dep_ == "neg" for c in root.children),
        lemmas=tuple(sorted({t.lemma_.lower() for t in sent if is_content_token(t)})),
    )


def _photo(turn: Turn, pid: str, order: tuple[int, int], ref: datetime | None) -> Fragment:
    caption = _PHOTO_PREFIX.sub("", (turn.caption or "").strip())
    return Fragment(
        category="experiential",
        key="photo",
        value=f"{turn.speaker} shares a photo of {caption}",
        date=dates.message_date(ref) if ref else "",
        speaker=turn.speaker,
        passage_ids=(pid,),
        order=order,
        topic="photo",
        predicate="share",
        lemmas=tuple(sorted(set(caption.lower().split()))),
    )


def _is_name(tok: Token, names: frozenset[str]) -> bool:
    """A speaker's name or a short form of it ("Mel"): naming the listener says nothing."""
    low = tok.lower_
    return low in names or (
        tok.pos_ == "PROPN" and len(low) >= 3 and any(n.startswith(low) for n in names)
    )


def _statements(doc: Doc, names: frozenset[str]) -> list[Span]:
    """Sentences that state something or ask for something (graphmem/nlp/speech_acts.py: not
    questions, reactions, thanks or list openings), with a content word that is not a
    speaker's name; a request is reported as one (``_fragment``)."""
    return [
        s
        for s in doc.sents
        if speech_act(s, names) in ("statement", "request")
        and any(is_content_token(t) and not _is_name(t, names) for t in s)
    ]


class OfflineExtractor:
    """Rules over spaCy parses; one ``nlp.pipe`` pass over every turn of the batch.

    ``skip``: speakers whose turns make no fragment (an AI assistant's: its answers are not
    personal information about anyone; graphmem/nlp/roles.py)."""

    def __init__(self, skip: frozenset[str] = frozenset()) -> None:
        self._skip = skip

    def extract(self, sessions: Sequence[SessionTurns]) -> list[list[Fragment]]:
        """Fragments per session, in turn order, one per distinct (turn, value)."""
        turns = [
            (job.session, turn, pid)
            for job in sessions
            for turn, pid in zip(job.session.turns, job.passage_ids, strict=True)
            if turn.speaker not in self._skip
        ]
        docs = analyse_many([turn.text for _, turn, _ in turns])
        out: dict[int, dict[str, Fragment]] = {job.session.index: {} for job in sessions}
        # The session's own speakers: the same names whichever batch the session comes in.
        names = {
            job.session.index: frozenset(
                part.lower() for t in job.session.turns for part in t.speaker.split()
            )
            for job in sessions
        }
        for (session, turn, pid), doc in zip(turns, docs, strict=True):
            ref = turn.timestamp or session.started_at
            order = (session.index, turn.index)
            said = _statements(doc, names[session.index])
            chunks = list(doc.noun_chunks) if said else []
            found = [
                _fragment(s, turn, pid, order, ref, names[session.index], chunks) for s in said
            ]
            if turn.caption:
                found.append(_photo(turn, pid, order, ref))
            for fragment in found:
                out[session.index].setdefault(fragment.id, fragment)
        return [list(out[job.session.index].values()) for job in sessions]
