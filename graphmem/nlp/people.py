"""Whether a name the tagger marks PERSON names a person, from how a conversation uses it.

The small English pipeline tags many capitalised words of chat PERSON: "Glad", "Congrats",
a place ("Woodhaven", "Fox Hollow"), a product or a work ("Fortnite", "Honda Civic", "Good
Omens"), a modifier of a thing ("Ferris" wheel, "Marley" flooring). A character is a
person, so the designs that find characters (CAST's participants, Amory's characters) ask
this module, which weighs every use of the name in the conversation (the batch's texts):

- for a person: a PERSON span in a place only a person takes: the subject of a verb ("Gina
  said"), a possessor ("Gina's dog"), the one met, called, told, helped, visited ("I met
  Gina"), the one with, to, from or for whom something happens, when nobody goes there
  ("a gift from Gina", not "went to Woodhaven"), or named with a kinship or role word ("my
  friend Gina", "Aunt May");
- against: the same name tagged as a place, an organisation, a product, a work, a language
  or a group; used as a modifier of a noun ("Ferris wheel"); after a preposition of place
  ("in Woodhaven"); as what one plays, reads, watches, uses, eats, drinks, wears, buys or
  installs ("playing Fortnite"); written in lower case as a common word ("nature");
- a greeting or a reaction word ("Glad", "Congrats", "Wanna") is never a person; a
  capitalised word opening its sentence alone is no evidence ("Glad you came!").

A name is a person when its evidence for outweighs its evidence against. Speakers are
persons without asking. Possessives are stripped ("Hannah Gadsby's" -> "Hannah Gadsby").
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Iterable
from importlib import resources

from spacy.tokens import Doc, Span, Token

_POSSESSIVE = re.compile(r"\s*[’']s?$")
_OTHER_LABELS = frozenset(
    {"GPE", "LOC", "FAC", "ORG", "PRODUCT", "WORK_OF_ART", "EVENT", "LANGUAGE", "NORP"}
)
_PLACE_PREPOSITIONS = frozenset({"in", "near", "around", "through", "into", "across", "outside"})
_THING_VERB_WORDS = """play read watch use install download eat drink cook bake wear buy order
    stream binge listen code program"""
_THING_VERBS = frozenset(_THING_VERB_WORDS.split())
_SOCIAL_VERB_WORDS = """meet see visit call text email tell ask help thank miss love hug kiss
    marry date invite introduce join follow know befriend text message hire teach coach"""
_SOCIAL_VERBS = frozenset(_SOCIAL_VERB_WORDS.split())
_MOTION_VERB_WORDS = """go went move travel drive fly return come head walk hike run trip
    relocate commute ride sail"""
_MOTION_VERBS = frozenset(_MOTION_VERB_WORDS.split())
_PERSONAL_PREPOSITIONS = frozenset({"with", "to", "from", "for", "by"})
# Words naming a person by their role to someone ("my friend Gina"; shared with
# graphmem.validity, where "user's sister" is the sister's state, not the user's).
_ROLE_WORD_TEXT = """friend sister brother mom mum dad mother father wife husband son daughter
    aunt uncle cousin grandma grandpa grandmother grandfather boss coworker colleague partner
    boyfriend girlfriend fiance fiancee neighbor neighbour teacher coach kid child baby niece
    nephew roommate buddy pal mentor therapist doctor dr mr mrs ms miss sir"""
ROLE_WORDS = frozenset(_ROLE_WORD_TEXT.split())
_NOT_NAME_WORDS = """bye hey hi hello glad nah wanna gonna gotta yeah yay wow omg lol thanks
    congrats cool awesome sure welcome nature music art guitar"""
_NOT_NAMES = frozenset(_NOT_NAME_WORDS.split())


def person_name(surface: str) -> str:
    """A name as written, its possessive stripped: "Hannah Gadsby's" -> "Hannah Gadsby"."""
    return " ".join(_POSSESSIVE.sub("", surface.strip()).split())


def person_key(surface: str) -> str:
    """A name's identity for the evidence: possessive stripped, single spaces, lower case."""
    return " ".join(_POSSESSIVE.sub("", surface.strip()).split()).lower()


