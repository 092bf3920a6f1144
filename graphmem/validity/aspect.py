"""What a statement says is under way, and the keys of the things it names.

Read from the statement's own clauses (``main_verbs``: its main verb and the verbs joined
to it by "and" or a dash; not a relative clause, a condition or a complement) whose
subject is the claim's, each as a value ``kind:thing`` of the claim:

- ``begun:X``: "just started X", "has begun X", told as done (the simple past or the
  present perfect: "starts work at 9" is a habit);
- ``ended:X``: "finished X", "completed X", "got back from X", told as done; "has to
  finish X", "can't wait to finish X", "once I finish X" end nothing;
- ``dropped:X``: "cancelled X", "postponed X", "called off X", "pushed back X", told as
  done: a plan called off or moved;
- ``planned:X``: what a plan is about ("is planning a road trip to Kyoto"); a wish is no
  plan ("would love to visit Kyoto");
- ``now:<activity>=X``: what the subject does now, of the things one does one at a time
  (``lexicon.NOW_ACTIVITIES``: "currently reading X", "now lives in X").

X is a *specific* thing (``specific_key``): a name, or a noun with another noun in front
("pottery class", "abstract ocean sculpture"), with what it is called in apposition ("a
novel, The Nightingale"). A common noun, even with an adjective ("the course", "a new
job"), says too little to tell two statements are about one thing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from spacy.tokens import Doc, Span, Token

from graphmem.validity import lexicon as lex
from graphmem.validity.patterns import Match
from graphmem.validity.values import Now, Said, Value

# A person is someone, not a thing whose state changes.
_NAMED_ENTITIES = frozenset({"ORG", "PRODUCT", "WORK_OF_ART", "EVENT"}) | lex.PLACES
_QUOTES = "\"'“”‘’ "
# The clauses of the statement itself: joined by "and" (conj) or set side by side
# ("... lately - user has already put in 10-12 hours": parataxis).
_MAIN = frozenset({"conj", "parataxis"})
# The dependencies of a verb that heads a clause of its own.
_CLAUSE_DEPS = frozenset(
    {"ROOT", "conj", "parataxis", "ccomp", "advcl", "relcl", "xcomp", "csubj", "acl", "pcomp"}
)


def chunk_key(chunk: Span, name: str) -> str:
    """The thing's key: the name without its article, owner or amount ("a charity 5K run",
    "user's best time", "six bowls"), quotes dropped, its head word lemmatised."""
    words = name.lower().strip(_QUOTES).split()
    while len(words) > 1 and (
        words[0] in lex.ARTICLES or words[0].endswith(("'s", "’s")) or is_amount(words[0])
    ):
        words.pop(0)
    words = [w.strip(_QUOTES) for w in words]
    if words and words[-1] == chunk.root.lower_:
        words[-1] = chunk.root.lemma_.lower()
    return " ".join(w for w in words if w)


def is_amount(word: str) -> bool:
    """ "six bowls" and "twenty bowls" are one thing in two amounts (the amount is a value)."""
    return word.isdigit() or word in lex.AMOUNTS


def specific_key(chunk: Span) -> str:
    """The chunk's key when it names one specific thing (module docstring), else ""."""
    root = chunk.root
    if root.ent_type_ == "PERSON" or root.pos_ == "PRON":
        return ""
    named = root.pos_ == "PROPN" or root.ent_type_ in _NAMED_ENTITIES
    compound = any(t.dep_ == "compound" and t.head.i == root.i for t in chunk)
    return chunk_key(chunk, chunk.text) if named or compound else ""


def clauses(doc: Doc) -> list[Token]:
    """Every verb that heads a clause told as a fact, in order, wherever it stands (a value
    is its subject's in whichever clause tells it): a participle in front of a noun
    ("cocktail-making class") heads none, and what is planned or wished ("is thinking of
    moving to Denver") is not told."""
    return [
        t for t in doc if t.pos_ in ("VERB", "AUX") and t.dep_ in _CLAUSE_DEPS and not _intended(t)
    ]


def _intended(verb: Token) -> bool:
    """Under a verb of planning or wishing ("thinking of moving", "wants to live")."""
    return any(
        t.lemma_.lower() in lex.PLAN_VERBS | lex.WISH_VERBS and t.pos_ == "VERB"
        for t in verb.ancestors
    )


def main_verbs(root: Token) -> list[Token]:
    """The root and the verbs of the statement's own clauses joined to it."""
    found, stack = [root], [root]
    while stack:
        for child in stack.pop().children:
            if child.dep_ in _MAIN and child.pos_ in ("VERB", "AUX"):
                found.append(child)
                stack.append(child)
    return found


def agent(verb: Token) -> Token | None:
    """Who does it: the verb's subject, or for "... and finished it" the first verb's."""
    while True:
        subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subject is not None or verb.dep_ not in _MAIN or verb.head.i == verb.i:
            return subject
        verb = verb.head


