"""The claim readers' dependency rules that are tree shapes, as spaCy ``DependencyMatcher``
patterns built from the lexicon (``validity.lexicon``): which verb, which preposition under
it, which object under that. ``validity.states`` keeps in Python what a pattern cannot say
(a tense, a clause's subtree, a noun chunk's key).

- ``home``: a home verb and its own preposition ("lives in Porto", "moved to Lisbon");
- ``job``: a job verb and one of its prepositions ("works at Google", "was hired by
  Stripe"), or a job noun it acts on and the verb's prepositions ("got a new job at the
  library", "took a position with the city"; any verb: "at", "with", "for");
- ``now``: an activity said with "now" or "currently" and the thing it is on ("is
  currently reading Dune", "now lives in Porto"; ``validity.aspect``).

Every match names its tokens by role: ``verb``, ``object``, and where the rule has them
``prep``, ``noun`` (the job noun) and ``now`` (the word "now").
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import Any

from spacy.matcher import DependencyMatcher
from spacy.tokens import Doc, Token
from spacy.vocab import Vocab

from graphmem.validity import lexicon as lex

Pattern = list[dict[str, Any]]
# The prepositions of a job noun under a verb that is no job verb ("a job at the bakery").
JOB_NOUN_PREPOSITIONS = ("at", "with", "for")


def _verb(attrs: dict[str, Any]) -> dict[str, Any]:
    return {"RIGHT_ID": "verb", "RIGHT_ATTRS": attrs}


def _under(head: str, role: str, attrs: dict[str, Any]) -> dict[str, Any]:
    return {"LEFT_ID": head, "REL_OP": ">", "RIGHT_ID": role, "RIGHT_ATTRS": attrs}


def _object_of(prep: str) -> dict[str, Any]:
    return _under(prep, "object", {"DEP": "pobj"})


def home_patterns() -> list[Pattern]:
    return [
        [
            _verb({"LEMMA": verb}),
            _under("verb", "prep", {"DEP": "prep", "LOWER": prep}),
            _object_of("prep"),
        ]
        for verb, prep in sorted(lex.HOME_VERBS.items())
    ]


def job_patterns() -> list[Pattern]:
    by = {"DEP": {"IN": ["prep", "agent"]}}
    out: list[Pattern] = []
    for verb, preps in sorted(lex.JOB_VERBS.items()):
        allowed = {**by, "LOWER": {"IN": list(preps)}}
        out.append([_verb({"LEMMA": verb}), _under("verb", "prep", allowed), _object_of("prep")])
        out.append(_through_job_noun({"LEMMA": verb}, allowed))
    other = {"LEMMA": {"NOT_IN": sorted(lex.JOB_VERBS)}}
    out.append(_through_job_noun(other, {**by, "LOWER": {"IN": list(JOB_NOUN_PREPOSITIONS)}}))
    return out


def _through_job_noun(verb: dict[str, Any], prep: dict[str, Any]) -> Pattern:
    """A verb, the job noun it acts on, a preposition of that noun and its object."""
    noun = {"DEP": {"IN": ["dobj", "obj"]}, "LEMMA": {"IN": sorted(lex.JOB_NOUNS)}}
    return [
        _verb(verb),
        _under("verb", "noun", noun),
        _under("noun", "prep", prep),
        _object_of("prep"),
    ]


def now_patterns() -> list[Pattern]:
    """An activity with "now" or "currently" under its verb, and what it is on: the verb's
    object ("is currently reading Dune") or its preposition's ("now lives in Porto")."""
    now = {"DEP": "advmod", "LOWER": {"IN": sorted(lex.NOW_WORDS)}}
    out: list[Pattern] = []
    for activity in sorted(lex.NOW_ACTIVITIES):
        verb, _, prep = activity.partition(" ")
        head = [_verb({"LEMMA": verb}), _under("verb", "now", now)]
        if prep:
            out.append(
                [*head, _under("verb", "prep", {"DEP": "prep", "LOWER": prep}), _object_of("prep")]
            )
        else:
            out.append([*head, _under("verb", "object", {"DEP": {"IN": ["dobj", "obj"]}})])
    return out


def patterns() -> dict[str, list[Pattern]]:
    """Every rule's patterns by its name."""
    return {"home": home_patterns(), "job": job_patterns(), "now": now_patterns()}


@lru_cache(maxsize=4)
def _matcher(vocab: Vocab) -> tuple[DependencyMatcher, dict[int, tuple[str, Pattern]]]:
    matcher = DependencyMatcher(vocab)
    rules: dict[int, tuple[str, Pattern]] = {}
    for name, found in patterns().items():
        for n, rule in enumerate(found):
            key = f"{name}:{n}"
            matcher.add(key, [rule])
            rules[vocab.strings[key]] = (name, rule)
    return matcher, rules


Match = dict[str, Token]


def matches(doc: Doc) -> dict[str, list[Match]]:
    """The matches of every rule in ``doc``, each its tokens by role, in the doc's order."""
    matcher, rules = _matcher(doc.vocab)
    out: dict[str, list[Match]] = defaultdict(list)
    for match_id, token_ids in sorted(matcher(doc), key=lambda m: (m[1], m[0])):
        name, rule = rules[match_id]
        roles = (part["RIGHT_ID"] for part in rule)
        out[name].append({role: doc[i] for role, i in zip(roles, token_ids, strict=True)})
    return out
