"""Offline open information extraction over the dependency parse:
(subject, relation, object, time) from each clause, first person resolved to the speaker."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from spacy.tokens import Doc, Span, Token

from graphmem.nlp.claims import speech_act
from graphmem.nlp.temporal import TemporalMention, normalise_temporal, render
from graphmem.nlp.text import (
    NON_TOPICAL_LABELS,
    TextOrDoc,
    analyse,
    cut_inside_word,
    phrase_key,
    third_person,
    trim_span,
)
from graphmem.nlp.things import has_markup, in_fixed_phrase, is_light


@dataclass(frozen=True, slots=True)
class Triple:
    subject: str
    relation: str
    object: str
    time: str | None = None  # a rendered temporal mention: "2023-05-07", "Before 2023-05"


_SUBJECT_DEPS = ("nsubj", "nsubjpass")
_OBJECT_DEPS = ("dobj", "attr", "acomp", "oprd")
_FIRST_SINGULAR = frozenset({"i", "me", "myself"})
_FIRST_PLURAL = frozenset({"we", "us", "ourselves"})
_FIRST_POSSESSIVE = frozenset({"my", "mine", "our", "ours"})
# Clauses and asides that hang off a noun are facts of their own, not part of its name.
_PHRASE_CUTS = frozenset(
    {"relcl", "acl", "conj", "cc", "appos", "punct", "advcl", "parataxis", "ccomp", "dep"}
)
_MAX_PHRASE_TOKENS = 8
_LEFT_OUT = frozenset({"ccomp", "xcomp", "dobj", "prep"})
# A clause under these is not asserted: "if I decide to get a dog".
_CONDITIONS = frozenset({"if", "unless", "whether"})
# A determiner that denies: "with *no* errors" without it says the opposite.
_DENYING = frozenset({"no", "neither"})
_HEDGES = frozenset({"maybe", "perhaps", "possibly", "hopefully", "likely", "probably"})
# Contractions the tokenizer splits ("gonna" -> "gon" "na"), glued back in a relation.
_SPLIT_CONTRACTION = re.compile(r"\b(gon|got|wan) (na|ta)\b")
# Amounts that are an object only with what they count: "know more [about X]".
_AMOUNTS = frozenset({"more", "much", "less", "most", "least", "enough", "lot", "plenty"})
# Relative words that are the clause's own adverbial: "the day *when* I arrived in Paris".
_RELATIVE_ADVERBS = frozenset({"where", "when", "why", "how", "whereby", "wherever"})
_QUESTION_WORDS = frozenset(
    {"what", "which", "who", "whom", "whose", "when", "where", "why", "how", "whatever"}
)


@dataclass(frozen=True, slots=True)
class _Context:
    speaker: str | None
    temporal: frozenset[int]  # token indices inside a time expression
    # Claims only: no end that is a fragment ("sure" cut from "sure that ...") or names
    # nothing ("way", "ideas"), which a query's own triples may still have.
    strict: bool = False


def _is_first_person(tok: Token) -> bool:
    low = tok.lower_
    return low in _FIRST_SINGULAR or low in _FIRST_PLURAL


def _inside_word(tok: Token) -> bool:
    """A hyphen joining two words into one ("decision-making"): part of the phrase."""
    before = tok.doc[tok.i - 1] if tok.i > 0 else None
    return (
        tok.text in ("-", "–")
        and not tok.whitespace_
        and before is not None
        and not before.whitespace_
    )


def _joint(tok: Token) -> bool:
    """A coordination that is one thing: "between Athens *and Sparta*", "both X *and Y*"."""
    if tok.dep_ not in ("conj", "cc"):
        return False
    head = tok.head
    between = head.dep_ == "pobj" and head.head.lower_ == "between"
    return between or any(c.dep_ == "preconj" for c in head.children)


def _collect(tok: Token, ctx: _Context, out: list[Token], root: Token) -> None:
    cut = tok.dep_ in _PHRASE_CUTS and not _inside_word(tok) and not _joint(tok)
    if tok.i != root.i and (cut or tok.i in ctx.temporal):
        return
    out.append(tok)
    for child in tok.children:
        _collect(child, ctx, out, root)


def _render_tokens(tokens: list[Token], ctx: _Context) -> str:
    words: list[str] = []
    for n, tok in enumerate(tokens):
        if n and not words[-1][-1:].isspace() and tokens[n - 1].i + 1 != tok.i:
            words[-1] += " "  # a token left out between ("friends, support"): not glued
        low = tok.lower_
        text = tok.text
        if ctx.speaker and low in _FIRST_POSSESSIVE:
            text = f"{ctx.speaker}'" if ctx.speaker.endswith("s") else f"{ctx.speaker}'s"
        elif ctx.speaker and _is_first_person(tok):
            text = ctx.speaker
        words.append(text + tok.whitespace_)
    return "".join(words).strip()


def _phrase(head: Token, ctx: _Context) -> str | None:
    """The noun phrase headed by ``head``: its subtree without clauses, determiners or
    time expressions; None for a bare pronoun (other than first person) or a time."""
    if head.i in ctx.temporal or head.ent_type_ in ("DATE", "TIME"):
        return None
    if _is_first_person(head):
        return ctx.speaker or head.text
    if head.pos_ == "PRON" or head.lower_ in _QUESTION_WORDS or _reciprocal(head):
        return None
    tokens: list[Token] = []
    _collect(head, ctx, tokens, head)
    tokens.sort(key=lambda t: t.i)
    if ctx.strict and any(t.lower_ in _QUESTION_WORDS and t.i < head.i for t in tokens):
        return None  # "how lucky [I am]", "what [we're] capable of": not a thing said of it
    if len(tokens) > _MAX_PHRASE_TOKENS:
        if ctx.strict and head.pos_ == "ADJ":
            return None  # "interested [in learning more about ...]": the rest is the point
        tokens = _shortened(head, tokens)
    if ctx.strict and len(tokens) == 1 and head.lower_ in ("one", "ones") and head.dep_ == "attr":
        return None  # "Quick Resume is one": one of what the sentence said before
    if ctx.strict and len(tokens) == 1 and head.lower_ in _AMOUNTS:
        return None  # "know more", "is much": an amount of what the phrase leaves out
    while tokens and (
        (tokens[0].pos_ in ("DET", "PUNCT", "CCONJ") and tokens[0].lower_ not in _DENYING)
        or tokens[0].dep_ == "prep"
        or (tokens[0].pos_ == "ADV" and tokens[0].is_stop)  # "so happy" -> "happy"
    ):
        tokens.pop(0)
    while tokens and tokens[-1].pos_ in ("PUNCT", "CCONJ", "ADP", "DET"):
        tokens.pop()
    # (a figure of speech stays: "Gina is over the moon" says how she is)
    fixed = in_fixed_phrase(head, figures=False)
    if ctx.strict and (_cut_complement(head) or is_light(head, tokens) or fixed):
        return None
    if tokens and cut_inside_word(head.doc[tokens[0].i : tokens[-1].i + 1]):
        return None
    text = _render_tokens(tokens, ctx)
    if ctx.strict and has_markup(text):
        return None  # "## Parts \\ Armor.cs", "data = # examine": layout, not a thing
    return text or None


def _shortened(head: Token, tokens: list[Token]) -> list[Token]:
    """A long phrase cut to its head, the head's modifiers and its first complement's
    noun: "sign of dehydration [in dogs that ...]", "access to [your] calendar [or ...]";
    the head alone ("sign", "access") would say something else."""
    kept = {t.i for t in tokens}
    short = [t for t in tokens if t.i <= head.i]
    prep = next((c for c in head.children if c.dep_ == "prep" and c.i > head.i), None)
    pobj = None if prep is None else next((g for g in prep.children if g.dep_ == "pobj"), None)
    if prep is None or pobj is None or prep.i not in kept:
        return short
    # "between the input and the output": the pair's second noun too
    end = max([pobj.i, *(c.i for c in pobj.children if c.dep_ == "conj" and _joint(c))])
    noun = [t for t in pobj.subtree if prep.i < t.i <= end and t.i in kept]
    return [*short, prep, *noun]


def _reciprocal(head: Token) -> bool:
    """ "each other", "one another": a pronoun, whatever the tagger says."""
    return head.lower_ in ("other", "another") and any(
        c.lower_ in ("each", "one") for c in head.children
    )


def _cut_complement(head: Token) -> bool:
    """An adjective whose clause the phrase leaves out: "sure" of "sure that it works",
    "happy" of "happy to help" say nothing alone."""
    clauses = ("ccomp", "xcomp", "advcl")
    return head.pos_ == "ADJ" and any(c.dep_ in clauses for c in head.children)


def _subjects(verb: Token) -> list[Token]:
    found = [c for c in verb.children if c.dep_ in _SUBJECT_DEPS]
    if not found and verb.dep_ == "conj" and verb.head is not verb:
        # "I cooked and ate": coordinated verbs share their subject.
        found = [c for c in verb.head.children if c.dep_ in _SUBJECT_DEPS]
    return [s for head in found for s in (head, *head.conjuncts)]


def _relation_base(verb: Token, first_person_subject: bool) -> list[str]:
    aux = [
        c
        for c in verb.children
        if c.dep_ in ("aux", "auxpass", "neg") and c.i < verb.i and c.tag_ != "TO"
    ]
    tokens = [*sorted(aux, key=lambda t: t.i), verb]
    # "I'm *not* sure", "it was *n't* easy": a negation after the verb is kept too.
    tokens += [c for c in verb.children if c.dep_ == "neg" and c.i > verb.i]
    tokens += [c for c in verb.children if c.dep_ == "prt"]
    words = [t.lower_ for t in tokens]
    if first_person_subject and tokens and tokens[0].tag_ in ("VBP", "MD"):
        words[0] = third_person(tokens[0]).lower()
    return ["not" if w in ("n't", "nt") else w for w in words]


def _objects(verb: Token, ctx: _Context, depth: int = 0) -> Iterator[tuple[list[str], str]]:
    """(relation words after the verb, object phrase) for each argument of ``verb``."""
    for child in verb.children:
        if child.dep_ in _OBJECT_DEPS or child.dep_ == "agent":
            if child.dep_ == "agent":
                targets = [g for g in child.children if g.dep_ == "pobj"]
                words = ["by"]
            else:
                targets, words = [child], []
            for target in targets:
                for obj in (target, *_own_conjuncts(target)):
                    phrase = _phrase(obj, ctx)
                    if phrase:
                        yield words, phrase
        elif child.dep_ == "prep":
            if ctx.strict and _object_elsewhere(verb):
                continue
            # "took up community work from church": the object goes with the preposition
            # ("took up community work from | church"), or the fact says something else.
            carried = _direct_object(verb, ctx)
            for words, phrase in _prep_objects(child, ctx):
                yield [*carried, *words], phrase
        elif child.dep_ == "xcomp" and child.pos_ in ("VERB", "AUX") and depth == 0:
            # "use bioluminescence to communicate": the verb's own object stays with it.
            carried = _direct_object(verb, ctx)
            for words, phrase in _xcomp_objects(child, ctx):
                yield [*carried, *words], phrase


def _own_conjuncts(head: Token) -> list[Token]:
    """The conjuncts of ``head`` that stand alone: in "the development and availability
    *of a vaccine*" the phrase after the last conjunct belongs to both, and
    "availability" without it names something else."""
    conjuncts = list(head.conjuncts)
    if not conjuncts:
        return []
    last = max(c.i for c in conjuncts)
    shared = any(c.dep_ == "prep" and c.i > last for c in head.children)
    return [] if shared else conjuncts


def _object_elsewhere(verb: Token) -> bool:
    """Whether what ``verb`` acts on is outside its prepositional phrases, so a fact of
    the verb and a preposition alone says something else: a clause the verb governs
    ("I'd like [to explore ...] in the meantime"), or, with no object of its own, the
    noun its relative clause describes ("the necklace I saw on Amazon")."""
    children = list(verb.children)
    if any(c.dep_ == "dobj" for c in children):
        return False
    # (a clause before the verb is a sentence of its own the parse hung there: "Last
    # week was wild - I volunteered at the shelter")
    if any(c.dep_ in ("xcomp", "ccomp") and c.i > verb.i for c in children):
        return True
    if verb.dep_ != "relcl":
        return False
    subject = next((c for c in children if c.dep_ in _SUBJECT_DEPS), None)
    relative = any(c.lower_ in _RELATIVE_ADVERBS for c in children)
    # the subject is the relative word itself ("who went to Paris"): nothing is missing
    return subject is not None and subject.tag_ not in ("WDT", "WP") and not relative


def _direct_object(verb: Token, ctx: _Context) -> list[str]:
    """The direct object of ``verb`` as words of a relation: its phrase, or a pronoun as
    written ("saw it on | Amazon"); none when the verb has none."""
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if obj is None:
        return []
    phrase = _phrase(obj, ctx)
    return [phrase] if phrase else [obj.lower_]


def _prep_objects(prep: Token, ctx: _Context) -> Iterator[tuple[list[str], str]]:
    for pobj in (g for g in prep.children if g.dep_ == "pobj"):
        joint = _joint(next((c for c in pobj.children if c.dep_ == "conj"), pobj))
        for obj in (pobj,) if joint else (pobj, *pobj.conjuncts):
            phrase = _phrase(obj, ctx)
            if phrase:
                yield [prep.lower_], phrase


def _xcomp_objects(xcomp: Token, ctx: _Context) -> Iterator[tuple[list[str], str]]:
    """ "want to paint a sunset" -> (["to", "paint"], "sunset"); an xcomp with no argument
    of its own becomes the object: "love to paint" -> ([], "to paint")."""
    marker = [c.lower_ for c in xcomp.children if c.tag_ == "TO"]
    head = [*marker, xcomp.lower_, *(c.lower_ for c in xcomp.children if c.dep_ == "prt")]
    inner = list(_objects(xcomp, ctx, depth=1))
    # "trying to figure out [what to cook]": with its complement left out, the verb alone
    # says nothing the turn does; a verb with nothing to leave out ("love to paint") does.
    cut = ctx.strict and any(c.dep_ in _LEFT_OUT for c in xcomp.children)
    if not inner and xcomp.i not in ctx.temporal and not cut:
        yield [], " ".join(head)
    for words, phrase in inner:
        yield [*head, *words], phrase


def _sentence_time(sent: Span, mentions: list[TemporalMention]) -> str | None:
    for mention in mentions:
        if sent.start_char <= mention.start < sent.end_char:
            return render(mention)
    return None


def _temporal_tokens(doc: Doc, mentions: list[TemporalMention]) -> frozenset[int]:
    inside = {t.i for t in doc if t.ent_type_ in ("DATE", "TIME")}
    for mention in mentions:
        span = doc.char_span(mention.start, mention.end, alignment_mode="expand")
        if span is not None:
            inside.update(t.i for t in span)
    return frozenset(inside)


def _glued(relation: str, obj: str) -> tuple[str, str]:
    """A contraction the tokenizer split, glued back: "are gon | na turn out" -> "are
    gonna | turn out", "got | ta say" -> "gotta | say"."""
    relation = _SPLIT_CONTRACTION.sub(r"\1\2", relation)
    last = relation.rsplit(" ", 1)[-1]
    if last in ("gon", "got", "wan") and obj.startswith(("na ", "ta ")):
        return relation + obj[:2], obj[3:]
    return relation, obj