class PersonEvidence:
    """Counts of a conversation's uses of each PERSON-tagged name, for and against."""

    def __init__(self) -> None:
        self.support: defaultdict[str, float] = defaultdict(float)
        self.against: defaultdict[str, float] = defaultdict(float)

    @classmethod
    def of(cls, docs: Iterable[Doc]) -> PersonEvidence:
        found = cls()
        docs = list(docs)
        for doc in docs:
            for ent in doc.ents:
                key = person_key(ent.text)
                if ent.label_ == "PERSON":
                    found._weigh(ent, key)
                elif ent.label_ in _OTHER_LABELS:
                    found.against[key] += 1
        names = {k for k in found.support if " " not in k}
        for doc in docs:  # one name written in lower case as a common word: "nature"
            for tok in doc:
                if tok.text.islower() and tok.text in names:
                    found.against[tok.text] += 1
        return found

    def _weigh(self, ent: Span, key: str) -> None:
        root = ent.root
        before = ent.doc[ent.start - 1] if ent.start > 0 else None
        verb = _verb_lemma(root)
        modifier = root.dep_ in ("compound", "amod") and root.head.pos_ == "NOUN"
        place = before is not None and before.lower_ in _PLACE_PREPOSITIONS
        thing = root.dep_ in ("dobj", "pobj") and verb in _THING_VERBS
        if modifier or place or thing:  # "Ferris wheel", "in Woodhaven", "play Fortnite"
            self.against[key] += 1
        elif _personal(root, verb):
            self.support[key] += 1.0
        elif not (len(ent) == 1 and ent.start == ent.sent.start):
            self.support[key] += 0.5  # a name in passing: half the weight of a person's place

    def is_person(self, surface: str) -> bool:
        key = person_key(surface)
        if not key or any(word in _NOT_NAMES for word in key.split()):
            return False
        support, against = self.support[key], self.against[key]
        if against >= max(support, 0.5):
            return False
        return key.split()[0] in given_names() or support >= 2.0


@functools.cache
def given_names() -> frozenset[str]:
    """Given names of the US census (about 5,000, lower case): a first word among them is
    evidence of a person that one mention in passing does not otherwise give."""
    found: set[str] = set()
    for table in ("dist.male.first", "dist.female.first"):
        with resources.files("names").joinpath(table).open(encoding="ascii") as rows:
            found.update(line.split()[0].lower() for line in rows if line.strip())
    return frozenset(found)


def _personal(root: Token, verb: str) -> bool:
    """Whether the name headed by ``root`` stands where only a person does (docstring)."""
    if root.dep_ == "conj":  # "Bach and Mozart": as the first of the list
        return _personal(root.head, _verb_lemma(root.head))
    if root.dep_ in ("nsubj", "nsubjpass", "poss"):
        return True
    if root.dep_ == "dobj" and verb in _SOCIAL_VERBS:
        return True
    if root.dep_ == "pobj" and root.head.lower_ in _PERSONAL_PREPOSITIONS:
        return verb not in _MOTION_VERBS
    titled = (c for c in root.children if c.dep_ in ("compound", "appos", "nmod"))
    named = root.head if root.dep_ == "appos" else None
    return any(c.lower_ in ROLE_WORDS for c in titled) or (
        named is not None and named.lemma_.lower() in ROLE_WORDS
    )


def _verb_lemma(tok: Token) -> str:
    """The lemma of the verb ``tok`` is the object of (through one preposition)."""
    head = tok.head.head if tok.head.dep_ == "prep" else tok.head
    return head.lemma_.lower() if head.pos_ == "VERB" else ""
