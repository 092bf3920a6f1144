"""An AI assistant's answer, read up to its opening.

In a conversation with an assistant (``graphmem/nlp/roles.py``) an answer opens with what it
answers: the recommendation, the direct reply, the user's situation restated. The lists,
steps and caveats after it are general knowledge, and they are long: on a LongMemEval
haystack answers averaged 1,670 characters against 250 for the user's turns, and were 87%
of the text every design parsed. Offline, the designs read an answer up to its
``Settings.answer_sentences``-th sentence that carries content. The whole turn stays one
passage, embedded, indexed and cited whole.

The opening is parsed from a prefix of the answer (cut at a sentence end past
``_PREFIX_CHARS``, longer when it holds too few sentences), never from the whole text, and
the prefixes are the same for every design, so the parse cache serves them all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spacy.tokens import Doc

from graphmem.nlp.text import analyse_many, is_content_token

# A first cut of this many characters holds three content sentences of most answers
# (sentences of answers average about 100 characters); each retry reads four times more.
_PREFIX_CHARS = 600
_GROWTH = 4
_END = re.compile(r"[.!?](?=\s)|\n")


def opening(doc: Doc, sentences: int) -> Doc:
    """The first ``sentences`` sentences of ``doc`` that carry content (and whatever
    contentless ones come before and between them), keeping the whole text's parse; ``doc``
    itself when it has no more."""
    kept = end = 0
    for sent in doc.sents:
        end = sent.end
        kept += any(is_content_token(t) for t in sent)
        if kept >= sentences:
            break
    return doc if end >= len(doc) else doc[:end].as_doc()


def _prefix(text: str, size: int) -> str:
    """``text`` up to the first sentence end or line break at or after ``size`` characters
    (all of it when it has none)."""
    if len(text) <= size:
        return text
    found = _END.search(text, size)
    return text if found is None else text[: found.end()]


def analyse_openings(texts: Sequence[str], sentences: int) -> list[Doc]:
    """``opening(parse, sentences)`` of each text, parsed from a prefix long enough that
    the opening ends before the prefix does (or from the whole text)."""
    out: list[Doc | None] = [None] * len(texts)
    pending = list(range(len(texts)))
    size = _PREFIX_CHARS
    while pending:
        prefixes = [_prefix(texts[i], size) for i in pending]
        docs = analyse_many(prefixes)
        longer: list[int] = []
        for i, prefix, doc in zip(pending, prefixes, docs, strict=True):
            head = opening(doc, sentences)
            if prefix == texts[i] or len(head) < len(doc):
                out[i] = head
            else:
                longer.append(i)
        pending, size = longer, size * _GROWTH
    return [doc for doc in out if doc is not None]


def analyse_turns(texts: Sequence[str], answers: Sequence[bool], sentences: int) -> list[Doc]:
    """Each turn's parse, in order: an answer's (``answers[i]``) up to its opening
    (``sentences`` content sentences; 0: whole), every other turn whole."""
    if not sentences or not any(answers):
        return analyse_many(texts)
    heads = [i for i, answer in enumerate(answers) if answer]
    rest = [i for i, answer in enumerate(answers) if not answer]
    docs: dict[int, Doc] = dict(zip(rest, analyse_many([texts[i] for i in rest]), strict=True))
    docs |= dict(zip(heads, analyse_openings([texts[i] for i in heads], sentences), strict=True))
    return [docs[i] for i in range(len(texts))]
