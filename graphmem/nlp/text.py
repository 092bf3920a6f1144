"""spaCy-based text helpers for the offline backend.

Every helper takes a string or an already parsed ``Doc``: over thousands of turns, parse
once with :func:`analyse_many` (``nlp.pipe``) and hand the docs to the helpers.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from graphmem.errors import InputError
from graphmem.nlp.lexicon import NON_TOPICAL_LABELS, REACTION_SOUND
from graphmem.nlp.spacy_loader import get_nlp
from graphmem.nlp.things import in_fixed_phrase

TextOrDoc = str | Doc

_CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "NUM"})
# Lemmas that carry no memory on their own: chit-chat, politeness, reactions, and the
# light verbs of "what do you think?"; a sentence made only of these is filler.
_FILLER_WORDS = """
    haha hahaha lol lmao omg wow yay yeah yep yes no nope ok okay alright thank thanks great
    awesome cool nice good amazing wonderful fantastic incredible lovely sweet beautiful
    brilliant sure glad hear sound love happy proud excited appreciate welcome bye goodbye hi
    hello hey congrats congratulation sorry care luck fun interesting true right totally
    definitely absolutely really be have do get think know mean say tell guess see feel want
    let keep go talk chat hope wish agree bet cheer awww aww oh ah hmm um thing stuff lot bit
    way"""
_FILLER_LEMMAS = frozenset(_FILLER_WORDS.split())
_GENERIC_NOUNS = frozenset({"thing", "stuff", "lot", "bit", "kind", "sort", "way", "time"})
_TRIM_POS = frozenset({"DET", "PRON", "PUNCT", "CCONJ", "ADP", "PART", "SPACE"})


def analyse(text: TextOrDoc, nlp: Language | None = None) -> Doc:
    """``text`` parsed (a ``Doc`` passes through untouched). Recent parses are reused: the
    retrievers fused by the ``graphmem`` strategy each parse the same question."""
    if isinstance(text, Doc):
        return text
    return analyse_many([text], nlp=nlp)[0]


# Recent parses by (pipeline, text): two builders of one batch (the semantic layer, then
# SEEM's frames) read the same turns; the second gets the first's parses. Docs are never
# modified after parsing, so sharing them is safe.
_PARSE_CACHE_SIZE = 4096
_parses: OrderedDict[tuple[int, str], Doc] = OrderedDict()
_parses_lock = threading.Lock()


# Texts per ``nlp.pipe`` batch: over the 500 turns of a chat haystack (mean 1,000
# characters) 64 parsed 5-10% faster than 256 in CPU time, with identical parses.
_PIPE_BATCH = 64


def analyse_many(
    texts: Iterable[str],
    *,
    batch_size: int = _PIPE_BATCH,
    n_process: int = 1,
    nlp: Language | None = None,
) -> list[Doc]:
    """Parses many texts at ``nlp.pipe`` throughput, in input order; texts parsed recently
    (the last ``_PARSE_CACHE_SIZE``) are not parsed again."""
    pipeline = nlp or get_nlp()
    wanted = list(texts)
    keys = [(id(pipeline), text) for text in wanted]
    with _parses_lock:
        found = {key: _parses[key] for key in keys if key in _parses}
    missing = list(dict.fromkeys(key[1] for key in keys if key not in found))
    parsed = pipeline.pipe(missing, batch_size=batch_size, n_process=n_process)
    fresh = {(id(pipeline), text): doc for text, doc in zip(missing, parsed, strict=True)}
    with _parses_lock:
        for key in keys:
            if key in found:
                _parses.move_to_end(key)
        _parses.update(fresh)
        while len(_parses) > _PARSE_CACHE_SIZE:
            _parses.popitem(last=False)
    return [found[key] if key in found else fresh[key] for key in keys]


def sentences(text: TextOrDoc) -> list[str]:
    return [s.text.strip() for s in analyse(text).sents if s.text.strip()]


def entities(text: TextOrDoc) -> list[tuple[str, str]]:
    """Named entities as (text, label), first occurrence of each, in text order."""
    seen: set[tuple[str, str]] = set()
    out: list[tuple[str, str]] = []
    for ent in analyse(text).ents:
        item = (ent.text.strip(), ent.label_)
        if any(ch.isalnum() for ch in item[0]) and item not in seen:
            seen.add(item)
            out.append(item)
    return out


def persons(text: TextOrDoc) -> list[str]:
    return [name for name, label in entities(text) if label == "PERSON"]


# --- key phrases ------------------------------------------------------------------------
def _has_word(tok: Token) -> bool:
    # Emoji and symbols get tagged as nouns; they name nothing.
    return any(ch.isalnum() for ch in tok.text)


def trim_span(span: Span) -> Span | None:
    """``span`` without leading/trailing determiners, pronouns, punctuation and stopwords;
    None when nothing with content is left."""
    start, end = span.start, span.end
    doc = span.doc
    while start < end and (doc[start].pos_ in _TRIM_POS or doc[start].is_stop):
        start += 1
    while end > start and (doc[end - 1].pos_ in _TRIM_POS or doc[end - 1].is_stop):
        end -= 1
    trimmed = doc[start:end]
    if not any(t.pos_ in _CONTENT_POS and _has_word(t) for t in trimmed):
        return None
    return None if cut_inside_word(trimmed) else trimmed


def cut_inside_word(span: Span) -> bool:
    """Whether ``span`` starts or ends inside a hyphenated word ("brainer" of "no-brainer",
    "sister" of "sister-in-law"): a broken span."""
    doc = span.doc

    def glued(i: int) -> bool:  # doc[i] is a hyphen joined to both neighbours
        return (
            0 < i < len(doc) - 1
            and doc[i].text in ("-", "–")
            and not doc[i - 1].whitespace_
            and not doc[i].whitespace_
        )

    return glued(span.start - 1) or glued(span.end)


def phrase_key(span: Span) -> str:
    """Case- and inflection-insensitive identity of a phrase, for deduplication."""
    return " ".join(t.lemma_.lower() for t in span if not t.is_punct)


@dataclass
class _Candidate:
    text: str
    first: int
    score: float


def _candidates(doc: Doc) -> Iterable[tuple[Span, bool]]:
    names = [ent for ent in doc.ents if ent.label_ not in NON_TOPICAL_LABELS]
    # a nationality or group as a modifier ("Puerto Rican food") is the food's, not a name
    yield from ((e, True) for e in names if not (e.label_ == "NORP" and _modifies(e)))
    for chunk in doc.noun_chunks:
        if describes(chunk) or in_fixed_phrase(chunk.root) or _asked_for(chunk):
            continue
        if _piece_of_name(chunk, names):
            continue
        if not any(t.ent_type_ in NON_TOPICAL_LABELS for t in chunk if t.pos_ != "DET"):
            yield chunk, False


def _piece_of_name(chunk: Span, names: Sequence[Span]) -> bool:
    """A noun phrase inside a longer name, or across its edge: "the Democratic Republic"
    of "the Democratic Republic of the Congo" (the name is a candidate of its own). A
    name with "and" or a comma inside may be a list the recogniser joined ("Facebook,
    Instagram"): its pieces stay."""
    return any(
        ent.start < chunk.end
        and chunk.start < ent.end  # they overlap
        and (ent.start < chunk.start or chunk.end < ent.end)  # and the name sticks out
        and not any(t.pos_ == "CCONJ" or t.text == "," for t in ent)
        for ent in names
    )


def _modifies(span: Span) -> bool:
    return span.root.dep_ in ("amod", "compound") and not span.start <= span.root.head.i < span.end


def _asked_for(chunk: Span) -> bool:
    """The unknown a question asks for ("*What game* have you been playing?"): the answer
    names the thing, the question does not."""
    if not chunk.sent.text.rstrip().endswith("?") or any(t.pos_ == "PROPN" for t in chunk):
        return False
    return chunk[0].tag_ in ("WDT", "WP$")


def describes(chunk: Span) -> bool:
    """A common-noun phrase said *of* something ("Lisbon is an amazing city", "it was a
    lifesaver", "it's considered a staple", "biryani, a classic Indian dish"): it
    describes, it names no thing of its own."""
    said_of = chunk.root.dep_ in ("attr", "oprd", "appos")  # "biryani, a classic dish"
    return said_of and not any(t.pos_ == "PROPN" for t in chunk)


def keyphrases(text: TextOrDoc, k: int = 10) -> list[str]:
    """Up to ``k`` noun phrases and entities, most salient first: salience counts
    repetition, named entities, proper nouns and multi-word specificity."""
    scored: dict[str, _Candidate] = {}
    for span, is_entity in _candidates(analyse(text)):
        trimmed = trim_span(span)
        if trimmed is None:
            continue
        key = phrase_key(trimmed)
        if not key or key in _GENERIC_NOUNS:
            continue
        proper = is_entity or any(t.pos_ == "PROPN" for t in trimmed)
        bonus = (1.0 if is_entity else 0.0) + (0.5 if proper else 0.0)
        bonus += 0.25 * min(len(trimmed) - 1, 3)
        shown = trimmed.text if proper else trimmed.text.lower()
        found = scored.get(key)
        if found is None:
            scored[key] = _Candidate(shown, trimmed.start, 1.0 + bonus)
        else:
            found.score += 1.0 + (bonus if is_entity else 0.0) * 0.5
    ranked = sorted(scored.values(), key=lambda c: (-c.score, c.first))
    return [c.text for c in ranked[:k]]


# --- first person -> speaker ------------------------------------------------------------
_CONTRACTIONS = {"'m": "is", "m": "is", "'ve": "has", "'ll": "will", "'s": "is"}
_IRREGULAR_3SG = {"be": "is", "am": "is", "have": "has", "do": "does", "go": "goes"}
# Past and present are spelled alike; the tagger's "present" is a guess, so keep the word.
_SAME_PAST_WORDS = "read put set hit cut let hurt quit shut spread cost bet cast burst split upset"
_SAME_PAST = frozenset(_SAME_PAST_WORDS.split())


def third_person(verb: Token) -> str:
    """The third-person-singular present of a present-tense verb (``verb`` as written
    otherwise), keeping the written capitalisation."""
    low = verb.lower_
    if low == "'d":
        nxt = verb.nbor(1) if verb.i + 1 < len(verb.doc) else None
        return "had" if nxt is not None and nxt.tag_ == "VBN" else "would"
    if low in _CONTRACTIONS:
        return _CONTRACTIONS[low]
    if verb.tag_ not in ("VBP", "VB") or low in _SAME_PAST or low in ("can", "will", "must"):
        return verb.text
    lemma = verb.lemma_.lower() if verb.lemma_ else low
    if lemma in _IRREGULAR_3SG or low in _IRREGULAR_3SG:
        out = _IRREGULAR_3SG.get(lemma, _IRREGULAR_3SG.get(low, low))
    elif re.search(r"(?:s|sh|ch|x|z|o)$", lemma):
        out = lemma + "es"
    elif re.search(r"[^aeiou]y$", lemma):
        out = lemma[:-1] + "ies"
    else:
        out = lemma + "s"
    return out[0].upper() + out[1:] if verb.text[:1].isupper() else out


def _agreeing_verbs(subject: Token) -> list[Token]:
    """The verbs whose form follows ``subject``: the finite verb and present-tense
    verbs coordinated with it ("I love and miss")."""
    if subject.dep_ not in ("nsubj", "nsubjpass"):
        return []
    head = subject.head
    auxes = [c for c in head.children if c.dep_ in ("aux", "auxpass") and c.tag_ != "TO"]
    finite = min(auxes, key=lambda t: t.i) if auxes else head
    if finite.tag_ != "VBP" and finite.lower_ not in _CONTRACTIONS and finite.lower_ != "'d":
        return []
    out = [finite]
    if finite is head:
        out += [
            c
            for c in head.children
            if c.dep_ == "conj"
            and c.tag_ in ("VB", "VBP")
            and not any(g.dep_.startswith("nsubj") for g in c.children)
        ]
    return out


def first_person_replacements(doc: Doc, speaker: str) -> dict[int, str]:
    """Token index -> its replacement: the speaker's "I", "me", "my", "mine", "myself" and
    the verbs agreeing with "I"."""
    possessive = f"{speaker}'" if speaker.endswith("s") else f"{speaker}'s"
    repl: dict[int, str] = {}
    for tok in doc:
        low = tok.lower_
        # The tagger often calls possessive "mine" a noun; the pit always has a modifier.
        bare_mine = low == "mine" and not any(True for _ in tok.children)
        if tok.pos_ != "PRON" and tok.tag_ not in ("PRP", "PRP$") and not bare_mine:
            continue
        if low == "i":
            repl[tok.i] = speaker
            for verb in _agreeing_verbs(tok):
                repl[verb.i] = third_person(verb)
        elif low == "me":
            repl[tok.i] = speaker
        elif low in ("my", "mine"):
            repl[tok.i] = possessive
        elif low == "myself":
            # A reflexive argument names the speaker; emphatic "myself" only stresses.
            is_argument = tok.dep_ in ("dobj", "pobj", "dative", "iobj")
            repl[tok.i] = speaker if is_argument else "themself"
    return repl


def first_person_to_name(text: TextOrDoc, speaker: str) -> str:
    """``text`` with the speaker's first-person references replaced by their name and the
    verbs agreeing: "I'm sure my dog likes me" -> "Caroline is sure Caroline's dog likes
    Caroline". Never drops a word; only pronouns and verb forms change."""
    if not speaker.strip():
        raise InputError("speaker name is empty", field="speaker")
    doc = analyse(text)
    if not doc.text.strip():
        return doc.text
    repl = first_person_replacements(doc, speaker.strip())
    pieces: list[str] = []
    for tok in doc:
        new = repl.get(tok.i, tok.text)
        glued = tok.i > 0 and not doc[tok.i - 1].whitespace_
        # "I'm" is two tokens with nothing between; the expansion needs a space.
        if tok.i in repl and glued and (tok.text[:1] in ("'", "’") or tok.lower_ == "m"):
            new = " " + new
        pieces.append(new + tok.whitespace_)
    return "".join(pieces)


# --- filler detection -------------------------------------------------------------------
def is_content_token(tok: Token) -> bool:
    """Whether ``tok`` carries meaning worth remembering."""
    if tok.pos_ not in _CONTENT_POS or tok.is_stop or tok.is_punct or not _has_word(tok):
        return False
    lemma = tok.lemma_.lower()
    if lemma in _FILLER_LEMMAS or tok.lower_ in _FILLER_LEMMAS or REACTION_SOUND.match(tok.text):
        return False
    # Addressing the listener by name ("Thanks, Melanie!") says nothing about them.
    return not (tok.ent_type_ == "PERSON" and tok.dep_ in ("npadvmod", "appos", "intj", "dep"))


def is_contentless(sentence: TextOrDoc) -> bool:
    """True for greetings, thanks, laughter, reactions and content-free questions."""
    return not any(is_content_token(t) for t in analyse(sentence))


# Verdicts of ``contentless_texts`` by (pipeline, text): short phrases recur from one
# conversation to the next, and a verdict is a function of the text alone.
_CONTENTLESS_SIZE = 65536
_contentless: OrderedDict[tuple[int, str], bool] = OrderedDict()


def contentless_texts(texts: Sequence[str]) -> list[bool]:
    """``is_contentless`` of each text, each parsed on its own; texts judged recently
    (the last ``_CONTENTLESS_SIZE``) are not parsed again."""
    pipeline = get_nlp()
    keys = [(id(pipeline), text) for text in texts]
    with _parses_lock:
        known = {key: _contentless[key] for key in keys if key in _contentless}
    missing = list(dict.fromkeys(key[1] for key in keys if key not in known))
    fresh = {
        (id(pipeline), text): is_contentless(doc)
        for text, doc in zip(missing, analyse_many(missing, nlp=pipeline), strict=True)
    }
    with _parses_lock:
        _contentless.update(fresh)
        while len(_contentless) > _CONTENTLESS_SIZE:
            _contentless.popitem(last=False)
    return [known[key] if key in known else fresh[key] for key in keys]
