"""What a statement claims, normalised so that two statements can be compared.

A statement node says one thing a turn said ("user recently set a personal best time in a
charity 5K run with a time of 27:12"). Whether a later one replaces it depends on whose
state it is, what it is about and which value it gives, so each statement is read once
into a :class:`~graphmem.validity.types.Claim`:

- ``subject``: whose state. The speaker when the sentence's subject is the speaker (the
  designs write the speaker's name for "I") or a thing the speaker owns ("user's
  sculpture"); a named person's key when the subject names one ("Rachel moved");
  otherwise the subject noun's key. An unresolved pronoun ("she", "it") leaves it empty:
  such a claim is compared with none (a guess at whom "she" is would pair strangers).
- ``predicate``: the main verb's lemma; for a plan or a wish ("is hoping to beat") the verb
  planned, with the ``plan`` cue; for a report ("Rosa thinks Tom should open a shop") the
  reported clause's; ``object``: its direct object's key ("online shop").
- ``topics``: the things it names (``graphmem.nlp.things``), with the head word's lemma
  ("bowls" and "bowl" are one topic), and the design's own key where it has one.
- ``values``: amounts, times and scores (``num:``), how often (``freq:``), places
  (``place:``), organisations and products (``name:``).
- ``cues``: ``change`` (words that say a value changed: "no longer", "switched", "moved
  back"), ``past`` (the main verb in the simple past: an event, "won a tournament";
  "has made six bowls" is a state), ``picture`` (what a shared photo shows), ``plan`` (a
  plan, a wish, a condition), ``negated``, ``question`` (a reported question or request).
- ``valid_from``: when it became true: the date its words resolve to when that lies in the
  past of the turn (``graphmem.nlp.temporal``), else the day it was said.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from spacy.tokens import Doc, Span, Token

from graphmem.nlp.people import person_key
from graphmem.nlp.spacy_loader import get_nlp
from graphmem.nlp.temporal import normalise_temporal
from graphmem.nlp.things import thing_names
from graphmem.validity.types import Claim, Statement

# "user asked: ...", "Maya: ...": the designs' way of saying who said it.
_PREFIX = re.compile(
    r"^(?P<who>[^:\n]{1,60}?)(?:\s+(?P<verb>asked|requested|said|added|replied))?:\s+"
)
_REPORTED = frozenset({"asked", "requested"})
_CHANGE = re.compile(
    # "used to" as a past habit, not "getting used to" / "is used to" (accustomed)
    r"(?<!get )(?<!gets )(?<!getting )(?<!got )(?<!be )(?<!is )(?<!am )(?<!are )(?<!was )"
    r"(?<!were )(?<!been )\bused to\b|"
    r"\b(?:no longer|any ?more|switched|switching|changed|quit|quitting|stopped"
    r"|instead|replaced|upgraded|downgraded|moved back|back to|not .{0,20}\bafter all)\b",
    re.IGNORECASE,
)
# A plan (it may be carried out: "plans to open a shop") and a wish (it replaces nothing
# even once it comes true: "would love to take the dogs").
_PLAN_VERBS = frozenset({"plan", "intend", "consider", "aim", "try", "think", "expect", "need"})
_WISH_VERBS = frozenset(
    {"hope", "want", "wish", "dream", "look", "would", "like", "love", "prefer", "wonder"}
)
_WISH_MODALS = frozenset({"would", "could", "might", "may"})
_SECOND_PERSON = frozenset({"you", "your", "yours", "yourself"})
# Verbs that report what someone thinks or says: the claim is the reported clause.
_REPORTING = frozenset({"think", "say", "tell", "suggest", "believe", "mention", "recommend"})
_SHOWING = frozenset({"share", "show", "send", "post", "take"})
_PICTURES = frozenset({"photo", "picture", "pic", "image", "selfie", "snapshot", "photograph"})

# spaCy's small model lemmatises "hoping" as "hop": the surface forms of these verbs too.
_FORMS = {
    "hoping": "hope",
    "hopes": "hope",
    "hoped": "hope",
    "planning": "plan",
    "plans": "plan",
    "planned": "plan",
    "wants": "want",
    "wanted": "want",
    "wanting": "want",
    "intends": "intend",
    "intending": "intend",
    "considering": "consider",
    "wishing": "wish",
    "aiming": "aim",
    "trying": "try",
    "thinking": "think",
}
_MODALS = frozenset({"would", "could", "might", "may"})
_SECOND_PERSON = frozenset({"you", "your", "yours", "yourself"})
# Verbs that report what someone thinks or says: the claim is the reported clause.
_REPORTING = frozenset({"think", "say", "tell", "suggest", "believe", "mention", "recommend"})
_SHOWING = frozenset({"share", "show", "send", "post", "take"})
_PICTURES = frozenset({"photo", "picture", "pic", "image", "selfie", "snapshot", "photograph"})
_DETERMINERS = "a an the this that these those some any my our your his her their its"
_ARTICLES = frozenset(_DETERMINERS.split())
_NUMBERS = """one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy
    eighty ninety hundred thousand few several many"""
_AMOUNTS = frozenset(_NUMBERS.split())
# spaCy's small model lemmatises "hoping" as "hop": the surface forms of the plan verbs too.
_PLAN_FORMS = frozenset(
    {
        "hoping",
        "hopes",
        "hoped",
        "planning",
        "plans",
        "planned",
        "wants",
        "wanted",
        "wanting",
        "intends",
        "intending",
        "considering",
        "wishing",
        "aiming",
        "trying",
        "thinking",
    }
)
_MODALS = frozenset({"will", "would", "could", "might", "may", "should", "shall", "'ll", "wo"})
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our"})
_UNRESOLVED = frozenset(
    {
        "he",
        "she",
        "they",
        "it",
        "him",
        "her",
        "them",
        "this",
        "that",
        "these",
        "those",
        "you",
        "one",
        "someone",
        "everyone",
        "who",
        "which",
        "what",
    }
)
# A time or an amount is a value or a date, never what a claim is about.
_NOT_TOPICS = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"})
_NUMERIC = frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT", "TIME", "ORDINAL"})
_PLACES = frozenset({"GPE", "LOC", "FAC"})
_NAMES = frozenset({"ORG", "PRODUCT", "WORK_OF_ART", "NORP"})
_FREQ = re.compile(
    r"\b(?:once|twice|thrice|(?:\w+|\d+)\s+times?)\s+(?:a|an|per|every|each)\s+"
    r"(?:day|week|month|year|fortnight)\b",
    re.IGNORECASE,
)
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b")
_HEDGES = re.compile(r"^(?:about|around|approximately|roughly|nearly|almost|over|under)\s+")


# The designs' resolutions of relative dates ("lately [before 9 May 2023]", "(May 2023)"):
# the date is ``valid_from``'s business, and its words are no topic or value.
_ANNOTATION = re.compile(r"\s*\[[^\]]{1,60}\]|\s*\((?:[^()]*\d{4}[^()]*)\)")


def split_prefix(text: str) -> tuple[str, bool]:
    """The statement without its "<speaker>:" prefix and its bracketed date resolutions,
    and whether it reports a question or a request ("user asked: ...")."""
    text = _ANNOTATION.sub("", text)
    found = _PREFIX.match(text)
    if found is None or len(found.group("who").split()) > 4:
        return text.strip(), False
    return text[found.end() :].strip(), found.group("verb") in _REPORTED


def claims(statements: Sequence[Statement]) -> list[Claim]:
    """The claim of each statement, parsed in one pass."""
    bodies = [split_prefix(s.text) for s in statements]
    docs = list(get_nlp().pipe([b for b, _ in bodies], batch_size=64))
    # A speaker is whose state a claim is, never what it is about ("assistant" in "user
    # asked assistant for tips").
    speakers = {s.speaker.strip().lower() for s in statements}
    out = []
    for s, doc, (_, reported) in zip(statements, docs, bodies, strict=True):
        claim = _claim(s, doc, reported)
        topics = tuple(t for t in claim.topics if t not in speakers)
        out.append(claim.model_copy(update={"topics": topics}))
    return out


def _claim(statement: Statement, doc: Doc, reported: bool) -> Claim:
    speaker = statement.speaker.strip().lower()
    sentence = next(iter(doc.sents), doc[:])
    root = _content(sentence.root)
    verb, predicate, intent = _predicate(root)
    subject_token = _subject_of(verb)  # "hopes Andrew finds a spot": Andrew's
    subject = _subject(subject_token, speaker)
    cues = set()
    if reported or doc.text.rstrip().endswith("?"):
        cues.add("question")
    if intent or _conditional(root):
        cues.add("plan")
    if intent == "wish":
        cues.add("wish")
    if any(c.dep_ == "neg" for c in root.children):
        cues.add("negated")
    if _CHANGE.search(doc.text):
        cues.add("change")
    if root.tag_ == "VBD":  # "won a tournament"; "has made six bowls" is a state
        cues.add("past")
    if _shows_a_picture(root):
        cues.add("picture")
    return Claim(
        subject=subject,
        predicate=predicate,
        object=_object(verb, doc),
        topics=tuple(t for t in _topics(doc, subject_token, statement.key) if t != subject),
        values=_values(doc),
        cues=tuple(sorted(cues)),
        valid_from=_valid_from(doc.text, statement),
    )


def _shows_a_picture(root: Token) -> bool:
    """ "shares a photo of three dogs": what a picture shows is no state of anyone."""
    return root.lemma_.lower() in _SHOWING and any(
        c.dep_ in ("dobj", "obj") and c.lemma_.lower() in _PICTURES for c in root.children
    )


def _predicate(root: Token) -> tuple[Token, str, str]:
    """The main verb, its lemma, and what it intends ("", "plan" or "wish"); for "hopes to
    beat", "is going to open": the verb planned."""
    lemma = _FORMS.get(root.lower_, root.lemma_.lower())
    modals = {c.lower_ for c in root.children if c.dep_ == "aux" and c.lower_ in _MODALS}
    going = any(c.lower_ == "going" for c in root.children) or (
        lemma == "go" and any(c.dep_ == "xcomp" for c in root.children)
    )
    intent = "wish" if modals & _WISH_MODALS else "plan" if modals else ""
    if lemma in _WISH_VERBS:
        intent = "wish"
    elif lemma in _PLAN_VERBS or going:
        intent = "plan"
    if lemma in _PLAN_VERBS | _WISH_VERBS or going:
        for child in root.children:
            if child.dep_ in ("xcomp", "ccomp") and child.pos_ in ("VERB", "AUX"):
                return child, child.lemma_.lower(), intent
        if lemma in ("like", "love", "need", "look", "think", "try"):
            intent = "wish" if modals & _WISH_MODALS else "plan" if modals else ""
    return root, lemma, intent


