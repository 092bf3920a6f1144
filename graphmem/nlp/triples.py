"""Offline open information extraction over the dependency parse:
(subject, relation, object, time) from each clause, first person resolved to the speaker."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from spacy.tokens import Doc, Span, Token

from graphmem.nlp.ends import (
    DENYING,
    EndContext,
    end_phrase,
    is_first_person,
    joint,
)
from graphmem.nlp.lexicon import NON_TOPICAL_LABELS, WH_WORDS
from graphmem.nlp.speech_acts import speech_act
from graphmem.nlp.temporal import TemporalMention, normalise_temporal, render
from graphmem.nlp.text import (
    TextOrDoc,
    analyse,
    phrase_key,
    third_person,
    trim_span,
)


@dataclass(frozen=True, slots=True)
class Triple:
    subject: str
    relation: str
    object: str
    time: str | None = None  # a rendered temporal mention: "2023-05-07", "Before 2023-05"


_SUBJECT_DEPS = ("nsubj", "nsubjpass")
_OBJECT_DEPS = ("dobj", "attr", "acomp", "oprd")
_LEFT_OUT = frozenset({"ccomp", "xcomp", "dobj", "prep", "acomp", "attr", "oprd"})
# A clause under these is not asserted: "if I decide to get a dog".
_CONDITIONS = frozenset({"if", "unless", "whether"})
_HEDGES = frozenset({"maybe", "perhaps", "possibly", "hopefully", "likely", "probably"})
# Contractions the tokenizer splits ("gonna" -> "gon" "na"), glued back in a relation.
_SPLIT_CONTRACTION = re.compile(r"\b(gon|got|wan) (na|ta)\b")
# Relative words that are the clause's own adverbial: "the day *when* I arrived in Paris".
_RELATIVE_ADVERBS = frozenset({"where", "when", "why", "how", "whereby", "wherever"})


def _subjects(verb: Token) -> list[Token]:
    found = [c for c in verb.children if c.dep_ in _SUBJECT_DEPS]
    if not found and verb.dep_ == "conj" and verb.head is not verb:
        # "I cooked and ate": coordinated verbs share their subject.
        found = [c for c in verb.head.children if c.dep_ in _SUBJECT_DEPS]
    return [s for head in found for s in (head, *head.conjuncts)]


def _relation_base(verb: Token, first_person_subject: bool) -> list[str]:
    aux = [
        c
        for c in verb.children
        if c.dep_ in ("aux", "auxpass", "neg") and c.i < verb.i and c.tag_ != "TO"
    ]
    tokens = [*sorted(aux, key=lambda t: t.i), verb]
    # "I'm *not* sure", "it was *n't* easy": a negation after the verb is kept too.
    tokens += [c for c in verb.children if c.dep_ == "neg" and c.i > verb.i]
    tokens += [c for c in verb.children if c.dep_ == "prt"]
    words = [t.lower_ for t in tokens]
    if first_person_subject and tokens and tokens[0].tag_ in ("VBP", "MD"):
        words[0] = third_person(tokens[0]).lower()
    return ["not" if w in ("n't", "nt") else w for w in words]


def _objects(verb: Token, ctx: EndContext, depth: int = 0) -> Iterator[tuple[list[str], str]]:
    """(relation words after the verb, object phrase) for each argument of ``verb``."""
    for child in verb.children:
        if child.dep_ in _OBJECT_DEPS or child.dep_ == "agent":
            if child.dep_ == "agent":
                targets = [g for g in child.children if g.dep_ == "pobj"]
                words = ["by"]
            else:
                targets, words = [child], []
            for target in targets:
                for obj in (target, *_own_conjuncts(target)):
                    phrase = end_phrase(obj, ctx)
                    if phrase:
                        yield words, phrase
        elif child.dep_ == "prep":
            if ctx.strict and _object_elsewhere(verb):
                continue
            # "took up community work from church": the object goes with the preposition
            # ("took up community work from | church"), or the fact says something else.
            carried = _direct_object(verb, ctx)
            for words, phrase in _prep_objects(child, ctx):
                yield [*carried, *words], phrase
        elif child.dep_ == "xcomp" and child.pos_ in ("VERB", "AUX") and depth == 0:
            # "use bioluminescence to communicate": the verb's own object stays with it.
            carried = _direct_object(verb, ctx)
            for words, phrase in _xcomp_objects(child, ctx):
                yield [*carried, *words], phrase


def _own_conjuncts(head: Token) -> list[Token]:
    """The conjuncts of ``head`` that stand alone: in "the development and availability
    *of a vaccine*" the phrase after the last conjunct belongs to both, and
    "availability" without it names something else."""
    conjuncts = list(head.conjuncts)
    if not conjuncts or any(c.dep_ == "det" and c.lower_ in DENYING for c in head.children):
        return []  # "no grammar, spelling or style errors": each alone loses the "no"
    last = max(c.i for c in conjuncts)
    shared = any(c.dep_ == "prep" and c.i > last for c in head.children)
    return [] if shared else conjuncts


def _object_elsewhere(verb: Token) -> bool:
    """Whether what ``verb`` acts on is outside its prepositional phrases, so a fact of
    the verb and a preposition alone says something else: a clause the verb governs
    ("I'd like [to explore ...] in the meantime"), or, with no object of its own, the
    noun its relative clause describes ("the necklace I saw on Amazon")."""
    children = list(verb.children)
    if any(c.dep_ == "dobj" for c in children):
        return False
    # (a clause before the verb is a sentence of its own the parse hung there: "Last
    # week was wild - I volunteered at the shelter")
    if any(c.dep_ in ("xcomp", "ccomp") and c.i > verb.i for c in children):
        return True
    return _relative_gap(verb)


def _relative_gap(verb: Token) -> bool:
    """Whether ``verb`` heads a relative clause whose noun is what it acts on: "the
    places I want to visit" (no fact "want | to visit")."""
    if verb.dep_ != "relcl" or any(c.dep_ == "dobj" for c in verb.children):
        return False
    subject = next((c for c in verb.children if c.dep_ in _SUBJECT_DEPS), None)
    relative = any(c.lower_ in _RELATIVE_ADVERBS for c in verb.children)
    # the subject is the relative word itself ("who went to Paris"): nothing is missing
    return subject is not None and subject.tag_ not in ("WDT", "WP") and not relative


