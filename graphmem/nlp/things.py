"""Which phrases name a thing: the test an extracted phrase passes to become an ``Entity``.

A fact's ends and a turn's key phrases are whatever the parse found: "Caroline", "the
pottery class", but also "creative", "to try", "Hey Caroline", "your support", "fun". An
analyst reading the entities (``top_entities``, communities, Browser) expects things one
can ask about: people, places, objects, named works, specific activities. A phrase names
a thing when, parsed on its own:

- after leading greetings and interjections ("Hey Caroline" -> "Caroline") and a
  possessive whose owner is unresolved ("her car" -> "car"), something is left that does
  not speak to the listener ("hike with you");
- its head is a noun or a proper noun (not an adjective, a verb, a pronoun, a number);
- its head is not a light noun (a placeholder, a discourse word, a bare feeling or
  evaluation: "thing", "tips", "fun", "joy") unless another noun or name makes it
  specific ("gardening tips", "tips for Paris");
- its head is not a time word ("dates", "brief moment") or a person's quality named alone
  ("strength", "true self"), and not the noun of a fixed expression ("in person", "from
  scratch", ``in_fixed_phrase``, which needs the sentence);
- it is not a broken span (a table cell's "|", markup, a trailing dash or "and", an
  unclosed parenthesis or quote, a line's hyphen left in a word, two phrases glued across a
  line, a dash, a sentence's end or a comma that joins nothing: "John, long time");
- an aside closed by a comma, an amount, a number or a tie to something else in front is
  not part of it ("Absolutely, Caroline" -> "Caroline", "more insects" -> "insects", "17
  comments" -> "comments", "similar genres" -> "genres").

The lists below are general English categories, written down once; the rule is the same
for every conversation and every design. Verdicts are cached per phrase.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence

from spacy.tokens import Doc, Token

from graphmem.nlp.lexicon import LAUGHTER, SECOND_PERSON, SPOKEN_SECOND_PERSON
from graphmem.nlp.people import given_names
from graphmem.nlp.spacy_loader import get_nlp

_GREETING_WORDS = """hey hi hello hiya yo thanks thank thx congrats congratulations yep yeah
    yup yes nope wow whoa ugh aww awww oh ah ahh hmm um omg lol haha glad sure bye goodbye
    welcome cheers yoohoo okay ok alright prob awesome woohoo yay hooray yikes"""
GREETINGS = frozenset(_GREETING_WORDS.split())  # also read by nlp/speech_acts.py
_SECOND_PERSON = SECOND_PERSON | SPOKEN_SECOND_PERSON
# Whose, unresolved: "her car" names a car. ("my" is the speaker's name by then.)
_POSSESSIVES = frozenset({"your", "his", "her", "their", "its", "our"})
# Nouns that name nothing in particular on their own (lemmas).
_PLACEHOLDERS = """thing stuff lot bit kind sort type way time part piece one deal matter
    something everything anything nothing someone everyone anyone place spot area side
    end start lots bunch couple number amount life world people variety range guy share
    individual plenty ton group blend handful role
    percentage total use
    date day week month year hour minute moment season weekend morning afternoon evening
    night age decade while period sec"""  # the last two lines: times, not things
_DISCOURSE = """word question answer idea tip option suggestion recommendation advice info
    information detail point example list step aspect factor benefit impact importance
    difference problem issue need reason sense look talk mix combination update note
    topic subject thought view opinion feedback message chat conversation insight
    revelation theme process decision result strategy theory concept consideration task
    measure material purpose plan control story discussion status breakdown approach
    method solution goal choice favorite favourite beauty addition effect skill technique
    activity interest resource mistake background observation limitation contribution
    initiative guidance introduction conclusion overview summary section reminder
    challenge fact form state behavior behaviour situation item assumption evidence guess
    possibility pattern preference category concern mind"""
_FEELINGS = """fun joy love care comfort support help enthusiasm excitement thrill pleasure
    luck pride hope attention knowledge insight perspective experience chance opportunity
    feeling emotion mood vibe energy passion motivation inspiration encouragement
    kindness happiness sadness stress gratitude appreciation effort progress success
    rush adrenaline peace relief satisfaction fulfillment fulfilment contentment cheer
    blessing acceptance achievement accomplishment worry struggle journey dream outlook
    awareness"""
# Qualities of a person, praised or named in passing ("your strength", "such dedication"):
# whose they are is what the turn says, and the word alone names nothing.
_QUALITIES = """strength resilience determination dedication courage bravery boldness
    confidence patience perseverance persistence commitment discipline honesty integrity
    empathy compassion generosity humility ambition talent potential self calling"""
_LIGHT_NOUNS = frozenset(f"{_PLACEHOLDERS} {_DISCOURSE} {_FEELINGS} {_QUALITIES}".split())
# An amount or a tie to something else, not part of the thing: "more insects" -> "insects".
_QUANTIFIERS = frozenset(
    {"more", "much", "little", "few", "enough", "numerous", "multiple", "several", "other"}
    | {"another", "different", "similar", "various", "many", "lots", "lot", "of", "some"}
    | {"same", "certain", "specific", "particular", "extra", "maximum", "minimum", "plenty"}
    | {"tons", "ton"}
)
_HEAD_POS = frozenset({"NOUN", "PROPN"})
_CUT_WORD = re.compile(r"[a-z]- [a-z]")  # "atten- tion": a line's hyphen left in
_MARKUP = re.compile(r"\*\*|[•{}#=<>\[\]]")  # bold, bullets, code, tables
# Two phrases glued across a dash or an end of sentence: "freedom - dancing", "John! Video".
_GLUED = re.compile(r"\w\s[-–—]\s\w|\w[!?]\s+\w")
_MISREAD_POS = frozenset({"VERB", "AUX", "ADV", "INTJ", "X"})
_CACHE_SIZE = 65536
_verdicts: OrderedDict[str, str | None] = OrderedDict()
_lock = threading.Lock()


def thing_names(phrases: Sequence[str]) -> list[str | None]:
    """For each phrase, the name of the thing it names (greetings in front dropped), or
    None when it names none (module docstring)."""
    with _lock:
        known = {p: _verdicts[p] for p in phrases if p in _verdicts}
    missing = list(dict.fromkeys(p for p in phrases if p not in known))
    if missing:
        docs = get_nlp().pipe(missing, batch_size=256, disable=["ner"])
        fresh = {p: _thing(doc) for p, doc in zip(missing, docs, strict=True)}
        with _lock:
            _verdicts.update(fresh)
            while len(_verdicts) > _CACHE_SIZE:
                _verdicts.popitem(last=False)
        known.update(fresh)
    return [known[p] for p in phrases]


def has_markup(text: str) -> bool:
    """Bold, bullets, code or a table cell: text a document's layout left in a phrase."""
    return "|" in text or "\\" in text or _MARKUP.search(text) is not None


