"""What a statement claims, normalised so that two statements can be compared.

A statement node says one thing a turn said ("user recently set a personal best time in a
charity 5K run with a time of 27:12"). Whether a later one replaces it depends on whose
state it is, what it is about and which value it gives, so each statement is read once
into a :class:`~graphmem.validity.types.Claim`:

- ``subject``: whose state. The speaker when the sentence's subject is the speaker (the
  designs write the speaker's name for "I") or a thing the speaker owns ("user's
  sculpture", but "user's sister" and "user's band" are theirs); a named person's key
  when the subject names one ("Rachel moved"); otherwise the subject noun's key. An
  unresolved pronoun ("she", "it") leaves it empty: such a claim is compared with none (a
  guess at whom "she" is would pair strangers).
- ``predicate``: the main verb's lemma; for a plan or a wish ("is hoping to beat") the verb
  planned, with the ``plan`` cue; for a report ("Rosa thinks Tom should open a shop") the
  reported clause's; ``object``: its direct object's key ("online shop").
- ``topics``: the things it names (``graphmem.nlp.things``), with the head word's lemma
  ("bowls" and "bowl" are one topic), the design's own key where it has one, and
  ``now:<activity>`` for what its subject does now.
- ``values``: amounts (``num:``), times and scores (``clock:``), how often (``freq:``),
  places (``place:``), organisations and products (``name:``), the specific things it
  names (``thing:``), what is under way (``begun:``, ``ended:``, ``planned:``,
  ``now:``; ``graphmem.validity.aspect``), how many of a thing (``count:``;
  ``graphmem.validity.counts``) and the values held one at a time (``span:``, ``rate:``,
  ``weekday:``, ``home:``, ``job:``, ``rank:``; ``graphmem.validity.states``).
  ``measures``: the amounts, times and rates of its verb; ``clause_measures``: of its own
  clauses.
- a reported question that first tells something of its speaker ("user asked: By the
  way, user has been using ... for 6 months now - does assistant have any tips?") is read
  from the told part (``told``), and is no question.
- ``cues``: ``change`` (words that say a value changed: "no longer", "switched", "moved
  back"), ``past`` (the main verb in the simple past: an event, "won a tournament";
  "has made six bowls" is a state), ``picture`` (what a shared photo shows), ``plan`` (a
  plan, a wish, a condition), ``wish``, ``negated``, ``question`` (a reported question, or
  a request of the listener: "needs your help").
- ``valid_from``: when it became true: the date its words resolve to when that lies in the
  past of the turn (``graphmem.nlp.temporal``), else the day it was said.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from spacy.tokens import Doc, Span, Token

from graphmem.nlp.lexicon import NON_TOPICAL_LABELS, SECOND_PERSON
from graphmem.nlp.people import ROLE_WORDS, person_key
from graphmem.nlp.spacy_loader import get_nlp
from graphmem.nlp.temporal import normalise_temporal
from graphmem.nlp.things import thing_names
from graphmem.validity import lexicon as lex
from graphmem.validity.aspect import (
    agent,
    chunk_key,
    main_verbs,
    specific_key,
    under_way,
    verb_of,
)
from graphmem.validity.counts import clause_counts
from graphmem.validity.patterns import matches
from graphmem.validity.states import states
from graphmem.validity.types import MEASURED, Claim, Statement
from graphmem.validity.values import Now, Said, SaidKind, Value


def split_prefix(text: str) -> tuple[str, bool]:
    """The statement without its "<speaker>:" prefix, the words that open it and say
    nothing ("By the way, ...") and its bracketed date resolutions, and whether it reports
    a question or a request ("user asked: ...")."""
    text = lex.ANNOTATION.sub("", text)
    found = lex.PREFIX.match(text)
    reported = False
    if found is not None and len(found.group("who").split()) <= 4:
        text, reported = text[found.end() :], found.group("verb") in lex.REPORTED
    return lex.OPENERS.sub("", text.strip()).strip(), reported


def told(body: str, reported: bool, speaker: str) -> tuple[str, bool]:
    """A question that first tells something of its speaker ("user asked: By the way, user
    has been using user's Fitbit for 6 months now - does assistant have any tips?"): the
    told part, no longer a question; any other body as it is."""
    if not (reported or body.rstrip().endswith("?")):
        return body, reported
    lead = lex.QUESTION_OPENER.split(body, maxsplit=1)[0].strip(" ,;-–—")
    words = lead.lower().split()
    if lead == body.strip() or len(words) < 4 or lead.endswith("?"):
        return body, reported
    # Told of the speaker ("user has been ...", "I moved ..."), not asked about a thing.
    if not ({speaker} | lex.FIRST_PERSON) & set(words[:3]):
        return body, reported
    return lead + ".", False


def claims(statements: Sequence[Statement]) -> list[Claim]:
    """The claim of each statement, parsed in one pass."""
    bodies = [told(*split_prefix(s.text), s.speaker.strip().lower()) for s in statements]
    # Designs state the same thing in the same words (a third of a LongMemEval haystack's
    # statement text repeats another statement's): each distinct body is parsed once.
    distinct = list(dict.fromkeys(b for b, _ in bodies))
    parsed = dict(zip(distinct, get_nlp().pipe(distinct, batch_size=64), strict=True))
    docs = [parsed[b] for b, _ in bodies]
    # The things every statement's noun phrases name, judged in one batch: judged one
    # statement at a time, the judge's parse set-up cost more than its parses.
    thing_names([c.text for doc in docs for c in doc.noun_chunks if _may_be_topic(c)])
    # A speaker is whose state a claim is, never what it is about ("assistant" in "user
    # asked assistant for tips").
    speakers = {s.speaker.strip().lower() for s in statements}
    out = []
    for s, doc, (_, reported) in zip(statements, docs, bodies, strict=True):
        claim = _claim(s, doc, reported)
        topics = tuple(t for t in claim.topics if t not in speakers)
        values = tuple(v for v in claim.values if not _names_one(v, "thing", speakers))
        out.append(claim.model_copy(update={"topics": topics, "values": values}))
    return out


def _names_one(value: Value, kind: str, names: set[str]) -> bool:
    return isinstance(value, Said) and value.kind == kind and value.said in names


def _claim(statement: Statement, doc: Doc, reported: bool) -> Claim:
    speaker = statement.speaker.strip().lower()
    if not len(doc):  # nothing but a date note: valid time only
        return Claim(
            subject="",
            predicate="",
            topics=(),
            values=(),
            cues=(),
            valid_from=_valid_from(doc.text, statement),
        )
    sentence = next(iter(doc.sents), doc[:])
    root = _content(sentence.root)
    verb, predicate, intent = _predicate(root)
    subject_token = _subject_of(verb)  # "hopes Andrew finds a spot": Andrew's
    subject = _subject(subject_token, speaker)
    cues = _cues(doc, root, verb, intent, reported)
    values, measures, clause_measures = _values(doc, root, verb, intent)

    def whose(v: Token) -> str:
        return _subject(agent(v) or subject_token, speaker)

    planned = verb if intent == "plan" else None
    matched = matches(doc)  # the dependency patterns, once for both readers
    values += tuple(under_way(doc, root, whose, subject, planned, matched))
    values += tuple(clause_counts(doc, root, whose, subject))
    values += tuple(states(doc, root, whose, subject, matched))
    return Claim(
        subject=subject,
        predicate=predicate,
        object=_object(verb, doc),
        topics=_topics(doc, subject_token, statement.key, subject, values),
        values=tuple(sorted(set(values))),
        measures=measures,
        clause_measures=clause_measures,
        cues=tuple(sorted(cues)),
        valid_from=_valid_from(doc.text, statement),
    )


def _cues(doc: Doc, root: Token, verb: Token, intent: str, reported: bool) -> set[str]:
    cues = set()
    if reported or doc.text.rstrip().endswith("?") or _asks_the_listener(verb):
        cues.add("question")
    if intent or _conditional(root):
        cues.add("plan")
    if intent == "wish":
        cues.add("wish")
    if any(c.dep_ == "neg" for c in root.children):
        cues.add("negated")
    if lex.CHANGE.search(doc.text):
        cues.add("change")
    if root.tag_ == "VBD":  # "won a tournament"; "has made six bowls" is a state
        cues.add("past")
    if _shows_a_picture(root):
        cues.add("picture")
    return cues


def _asks_the_listener(verb: Token) -> bool:
    """ "user needs your help with an article": a request of this conversation's listener,
    no lasting state of the speaker ("the book you recommended" is no request)."""
    return any(
        c.dep_ in ("dobj", "obj")
        and c.lemma_.lower() in lex.REQUEST_NOUNS
        and any(p.dep_ == "poss" and p.lower_ in SECOND_PERSON for p in c.children)
        for c in verb.children
    )


def _shows_a_picture(root: Token) -> bool:
    """ "shares a photo of three dogs": what a picture shows is no state of anyone."""
    return root.lemma_.lower() in lex.SHOWING and any(
        c.dep_ in ("dobj", "obj") and c.lemma_.lower() in lex.PICTURES for c in root.children
    )


def _predicate(root: Token) -> tuple[Token, str, str]:
    """The main verb, its lemma, and what it intends ("", "plan" or "wish"); for "hopes to
    beat", "is going to open": the verb planned."""
    lemma = lex.FORMS.get(root.lower_, root.lemma_.lower())
    modals = {c.lower_ for c in root.children if c.dep_ == "aux" and c.lower_ in lex.MODALS}
    going = any(c.lower_ == "going" for c in root.children) or (
        lemma == "go" and any(c.dep_ == "xcomp" for c in root.children)
    )
    intent = "wish" if modals & lex.WISH_MODALS else "plan" if modals else ""
    if lemma in lex.WISH_VERBS:
        intent = "wish"
    elif lemma in lex.PLAN_VERBS or going:
        intent = "plan"
    if lemma in lex.PLAN_VERBS | lex.WISH_VERBS or going:
        for child in root.children:
            if child.dep_ in ("xcomp", "ccomp") and child.pos_ in ("VERB", "AUX"):
                return child, child.lemma_.lower(), intent
        if lemma in ("like", "love", "need", "look", "think", "try"):
            intent = "wish" if modals & lex.WISH_MODALS else "plan" if modals else ""
    return root, lemma, intent


def _content(root: Token) -> Token:
    """What a report is about: "Rosa thinks Tom should open a shop" claims Tom's plan; a
    remark on it ("user realized ... - it's crazy how time flies!") claims what it remarks
    on."""
    remark = any(c.dep_ == "nsubj" and c.lower_ in lex.REMARK_SUBJECTS for c in root.children)
    if root.lemma_.lower() not in lex.REPORTING and not remark:
        return root
    for child in root.children:
        # A remark follows what it remarks on; a report's clause follows the report.
        if child.dep_ == "ccomp" and child.pos_ in ("VERB", "AUX"):
            if not remark:
                return child
            if child.i < root.i:
                return _content(child)
    return root


def _object(verb: Token, doc: Doc, dep: str = "dobj") -> str:
    """The key of the verb's direct object ("open an online shop": "online shop"), or with
    ``dep="pobj"`` of a preposition's object ("in Porto")."""
    for child in verb.children:
        if child.dep_ in (dep, "obj") and child.pos_ != "PRON":
            for chunk in doc.noun_chunks:
                if chunk.root.i == child.i:
                    return chunk_key(chunk, chunk.text)
    return ""


def _conditional(root: Token) -> bool:
    return any(
        c.dep_ == "advcl" and any(m.lower_ in ("if", "unless") for m in c.children)
        for c in root.children
    ) or any(c.dep_ == "mark" and c.lower_ in ("if", "unless") for c in root.children)


def _subject_of(root: Token) -> Token | None:
    for child in root.children:
        if child.dep_ in ("nsubj", "nsubjpass"):
            return child
    if root.dep_ in ("xcomp", "ccomp") and root.head is not root:
        return _subject_of(root.head)
    return None


def _subject(token: Token | None, speaker: str) -> str:
    if token is None:
        return ""
    words = token.lower_
    if words in lex.FIRST_PERSON or words == speaker:
        return speaker
    if words in lex.UNRESOLVED:
        return ""
    owner = next((c for c in token.children if c.dep_ == "poss"), None)
    if owner is not None:  # "user's friend Rachel": Rachel; "user's sculpture": the user's
        named = [c for c in token.children if c.dep_ in ("appos", "compound") and c.pos_ == "PROPN"]
        if token.pos_ == "PROPN" or named:
            return person_key((named[0] if named and token.pos_ != "PROPN" else token).text)
        if (
            token.lemma_.lower() in ROLE_WORDS | lex.GROUP_WORDS | lex.KIN_WORDS
        ):  # "user's sister": hers
            return token.lemma_.lower()
        mine = owner.lower_ in lex.FIRST_PERSON or person_key(owner.text) == speaker
        return speaker if mine else person_key(owner.text) if owner.pos_ == "PROPN" else ""
    if token.pos_ == "PROPN":
        span = [t for t in token.subtree if t.pos_ == "PROPN"]
        return person_key(" ".join(t.text for t in span) or token.text)
    return _key(token, [t for t in token.subtree if not t.is_punct])


def _key(head: Token, words: Sequence[Token]) -> str:
    """A phrase's identity: lower case, determiners and possessives dropped, the head
    word's lemma ("her two bowls" -> "two bowl")."""
    kept = [t for t in words if t.dep_ not in ("det", "poss", "case") and not t.is_punct]
    return " ".join((t.lemma_ if t.i == head.i else t.text).lower() for t in kept).strip()


def _topics(
    doc: Doc, subject: Token | None, key: str, whose: str, values: Sequence[Value]
) -> tuple[str, ...]:
    """The things the statement names, and what its subject does now ("currently reading
    X": ``now:read``, so that two statements of what one reads now are compared)."""
    named = _things(doc, subject, key) - {whose}
    named.update(f"now:{v.activity}" for v in values if isinstance(v, Now))
    return tuple(sorted(named))


def _things(doc: Doc, subject: Token | None, key: str) -> set[str]:
    chunks = [
        c
        for c in doc.noun_chunks
        if (subject is None or subject.i not in range(c.start, c.end) or _owned(subject))
        and _may_be_topic(c)
    ]
    names = thing_names([c.text for c in chunks])
    found: set[str] = set()
    for chunk, name in zip(chunks, names, strict=True):
        name = name or _qualified(chunk)
        if name:
            found.add(chunk_key(chunk, name))
            # "yoga classes" is also about yoga: a compound noun in front is a topic too.
            found.update(
                t.lemma_.lower()
                for t in chunk
                if t.dep_ == "compound" and t.pos_ == "NOUN" and t.head.i == chunk.root.i
            )
    if key:  # the design's own topic of the statement, as it chose it
        found.add(_plain(key))
    return {t for t in found if t}


def _may_be_topic(chunk: Span) -> bool:
    return chunk.root.ent_type_ not in NON_TOPICAL_LABELS


def _qualified(chunk: Span) -> str | None:
    """A light noun an adjective makes specific: "a personal best time" is a topic (an
    entity needs another noun, ``graphmem.nlp.things``; a claim's topic needs less)."""
    root = chunk.root
    if root.pos_ != "NOUN" or any(t.lower_ in SECOND_PERSON for t in chunk):
        return None
    modifiers = [t for t in chunk if t.head.i == root.i and t.dep_ == "amod"]
    return chunk.text if modifiers else None


def _owned(subject: Token) -> bool:
    """ "Tom's online shop launched": the shop is Tom's state, and what the claim is about."""
    return subject.pos_ == "NOUN" and any(c.dep_ == "poss" for c in subject.children)


def _plain(name: str) -> str:
    words = name.lower().split()
    while len(words) > 1 and (words[0] in lex.ARTICLES or words[0].endswith(("'s", "’s"))):
        words.pop(0)
    return " ".join(words)


def _values(
    doc: Doc, root: Token, verb: Token, intent: str
) -> tuple[tuple[Value, ...], tuple[Said, ...], tuple[Said, ...]]:
    """Every value of the statement (the specific things it names too, ``thing:``), the
    measures of its verb ("has made six bowls", "doing yoga twice a week") and those of its
    own clauses ("has worked on the sculpture and spent 5-6 hours on it"), not of a side
    clause ("has trouble sleeping and finds themself lying awake between 2 and 3 AM"); in a
    plan or a wish only what a thing is ("hoping to beat my best time of 25:50", not "would
    love to run 10 miles")."""
    found: dict[Said, list[Token]] = {}
    for ent in doc.ents:
        text = lex.HEDGES.sub("", ent.text.lower().strip())
        if ent.label_ == "DATE":
            continue
        if ent.label_ in lex.NUMERIC:
            found.setdefault(Said(kind="num", said=text), []).append(ent.root)
        elif ent.label_ in lex.PLACES or ent.label_ in lex.NAMES:
            kind: SaidKind = "place" if ent.label_ in lex.PLACES else "name"
            found.setdefault(Said(kind=kind, said=text.removeprefix("the ")), []).append(ent.root)
    clock_freq: tuple[tuple[SaidKind, re.Pattern[str]], ...] = (
        ("clock", lex.CLOCK),
        ("freq", lex.FREQ),
    )
    for kind, pattern in clock_freq:
        for match in pattern.finditer(doc.text):
            span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
            if span is not None:
                value = Said(kind=kind, said=" ".join(match.group(0).lower().split()))
                found.setdefault(value, []).append(span.root)
    clauses = {v.i for v in main_verbs(root)} | {verb.i}

    def measured(value: Said, where: set[int]) -> bool:
        return value.kind in MEASURED and any(
            verb_of(t).i in where and (not intent or _of_a_thing(t)) for t in found[value]
        )

    own = tuple(sorted(v for v in found if measured(v, {verb.i})))
    in_clauses = tuple(sorted(v for v in found if measured(v, clauses)))
    keys = {key for chunk in doc.noun_chunks if (key := specific_key(chunk))}
    things = {Said(kind="thing", said=key) for key in keys}
    everything: set[Value] = {*found, *things}
    return tuple(sorted(everything)), own, in_clauses


def _of_a_thing(token: Token) -> bool:
    """ "a best time of 25:50": the value says what a thing is, even inside a wish."""
    while token.pos_ not in ("VERB", "AUX") and token.head.i != token.i:
        if token.dep_ == "pobj" and token.head.lower_ == "of" and token.head.head.pos_ == "NOUN":
            return True
        token = token.head
    return False


def _valid_from(text: str, statement: Statement) -> date | None:
    """The first day the statement's words name, when it is not after the day it was said
    ("since March", "we moved in last May"); else that day. A plan's day ahead ("we move
    on August 1") does not delay the statement: it holds, as a plan, from when it is said."""
    if statement.said_at is None:  # no anchor for its words, and no day it was said
        return None
    said = statement.said_at.date()
    for mention in normalise_temporal(text, statement.said_at):
        if mention.form == "absolute" and mention.first is not None and mention.first <= said:
            return mention.first
    return said
