"""What a sentence does: state something, ask, request, react, or open a list.

A statement node (a fact, a fragment, an atomic fact) should say what its turn says. A
sentence quoted as if it were a claim misleads when it is not one: "Does assistant have
any tips?" is no fact about tips, "Tell user more about Joshua Tree" none about the park,
"Aww, they're adorable!" none about anything, and "Here are some tips:" is cut before its
content. The designs ask :func:`speech_act` and keep statements, report questions and
requests as what they are ("user asked: ..."), and drop reactions and list openings.

- ``question``: ends with "?" (or opens with a question word and has no end mark);
- ``request``: an imperative ("Tell me...", "Act as...", "Let's write..."), a wish or a
  farewell formula ("Enjoy...", "Best of luck...");
- ``reaction``: says something of "it", "that", "this" or "they" with only an evaluation
  ("That's really helpful!", "Sounds like good advice!"), has no content word at all, or
  is a bare phrase of fewer than four words without a verb ("No problem!");
- ``opening``: ends with ":", or has a colon ending a line (a list or an explanation
  follows in other sentences), or is layout: a table row, list items run together;
- ``statement``: anything else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from spacy.tokens import Doc, Span, Token

from graphmem.nlp.lexicon import QUESTION_WORDS
from graphmem.nlp.text import is_content_token
from graphmem.nlp.things import GREETINGS

SpeechAct = Literal["statement", "question", "request", "reaction", "opening"]

_VAGUE_SUBJECTS = frozenset({"it", "that", "this", "they", "these", "those", "which"})
# Farewell and encouragement formulas: an imperative that asks for nothing.
_WISH_FORMULAS = frozenset(
    {("take", "care"), ("keep", "it"), ("keep", "going"), ("stay", "safe"), ("stay", "tuned")}
    | {("feel", "free"), ("hesitate", "to")}
)
_GOOD = (["great"], ["good"], ["nice"], ["wonderful"], ["lovely"], ["blast"])
_GLAD = frozenset({"happy", "glad", "delighted", "pleased", "thrilled"})
_HELP = frozenset({"help", "assist"})
_LEADING = frozenset({"INTJ", "PUNCT", "SPACE"})
_CONTENT_POS = frozenset({"NOUN", "PROPN", "NUM"})
# A colon ending a line: what follows is a list or a block the sentence only announces
# ("Here are some tips:\n\n**1."); the sentence splitter may keep the first marker.
_LIST_AFTER_COLON = re.compile(r":\s*\n")
# A table row ("| A | B |"), or list items the sentence splitter ran together ("Berries
# (such as ...) 3. Whole grains ..."): layout, each cell or item no claim of its own.
_TABLE_ROW = re.compile(r"\|.*\|")
_INNER_ITEM = re.compile(r"\S\s+\d{1,2}\.\s+[A-Z]")
_LONG_TIME = re.compile(r"long time no (?:see|talk|chat|speak)[.!]*", re.IGNORECASE)
_MIN_VERBLESS = 4  # words: a shorter sentence without a verb is a bare phrase
_CLAUSE_OPENERS = frozenset({"if", "when", "whenever", "once", "before", "after", "while", "as"})
_DISCOURSE_OPENERS = frozenset({"now", "so", "well", "also", "and", "but", "then", "first"})


def speech_act(sentence: Span | Doc, names: frozenset[str] = frozenset()) -> SpeechAct:
    """What ``sentence`` (one sentence, parsed in its turn) does (module docstring).
    ``names``: the speakers' names in lower case (naming the listener says nothing)."""
    text = sentence.text.strip().rstrip("*_ ")
    if text.endswith("?"):
        return "question"
    if text.endswith(":") or _LIST_AFTER_COLON.search(text) or _layout(text):
        return "opening"
    opening = next((t for t in sentence if t.pos_ not in _LEADING), None)
    if opening is None or opening.lower_ in ("thanks", "thank", "thx"):
        return "reaction"
    words = [t for t in sentence if not _aside(t, names)]
    if not words:
        return "reaction"
    if _LONG_TIME.fullmatch(text):
        return "reaction"  # "Long time no talk!"
    if len(words) < _MIN_VERBLESS and not any(t.pos_ in ("VERB", "AUX") for t in words):
        return "reaction"  # a bare phrase: "No problem!", "Opening Day."
    if words[0].lower_ in QUESTION_WORDS and not text.endswith((".", "!")):
        return "question"
    if _exclamative(words):
        return "reaction"  # "What a great idea!", "How lovely!"
    if _wish(words) or _pleasantry(words):
        return "reaction"
    if _imperative(words):
        return "request"
    # Judged on the turn's own parse: a sentence parsed again alone cost a fifth of a
    # LongMemEval build, and gave another verdict only on list numbers ("6."), which
    # the bare-phrase rule above already takes.
    if not any(is_content_token(t) for t in sentence) or _evaluates_only(words):
        return "reaction"
    return "statement"


