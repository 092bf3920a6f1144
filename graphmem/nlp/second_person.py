"""Second person -> the addressee's name, the counterpart of ``first_person_to_name``.

In a two-person chat "you" is the other speaker (AnchorMem's facts, and SEEM's statements in a
conversation with an AI assistant); a fact read on its own ("Caroline loves
your painting") only makes sense with the name put in ("Caroline loves Melanie's
painting"). Verbs whose subject was "you" are put in the third person so the sentence
still reads ("are you going" -> "is Melanie going").
"""

from __future__ import annotations

from spacy.tokens import Doc, Token

from graphmem.nlp.lexicon import SECOND_PERSON_POSSESSIVES, SECOND_PERSON_REFLEXIVES
from graphmem.nlp.text import TextOrDoc, analyse, first_person_replacements, third_person

# Forms third_person() leaves alone because "you" takes plural forms that "I" never does.
_PLURAL_TO_SINGULAR = {"are": "is", "'re": "is", "’re": "is", "were": "was", "re": "is"}
# "you know", "you see": discourse markers, not statements about the listener.
_MARKER_VERBS = frozenset({"know", "see", "mean", "guess"})


def _finite_verb(subject: Token) -> Token | None:
    head = subject.head
    auxes = [c for c in head.children if c.dep_ in ("aux", "auxpass") and c.tag_ != "TO"]
    finite = min(auxes, key=lambda t: t.i) if auxes else head
    return finite if finite.pos_ in ("AUX", "VERB") else None


def _is_marker(tok: Token) -> bool:
    head = tok.head
    return head.lemma_.lower() in _MARKER_VERBS and head.dep_ not in ("ROOT",)


def _replacements(doc: Doc, name: str) -> dict[int, str]:
    possessive = f"{name}'" if name.endswith("s") else f"{name}'s"
    repl: dict[int, str] = {}
    for tok in doc:
        low = tok.lower_
        if low in SECOND_PERSON_POSSESSIVES:
            repl[tok.i] = possessive
        elif low in SECOND_PERSON_REFLEXIVES:
            # A reflexive argument names the listener; emphatic "yourself" only stresses.
            is_argument = tok.dep_ in ("dobj", "pobj", "dative", "iobj")
            repl[tok.i] = name if is_argument else "themself"
        elif low == "you" and not _is_marker(tok):
            repl[tok.i] = name
            if tok.dep_ in ("nsubj", "nsubjpass"):
                verb = _finite_verb(tok)
                if verb is not None:
                    singular = _PLURAL_TO_SINGULAR.get(verb.lower_)
                    repl[verb.i] = singular if singular else third_person(verb)
    return repl


def _render(doc: Doc, first: dict[int, str], second: dict[int, str]) -> str:
    """``doc``'s text with the first-person (``first``) and second-person (``second``)
    replacements put in."""
    pieces: list[str] = []
    for tok in doc:
        glued = tok.i > 0 and not doc[tok.i - 1].whitespace_
        if tok.i in first:
            new = first[tok.i]
            # "I'm" is two tokens with nothing between; the expansion needs a space.
            if glued and (tok.text[:1] in ("'", "’") or tok.lower_ == "m"):
                new = " " + new
        elif tok.i in second:
            new = second[tok.i]
            if glued and tok.text[:1] in ("'", "’"):
                new = " " + new  # "you're" -> "Melanie is", not "Melanieis"
            if tok.text[:1].isupper() and new[:1].islower():
                new = new[0].upper() + new[1:]
        else:
            new = tok.text
        pieces.append(new + tok.whitespace_)
    return "".join(pieces)


def persons_to_names(text: TextOrDoc, speaker: str, addressee: str | None) -> str:
    """The speaker's first person and (with an ``addressee``) the second person replaced
    by their names, on one parse: what ``first_person_to_name`` then
    ``second_person_to_name`` give, without parsing the rewritten text again (a long
    answer's second parse cost as much as its first)."""
    doc = analyse(text)
    if not doc.text.strip():
        return doc.text
    first = first_person_replacements(doc, speaker.strip()) if speaker.strip() else {}
    second = _replacements(doc, addressee) if addressee else {}
    return _render(doc, first, second)


def second_person_to_name(text: str, name: str) -> str:
    """``text`` with "you", "your", "yourself" replaced by ``name`` and its verbs agreeing.
    Never drops a word; only pronouns and verb forms change."""
    doc = analyse(text)
    return _render(doc, {}, _replacements(doc, name))
