"""The values of a state that hold one at a time, read from every clause whose subject is
the claim's, wherever it stands ("user has noticed that user is focused on days when user
attends yoga classes, which is three times a week": the rate is attending's), told as
facts (not denied, no modal, no condition: ``aspect.hedged``):

- ``span:<verb>|<thing>=<days>``: how long a state has lasted, in the present perfect or
  with "now" ("has been using the Fitbit for 6 months now": ``span:use|fitbit=180``); a
  span said later that is longer is the same state gone on;
- ``rate:<verb>|<thing>|<period>=<amount>``: how much or how often per period ("dedicates
  about an hour each day to coding exercises": ``rate:dedicate|to coding exercise|day=1
  hour``; "does yoga twice a week": ``rate:do|yoga|week=2 times``);
- ``weekday:<verb>|<thing>=<day>``: the weekday of a habit ("has a pottery class on
  Fridays", "every Friday", "usually ... on Friday"); of one time ``<day> once`` ("on
  Thursday"): a habit said later replaces it, it replaces no habit;
- ``rank:<noun>=<words>``: a rank held ("reached Premier Gold status": ``rank:status=premier
  gold``; ``lexicon.RANK_NOUNS``);
- ``home:<place>``: where the subject lives ("lives in Boston", "moved to Denver");
- ``job:<employer>``: where the subject works ("works at Google", "got a new job at
  Stripe", "was hired by the city library");
- ``placed:<thing>=<place>``: where the subject put one specific thing ("moved the
  'Ethereal Dreams' painting above the bed": ``placed:ethereal dreams painting=bed``;
  ``lexicon.PLACING_VERBS``), of a plan too ("will leave it above the sofa").

``<thing>`` is what the verb acts on: its direct object's key, else its first
preposition's object ("in Harajuku", "to coding exercise"), so two values meet only when
the verb and its thing are one.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from spacy.tokens import Doc, Token

from graphmem.nlp.grounding_rules import WEEKDAYS
from graphmem.validity import lexicon as lex
from graphmem.validity.aspect import chunk_key, clauses, hedged, specific_key
from graphmem.validity.patterns import Match
from graphmem.validity.values import Placed, Rank, Rate, Said, Span, Value, Weekday

_PERFECT_AUX = frozenset({"has", "have", "'ve", "'s"})

# "an hour each day", "2 miles a day", "$50 a week": an amount of one unit per period.
_RATE = re.compile(
    r"\b(?P<amount>\d+(?:\.\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|half an?)"
    r"\s+(?P<unit>[a-z]+?)s?\s+(?:a|an|per|each|every)\s+(?P<period>[a-z]+?)s?\b"
)
_TIMES = {"once": "1", "twice": "2", "thrice": "3"}


def states(
    doc: Doc,
    root: Token,
    whose: Callable[[Token], str],
    subject: str,
    matched: dict[str, list[Match]],
) -> list[Value]:
    """The ``span:``, ``rate:``, ``weekday:``, ``home:`` and ``job:`` values (module
    docstring) of the main clauses whose subject is ``subject`` (``matched``: the doc's
    pattern matches, ``patterns.matches``)."""
    found: list[Value] = []
    for verb in clauses(doc):
        if not subject or whose(verb) != subject:
            continue
        if hedged(verb):
            # Where a thing is to stay is a plan a later move replaces ("will leave the
            # print in the hallway").
            found += _placed(verb, doc) if _to_come(verb) else []
            continue
        # A move or a hire is an event that sets the state it names.
        found += [*_home(verb, doc, matched), *_job(verb, doc, matched), *_placed(verb, doc)]
        if verb.tag_ == "VBD":  # one event: its span, rate or day is that time's
            continue
        lemma = verb.lemma_.lower()
        thing = _thing(verb, doc)
        found += [Span(verb=lemma, thing=thing, days=days) for days in _span(verb)]
        # "takes 2 pills each morning": the unit is the thing, and nothing says which.
        rates = [r for r in _rates(verb) if r.rpartition(" ")[2] != thing.rpartition(" ")[2]]
        found += [_rate(lemma, thing, rate) for rate in rates]
        found += [Weekday(verb=lemma, thing=thing, day=day) for day in _weekdays(verb)]
    # A rank is the speaker's whichever clause tells it ("hit 20,000 miles, which means
    # user is eligible for Premier Silver status"; "... - user just reached Premier Gold").
    for verb in (t for t in doc if t.pos_ in ("VERB", "AUX")):
        if subject and whose(verb) == subject and not hedged(verb):
            found += _ranks(verb, doc)
    return sorted(set(found))


def _rate(verb: str, thing: str, rate: str) -> Rate:
    period, _, amount = rate.partition("=")
    return Rate(verb=verb, thing=thing, period=period, amount=amount)


def _to_come(verb: Token) -> bool:
    """Told of the future and nothing else hedges it ("will leave", not "could leave",
    "won't leave" or "if user leaves")."""
    auxes = {c.lower_ for c in verb.children if c.dep_ == "aux"}
    others = [
        c
        for c in verb.children
        if c.dep_ == "neg" or (c.dep_ == "mark" and c.lower_ in lex.HEDGING_MARKS)
    ]
    return (
        bool(auxes & lex.FUTURE_MODALS)
        and not auxes & (lex.HEDGING_MODALS - lex.FUTURE_MODALS)
        and not others
    )


def _clause(verb: Token) -> list[Token]:
    """The verb's own words: its subtree without the clauses joined to it and without the
    clauses of another subject ("when user's sister visits twice a week": hers). A clause
    of a relative pronoun tells of its antecedent ("yoga classes, which is three times a
    week"): it stays."""
    other = {t.i for c in verb.subtree if c.i != verb.i and _own_clause(c) for t in c.subtree}
    return [t for t in verb.subtree if t.i not in other]


def _own_clause(token: Token) -> bool:
    """A clause joined to another by "and" (or side by side), or one with its own subject."""
    if token.pos_ not in ("VERB", "AUX"):
        return False
    if token.dep_ in ("conj", "parataxis"):
        return True
    subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
    return any(s.lower_ not in lex.RELATIVE_PRONOUNS for s in subjects)


def _thing(verb: Token, doc: Doc) -> str:
    """What the verb acts on (module docstring); amounts, dates and periods are values."""
    for child in verb.children:
        if child.dep_ in ("dobj", "obj") and child.pos_ != "PRON" and not _measure(child):
            return _key(child, doc)
    for prep in (c for c in verb.children if c.dep_ == "prep" and c.lower_ not in ("for", "on")):
        for pobj in prep.children:
            if pobj.dep_ == "pobj" and pobj.pos_ != "PRON" and not _measure(pobj):
                return f"{prep.lower_} {_key(pobj, doc)}"
    return ""


def _measure(token: Token) -> bool:
    lemma = token.lemma_.lower()
    return (
        lemma in lex.TIME_UNITS
        or lemma in lex.PERIODS
        or lemma in WEEKDAYS
        or token.ent_type_ in lex.NUMERIC | {"DATE"}
    )


def _key(token: Token, doc: Doc) -> str:
    chunk = next((c for c in doc.noun_chunks if c.root.i == token.i), None)
    return chunk_key(chunk, chunk.text) if chunk is not None else token.lemma_.lower()


def _span(verb: Token) -> list[int]:
    """ "has been using it for 6 months (now)": 180; "for the past two years": 730."""
    perfect = any(c.dep_ == "aux" and c.lower_ in _PERFECT_AUX for c in verb.children)
    now = any(c.dep_ == "advmod" and c.lower_ in lex.NOW_WORDS for c in verb.children)
    if not (perfect or now):
        return []
    out = []
    for prep in (c for c in verb.children if c.dep_ == "prep" and c.lower_ == "for"):
        for unit in (p for p in prep.children if p.dep_ == "pobj"):
            days = lex.SPAN_DAYS.get(unit.lemma_.lower())
            amount = _amount(unit)
            if days is not None and amount is not None:
                out.append(round(days * amount))
    return out


def _amount(unit: Token) -> float | None:
    """The one number in front of a unit ("six months", "a month", "2 years")."""
    numbers = [c for c in unit.children if c.dep_ == "nummod"]
    if not numbers:
        article = any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in unit.children)
        return 1.0 if article else None
    if len(numbers) != 1 or any(c.dep_ != "prep" for c in numbers[0].children):
        return None
    word = numbers[0].lower_
    if word in lex.NUMBER_VALUES:
        return float(lex.NUMBER_VALUES[word])
    try:
        return float(word)
    except ValueError:
        return None


