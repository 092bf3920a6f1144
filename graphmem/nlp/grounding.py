"""Temporal grounding that reads the sentence (issue 61): each date expression in a turn,
resolved to the day or interval the speaker meant, in the direction its clause looks.

"On Monday" means the coming Monday in "I start my new job on Monday" and the last one in
"I started on Monday"; a month-day without a year is the nearest one in that direction. The
direction comes from the clause governing the expression (spaCy's tags and dependency tree:
"will", "going to", a modal, the present progressive, "planning to" -> future; a past-tense
verb or "have + participle" -> past). The cheap regex pass in ``grounding_rules`` runs
first; a turn is parsed once, and only when some candidate needs a direction.

Every design reads it through ``temporal.normalise_temporal`` (PREMem's forms), as do valid
time's ``valid_from`` and CAST's question cues.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from spacy.tokens import Doc, Span, Token

from graphmem.nlp.grounding_calendar import CALENDAR_FORMS, Context, Direction, Kind, Resolved
from graphmem.nlp.grounding_relative import RELATIVE_FORMS
from graphmem.nlp.grounding_rules import CUES, Candidate, candidates

DISPATCH = {**CALENDAR_FORMS, **RELATIVE_FORMS}
Tense = Literal["past", "future", "present", "habitual", "unknown"]

# Forms whose date may depend on the direction of the clause (the rest carry their own:
# "yesterday", "last week", "two days ago", "since May", "3 November 2025"); see
# _needs_direction for the qualified ones.
_DIRECTIONAL = {
    "span_md",
    "span_wd",
    "until",
    "week_of",
    "nth_weekend",
    "md",
    "numeric_md",
    "holiday",
    "day_of_month",
    "bare_month",
    "wd",
    "in_n",
    "rel_period",
}
_INHERENT: dict[str, Tense] = {
    "ago": "past",
    "since": "past",
    "since_year": "past",
    "since_rel": "past",
}
_YEARLESS = {"md", "bare_month", "holiday", "numeric_md"}
_MONTH_FORMS = {
    "md",
    "numeric_md",
    "day_of_month",
    "span_md",
    "bare_month",
    "abs_date",
    "abs_month",
    "week_of",
    "until",
    "since",
    "holiday",
}


@dataclass(frozen=True, slots=True)
class Grounding:
    """One expression, ``text[start:end]``, and the day or interval it means: ``first`` to
    ``last`` (both included; None for no date: a habit, a figure of speech, a duration),
    or a length in ``duration_days``. ``why`` names the rule applied."""

    start: int
    end: int
    expression: str
    kind: Kind
    first: date | None
    last: date | None
    duration_days: float | None
    tense: Tense
    why: str


_FUTURE_AUX = set(CUES["future_aux"])
_FUTURE_VERBS = set(CUES["future_verbs"])
_FUTURE_ADJ = set(CUES["future_adjectives"])
_FUTURE_PART = set(CUES["future_participles"])
_HABIT_ADV = set(CUES["habit_adverbs"])
_FUTURE_NOUNS = set(CUES["future_nouns"])
_MOVING_VERBS = set(CUES["moving_verbs"])
_MOVING_PREPS = set(CUES["moving_preps"])
_MEMORY_VERBS = set(CUES["memory_verbs"])
_GENERIC = tuple(CUES["generic_words"])
_BE = set(CUES["be_present"])
_HAVE = set(CUES["have_any"])
_HAVE_PRESENT = set(CUES["have_present"])
_PAST_MODALS = set(CUES["past_modals"])
_SENTENCE = re.compile(r"[.!?\n]+")
_FRAGMENT_WORDS = 7  # a sentence shorter than this may have no verb: "Any plans this weekend?"


def _own_tense(verb: Token) -> Tense | None:
    """The tense the verb's own form and auxiliaries show, or None for a bare form (an
    infinitive or a participle) whose tense the verb above it gives."""
    auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    lowers = {a.lower_ for a in auxes}
    if verb.tag_ == "VBN" and "have" in lowers and lowers & _PAST_MODALS:
        return "past"  # "I would have gone on Monday"
    if lowers & _FUTURE_AUX or any(a.tag_ == "MD" for a in auxes) or verb.tag_ == "MD":
        return "future"
    if any(c.lower_ in _HABIT_ADV for c in verb.children):
        return "habitual"
    if verb.tag_ == "VBG" and "been" in lowers:
        # "I've been jogging on Saturday for a while": a habit; "I had been ..." is past.
        return "habitual" if lowers & _HAVE_PRESENT else "past"
    if verb.tag_ == "VBG" and lowers & _BE:
        return "future" if not any(a.tag_ == "VBD" for a in auxes) else "past"
    if verb.tag_ == "VBD" or any(a.tag_ == "VBD" for a in auxes):
        return "past"
    if verb.lower_ == "got" and lowers & _HAVE_PRESENT:
        return "present"  # "I've got a meeting on Monday": possession, not a past event
    if verb.tag_ == "VBN" and lowers & _HAVE:
        return "past"
    if verb.tag_ == "VBN" and verb.lower_ in _FUTURE_PART:
        return "future"
    if verb.tag_ in ("VBZ", "VBP"):
        return "present"
    subject = any(c.dep_ == "nsubj" for c in verb.children)
    if verb.tag_ == "VB" and not auxes and not subject:
        # An imperative: "Ring me on Sunday", "Let's book the van".
        return "future" if verb.dep_ == "ROOT" or verb.head.lower_ == "let" else None
    return None


def _governing_tense(token: Token) -> tuple[Tense, str] | None:
    """The tense of the clause governing ``token``: up the tree to the first verb, then
    through infinitives and gerunds ("planning to fly", "going to try making it") to the
    verb that shows a tense."""
    tok, prep = token, ""
    for _ in range(12):
        if tok.pos_ in ("VERB", "AUX"):
            break
        amods = (c for c in tok.children if c.dep_ == "amod")
        if tok is not token and any(c.lower_ in _FUTURE_ADJ for c in amods):
            return "future", f"'{tok.text}' is upcoming"
        if tok.lemma_.lower() in _FUTURE_NOUNS and tok is not token:
            return "future", f"a '{tok.text}'"
        if tok.head is tok:
            return None
        prep = tok.lower_ if tok.dep_ in ("prep", "dative") else prep
        tok = tok.head
    else:
        return None
    if tok.lemma_.lower() in _MOVING_VERBS and prep in _MOVING_PREPS:
        return "future", f"'{tok.text} {prep}' names the new time"
    return _verb_chain_tense(tok)


def _verb_chain_tense(verb: Token) -> tuple[Tense, str] | None:
    for _ in range(6):
        lemma = verb.lemma_.lower()
        if lemma in _FUTURE_VERBS and verb.tag_ in ("VBG", "VBP", "VBZ", "VB"):
            return "future", f"'{verb.text}' looks ahead"
        if verb.lower_ in ("going", "about") and any(c.dep_ == "xcomp" for c in verb.children):
            return "future", f"'{verb.text} to'"
        if lemma == "use" and any(c.dep_ == "xcomp" for c in verb.children):
            return "habitual", f"'{verb.text} to'"
        own = _own_tense(verb)
        if own is not None:
            return own, f"'{verb.text}' ({verb.tag_})"
        if verb.dep_ not in ("xcomp", "pcomp", "ccomp", "conj", "advcl") or verb.head is verb:
            break
        child, verb = verb, verb.head
        if verb.pos_ not in ("VERB", "AUX"):
            verb = verb.head
        if child.tag_ == "VBG" and verb.lemma_.lower() in _MEMORY_VERBS:
            return "past", f"'{verb.text} {child.text}' recalls"
    return None


def _sentence_tense(sent: Span) -> tuple[Tense, str] | None:
    for tok in sent:
        if tok.pos_ in ("VERB", "AUX") and tok.dep_ in ("ROOT", "conj"):
            found = _governing_tense(tok)
            if found:
                return found
    return None


def clause_tense(doc: Doc, offset: int, start: int, end: int) -> tuple[Tense, str]:
    """The tense of the clause around ``doc.text[start - offset: end - offset]``; a clause
    with no verb ("Five nights, back Saturday the 22nd.") takes the sentence before it,
    or else the one after."""
    if start < offset or end - offset > len(doc.text):
        return "unknown", "outside the sentences parsed"
    span = doc.char_span(start - offset, end - offset, alignment_mode="expand")
    if span is None or len(span) == 0:
        return "unknown", "no parse"
    found = _governing_tense(span.root)
    if found:
        return found
    sents = list(doc.sents)
    here = next((i for i, s in enumerate(sents) if s.start <= span.root.i < s.end), 0)
    for i in (here, here - 1, here + 1):
        if 0 <= i < len(sents):
            near = _sentence_tense(sents[i])
            if near:
                return near[0], f"{near[1]}, in a sentence nearby"
    return "unknown", "no verb"


def _needs_direction(cand: Candidate) -> bool:
    """Whether the clause's direction can change this candidate's date (only then is the
    turn parsed): "last Friday" or "next week" never, "on Friday" or "August 1" always."""
    if cand.form not in _DIRECTIONAL:
        return False
    g = cand.match.groupdict()
    if cand.form == "wd":
        return (g.get("q") or "on").lower() in ("on", "this")
    if cand.form == "rel_period":
        return g["unit"].lower() == "weekend" and (g.get("rq") or "").lower() in ("the", "this")
    if cand.form == "in_n":
        return bool(g.get("n"))  # "in two days" may be a length; "two days from now" not
    if cand.form == "span_wd":
        return not g.get("wq")
    return True


def _parse_window(text: str, cands: tuple[Candidate, ...]) -> tuple[Doc, int] | None:
    """One parse of the sentences holding the candidates that need a direction (a
    LongMemEval turn can run to pages), widened by a sentence either side when a
    candidate's own sentence is a fragment too short to have a verb of its own."""
    needing = [c for c in cands if _needs_direction(c)]
    if not needing:
        return None
    bounds = [0, *(m.end() for m in _SENTENCE.finditer(text)), len(text)]
    first = max(i for i, b in enumerate(bounds) if b <= needing[0].start)
    last = min(i for i, b in enumerate(bounds) if b >= needing[-1].end)
    short = any(
        len(
            text[
                max(b for b in bounds if b <= c.start) : min(b for b in bounds if b >= c.end)
            ].split()
        )
        < _FRAGMENT_WORDS
        for c in needing
    )
    if short:
        first, last = max(first - 1, 0), min(last + 1, len(bounds) - 1)
    lo, hi = bounds[first], bounds[last]
    from graphmem.nlp.spacy_loader import get_nlp

    return get_nlp()(text[lo:hi], disable=["ner"]), lo


