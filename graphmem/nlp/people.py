"""Whether a name the tagger marks PERSON names a person, from how a conversation uses it.

The small English pipeline tags many capitalised words of chat PERSON: "Glad", "Congrats",
a place ("Woodhaven", "Fox Hollow"), a product or a work ("Fortnite", "Honda Civic", "Good
Omens"), a modifier of a thing ("Ferris" wheel, "Marley" flooring). A character is a
person, so the designs that find characters (CAST's participants, Amory's characters) ask
this module, which weighs every use of the name in the conversation (the batch's texts):

- for a person (a full use): a PERSON span in a place only a person takes: the subject of
  what people do ("Gina said", "Gina loves"), the owner of what people have ("Gina's dog",
  "Gina's birthday"), the one met, called, told, helped ("I met Gina"), the one talked to,
  heard from or spent time with ("talked to Gina", "went hiking with Gina"), or named with a
  kinship or role word ("my friend Gina", "Aunt May");
- half a use: the subject or owner of anything else ("Coursera offers", "Sephora's
  products"), the one with, to, from or for whom anything else happens ("bought from
  Sephora", "pairs well with Paella"), a place visited, or a name in passing;
- against: the same name tagged as a place, an organisation, a product, a work, a language
  or a group; used as a modifier of a noun ("Ferris wheel"); after a preposition of place
  ("in Woodhaven"); as what one plays, reads, watches, uses, eats, drinks, wears, buys or
  installs ("playing Fortnite"); a plural ("German Shepherds", "Avengers"); written in
  lower case as a common word ("nature");
- a greeting or a reaction word ("Glad", "Congrats", "Wanna") is never a person; a
  capitalised word opening its sentence alone is no evidence ("Glad you came!").

A name is a person when its evidence for outweighs its evidence against, and it starts
with a given name or has two full uses' weight. A name WordNet knows only as something
else is a thing unless the conversation names someone by it ("my dog Coco", "her name is
Coco", "a puppy named Coco"): a common noun ("Osprey"; as the last word of a name without
a given name: "Research Articles"), a named thing ("Joshua Tree", "Rosetta Stone"), or a
word that is also a rare given name (fewer than one American in 10,000: "America",
"Dell"). Only the people's own turns are weighed:
an AI assistant's answers name products, places and works in a person's place. Speakers
are persons without asking. Possessives are stripped ("Hannah Gadsby's" -> "Hannah Gadsby").
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Iterable
from importlib import resources

from spacy.tokens import Doc, Span, Token

from graphmem.nlp.wordnet import thing_noun

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
# What only a person does: the subject of these verbs is a person ("Gina said", "Gina
# loves"); of other verbs, a company, a product or a place may be ("Coursera offers",
# "Paella takes an hour"), so there it weighs as a mention in passing.
_PERSON_VERB_WORDS = """say tell ask answer reply think feel believe know love like hate want
    hope wish miss remember forget decide laugh cry smile marry die bear meet visit call text
    agree learn study graduate live grow raise adopt sing dance paint draw cook sleep travel
    move retire joke admit promise explain mention suggest recommend invite celebrate worry
    care enjoy prefer dream pray vote propose apologize apologise thank hug kiss date
    teach coach win lose play write read watch walk run swim hike go"""
_PERSON_VERBS = frozenset(_PERSON_VERB_WORDS.split())
_TOGETHER_VERB_WORDS = "talk speak chat hang spend share hear catch work live stay"
_TOGETHER_VERBS = frozenset(_TOGETHER_VERB_WORDS.split())
# What a person has: the owner of these is a person ("Gina's mom", "Gina's birthday");
# of other things, an owner may be a company or a place ("Sephora's products").
_PERSONAL_THING_WORDS = """name birthday wedding funeral family life childhood parents kids
    children pet dog cat puppy kitten husband wife son daughter mother father mom dad
    brother sister friend friends boyfriend girlfriend partner hair face eyes voice advice
    story stories words opinion idea ideas feelings health job career retirement graduation
    room house home place car phone music song songs book books art painting paintings
    favorite favourite"""
# Words naming a person by their role to someone ("my friend Gina"; shared with
# graphmem.validity, where "user's sister" is the sister's state, not the user's).
_ROLE_WORD_TEXT = """friend sister brother mom mum dad mother father wife husband son daughter
    aunt uncle cousin grandma grandpa grandmother grandfather boss coworker colleague partner
    boyfriend girlfriend fiance fiancee neighbor neighbour teacher coach kid child baby niece
    nephew roommate buddy pal mentor therapist doctor dr mr mrs ms miss sir"""
ROLE_WORDS = frozenset(_ROLE_WORD_TEXT.split())
_PERSONAL_THINGS = frozenset(_PERSONAL_THING_WORDS.split()) | ROLE_WORDS
_TITLE_WORDS = """pope saint st president prince princess queen king lord lady general
    captain professor prof officer judge senator governor mayor rev reverend father sister
    brother uncle aunt sir dame minister chancellor secretary ambassador"""
_TITLES = frozenset(_TITLE_WORDS.split()) | ROLE_WORDS
_NOT_NAME_WORDS = """bye hey hi hello glad nah wanna gonna gotta yeah yay wow omg lol thanks
    congrats cool awesome sure welcome nature music art guitar"""
_NOT_NAMES = frozenset(_NOT_NAME_WORDS.split())
_PET_WORD_TEXT = """dog puppy pup cat kitten kitty pet bird parrot horse pony rabbit bunny
    hamster turtle tortoise snake lizard"""
# "my dog Coco", "Coco, my puppy": the words a named being is introduced with
_INTRODUCERS = ROLE_WORDS | frozenset(_PET_WORD_TEXT.split())
_NAMING_VERBS = frozenset({"name", "call", "nickname"})
_BEINGS = frozenset({"him", "her", "his", "them", "their", "my", "our", "your"})
# Census share (percent) below which a given name that is also a word is no evidence.
_RARE_GIVEN_SHARE = 0.01


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
        self.full: defaultdict[str, int] = defaultdict(int)  # uses in a person's place
        self.named: defaultdict[str, int] = defaultdict(int)  # "my dog Coco", "named Coco"

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
        plural = root.tag_ == "NNPS"  # "German Shepherds", "Avengers": a kind or a group
        if _introduced(root):
            self.named[key] += 1
        # "Ferris wheel", "in Woodhaven", "play Fortnite", "Dear Evan Hansen"
        if modifier or place or thing or plural or _inside_a_name(ent):
            self.against[key] += 1
        elif _personal(root, verb):
            self.support[key] += 1.0
            self.full[key] += 1
        elif _personal(root, verb, strict=False) or not (
            len(ent) == 1 and ent.start == ent.sent.start
        ):
            self.support[key] += 0.5  # a name in passing: half the weight of a person's place

    def is_person(self, surface: str) -> bool:
        key = person_key(surface)
        if not key or any(word in _NOT_NAMES for word in key.split()):
            return False
        support, against = self.support[key], self.against[key]
        if against >= max(support, 0.5):
            return False
        if self.named[key] > 0:
            return True  # "her name's Coco", "a puppy named Coco", "my friend Gina"
        # Mentions in passing alone ("move Sol to Ethereum", "making Paella") never add up
        # to a person without a given name: one use in a person's place is needed.
        if not (key.split()[0] in given_names() or (support >= 2.0 and self.full[key] > 0)):
            return False
        return not _a_thing(key)


@functools.cache
def given_names() -> frozenset[str]:
    """Given names of the US census (about 5,000, lower case): a first word among them is
    evidence of a person that one mention in passing does not otherwise give."""
    return frozenset(_given_shares())


@functools.cache
def _given_shares() -> dict[str, float]:
    """Each census given name's share of the people (percent; the larger of its male and
    female shares)."""
    shares: dict[str, float] = {}
    for table in ("dist.male.first", "dist.female.first"):
        with resources.files("names").joinpath(table).open(encoding="ascii") as rows:
            for line in rows:
                if line.strip():
                    name, share = line.split()[:2]
                    shares[name.lower()] = max(shares.get(name.lower(), 0.0), float(share))
    return shares


def _a_thing(key: str) -> bool:
    """Whether WordNet knows the name ``key`` (lower case) only as something other than a
    person (module docstring)."""
    words = key.split()
    shares = _given_shares()
    if len(words) > 1:
        whole = thing_noun(key)
        last = thing_noun(words[-1])
        return whole == "p" or (words[0] not in shares and last == "c")
    if thing_noun(key) is None:
        return False
    return key not in shares or shares[key] < _RARE_GIVEN_SHARE


def _introduced(root: Token) -> bool:
    """Whether the name headed by ``root`` is given to someone: with a role or a pet word
    ("my dog Coco", "Coco, my puppy"), as what one is named or called ("a puppy named
    Coco"), or as what a name is ("her name's Coco")."""
    head = root.head
    beside = [c for c in root.children if c.dep_ in ("compound", "appos")]
    if root.dep_ == "appos":
        beside.append(head)
    if any(t.lemma_.lower() in _INTRODUCERS for t in beside):
        return True
    if root.dep_ in ("oprd", "dobj", "attr", "npadvmod") and head.lemma_.lower() in _NAMING_VERBS:
        # who is named: "a puppy named Coco", "we called him Max" ("a place called
        # Whispering Falls" names a place)
        named = [head.head] if head.dep_ == "acl" else []
        named += [c for c in head.children if c.dep_ in ("dobj", "nsubjpass") and c is not root]
        return any(t.lemma_.lower() in _INTRODUCERS or t.lower_ in _BEINGS for t in named)
    subjects = [c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")]
    # "name's Coco" is also parsed as a possessive: "name" hangs off the name itself
    subjects += [c for c in root.children if c.dep_ in ("nsubj", "poss")]
    names = [c for c in subjects if c.lemma_.lower() == "name"]
    # whose name: a person's or a pet's ("her name", "my dog's name"), not a place's
    owners = [c for n in names for c in n.children if c.dep_ == "poss"]
    return root.dep_ in ("attr", "ROOT") and any(
        o.lower_ in _BEINGS or o.lemma_.lower() in _INTRODUCERS for o in owners
    )


def _personal(root: Token, verb: str, strict: bool = True) -> bool:
    """Whether the name headed by ``root`` stands where only a person does (docstring).
    ``strict``: a subject only of what a person does, an owner only of what a person has;
    otherwise any subject or owner."""
    if root.dep_ == "conj":  # "Bach and Mozart": as the first of the list
        return _personal(root.head, _verb_lemma(root.head), strict)
    if root.dep_ in ("nsubj", "nsubjpass"):
        lemma = root.head.lemma_.lower()
        return not strict or (root.head.pos_ == "VERB" and lemma in _PERSON_VERBS)
    if root.dep_ == "poss":
        return not strict or root.head.lemma_.lower() in _PERSONAL_THINGS
    if root.dep_ == "dobj" and verb in _SOCIAL_VERBS:
        return not strict or verb != "visit"  # "visit Gina", "visit Joshua Tree"
    if root.dep_ == "pobj" and root.head.lower_ in _PERSONAL_PREPOSITIONS:
        # "bought from Sephora", "pairs well with Paella": only with what people do
        # together ("talked to Gina", "went hiking with Gina") is it a person's place.
        together = verb in _SOCIAL_VERBS or verb in _PERSON_VERBS or verb in _TOGETHER_VERBS
        return verb not in _MOTION_VERBS and (not strict or together)
    titled = (c for c in root.children if c.dep_ in ("compound", "appos", "nmod"))
    named = root.head if root.dep_ == "appos" else None
    return any(c.lower_ in ROLE_WORDS for c in titled) or (
        named is not None and named.lemma_.lower() in ROLE_WORDS
    )


def _inside_a_name(ent: Span) -> bool:
    """A name cut from a longer one: "Dear *Evan Hansen*", "Converse *Chuck Taylor*", a
    capitalised word before it that is no title ("Aunt May", "Pope Paul VI" are names)."""
    before = ent.doc[ent.start - 1] if ent.start > 0 else None
    if before is None or before.pos_ != "PROPN" or before.i == ent.sent.start:
        return False
    return before.lower_.rstrip(".") not in _TITLES


def _verb_lemma(tok: Token) -> str:
    """The lemma of the verb ``tok`` is the object of (through one preposition)."""
    head = tok.head.head if tok.head.dep_ == "prep" else tok.head
    return head.lemma_.lower() if head.pos_ == "VERB" else ""