def _broken(text: str) -> bool:
    """A table cell's "|", a trailing dash, an unclosed parenthesis or quote, a word cut
    at a line's hyphen ("atten- tion"), a character no text has (U+FFFE)."""
    return (
        "|" in text
        or text.endswith(("-", "–", "—"))
        or text.count("(") != text.count(")")
        or text.count('"') % 2 == 1
        or _CUT_WORD.search(text) is not None
        or "\ufffe" in text
        or "\n" in text  # glued across lines
        or _MARKUP.search(text) is not None
        or _GLUED.search(text) is not None
        or text.lower().endswith((" and", " or", " &"))
    )


def _aside_ends(doc: Doc) -> int:
    """Where a phrase starts after an aside closed by a comma ("Absolutely, Caroline",
    "Oh well, the cake"): the index after the comma, else 0."""
    for tok in doc:
        if tok.text == ",":
            before = doc[: tok.i]
            aside = all(t.pos_ in ("INTJ", "ADV") or t.lower_ in GREETINGS for t in before)
            return tok.i + 1 if aside and len(before) else 0
    return 0


def _thing(doc: Doc) -> str | None:
    text = doc.text.strip()
    if _broken(text):
        return None
    start = _aside_ends(doc)
    if _comma_glued(doc, start):
        return None
    words = [t for t in doc[start:] if not (t.is_punct or t.is_space)]
    while words and (words[0].pos_ == "INTJ" or words[0].lower_ in GREETINGS):
        words.pop(0)
    while len(words) > 1 and words[0].lower_ in _POSSESSIVES:
        words.pop(0)
    if not words or any(t.lower_ in _SECOND_PERSON for t in words):
        return None
    while len(words) > 1 and _amount(words[0]):
        words.pop(0)
    span = doc[words[0].i : words[-1].i + 1]
    root = span.root
    if root.lower_ in GREETINGS or LAUGHTER.fullmatch(root.lower_):
        return None
    if root.pos_ not in _HEAD_POS and not _misread_name(words, root):
        return None
    if is_light(root, list(span)):
        return None
    return span.text.strip()