def _direct_object(verb: Token, ctx: EndContext) -> list[str]:
    """The direct object of ``verb`` as words of a relation: its phrase, or a pronoun as
    written ("saw it on | Amazon"); none when the verb has none."""
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if obj is None:
        return []
    phrase = end_phrase(obj, ctx)
    return [phrase] if phrase else [obj.lower_]


def _prep_objects(prep: Token, ctx: EndContext) -> Iterator[tuple[list[str], str]]:
    for pobj in (g for g in prep.children if g.dep_ == "pobj"):
        one = joint(next((c for c in pobj.children if c.dep_ == "conj"), pobj))
        for obj in (pobj,) if one else (pobj, *_own_conjuncts(pobj)):
            phrase = end_phrase(obj, ctx)
            if phrase:
                yield [prep.lower_], phrase


def _xcomp_objects(xcomp: Token, ctx: EndContext) -> Iterator[tuple[list[str], str]]:
    """ "want to paint a sunset" -> (["to", "paint"], "sunset"); an xcomp with no argument
    of its own becomes the object: "love to paint" -> ([], "to paint")."""
    marker = [c.lower_ for c in xcomp.children if c.tag_ == "TO"]
    head = [*marker, xcomp.lower_, *(c.lower_ for c in xcomp.children if c.dep_ == "prt")]
    inner = list(_objects(xcomp, ctx, depth=1))
    # "trying to figure out [what to cook]": with its complement left out, the verb alone
    # says nothing the turn does; a verb with nothing to leave out ("love to paint") does,
    # unless it shares a conjunct's object ("known to catch [and eat insects]") or its
    # object is the noun the clause describes ("places I want to visit").
    cut = ctx.strict and (
        any(c.dep_ in _LEFT_OUT for c in xcomp.children)
        or any(c.dep_ == "dobj" for g in xcomp.conjuncts for c in g.children)
        or _relative_gap(xcomp.head)
    )
    if not inner and xcomp.i not in ctx.temporal and not cut:
        yield [], " ".join(head)
    for words, phrase in inner:
        yield [*head, *words], phrase


def _sentence_time(sent: Span, mentions: list[TemporalMention]) -> str | None:
    for mention in mentions:
        if sent.start_char <= mention.start < sent.end_char:
            return render(mention)
    return None


def _temporal_tokens(doc: Doc, mentions: list[TemporalMention]) -> frozenset[int]:
    inside = {t.i for t in doc if t.ent_type_ in ("DATE", "TIME")}
    for mention in mentions:
        span = doc.char_span(mention.start, mention.end, alignment_mode="expand")
        if span is not None:
            inside.update(t.i for t in span)
    return frozenset(inside)


def _glued(relation: str, obj: str) -> tuple[str, str]:
    """A contraction the tokenizer split, glued back: "are gon | na turn out" -> "are
    gonna | turn out", "got | ta say" -> "gotta | say"."""
    relation = _SPLIT_CONTRACTION.sub(r"\1\2", relation)
    last = relation.rsplit(" ", 1)[-1]
    if last in ("gon", "got", "wan") and obj.startswith(("na ", "ta ")):
        return relation + obj[:2], obj[3:]
    return relation, obj