def under_way(
    doc: Doc,
    root: Token,
    whose: Callable[[Token], str],
    subject: str,
    planned: Token | None,
    matched: dict[str, list[Match]],
) -> list[Value]:
    """The ``begun:``, ``ended:``, ``dropped:``, ``planned:`` and ``now:`` values (module
    docstring) of the main clauses whose subject is ``subject`` (``whose`` reads a verb's);
    ``planned``: the verb a plan is about, when the statement is a plan; ``matched``: the
    doc's pattern matches (``patterns.matches``, read once per statement)."""
    found: list[Value] = []
    if planned is not None:
        found += [Said(kind="planned", said=key) for key in _things_of(planned, doc)]
    for verb in main_verbs(root):
        if not subject or whose(verb) != subject or hedged(verb):
            continue
        lemma = verb.lemma_.lower()
        if lemma in lex.BEGIN_VERBS and _told_done(verb):
            found += [Said(kind="begun", said=key) for key in _things_of(verb, doc)]
        elif lemma in lex.END_VERBS and _told_done(verb):
            found += [Said(kind="ended", said=key) for key in _things_of(verb, doc)]
        elif lemma in lex.RETURN_VERBS and _told_done(verb):
            found += [Said(kind="ended", said=key) for key in _back_from(verb, doc)]
        elif lemma in lex.DROP_VERBS and _told_done(verb) and _dropping(verb, lemma):
            found += [Said(kind="dropped", said=key) for key in _things_of(verb, doc)]
        found += _now(verb, doc, matched)
    return found


def _told_done(verb: Token) -> bool:
    """The simple past ("finished") or the present perfect ("has finished")."""
    perfect = any(c.dep_ == "aux" and c.lemma_.lower() == "have" for c in verb.children)
    return verb.tag_ == "VBD" or (verb.tag_ == "VBN" and perfect)


def _dropping(verb: Token, lemma: str) -> bool:
    """ "cancelled", "postponed"; "called off", "put off", "pushed back" with their particle."""
    particle = lex.DROP_PARTICLES.get(lemma)
    return particle is None or any(
        c.dep_ in ("prt", "advmod") and c.lower_ == particle for c in verb.children
    )


def hedged(verb: Token) -> bool:
    """Not told as a fact: denied, with a modal ("can finish"), or in a condition."""
    return any(
        c.dep_ == "neg"
        or (c.dep_ == "aux" and c.lower_ in lex.HEDGING_MODALS)
        or (c.dep_ == "mark" and c.lower_ in lex.HEDGING_MARKS)
        for c in verb.children
    )


def _things_of(verb: Token, doc: Doc) -> Iterator[str]:
    """The specific things the verb acts on: its direct object and what that is called in
    apposition; for "started reading X", the object of the verb it governs."""
    objects = [c for c in verb.children if c.dep_ in ("dobj", "obj")]
    if not objects:
        governed = [c for c in verb.children if c.dep_ == "xcomp" and c.pos_ == "VERB"]
        objects = [c for g in governed for c in g.children if c.dep_ in ("dobj", "obj")]
    if not objects:  # "get back to X", "started on X"
        near = [verb, *(c for c in verb.children if c.dep_ in ("advmod", "prt"))]
        preps = [
            c
            for t in near
            for c in t.children
            if c.dep_ == "prep" and c.lower_ in lex.THING_PREPOSITIONS
        ]
        objects = [p for prep in preps for p in prep.children if p.dep_ == "pobj"]
    heads = objects + [a for o in objects for a in o.children if a.dep_ == "appos"]
    yield from _keys(heads, doc)


def _back_from(verb: Token, doc: Doc) -> Iterator[str]:
    """ "got back from X", "came back from X", "returned from X": X."""
    near = [verb, *verb.children]
    if not (verb.lemma_.lower() == "return" or any(t.lower_ == "back" for t in near)):
        return
    froms = [c for t in near for c in t.children if c.dep_ == "prep" and c.lower_ == "from"]
    yield from _keys([p for f in froms for p in f.children if p.dep_ == "pobj"], doc)


def _now(verb: Token, doc: Doc, found: dict[str, list[Match]]) -> list[Now]:
    """ "currently reading X": ``now:read=x``; "now lives in X": ``now:live in=x``
    (``validity.patterns``)."""
    out = []
    for match in (m for m in found["now"] if m["verb"].i == verb.i):
        prep = match.get("prep")
        activity = verb.lemma_.lower() + (f" {prep.lower_}" if prep is not None else "")
        out += [Now(activity=activity, thing=key) for key in _keys([match["object"]], doc)]
    return out


def verb_of(token: Token) -> Token:
    """The nearest verb above a token (the sentence's root when none is): whose clause a
    value or a date is in."""
    while token.pos_ not in ("VERB", "AUX") and token.head.i != token.i:
        token = token.head
    return token


def _keys(heads: list[Token], doc: Doc) -> Iterator[str]:
    wanted = {h.i for h in heads}
    for chunk in doc.noun_chunks:
        if chunk.root.i in wanted:
            key = specific_key(chunk)
            if key:
                yield key