def _asserted(verb: Token) -> bool:
    """Whether the clause of ``verb`` says something happens or holds: not under a
    condition ("if I *decide* to"), and not a bare infinitive under a verb that only
    may happen ("can help viewers *appreciate* the art"; "helps me *stay* motivated" is
    said)."""
    children = list(verb.children)
    if any(c.dep_ == "mark" and c.lower_ in _CONDITIONS for c in children):
        return False
    if any(c.dep_ == "advmod" and c.lower_ in _HEDGES for c in children):
        return False  # "maybe I can bring over my coffee": offered, not said to happen
    if _denied_with_head(verb):
        return False
    bare = verb.tag_ == "VB" and not any(c.dep_ in ("aux", "auxpass") for c in children)
    if not (bare and verb.dep_ in ("ccomp", "advcl", "conj", "dep")):
        return True
    head = verb.head
    return not any(c.tag_ == "MD" for c in head.children) and _asserted(head)


def _denied_with_head(verb: Token) -> bool:
    """A verb coordinated with a negated one, without a subject of its own: the negation
    covers it ("I don't know your schedule, attend meetings or ..."), which the fact of
    the verb alone would lose."""
    if verb.dep_ != "conj" or any(c.dep_ in _SUBJECT_DEPS for c in verb.children):
        return False
    return any(c.dep_ == "neg" for c in verb.head.children)


