"""How many of one thing a statement says its subject has, has done or is at: the
``count:`` values of a claim, read from its own clauses whose subject is the claim's, as
``graphmem.validity.aspect`` reads what is under way.

``count:<verb>|<thing>|<period>|<total>=N``, from a number in front of a noun the clause's
verb acts on or is at ("has watched 4 MCU films", "has 37 coins"), or after a noun that
names a place in a sequence ("is on page 200", "episode 10"):

- ``<verb>``: the verb's lemma, "has", "has got", "owns", "keeps" all ``have``;
- ``<thing>``: the noun's key with what its prepositions and the verb's say of it ("3 cups
  of coffee", "2 tickets for the concert", "12 tomato plants in the garden"): two counts
  of other things never meet;
- ``<period>``: the dates said in the clause ("in the last 3 months"), "" when none;
- ``<total>``: ``total`` when the count is a state ("has", "is on") or told as a running
  total ("so far", "already", "now", "in total"), else "": "has added 2 new fish" may be
  one event among others.

Not counted, since two such numbers are both true at once: a past event ("bought 3
plants"), a plan or a wish ("needs 4 eggs"), a rate ("2 cups a day", "each morning"), a
count of a day or a week ("3 coffees today": said on two days, two counts), a noun a
clause describes ("2 friends who play tennis"), a range ("3 to 4"), an identifier ("room
204", "iPhone 12", "a 2015 Civic"), a unit of time ("5 hours": a duration, the measures'
business).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from spacy.tokens import Doc, Token

from graphmem.validity import lexicon as lex
from graphmem.validity.aspect import chunk_key, clauses, hedged, verb_of
from graphmem.validity.values import Count

_STATES = frozenset({"have", "be"})
# "Speaking of the garden, user has 12 tomato plants": the garden's.
_FRAMES = frozenset({"speak", "talk"})
_TOTALS = re.compile(
    r"\b(?:so far|in total|a total of|altogether|already|now|currently|to date|till now)\b"
)
_RATES = re.compile(
    r"\b(?:a|an|per|each|every)\s+(?:day|week|month|year|morning|night|evening|afternoon"
    r"|weekend|session|time)s?\b"
)
# A count over one of these is of that day or week: said on two days, it is two counts.
_SHORT_WORDS = """today tonight yesterday tomorrow morning afternoon evening night week
    weekend"""
_SHORT_PERIODS = frozenset(_SHORT_WORDS.split())
# Nouns whose number after them is a place in a sequence ("page 200"), not a name.
_POSITION_WORDS = """page chapter episode season level lesson round stage part volume step
    unit module"""
_POSITIONS = frozenset(_POSITION_WORDS.split())


def clause_counts(
    doc: Doc, root: Token, whose: Callable[[Token], str], subject: str
) -> list[Count]:
    """The ``count:`` values of the statement's own clauses whose subject is ``subject``
    (``whose`` reads a verb's), told as facts."""
    return [
        value
        for verb in clauses(doc)
        if subject and whose(verb) == subject and not hedged(verb)
        for value in _counts(verb, doc)
    ]


def _counts(verb: Token, doc: Doc) -> list[Count]:
    """The ``count:`` values of the clause of ``verb`` (module docstring)."""
    lemma = verb.lemma_.lower()
    # "has tried four of them" is a running total; "is trying to read 4 books" a plan.
    tried = lemma == "try" and not any(c.dep_ == "xcomp" for c in verb.children)
    if verb.tag_ == "VBD" or (lemma in lex.PLAN_VERBS | lex.WISH_VERBS and not tried):
        return []
    clause = " ".join(t.lower_ for t in verb.subtree)
    if _RATES.search(clause) or lex.FREQ.search(clause):
        return []
    dated = [e for e in doc.ents if e.label_ in ("DATE", "TIME") and verb_of(e.root) == verb]
    period = " ".join(sorted(e.text.lower() for e in dated))
    if _SHORT_PERIODS & set(period.split()):
        return []
    lemma = lex.POSSESSING.get(lemma, lemma)
    total = lemma in _STATES or bool(_TOTALS.search(clause))
    in_dates = {t.i for e in dated for t in e}
    framed = [c for c in verb.children if c.dep_ == "advcl" and c.lemma_ in _FRAMES]
    # "Speaking of the garden, ...": what the frame speaks of says which things are counted.
    said_of_verb = [s for frame in framed for s in _said_of(frame, doc)]
    found = []
    for noun in _acted_on(verb):
        number = _number_of(noun, in_dates)
        if number is None or noun.lemma_.lower() in lex.TIME_UNITS or _described(noun):
            continue
        said = [*_said_of(noun, doc), *_said_of(number, doc), *_said_of(verb, doc, noun)]
        key = " ".join([_key(noun, doc), *said, *said_of_verb])
        found.append(
            Count(verb=lemma, thing=key, period=period, total=total, number=_normal(number.lower_))
        )
    return found


def _number_of(noun: Token, in_dates: set[int]) -> Token | None:
    """The one exact number that counts ``noun`` (in front of it, or after a position
    noun); None when there is none, several, or a range or a date."""
    numbers = [
        c
        for c in noun.children
        if c.dep_ == "nummod" and (c.i < noun.i or noun.lemma_.lower() in _POSITIONS)
    ]
    if len(numbers) != 1:
        return None
    number = numbers[0]
    joined = number.i > 0 and number.doc[number.i - 1].text == "-"  # "twenty-five"
    # "3 to 4", "4 or 5", "between 3 and 5": a range; "page 220 of the novel" is one page.
    ranged = any(c.dep_ != "prep" or c.lower_ != "of" for c in number.children)
    if ranged or joined or number.i in in_dates or not _exact(number.lower_):
        return None
    return number


def _exact(word: str) -> bool:
    """A number that says how many ("4", "four"), not "a few" or "several"."""
    return word.replace(",", "").replace(".", "").isdigit() or word in lex.NUMBER_VALUES


def _normal(word: str) -> str:
    """ "4", "four" and "4.0" are one number; "1,200" is 1200."""
    word = word.replace(",", "")
    if word in lex.NUMBER_VALUES:
        return str(lex.NUMBER_VALUES[word])
    try:
        return f"{float(word):g}"
    except ValueError:
        return word


def _described(noun: Token) -> bool:
    """ "2 friends who play tennis", "3 books to read for class": a clause says which ones
    ("page 200, which has ..." only adds to it)."""
    return any(
        c.dep_ in ("relcl", "acl") and c.doc[min(t.i for t in c.subtree) - 1].text != ","
        for c in noun.children
    )


def _key(noun: Token, doc: Doc) -> str:
    """The noun's phrase without its article, owner or number ("4 MCU films": "mcu film")."""
    chunk = next((c for c in doc.noun_chunks if c.root.i == noun.i), None)
    return chunk_key(chunk, chunk.text) if chunk is not None else noun.lemma_.lower()


def _said_of(head: Token, doc: Doc, skip: Token | None = None) -> list[str]:
    """What ``head``'s prepositions say ("of coffee", "for concert"), except the one that
    leads to ``skip`` (the counted noun) and dates; a pronoun ("of it") says nothing."""
    out = []
    for prep in head.children:
        if prep.dep_ != "prep" or (skip is not None and skip.i in {t.i for t in prep.subtree}):
            continue
        for pobj in prep.children:
            named = pobj.pos_ in ("NOUN", "PROPN") and pobj.ent_type_ not in ("DATE", "TIME")
            if pobj.dep_ == "pobj" and named:
                out.append(f"{prep.lower_} {_key(pobj, doc)}")
    return out


def _acted_on(verb: Token) -> Iterator[Token]:
    """The nouns a verb acts on or is at: its objects and its prepositions' objects, and
    through "of" theirs ("a total of 37 coins", "on episode 10 of the series")."""
    stack = [c for c in verb.children if c.dep_ in ("dobj", "obj", "attr", "prep")]
    while stack:
        token = stack.pop()
        if token.dep_ == "prep":
            stack += [c for c in token.children if c.dep_ == "pobj"]
        elif token.pos_ in ("NOUN", "PROPN"):
            yield token
            stack += [c for c in token.children if c.dep_ == "prep" and c.lower_ == "of"]
