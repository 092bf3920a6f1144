"""The words more than one rule of ``graphmem.nlp`` and ``graphmem.validity`` reads, each
written once (issue 58: rules as data, no list twice). A list only one rule reads stays
next to it: the claim reader's in ``graphmem/validity/lexicon.py``, temporal grounding's
in ``data/dates.toml`` (whose weekdays the claim reader reads too, through
``grounding_rules.WEEKDAYS``). Where two rules want nearly the same words, each keeps its
own set, built here from the shared part, and the comment says why they differ.

``graphmem.validity.lexicon`` does not import this module: the change detector
(``validity.detect``) reads that one in processes that never load spaCy, and importing any
``graphmem.nlp`` module loads it (``graphmem/nlp/__init__.py``).
"""

from __future__ import annotations

import re

# Words that ask: a sentence opening with one and without an end mark is a question
# (``speech_acts``). ``WH_WORDS``, with "whatever", name no end of a fact ("what" in "knows
# what she said", "do whatever you like": ``ends``, ``triples``); "whatever" opens no
# question ("Whatever works for you").
QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how"})
WH_WORDS = QUESTION_WORDS | {"whatever"}

# The listener. ``second_person`` puts the listener's name in for each form;
# ``SECOND_PERSON`` is a phrase that speaks to the listener ("hike with you": no thing,
# ``things``), or a request of them ("needs your help", ``validity.claim_reader``).
SECOND_PERSON_POSSESSIVES = frozenset({"your", "yours"})
SECOND_PERSON_REFLEXIVES = frozenset({"yourself", "yourselves"})
SECOND_PERSON = frozenset({"you"}) | SECOND_PERSON_POSSESSIVES | SECOND_PERSON_REFLEXIVES
# Spoken forms: a phrase with one speaks to the listener too (``things``), but no name
# replaces them (a name for "y'all" would say one person).
SPOKEN_SECOND_PERSON = frozenset({"ya", "y'all"})

# Entity labels that are quantities or dates: not things a memory or a claim is *about*.
NON_TOPICAL_LABELS = frozenset(
    {"DATE", "TIME", "CARDINAL", "ORDINAL", "PERCENT", "MONEY", "QUANTITY"}
)

# Laughter: "haha", "Ahhahha", "hahah", "hehe", "hihi", "lool". No phrase has it as its head
# (``things``, lower case).
_LAUGHTER = r"(?:a*h+a+)+h*|a*(?:ha|he|hi)+h?|lo+l"
LAUGHTER = re.compile(_LAUGHTER)
# The sounds of a reaction, any case: laughter and "xD", "aww", "ohh", "umm", "hmm". No
# content word is one (``text.is_content_token``); only laughter is no head, as the others
# may be names too ("OH" for Ohio, "UM" a university's initials, a model's "AW").
REACTION_SOUND = re.compile(rf"^(?:{_LAUGHTER}|x+d+|a+w+|o+h+|u+m+|h+m+)$", re.IGNORECASE)