def _rates(verb: Token) -> list[str]:
    """ "an hour each day": ``day=1 hour``; "twice a week": ``week=2 times``."""
    text = " ".join(t.lower_ for t in _clause(verb))
    out = []
    for match in _RATE.finditer(text):
        period = match.group("period")
        # "three times a week" is how often (``lex.FREQ``, below), no amount.
        unit = match.group("unit")
        if period not in lex.PERIODS or unit in lex.PERIODS or unit == "time":
            continue
        amount = match.group("amount")
        number = lex.NUMBER_VALUES.get(amount, 1 if amount[0] in "ah" else amount)
        number = 0.5 if amount.startswith("half") else number
        out.append(f"{period}={number} {match.group('unit')}")
    for match in lex.FREQ.finditer(text):
        words = match.group(0).split()
        times = _TIMES.get(words[0], str(lex.NUMBER_VALUES.get(words[0], words[0])))
        out.append(f"{words[-1]}={times} times")
    return out


def _weekdays(verb: Token) -> list[str]:
    """The weekdays of a habit ("on Fridays", "every Friday", "usually ... on Friday"), and
    of one time ("on Thursday": ``thursday once``)."""
    words = _clause(verb)
    habit = any(t.lower_ in lex.HABIT_WORDS for t in words)
    out = []
    for token in words:
        day = token.lower_.removesuffix("s")
        if day in WEEKDAYS:
            once = not (habit or token.lower_.endswith("days"))
            out.append(f"{day} once" if once else day)
    return out


