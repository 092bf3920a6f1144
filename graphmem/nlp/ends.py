"""The phrase at a fact's end: the noun phrase a subject or an object token heads, cut
to what names the thing (no clause, aside or time; first person as the speaker's name)
and refused when, for a claim, it names nothing or says something other than the turn."""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Token

from graphmem.nlp.lexicon import WH_WORDS
from graphmem.nlp.text import cut_inside_word
from graphmem.nlp.things import has_markup, in_fixed_phrase, is_light

_FIRST_SINGULAR = frozenset({"i", "me", "myself"})
_FIRST_PLURAL = frozenset({"we", "us", "ourselves"})
_FIRST_POSSESSIVE = frozenset({"my", "mine", "our", "ours"})
# Clauses and asides that hang off a noun are facts of their own, not part of its name.
_PHRASE_CUTS = frozenset(
    {"relcl", "acl", "conj", "cc", "appos", "punct", "advcl", "parataxis", "ccomp", "dep"}
)
_MAX_PHRASE_TOKENS = 8
# A determiner that denies: "with *no* errors" without it says the opposite.
DENYING = frozenset({"no", "neither"})
# Amounts that are an object only with what they count: "know more [about X]".
_PARTS = frozenset({"one", "some", "many", "all", "each", "most", "both", "several", "few"})
_AMOUNTS = frozenset({"more", "much", "less", "most", "least", "enough", "lot", "plenty"})


@dataclass(frozen=True, slots=True)
class EndContext:
    speaker: str | None
    temporal: frozenset[int]  # token indices inside a time expression
    # Claims only: no end that is a fragment ("sure" cut from "sure that ...") or names
    # nothing ("way", "ideas"), which a query's own triples may still have.
    strict: bool = False


def is_first_person(tok: Token) -> bool:
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


def joint(tok: Token) -> bool:
    """A coordination that is one thing: "between Athens *and Sparta*", "both X *and Y*"."""
    if tok.dep_ not in ("conj", "cc"):
        return False
    head = tok.head
    between = head.dep_ == "pobj" and head.head.lower_ == "between"
    return between or any(c.dep_ == "preconj" for c in head.children)


def _collect(tok: Token, ctx: EndContext, out: list[Token], root: Token) -> None:
    cut = tok.dep_ in _PHRASE_CUTS and not _inside_word(tok) and not joint(tok)
    if tok.i != root.i and (cut or tok.i in ctx.temporal):
        return
    out.append(tok)
    for child in tok.children:
        _collect(child, ctx, out, root)


def _render_tokens(tokens: list[Token], ctx: EndContext) -> str:
    words: list[str] = []
    for n, tok in enumerate(tokens):
        if n and not words[-1][-1:].isspace() and tokens[n - 1].i + 1 != tok.i:
            words[-1] += " "  # a token left out between ("friends, support"): not glued
        low = tok.lower_
        text = tok.text
        if ctx.speaker and low in _FIRST_POSSESSIVE:
            text = f"{ctx.speaker}'" if ctx.speaker.endswith("s") else f"{ctx.speaker}'s"
        elif ctx.speaker and is_first_person(tok):
            text = ctx.speaker
        words.append(text + tok.whitespace_)
    return "".join(words).strip()


def end_phrase(head: Token, ctx: EndContext) -> str | None:
    """The noun phrase headed by ``head``: its subtree without clauses, determiners or
    time expressions; None for a bare pronoun (other than first person) or a time."""
    if head.i in ctx.temporal or head.ent_type_ in ("DATE", "TIME"):
        return None
    if is_first_person(head):
        return ctx.speaker or head.text
    if head.pos_ == "PRON" or head.lower_ in WH_WORDS or _reciprocal(head):
        return None
    if _part_of_pronoun(head):
        return None
    tokens: list[Token] = []
    _collect(head, ctx, tokens, head)
    tokens.sort(key=lambda t: t.i)
    if ctx.strict and any(t.lower_ in WH_WORDS and t.i < head.i for t in tokens):
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
        (tokens[0].pos_ in ("DET", "PUNCT", "CCONJ") and tokens[0].lower_ not in DENYING)
        or tokens[0].dep_ == "prep"
        or (tokens[0].pos_ == "ADV" and tokens[0].is_stop)  # "so happy" -> "happy"
    ):
        tokens.pop(0)
    while tokens and tokens[-1].pos_ in ("PUNCT", "CCONJ", "ADP", "DET"):
        tokens.pop()
    # (a figure of speech stays: "Gina is over the moon" says how she is)
    fixed = in_fixed_phrase(head, figures=False)
    if ctx.strict and (_cut_complement(head, tokens) or is_light(head, tokens) or fixed):
        return None
    if tokens and cut_inside_word(head.doc[tokens[0].i : tokens[-1].i + 1]):
        return None
    text = _render_tokens(tokens, ctx)
    if not any(ch.isalnum() for ch in text):
        return None  # "has been | -"
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
    end = max([pobj.i, *(c.i for c in pobj.children if c.dep_ == "conj" and joint(c))])
    noun = [t for t in pobj.subtree if prep.i < t.i <= end and t.i in kept]
    return [*short, prep, *noun]


def _part_of_pronoun(head: Token) -> bool:
    """ "One of them", "some of these": a part of something only a pronoun names."""
    if head.lower_ not in _PARTS:
        return False
    preps = [c for c in head.children if c.dep_ == "prep" and c.lower_ == "of"]
    return any(g.dep_ == "pobj" and g.pos_ in ("PRON", "DET") for p in preps for g in p.children)


def _reciprocal(head: Token) -> bool:
    """ "each other", "one another": a pronoun, whatever the tagger says."""
    return head.lower_ in ("other", "another") and any(
        c.lower_ in ("each", "one") for c in head.children
    )


def _cut_complement(head: Token, tokens: list[Token]) -> bool:
    """An adjective whose clause the phrase leaves out: "sure" of "sure that it works",
    "happy" of "happy to help" say nothing alone; nor does a verb inside the phrase
    whose clause it leaves out ("great at making [you feel loved]")."""
    if head.pos_ == "ADJ" and any(c.dep_ in ("ccomp", "xcomp", "advcl") for c in head.children):
        return True
    kept = {t.i for t in tokens}
    for verb in (t for t in tokens if t.pos_ == "VERB" and t.i != head.i):
        clauses = [c.i for c in verb.children if c.dep_ in ("ccomp", "xcomp")]
        if clauses and not kept.intersection(clauses):
            return True
    return False