def _content(root: Token) -> Token:
    """What a report is about: "Rosa thinks Tom should open a shop" claims Tom's plan."""
    if root.lemma_.lower() not in _REPORTING:
        return root
    for child in root.children:
        if child.dep_ == "ccomp" and child.pos_ in ("VERB", "AUX"):
            return child
    return root


def _object(verb: Token, doc: Doc) -> str:
    """The key of the verb's direct object ("open an online shop": "online shop")."""
    for child in verb.children:
        if child.dep_ in ("dobj", "obj") and child.pos_ != "PRON":
            for chunk in doc.noun_chunks:
                if chunk.root.i == child.i:
                    return _chunk_key(chunk, chunk.text)
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
    if words in _FIRST_PERSON or words == speaker:
        return speaker
    if words in _UNRESOLVED:
        return ""
    owner = next((c for c in token.children if c.dep_ == "poss"), None)
    if owner is not None:  # "user's friend Rachel": Rachel; "user's sculpture": the user's
        named = [c for c in token.children if c.dep_ in ("appos", "compound") and c.pos_ == "PROPN"]
        if token.pos_ == "PROPN" or named:
            return person_key((named[0] if named and token.pos_ != "PROPN" else token).text)
        mine = owner.lower_ in _FIRST_PERSON or person_key(owner.text) == speaker
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