def _layout(text: str) -> bool:
    return _TABLE_ROW.search(text) is not None or _INNER_ITEM.search(text) is not None


def _aside(tok: Token, names: frozenset[str]) -> bool:
    """Punctuation, interjections, "please", and naming the listener ("Hey Nate, ...")."""
    low = tok.lower_
    return tok.pos_ in _LEADING or low in GREETINGS or low == "please" or low in names


def _exclamative(words: list[Token]) -> bool:
    """ "What a/an ...", "How" + an adjective or adverb: an exclamation, not a claim."""
    if len(words) < 2:
        return False
    first, second = words[0].lower_, words[1]
    return (first == "what" and second.lower_ in ("a", "an")) or (
        first == "how" and second.pos_ in ("ADJ", "ADV") and second.lower_ not in ("many", "much")
    )


def _wish(words: list[Token]) -> bool:
    """Wishes and farewells: "Enjoy...", "Best of luck...", "Take care", "Have a great
    day", "(If you have questions,) feel free to ask" (thanks are caught before)."""
    first = words[0]
    if first.lower_ in ("best", "good") and any(t.lower_ == "luck" for t in words[:4]):
        return True
    command = _command(words)
    if command is None:
        return False
    first = command
    following = [t.lower_ for t in first.doc[first.i + 1 : first.i + 3]]
    formula = bool(following) and (first.lower_, following[0]) in _WISH_FORMULAS
    have_a_good = first.lower_ == "have" and (following[:1] == ["fun"] or following[1:2] in _GOOD)
    return first.lower_ == "enjoy" or formula or have_a_good


def _imperative(words: list[Token]) -> bool:
    while len(words) > 1 and words[0].lower_ in _DISCOURSE_OPENERS:
        words = words[1:]
    first = words[0]
    if first.lower_ == "let" and len(words) > 1 and words[1].lower_ in ("'s", "us"):
        return True
    return _command(words) is not None


def _command(words: list[Token]) -> Token | None:
    """The verb of an imperative: the first word ("Tell me"), after "do not" ("Don't
    forget"), or the main verb after a clause or a phrase that sets its condition, time
    or place ("If you have any questions, *feel* free to ask", "In the table *add* a
    column")."""
    first = words[0]
    root = first.doc[_root(first)]
    if any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children):
        return None
    if first.i == root.i:
        return root if root.tag_ == "VB" else None
    helpers = [c.lower_ for c in root.children if c.dep_ in ("aux", "auxpass")]
    if not set(helpers) <= {"do"} or root.tag_ not in ("VB", "VBP"):
        return None
    if first.lower_ == "do" and first.head.i == root.i:
        # "Don't forget...", "Do not use...": only a negation between "do" and the verb
        between = root.doc[first.i + 1 : root.i]
        return root if all(t.dep_ == "neg" for t in between) else None
    # after the clause the tagger may read the verb as present tense ("feel"/VBP)
    led = first.lower_ in _CLAUSE_OPENERS or (first.dep_ == "prep" and first.head.i == root.i)
    return root if led and _after_lead(root, words) else None


def _after_lead(root: Token, words: list[Token]) -> bool:
    """Whether ``root`` follows the leading clause's comma, with at most "please", "do"
    and "not" between ("..., please don't hesitate"), or directly follows a leading
    prepositional phrase ("In the above table add")."""
    start = words[0].i
    if words[0].dep_ == "prep" and max(t.i for t in words[0].subtree) == root.i - 1:
        return True
    commas = [t.i for t in root.doc[start : root.i] if t.text == ","]
    between = root.doc[commas[-1] + 1 : root.i] if commas else None
    return between is not None and all(t.dep_ in ("intj", "aux", "neg") for t in between)