def _amount(tok: Token) -> bool:
    """A word in front that only counts or ties: "more", "same", "17" ("17 comments")."""
    if tok.pos_ == "PROPN":
        return False
    # a number written apart ("17 comments", not "5K race")
    return tok.lower_ in _QUANTIFIERS or (
        tok.pos_ == "NUM" and tok.like_num and bool(tok.whitespace_)
    )


def _comma_glued(doc: Doc, start: int) -> bool:
    """ "John, long time": a comma after ``start`` that joins nothing in a list addresses
    someone or glues two phrases; adjectives in a list ("spreadable, creamy paste") and a
    coordination ("pens, pencils and paper") are one thing."""
    comma = next((t.i for t in doc[start:] if t.text == ","), None)
    if comma is None or any(t.pos_ == "CCONJ" for t in doc):
        return False
    return not all(t.pos_ == "ADJ" for t in doc[start:comma])


def _misread_name(words: Sequence[Token], root: Token) -> bool:
    """A name the tagger, seeing it alone, reads as another word ("Lisbon" and "Spotify" as
    imperatives, "Marco" as an adverb): every word capitalised, and the head a verb, an
    adverb or an interjection, or the first word a given name (graphmem/nlp/people.py)."""
    if not all(w.text[:1].isupper() for w in words if w.is_alpha):
        return False
    return root.pos_ in _MISREAD_POS or words[0].lower_ in given_names()


# Fixed expressions whose noun names nothing: "in person", "on track", "from scratch",
# "keep track of", "take care of", "need a hand" (general English idioms).
_PREP_IDIOM_TEXT = """in+person on+track from+scratch for+sale of+course in+addition in+case
    in+term in+mind in+fact in+general at+least by+way in+touch on+time in+time on+page
    at+all for+sure in+order on+purpose by+chance in+charge on+board in+advance"""
_VERB_IDIOM_TEXT = """keep+track lose+track take+care need+hand lend+hand give+hand try+hand
    make+headline follow+suit take+part make+sense take+place make+difference"""
# Figures of speech: the noun names nothing ("over the *moon*", "had a *blast*"), but a
# fact with it still says something ("Gina is over the moon").
_PREP_FIGURE_TEXT = """over+moon on+hunt in+corner in+need at+heart by+heart on+mind in+shape
    of+shape on+edge"""
_VERB_FIGURE_TEXT = """have+blast have+ball break+heart follow+lead catch+breath give+shot
    take+break keep+eye hit+road call+day break+ice"""


def _pairs(text: str) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(pair.split("+")) for pair in text.split())


_PREP_IDIOMS, _VERB_IDIOMS = _pairs(_PREP_IDIOM_TEXT), _pairs(_VERB_IDIOM_TEXT)
_PREP_FIGURES, _VERB_FIGURES = _pairs(_PREP_FIGURE_TEXT), _pairs(_VERB_FIGURE_TEXT)


def in_fixed_phrase(noun: Token, figures: bool = True) -> bool:
    """Whether ``noun`` is the noun of a fixed expression ("in *person*", "keep *track*"),
    or with ``figures`` of a figure of speech ("over the *moon*")."""
    lemma = noun.lemma_.lower()
    if noun.dep_ == "pobj":
        pair = (noun.head.lower_, lemma)
        return pair in _PREP_IDIOMS or (figures and pair in _PREP_FIGURES)
    if noun.dep_ == "dobj":
        pair = (noun.head.lemma_.lower(), lemma)
        return pair in _VERB_IDIOMS or (figures and pair in _VERB_FIGURES)
    return False


def is_light(head: Token, words: Sequence[Token]) -> bool:
    """Whether the phrase of ``words`` headed by ``head`` is a light noun with nothing to
    make it specific ("tips", "great ideas"; not "gardening tips"): it names nothing."""
    if head.pos_ != "NOUN" or head.lemma_.lower() not in _LIGHT_NOUNS:
        return False
    return not any(t.pos_ in _HEAD_POS for t in words if t.i != head.i)