def _asserted(verb: Token) -> bool:
    """Whether the clause of ``verb`` says something happens or holds: not under a
    condition ("if I *decide* to"), and not a bare infinitive under a verb that only
    may happen ("can help viewers *appreciate* the art"; "helps me *stay* motivated" is
    said)."""
    children = list(verb.children)
    if any(c.dep_ == "mark" and c.lower_ in _CONDITIONS for c in children):
        return False
    if any(c.dep_ == "advmod" and c.lower_ in _HEDGES for c in children):
        return False  # "maybe I can bring over my coffee": offered, not said to happen
    if _denied_with_head(verb):
        return False
    bare = verb.tag_ == "VB" and not any(c.dep_ in ("aux", "auxpass") for c in children)
    if not (bare and verb.dep_ in ("ccomp", "advcl", "conj", "dep")):
        return True
    head = verb.head
    return not any(c.tag_ == "MD" for c in head.children) and _asserted(head)


def _denied_with_head(verb: Token) -> bool:
    """A verb coordinated with a negated one, without a subject of its own: the negation
    covers it ("I don't know your schedule, attend meetings or ..."), which the fact of
    the verb alone would lose."""
    if verb.dep_ != "conj" or any(c.dep_ in _SUBJECT_DEPS for c in verb.children):
        return False
    return any(c.dep_ == "neg" for c in verb.head.children)


def _clause_triples(verb: Token, ctx: EndContext, time: str | None) -> Iterator[Triple]:
    if ctx.strict and not _asserted(verb):
        return
    for subj in _subjects(verb):
        subject = end_phrase(subj, ctx)
        if not subject or (subj.pos_ == "NUM" and subject == subj.text):
            continue  # a number alone ("1 has set up ...") is a list's marker or a count
        base = _relation_base(verb, is_first_person(subj) and subj.lower_ != "me")
        for words, obj in _objects(verb, ctx):
            relation, obj = _glued(" ".join([*base, *words]).strip(), obj)
            if relation and obj and obj.lower() != subject.lower():
                yield Triple(subject, relation, obj, time)


def extract_triples(
    doc_or_text: TextOrDoc,
    speaker: str | None = None,
    reference: datetime | None = None,
    claims_only: bool = False,
    names: frozenset[str] = frozenset(),
) -> list[Triple]:
    """(subject, relation, object, time) facts stated in ``doc_or_text``; first person is
    the ``speaker``, and times are resolved against ``reference`` when one is given.
    ``claims_only``: only from sentences that state something (``nlp/speech_acts.py``: not a
    question, a request, a reaction or a list opening; ``names``: the speakers', lower
    case); a question's own triples are what a query is about, so queries keep them."""
    doc = analyse(doc_or_text)
    mentions = normalise_temporal(doc.text, reference, doc) if reference is not None else []
    ctx = EndContext((speaker or "").strip() or None, _temporal_tokens(doc, mentions), claims_only)
    out: list[Triple] = []
    seen: set[tuple[str, str, str]] = set()
    for sent in doc.sents:
        if claims_only and speech_act(sent, names) != "statement":
            continue
        time = _sentence_time(sent, mentions)
        for tok in sent:
            # An xcomp ("want to *paint*") is reported with the verb that governs it.
            if tok.pos_ not in ("VERB", "AUX") or tok.dep_ in ("aux", "auxpass", "xcomp"):
                continue
            for triple in _clause_triples(tok, ctx, time):
                key = (triple.subject.lower(), triple.relation, triple.object.lower())
                if key not in seen:
                    seen.add(key)
                    out.append(triple)
    return out


def query_entities(text: TextOrDoc) -> list[str]:
    """What a question is about: entities, noun phrases and proper nouns, without the
    question words, times or quantities; case-insensitively unique, entities first."""
    doc = analyse(text)
    spans: list[Span] = [e for e in doc.ents if e.label_ not in NON_TOPICAL_LABELS]
    for chunk in doc.noun_chunks:
        spans.append(chunk)
        # "Melanie's favorite technique" is also asked about as "favorite technique".
        case = [t for t in chunk if t.dep_ == "case"]
        if case and case[-1].i + 1 < chunk.end:
            spans.append(doc[case[-1].i + 1 : chunk.end])
    spans += [doc[t.i : t.i + 1] for t in doc if t.pos_ == "PROPN"]
    out: list[str] = []
    seen: set[str] = set()
    for span in spans:
        trimmed = trim_span(span)
        if trimmed is None or any(t.ent_type_ in NON_TOPICAL_LABELS for t in trimmed):
            continue
        words = [t for t in trimmed if t.lower_ not in WH_WORDS]
        if not words:
            continue
        phrase = doc[words[0].i : words[-1].i + 1]
        key = phrase_key(phrase)
        if key and key not in seen:
            seen.add(key)
            out.append(phrase.text)
    return out