def _direction(tense: Tense) -> Direction:
    return "past" if tense == "past" else "future"


def _sentence_of(text: str, pos: int) -> int:
    return sum(1 for m in _SENTENCE.finditer(text, 0, pos))


def ground(text: str, said_at: datetime, doc: Doc | None = None) -> list[Grounding]:
    """Every date expression in ``text``, said at ``said_at``, grounded, in text order.
    ``doc``: ``text`` already parsed by the project's pipeline (``nlp.text.analyse``), to
    share a parse; without it, the sentences that need one are parsed here."""
    cands = candidates(text)
    if not cands:
        return []
    parsed = (doc, 0) if doc is not None and doc.text == text else _parse_window(text, cands)
    today = said_at.date()
    out: list[Grounding] = []
    hint: tuple[int, int] | None = None
    anchor: tuple[date, date] | None = None
    anchor_sentence = -1
    years = _sentence_years(text, cands, today)
    for cand in cands:
        tense, why_tense = _tense_of(cand, parsed)
        sentence = _sentence_of(text, cand.start)
        if cand.form == "wd" and _generic(text, cand, tense):
            tense = "habitual"
        if cand.form in ("idiom", "habit") or (tense == "habitual" and cand.form == "wd"):
            out.append(_no_date(text, cand))
            continue
        year = years.get(sentence) if cand.form in _YEARLESS else None
        ctx = Context(today, _direction(tense), hint, anchor, sentence == anchor_sentence, year)
        try:
            resolved = DISPATCH[cand.form](cand, ctx)
        except (OverflowError, ValueError):
            # Counted past the edge of the calendar (a placeholder date of year 1 or 9999).
            resolved = None
        if resolved is None:
            continue
        out.append(_record(cand, text, resolved, tense, why_tense, today))
        if resolved.first is None or resolved.last is None:
            continue
        if cand.form in _MONTH_FORMS:
            hint = resolved.last.year, resolved.last.month
        if resolved.kind in ("month_day", "absolute", "span"):
            anchor, anchor_sentence = (resolved.first, resolved.last), sentence
    return out