def _ranks(verb: Token, doc: Doc) -> list[Rank]:
    """ "reached Premier Gold status": ``rank:status=premier gold`` (``lex.RANK_NOUNS``),
    of a noun the verb acts on or is at."""
    out = []
    for chunk in doc.noun_chunks:
        root = chunk.root
        if root.lemma_.lower() not in lex.RANK_NOUNS or _verb_of(root) != verb:
            continue
        words = [
            t.lower_
            for t in chunk
            if t.i < root.i and t.dep_ in ("compound", "amod") and not t.like_num
        ]
        if words:
            out.append(Rank(noun=root.lemma_.lower(), words=" ".join(words)))
    return out


def _verb_of(token: Token) -> Token:
    while token.pos_ not in ("VERB", "AUX") and token.head.i != token.i:
        token = token.head
    return token


def _places(pobj: Token, doc: Doc) -> list[str]:
    """A preposition's object when it names a place or a thing, and the places in it ("in
    Porto", "to a new apartment in Lisbon": Lisbon)."""
    out = [_key(pobj, doc)] if pobj.ent_type_ in lex.PLACES or pobj.pos_ == "PROPN" else []
    for inner in (c for c in pobj.children if c.dep_ == "prep" and c.lower_ == "in"):
        out += [place for p in inner.children if p.dep_ == "pobj" for place in _places(p, doc)]
    return out


def _home(verb: Token, doc: Doc, found: dict[str, list[Match]]) -> list[Said]:
    """ "lives in Porto", "moved to Porto", "relocated to Lisbon": ``home:`` values; the
    thing moved ("moved the painting to ...") is no home, nor a home left ("lived in
    Porto") or a move to come ("is moving to Porto")."""
    lemma = verb.lemma_.lower()
    if lemma not in lex.HOME_VERBS or any(c.dep_ in ("dobj", "obj") for c in verb.children):
        return []
    left = lemma == "live" and verb.tag_ == "VBD"
    coming = lemma != "live" and verb.tag_ == "VBG" and _progressive(verb)
    if left or coming:
        return []
    objects = [m["object"] for m in found["home"] if m["verb"].i == verb.i]
    return [Said(kind="home", said=place) for pobj in objects for place in _places(pobj, doc)]


def _progressive(verb: Token) -> bool:
    """ "is moving", "are relocating": a form of "be" in front of the -ing form."""
    return any(c.dep_ == "aux" and c.lemma_.lower() == "be" for c in verb.children)


def _placed(verb: Token, doc: Doc) -> list[Placed]:
    """ "moved the 'Ethereal Dreams' painting above the bed": the specific thing put
    somewhere and where (module docstring); a pronoun ("keeps them") names no thing. The
    small parser hangs the place on the verb, on the thing or on a word the verb governs."""
    if verb.lemma_.lower() not in lex.PLACING_VERBS:
        return []
    objects = [c for c in verb.children if c.dep_ in ("dobj", "obj")]
    chunks = [c for c in doc.noun_chunks if any(c.root.i == o.i for o in objects)]
    # A name inside says which one ("the 'Ethereal Dreams' painting").
    named = [chunk_key(c, c.text) for c in chunks if any(t.pos_ == "PROPN" for t in c)]
    things = [key for key in map(specific_key, chunks) if key] or named
    heads = {verb.i, *(c.i for c in verb.children)}
    places = [
        _key(pobj, doc)
        for prep in _clause(verb)
        if prep.dep_ == "prep" and prep.lower_ in lex.PLACE_PREPOSITIONS and prep.head.i in heads
        for pobj in prep.children
        if pobj.dep_ == "pobj" and pobj.pos_ in ("NOUN", "PROPN") and not _measure(pobj)
    ]
    return [Placed(thing=thing, place=place) for thing in things for place in places]


def _job(verb: Token, doc: Doc, found: dict[str, list[Match]]) -> list[Said]:
    """ "works at Google", "was hired by Stripe", "got a new job at the library"
    (``validity.patterns``)."""
    out = []
    for pobj in (m["object"] for m in found["job"] if m["verb"].i == verb.i):
        chunk = next((c for c in doc.noun_chunks if c.root.i == pobj.i), None)
        named = pobj.ent_type_ == "ORG" or pobj.pos_ == "PROPN"
        key = _key(pobj, doc) if named else specific_key(chunk) if chunk else ""
        if key:
            out.append(Said(kind="job", said=key))
    return out