def _topics(doc: Doc, subject: Token | None, key: str) -> tuple[str, ...]:
    chunks = [
        c
        for c in doc.noun_chunks
        if (subject is None or subject.i not in range(c.start, c.end) or _owned(subject))
        and c.root.ent_type_ not in _NOT_TOPICS
    ]
    names = thing_names([c.text for c in chunks])
    found: set[str] = set()
    for chunk, name in zip(chunks, names, strict=True):
        name = name or _qualified(chunk)
        if name:
            found.add(_chunk_key(chunk, name))
            # "yoga classes" is also about yoga: a compound noun in front is a topic too.
            found.update(
                t.lemma_.lower()
                for t in chunk
                if t.dep_ == "compound" and t.pos_ == "NOUN" and t.head.i == chunk.root.i
            )
    if key:  # the design's own topic of the statement, as it chose it
        found.add(_plain(key))
    return tuple(sorted(t for t in found if t))


def _qualified(chunk: Span) -> str | None:
    """A light noun an adjective makes specific: "a personal best time" is a topic (an
    entity needs another noun, ``graphmem.nlp.things``; a claim's topic needs less)."""
    root = chunk.root
    if root.pos_ != "NOUN" or any(t.lower_ in _SECOND_PERSON for t in chunk):
        return None
    modifiers = [t for t in chunk if t.head.i == root.i and t.dep_ == "amod"]
    return chunk.text if modifiers else None