def _no_date(text: str, cand: Candidate) -> Grounding:
    """A habit ("every Monday") or a figure of speech ("since forever"): no date."""
    idiom = cand.form == "idiom"
    return Grounding(
        cand.start, cand.end, text[cand.start : cand.end], "relative" if idiom else "weekday",
        None, None, None, "unknown" if idiom else "habitual",
        "a figure of speech" if idiom else "a habit: no particular date",
    )  # fmt: skip


def _generic(text: str, cand: Candidate, tense: Tense) -> bool:
    """A bare weekday in a present-tense judgement: "Monday is my favourite day"."""
    if cand.match["q"] or tense not in ("present", "unknown"):
        return False
    lo = max((m.end() for m in _SENTENCE.finditer(text, 0, cand.start)), default=0)
    hi_match = _SENTENCE.search(text, cand.end)
    sentence = text[lo : hi_match.start() if hi_match else len(text)].lower()
    return any(re.search(rf"\b{w}\b", sentence) for w in _GENERIC)


def _sentence_years(text: str, cands: tuple[Candidate, ...], today: date) -> dict[int, int]:
    """The year each sentence names ("in 2019", "last year"): a month or month-day without
    its own year in that sentence takes it ("Last year we did it in March")."""
    years: dict[int, int] = {}
    for cand in cands:
        if cand.form == "abs_year" or (
            cand.form == "rel_period" and cand.match["unit"].lower() == "year"
        ):
            try:
                r = DISPATCH[cand.form](cand, Context(today, "past"))
            except (OverflowError, ValueError):
                continue
            if r is not None and r.first is not None:
                years.setdefault(_sentence_of(text, cand.start), r.first.year)
    return years


def _tense_of(cand: Candidate, parsed: tuple[Doc, int] | None) -> tuple[Tense, str]:
    if cand.form in _INHERENT:
        return _INHERENT[cand.form], cand.form
    if parsed is not None:
        return clause_tense(parsed[0], parsed[1], cand.start, cand.end)
    return "unknown", "the expression carries its own time"


def _record(
    cand: Candidate, text: str, r: Resolved, tense: Tense, why: str, today: date
) -> Grounding:
    expression = text[cand.start : cand.end]
    if tense in ("unknown", "present") and r.first is not None and r.last is not None:
        # The date then tells the tense: "yesterday" is past, and a present that names a
        # day ahead is a plan ("We move to Porto on August 1").
        tense = "past" if r.last < today else "future" if r.first > today else "present"
    return Grounding(
        cand.start,
        cand.end,
        expression,
        r.kind,
        r.first,
        r.last,
        r.duration_days,
        tense,
        f"{r.why}; tense from {why}",
    )