def _root(tok: Token) -> int:
    while tok.head.i != tok.i:
        tok = tok.head
    return tok.i


def _evaluates_only(words: list[Token]) -> bool:
    """A vague subject ("that", "it", "they") or none ("Sounds like good advice!") with a
    predicate that only evaluates: no noun, name or number outside the subject, or a
    verb of seeming with nothing but a vague subject. ``words``: the sentence's, asides
    left out."""
    kept = {t.i for t in words}
    root = words[0].doc[_root(words[0])]
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass") and c.i in kept]
    if any(s.lower_ not in _VAGUE_SUBJECTS for s in subjects):
        return False
    if root.lemma_.lower() in ("sound", "look", "seem") or _makes_sense(root):
        return True
    inside = {t.i for s in subjects for t in s.subtree}
    return not any(t.pos_ in _CONTENT_POS for t in words if t.i not in inside)


def _pleasantry(words: list[Token]) -> bool:
    """Being glad to help ("I'd be happy to help you find...", "I'm glad I could help"),
    or an evaluation then thanks ("That's really helpful, thanks for the details!"): an
    offer or a courtesy, no claim."""
    span = words[0].doc[words[0].i + 1 : words[-1].i + 1]  # asides ("thanks") included
    thanks = next((t for t in span if t.lower_ in ("thanks", "thank")), None)
    if thanks is not None and words[0].doc[thanks.i - 1].text == ",":
        before = [t for t in words if t.i < thanks.i]
        if before and _evaluates_only(before):
            return True
    root = words[0].doc[_root(words[0])]
    glad = [c for c in root.children if c.dep_ == "acomp" and c.lemma_.lower() in _GLAD]
    if any(_helps_self(c) for a in glad for c in (*root.children, *a.children)):
        return True
    # "Glad it helped!": the "I'm" left out
    first = next((t for t in words[0].sent if not t.is_punct), words[0])
    subjects = [c.lower_ for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    helped = root.lemma_.lower() in _HELP
    if first.lower_ in _GLAD and helped and set(subjects) <= {"it", "that", "i", "we"}:
        return True  # not "Glad John is helping those in need"
    return _sympathy(root)


def _sympathy(root: Token) -> bool:
    """ "I understand how frustrating it can be", "I know how hard it is": the speaker
    sharing a feeling, no claim about anything."""
    if root.lemma_.lower() not in ("understand", "know", "imagine", "see"):
        return False
    subject = next((c for c in root.children if c.dep_ == "nsubj"), None)
    if subject is None or subject.lower_ not in ("i", "we"):
        return False
    # ... of "it", not of someone: "I can imagine how much Andrew misses hiking" says so
    vague = any(
        t.dep_ == "nsubj" and t.lower_ in _VAGUE_SUBJECTS for t in root.subtree if t is not subject
    )
    named = any(t.pos_ == "PROPN" for t in root.subtree)
    return (
        vague
        and not named
        and any(
            t.lower_ == "how" and t.i + 1 < len(t.doc) and t.doc[t.i + 1].pos_ in ("ADJ", "ADV")
            for t in root.subtree
        )
    )


def _helps_self(verb: Token) -> bool:
    """ "(happy) to help", "(glad) I could help": the speaker helping, said of no one else."""
    if verb.dep_ not in ("xcomp", "ccomp") or verb.lemma_.lower() not in _HELP:
        return False
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    return all(s.lower_ in ("i", "we") for s in subjects)


def _makes_sense(root: Token) -> bool:
    """ "That makes sense": nothing but a subject and "sense" ("It makes sense to book
    early" advises)."""
    if root.lemma_.lower() != "make":
        return False
    deps = {c.dep_ for c in root.children if not c.is_punct}
    sense = any(c.dep_ == "dobj" and c.lower_ == "sense" for c in root.children)
    return sense and deps <= {"nsubj", "dobj", "advmod", "intj", "aux", "neg"}


def speaker_names(speakers: Iterable[str]) -> frozenset[str]:
    """The ``names`` :func:`speech_act` takes: every word of every speaker's name, lower case."""
    return frozenset(part.lower() for speaker in speakers for part in speaker.split())


def reported(speaker: str, sentence: str) -> str:
    """A question or a request as what its speaker did: "user asked: <sentence>"."""
    return f"{speaker} asked: {sentence.strip()}"