def _owned(subject: Token) -> bool:
    """ "Tom's online shop launched": the shop is Tom's state, and what the claim is about."""
    return subject.pos_ == "NOUN" and any(c.dep_ == "poss" for c in subject.children)


def _chunk_key(chunk: Span, name: str) -> str:
    """The thing's key: the name ``thing_names`` kept, without its article or owner ("a
    charity 5K run", "user's best time"), its head word lemmatised."""
    words = name.lower().split()
    while len(words) > 1 and (
        words[0] in _ARTICLES or words[0].endswith(("'s", "’s")) or _amount(words[0])
    ):
        words.pop(0)
    if words and words[-1] == chunk.root.lower_:
        words[-1] = chunk.root.lemma_.lower()
    return " ".join(words)


def _amount(word: str) -> bool:
    """ "six bowls" and "twenty bowls" are one thing in two amounts (the amount is a value)."""
    return word.isdigit() or word in _AMOUNTS


def _plain(name: str) -> str:
    words = name.lower().split()
    while len(words) > 1 and (words[0] in _ARTICLES or words[0].endswith(("'s", "’s"))):
        words.pop(0)
    return " ".join(words)


def _values(doc: Doc) -> tuple[str, ...]:
    found: set[str] = set()
    for ent in doc.ents:
        text = _HEDGES.sub("", ent.text.lower().strip())
        if ent.label_ == "DATE":
            continue
        if ent.label_ in _NUMERIC:
            found.add(f"num:{text}")
        elif ent.label_ in _PLACES:
            found.add(f"place:{text.removeprefix('the ')}")
        elif ent.label_ in _NAMES:
            found.add(f"name:{text.removeprefix('the ')}")
    for match in _CLOCK.finditer(doc.text):
        found.add(f"clock:{match.group(0)}")
    for match in _FREQ.finditer(doc.text):
        found.add(f"freq:{' '.join(match.group(0).lower().split())}")
    return tuple(sorted(found))


def _valid_from(text: str, statement: Statement) -> date:
    said = statement.said_at.date()
    for mention in normalise_temporal(text, statement.said_at):
        if mention.form != "absolute":
            continue
        day = _first_day(mention.value)
        if day is not None and day <= said:
            return day
    return said


def _first_day(value: str) -> date | None:
    parts = value.split("-")
    try:
        if len(parts) == 3:
            return date(int(parts[0]), int(parts[1]), int(parts[2]))
        if len(parts) == 2:
            return date(int(parts[0]), int(parts[1]), 1)
        return date(int(parts[0]), 1, 1)
    except ValueError:
        return None