def _clause_triples(verb: Token, ctx: _Context, time: str | None) -> Iterator[Triple]:
    if ctx.strict and not _asserted(verb):
        return
    for subj in _subjects(verb):
        subject = _phrase(subj, ctx)
        if not subject or (subj.pos_ == "NUM" and subject == subj.text):
            continue  # a number alone ("1 has set up ...") is a list's marker or a count
        base = _relation_base(verb, _is_first_person(subj) and subj.lower_ != "me")
        for words, obj in _objects(verb, ctx):
            relation, obj = _glued(" ".join([*base, *words]).strip(), obj)
            if relation and obj and obj.lower() != subject.lower():
                yield Triple(subject, relation, obj, time)


def extract_triples(
    doc_or_text: TextOrDoc,
    speaker: str | None = None,
    reference: datetime | None = None,
    claims_only: bool = False,
    names: frozenset[str] = frozenset(),
) -> list[Triple]:
    """(subject, relation, object, time) facts stated in ``doc_or_text``; first person is
    the ``speaker``, and times are resolved against ``reference`` when one is given.
    ``claims_only``: only from sentences that state something (``nlp/claims.py``: not a
    question, a request, a reaction or a list opening; ``names``: the speakers', lower
    case); a question's own triples are what a query is about, so queries keep them."""
    doc = analyse(doc_or_text)
    mentions = normalise_temporal(doc.text, reference) if reference is not None else []
    ctx = _Context((speaker or "").strip() or None, _temporal_tokens(doc, mentions), claims_only)
    out: list[Triple] = []
    seen: set[tuple[str, str, str]] = set()
    for sent in doc.sents:
        if claims_only and speech_act(sent, names) != "statement":
            continue
        time = _sentence_time(sent, mentions)
        for tok in sent:
            # An xcomp ("want to *paint*") is reported with the verb that governs it.
            if tok.pos_ not in ("VERB", "AUX") or tok.dep_ in ("aux", "auxpass", "xcomp"):
                continue
            for triple in _clause_triples(tok, ctx, time):
                key = (triple.subject.lower(), triple.relation, triple.object.lower())
                if key not in seen:
                    seen.add(key)
                    out.append(triple)
    return out


def query_entities(text: TextOrDoc) -> list[str]:
    """What a question is about: entities, noun phrases and proper nouns, without the
    question words, times or quantities; case-insensitively unique, entities first."""
    doc = analyse(text)
    spans: list[Span] = [e for e in doc.ents if e.label_ not in NON_TOPICAL_LABELS]
    for chunk in doc.noun_chunks:
        spans.append(chunk)
        # "Melanie's favorite technique" is also asked about as "favorite technique".
        case = [t for t in chunk if t.dep_ == "case"]
        if case and case[-1].i + 1 < chunk.end:
            spans.append(doc[case[-1].i + 1 : chunk.end])
    spans += [doc[t.i : t.i + 1] for t in doc if t.pos_ == "PROPN"]
    out: list[str] = []
    seen: set[str] = set()
    for span in spans:
        trimmed = trim_span(span)
        if trimmed is None or any(t.ent_type_ in NON_TOPICAL_LABELS for t in trimmed):
            continue
        words = [t for t in trimmed if t.lower_ not in _QUESTION_WORDS]
        if not words:
            continue
        phrase = doc[words[0].i : words[-1].i + 1]
        key = phrase_key(phrase)
        if key and key not in seen:
            seen.add(key)
            out.append(phrase.text)
    return out
